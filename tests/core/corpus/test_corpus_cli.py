"""The corpus command line: refused files, rules, metadata, parallel runs and
the corpus lines of ``--format summary`` and ``compare``."""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings

from chunker_py import ChunkerError, Settings, analyse, to_jsonl
from chunker_py.config.links import settings_to_fragment
from chunker_py.io import cli as cli_module
from chunker_py.io import fork_pool
from chunker_py.io.cli import execute, main
from chunker_py.io.corpus import Done, Output, Task, cut, cut_corpus, cut_encoded
from chunker_py.io.pool import LocalPool
from chunker_py.tokenizers import tiktoken_installed
from tests.core.conftest import settings_strategy

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.subprocess

GUIDE = "---\ntitle: Guide\nowner: docs\nsize: large\n---\n# Guide\n\nRead this first. Then that.\n"
DOCS = {
    "readme.md": "# Readme\n\nInstall it. Run it.\n\n## Use\n\nCall it with a file.\n",
    "guide/intro.md": GUIDE,
    "guide/data.txt": "alpha beta gamma delta epsilon zeta eta theta iota kappa\n" * 3,
    "notes/data.txt": "one two three four five six seven eight nine ten\n",
    "notes/bad.txt": b"caf\xe9 au lait".decode("latin-1"),  # written as bytes below
}


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    root = tmp_path / "docs"
    for relative, text in DOCS.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("latin-1") if relative == "notes/bad.txt" else text.encode()
        path.write_bytes(data)
    return root


def run(*argv: str) -> tuple[int, str, list[str]]:
    """The command line in this process: status, stdout, stderr messages."""
    out: list[str] = []
    messages: list[str] = []
    status = execute(list(argv), out.append, messages.append)
    return status, "".join(out), messages


def records(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_a_refused_file_is_reported_and_the_others_are_complete(docs: Path) -> None:
    status, out, messages = run(str(docs), "--size", "40", "--overlap", "0")
    assert status == 1
    assert len(messages) == 1 and "notes/bad.txt is not a UTF-8 text file" in messages[0]
    by_source: dict[str, list[dict[str, Any]]] = {}
    for rec in records(out):
        by_source.setdefault(rec["source"], []).append(rec)
    assert list(by_source) == ["guide/data.txt", "guide/intro.md", "notes/data.txt", "readme.md"]
    for name, recs in by_source.items():  # each file whole: its records equal a lone run's
        text = DOCS[name]
        expected = to_jsonl(
            analyse(text, Settings(chunk_size=40, chunk_overlap=0, source_name=name))
        )
        assert "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                       for r in recs) == expected  # fmt: skip


def test_a_file_over_the_chunk_limit_gives_no_records_at_all(tmp_path: Path) -> None:
    """Never a partial stream: the file's records are written only when all are cut."""
    (tmp_path / "big.txt").write_text("x" * 20_000)
    (tmp_path / "small.txt").write_text("small text")
    status, out, messages = run(str(tmp_path), "--size", "9", "--overlap", "0")
    assert status == 1 and "2,000" in messages[0]
    assert {r["source"] for r in records(out)} == {"small.txt"}


def test_bad_settings_stop_the_run_before_anything_is_written(docs: Path) -> None:
    with pytest.raises(ChunkerError, match="Requested overlap"):
        run(str(docs), "--size", "10", "--overlap", "10")
    with pytest.raises(ChunkerError, match="--jobs"):
        run(str(docs), "--jobs", "0")
    with pytest.raises(ChunkerError, match="KEY=VALUE"):
        run(str(docs), "--meta", "no-equals-sign")
    with pytest.raises(
        ChunkerError, match=r"No file to read: no file in the folders matches \*\.rst"
    ):
        run(str(docs), "--include", "*.rst")


def test_record_ids_are_unique_and_stable(docs: Path) -> None:
    first = run(str(docs), "--size", "20", "--overlap", "5")[1]
    again = run(str(docs), "--size", "20", "--overlap", "5", "--jobs", "1")[1]
    ids = [r["id"] for r in records(first)]
    assert first == again and len(ids) == len(set(ids))
    assert "guide/intro.md#0" in ids


def test_jobs_2_equals_jobs_1_byte_for_byte(docs: Path) -> None:
    for fmt in ("jsonl", "summary", "compare"):
        one = run(str(docs), "--jobs", "1", "--format", fmt, "--file-meta")
        two = run(str(docs), "--jobs", "2", "--format", fmt, "--file-meta")
        assert one == two and one[0] == 1 and one[1]


# ------------------------------------------------------------------ rules


RULES = """
[[rule]]
glob = "readme.md"
mode = "markdown"
chunk_size = 600

[[rule]]
glob = "guide/*.txt"
link = "{link}"
chunk_overlap = 7   # the rule's key wins over its link

[[rule]]
glob = "*.txt"            # notes/data.txt, but not guide/data.txt: the first match wins
mode = "fixed"
chunk_size = 25
chunk_overlap = 0
"""


def test_rules_first_match_wins_and_the_command_line_covers_the_rest(
    docs: Path, tmp_path: Path
) -> None:
    link = settings_to_fragment(Settings(chunk_size=30, chunk_overlap=3, edges="preserve"))
    rules = tmp_path / "rules.toml"
    rules.write_text(RULES.format(link=link))
    status, out, _ = run(str(docs), "--rules", str(rules), "--mode", "sentence", "--size", "99")
    assert status == 1
    used = {r["source"]: r["settings"] for r in records(out)}
    assert used["readme.md"] == Settings(mode="markdown", chunk_size=600).record_settings()
    assert (
        used["guide/data.txt"]
        == Settings(chunk_size=30, chunk_overlap=7, edges="preserve").record_settings()
    )
    assert (
        used["notes/data.txt"]
        == Settings(mode="fixed", chunk_size=25, chunk_overlap=0).record_settings()
    )
    assert used["guide/intro.md"] == Settings(mode="sentence", chunk_size=99).record_settings()
    # and each file is cut with them
    notes = [r["text"] for r in records(out) if r["source"] == "notes/data.txt"]
    expected = analyse(
        DOCS["notes/data.txt"], Settings(mode="fixed", chunk_size=25, chunk_overlap=0)
    )
    assert notes == [c.text for c in expected.chunks]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("[[rule]]\nmode = 'fixed'\n", "needs a glob"),
        ("[[rule]]\nglob = '*'\nsize = 10\n", "unknown key 'size'"),
        ("[[rule]]\nglob = '*'\nchunk_size = 0\n", "Rule 1 of"),
        ("[[rule]]\nglob = '*'\nlink = '#size=0'\n", "Rule 1 of"),
        ("[[rule]]\nglob = '*'\nsource_name = 'x'\n", "unknown key 'source_name'"),
        ("[rules]\nglob = '*'\n", "[[rule]]"),
        ("glob = ", "not valid TOML"),
    ],
)
def test_a_bad_rules_file_is_a_settings_error(
    docs: Path, tmp_path: Path, rules: str, message: str
) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(rules)
    with pytest.raises(ChunkerError, match=message.replace("[", r"\[")):
        run(str(docs), "--rules", str(path))


# ------------------------------------------------------------------ metadata


def test_metadata_the_document_wins_on_a_collision(docs: Path) -> None:
    status, out, _ = run(
        str(docs / "guide"),
        "--meta", "title=Run title",
        "--meta", "team=a",
        "--meta", "team=b",  # repeated: the last
        "--meta", "size=run",
        "--meta", "path=run",
    )  # fmt: skip
    assert status == 0
    by_source = {r["source"]: r["metadata"] for r in records(out)}
    intro = docs / "guide" / "intro.md"
    assert by_source["intro.md"] == {
        "title": "Guide",  # front matter over --meta
        "team": "b",
        "size": len(GUIDE.encode()),  # the file's size over front matter and --meta
        "path": str(intro),
        "owner": "docs",
    }
    assert by_source["data.txt"]["title"] == "Run title"  # no front matter read from .txt
    first = records(out)[0]
    assert list(first)[-3:] == ["metadata", "source", "settings"]


def test_no_metadata_object_without_the_options(docs: Path) -> None:
    out = run(str(docs / "readme.md"))[1]
    assert out == to_jsonl(analyse(DOCS["readme.md"], Settings()))
    assert all("metadata" not in r for r in records(run(str(docs))[1]))
    with_file_meta = records(run(str(docs / "readme.md"), "--file-meta")[1])
    assert with_file_meta[0]["metadata"] == {
        "path": str(docs / "readme.md"),
        "size": len(DOCS["readme.md"].encode()),
    }


# ------------------------------------------------------------------ corpus lines


def test_summary_prints_a_line_per_file_and_a_corpus_line(docs: Path) -> None:
    status, out, _ = run(str(docs), "--format", "summary", "--size", "30", "--overlap", "0")
    *files, corpus = records(out)
    assert status == 1 and [f["source"] for f in files] == [
        "guide/data.txt", "guide/intro.md", "notes/data.txt", "readme.md"
    ]  # fmt: skip
    chunks = sum(f["chunks"] for f in files)
    ends = sum(f["damage"]["ends_mid_sentence"] for f in files)
    assert corpus["corpus"] is True and (corpus["files"], corpus["skipped"]) == (4, 1)
    assert corpus["chunks"] == chunks
    assert corpus["max_tokens"] == max(f["tokens"]["largest"] for f in files)
    assert corpus["ends_mid_sentence_pct"] == round(100 * ends / chunks, 1)
    assert corpus["damage"]["mid_word_edges"] == sum(f["damage"]["mid_word_edges"] for f in files)
    assert corpus["bytes"] == sum(len(DOCS[f["source"]].encode()) for f in files)


def test_compare_prints_each_files_rows_then_one_corpus_line_per_splitter(docs: Path) -> None:
    out = run(str(docs), "--format", "compare", "--size", "30", "--overlap", "0")[1]
    lines = records(out)
    rows = [line for line in lines if not line.get("corpus")]
    corpus = [line for line in lines if line.get("corpus")]
    assert lines[-len(corpus) :] == corpus and len(rows) == 4 * len(corpus) == 32
    for line in corpus:
        mine = [r for r in rows if r["key"] == line["key"]]
        assert line["chunks"] == sum(r["chunks"] for r in mine)
        assert line["code_blocks_cut"] == sum(r["code_blocks_cut"] for r in mine)
        assert line["max_tokens"] == max(r["max_tokens"] for r in mine)
        ends = sum(r["ends_mid_sentence"] for r in mine)
        assert line["ends_mid_sentence_pct"] == round(100 * ends / line["chunks"], 1)


def test_no_limits_lifts_the_code_point_limit_for_compare(tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text("A sentence of prose. " * 1_500)  # 31,500 code points
    status, _out, messages = run(str(big), "--format", "compare")
    assert status == 1 and "20,000" in messages[0]
    status, out, messages = run(str(big), "--format", "compare", "--no-limits")
    assert status == 0 and messages == [] and len(records(out)) == 8
    assert all(r["error"] is None for r in records(out))


# ------------------------------------------------------------------ the executor


class CountingExecutor(Executor):
    """Runs each task at once, recording how many were submitted and not yet collected."""

    def __init__(self) -> None:
        self.pending: list[Future[Any]] = []
        self.most = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        self.pending = [f for f in self.pending if not getattr(f, "collected", False)]
        self.pending.append(future)
        self.most = max(self.most, len(self.pending))
        return future


def test_cut_corpus_keeps_order_on_any_executor_and_stays_bounded(docs: Path) -> None:
    tasks = [
        Task(str(docs / name), Settings(chunk_size=20, chunk_overlap=0, source_name=name))
        for name in sorted(DOCS)
    ] * 5
    output = Output("jsonl")
    alone = list(cut_corpus(tasks, output))
    with ThreadPoolExecutor(3) as pool:
        assert list(cut_corpus(tasks, output, pool, ahead=2)) == alone
    counting = CountingExecutor()
    seen: list[Done] = []
    for done in cut_corpus(tasks, output, counting, ahead=2):
        seen.append(done)
        for f in counting.pending:
            if f.result() is done:
                f.collected = True  # type: ignore[attr-defined]
    assert seen == alone and counting.most <= 4
    assert [d.name for d in alone][:5] == sorted(DOCS)
    assert alone[2].error is not None and alone[2].text == ""  # notes/bad.txt


def dies_on_guide(task: Task, output: Output) -> Done:
    """``cut``, except that the process cutting a file under guide/ is killed (as the
    kernel's out-of-memory killer would)."""
    if "/guide/" in task.path:
        os.kill(os.getpid(), signal.SIGKILL)
    return cut(task, output)


def test_a_local_worker_that_dies_costs_its_file_and_no_other(
    docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = [
        Task(str(docs / name), Settings(chunk_size=20, chunk_overlap=0, source_name=name))
        for name in sorted(DOCS)
    ] * 2
    output = Output("jsonl")
    alone = list(cut_corpus(tasks, output))
    with LocalPool(2) as pool:
        got = list(cut_corpus(tasks, output, pool, ahead=3, cutter=dies_on_guide))
    assert [d.name for d in got] == [d.name for d in alone]
    for mine, lone in zip(got, alone, strict=True):
        if mine.name.startswith("guide/"):
            assert mine.text == "" and mine.error is not None
            assert mine.error.endswith(f"{mine.name} was not cut: the process cutting it died.")
        else:
            assert mine == lone
    # the command line: one line per dead file, the others whole, status 1
    monkeypatch.setattr(cli_module, "cut", dies_on_guide)  # the cutter of a run here
    # on Linux --jobs 2 is cut_beside: this process would cut small files itself
    monkeypatch.setattr(fork_pool, "PARENT_MAX_BYTES", -1)
    status, out, messages = run(str(docs), "--size", "20", "--overlap", "0", "--jobs", "2")
    assert status == 1
    assert sorted(m for m in messages if "died" in m) == [
        f"The file {docs / n} was not cut: the process cutting it died. Skipped."
        for n in ("guide/data.txt", "guide/intro.md")
    ]
    assert {r["source"] for r in records(out)} == {"readme.md", "notes/data.txt"}


def test_the_per_file_function_reads_bytes_given_instead_of_a_path() -> None:
    task = Task(
        "", Settings(chunk_size=10, chunk_overlap=0), "Standard input", None, b"a b c d e f"
    )
    done = cut(task, Output())
    assert done.error is None and done.size == 11
    assert done.text == to_jsonl(analyse("a b c d e f", Settings(chunk_size=10, chunk_overlap=0)))


# ------------------------------------------------------------------ real processes


def cli(*args: str, stderr: int = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        stdout=subprocess.PIPE,
        stderr=stderr,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def test_files_from_a_list_and_exit_1_from_the_process(docs: Path, tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(f"{docs / 'readme.md'}\n\n{docs / 'notes'}\n")
    done = cli("--files-from", str(listing), "--format", "summary")
    assert done.returncode == 1 and b"notes/bad.txt" in done.stderr
    lines = records(done.stdout.decode())
    assert [line.get("source") for line in lines] == [str(docs / "readme.md"), "data.txt", None]


def test_the_process_writes_jobs_2_as_jobs_1_byte_for_byte(docs: Path) -> None:
    # --jobs 2's workers hand the parent UTF-8 bytes (cut_encoded), which it writes as
    # they are; a file with non-ASCII text and a line separator, written either way
    (docs / "guide" / "accents.md").write_text("Café au lait\u2028 😀 déjà vu. " * 40)
    one = cli(str(docs), "--jobs", "1", "--file-meta")
    two = cli(str(docs), "--jobs", "2", "--file-meta")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and "Café".encode() in one.stdout
    assert b"\\u2028" in one.stdout and "\u2028".encode() not in one.stdout


def test_cut_encoded_hands_back_the_output_of_cut_in_utf8(docs: Path) -> None:
    task = Task("guide/intro.md", Settings(source_name="guide/intro.md"), root=str(docs))
    done, encoded = cut(task, Output()), cut_encoded(task, Output())
    assert encoded.text == "" and encoded.utf8() == done.text.encode() == done.utf8()
    assert replace(encoded, encoded=None) == replace(done, text="")


def on_a_terminal(*args: str) -> tuple[int, bytes]:
    """Status and what reached stderr when it is a terminal (120 columns)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "chunker_py", *args],
        stdout=subprocess.DEVNULL,
        stderr=follower,
        cwd=ROOT,
    )
    os.close(follower)
    err = b""
    try:
        while chunk := os.read(leader, 65536):
            err += chunk
    except OSError:
        pass  # EIO: the process closed the terminal
    finally:
        os.close(leader)
    return process.wait(timeout=120), err


def test_the_progress_bar_shows_on_a_terminal_only(docs: Path) -> None:
    piped = cli(str(docs))
    assert piped.returncode == 1 and b"bad.txt" in piped.stderr and b"files" not in piped.stderr
    status, err = on_a_terminal(str(docs))
    assert status == 1 and b"5/5 files" in err and b"B/s" in err
    assert b"notes/bad.txt is not a UTF-8 text file" in err  # the message is not lost
    status, err = on_a_terminal(str(docs), "--quiet")
    assert status == 1 and b"files" not in err and b"notes/bad.txt" in err


def test_results_come_in_task_order_when_later_files_finish_first(docs: Path) -> None:
    """The first file finishes last (it waits for the third): the order is still the tasks'."""
    third_done = threading.Event()

    def cutter(task: Task, output: Output) -> Done:
        if task.settings.source_name == "first":
            assert third_done.wait(timeout=60)
        done = cut(task, output)
        if task.settings.source_name == "third":
            third_done.set()
        return done

    names = ["first", "second", "third"]
    tasks = [Task(str(docs / "readme.md"), Settings(source_name=n)) for n in names]
    with ThreadPoolExecutor(3) as pool:
        results = list(cut_corpus(tasks, Output(), pool, ahead=3, cutter=cutter))
    assert [d.name for d in results] == names


class ClosedPipe:
    """A stdout whose reader has gone: every write fails as on a closed pipe."""

    def __init__(self, file: Any) -> None:
        self.file = file
        self.buffer = self

    def write(self, data: bytes) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return int(self.file.fileno())


def test_a_reader_that_stops_early_gets_no_traceback(
    docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """(``| head``: this sandbox's pipes do not break, so the closed pipe is planted.)"""
    with open(tmp_path / "stdout", "wb") as file:
        monkeypatch.setattr(sys, "stdout", ClosedPipe(file))
        assert main([str(docs / "guide"), "--quiet"]) == 1
    assert capsys.readouterr().err == ""


def test_the_corpus_line_checks_every_files_questions_as_one_set(
    docs: Path, tmp_path: Path
) -> None:
    def q(text: str, content: str, corpus: str) -> str:
        start = DOCS[corpus].index(content)
        ref = {"content": content, "start_index": start, "end_index": start + len(content)}
        return json.dumps({"question": text, "references": [ref], "corpus_id": corpus}) + "\n"

    questions = tmp_path / "q.jsonl"
    questions.write_text(
        q("install?", "Install it. Run it.", "readme.md")
        + q("first?", "Read this first.", "guide/intro.md")
        + q("kappa?", "iota kappa", "guide/data.txt")
    )
    args = (str(docs), "--questions", str(questions), "--size", "30", "--overlap", "0")
    *files, corpus = records(run(*args, "--format", "summary")[1])
    per_file = [f["evidence"] for f in files]
    assert [e["questions"] for e in per_file] == [1, 1, 0, 1]  # notes/data.txt: none asked
    assert corpus["evidence"]["questions"] == 3
    assert corpus["evidence"]["kept_whole"] == sum(e["kept_whole"] for e in per_file)
    assert corpus["evidence"]["excerpts"] == 3
    lines = records(run(*args, "--format", "compare")[1])
    for line in (x for x in lines if x.get("corpus")):
        mine = [x["evidence"] for x in lines if not x.get("corpus") and x["key"] == line["key"]]
        assert line["evidence"]["one_chunk"] == sum(e["one_chunk"] for e in mine)


@given(settings_strategy())
@hypothesis_settings(max_examples=50)
def test_settings_travel_to_worker_processes_by_value(settings: Settings) -> None:
    back = pickle.loads(pickle.dumps(settings))
    assert back == settings and back.record_settings() == settings.record_settings()


# Modules only some runs need: a process pool off Linux, a --jobs run's pipes, the corpus
# compare line's median, --rules' TOML, CSV output. Imported by every run, they were about
# 14 ms of CPU before the first file, the serial part that bounds --jobs 2's speed-up.
ON_FIRST_USE = ("concurrent.futures", "multiprocessing", "statistics", "tomllib", "csv")
IMPORTED = """
import sys
from chunker_py.io import cli
status = cli.main(sys.argv[1:])
sys.stdout.flush()
print("\\n" + " ".join(m for m in {modules!r} if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize(
    ("argv", "needed"),
    [
        (("--jobs", "1"), ()),
        (("--jobs", "1", "--format", "csv"), ("csv",)),
        (("--jobs", "1", "--format", "compare"), ("statistics",)),
        (("--jobs", "2"), ("multiprocessing",) if sys.platform.startswith("linux") else ()),
    ],
)
def test_a_run_imports_only_what_it_needs(
    tmp_path: Path, argv: tuple[str, ...], needed: tuple[str, ...]
) -> None:
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text("One sentence. Another one.\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", IMPORTED.format(modules=ON_FIRST_USE), str(tmp_path), *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=True,
    )
    assert done.stdout.count("\n") >= 2  # the files were cut
    imported = done.stderr.splitlines()[-1].split()
    if tiktoken_installed():  # CPython's default counts: tiktoken's package imports it
        needed = (*needed, "concurrent.futures")
    assert sorted(imported) == sorted(needed)

"""``--jobs N`` on Linux (corpus speed): ``cut_beside`` cuts files in this process
beside N - 1 forked workers and must give exactly what one process cutting the files one
after another gives (``cut_corpus`` without an executor), in the same order."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from chunker_py import ChunkerError, Settings
from chunker_py.io import fork_pool
from chunker_py.io.corpus import Done, Output, Task, cut, cut_corpus, cut_encoded
from chunker_py.io.fork_pool import cut_beside

pytestmark = [
    pytest.mark.cpython_only,
    pytest.mark.subprocess,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked"),
]

WORDS = ("alpha", "beta", "gamma.", "délta", "😀", "\u2028", "## Head\n\n", "\n\n", "x" * 30)


@contextlib.contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail, rather than hang, when the block takes more than ``seconds``."""

    def stop(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(autouse=True)
def in_time() -> Iterator[None]:
    """A result that never comes (a file lost with its worker, an index never handed
    out) would leave a run waiting for ever: each test fails after 120 s instead."""
    with within(120):
        yield


# a file: its text (None: never written, so unreadable), or raw bytes (not UTF-8)
documents = st.lists(
    st.one_of(
        st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join),
        st.just(None),
        st.just(b"caf\xe9"),
    ),
    min_size=2,
    max_size=12,
)


def write_files(folder: Path, docs: list[str | bytes | None]) -> list[Task]:
    tasks = []
    for n, doc in enumerate(docs):
        name = f"d{n:02d}.md"
        if isinstance(doc, bytes):
            (folder / name).write_bytes(doc)
        elif doc is not None:
            (folder / name).write_text(doc, encoding="utf-8")
        settings = Settings(chunk_size=40, chunk_overlap=5, source_name=name)
        tasks.append(Task(name, settings, f"The file {name}", {"run": "r"}, root=str(folder)))
    return tasks


@hypothesis_settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    docs=documents,
    jobs=st.integers(2, 3),
    ahead=st.integers(1, 7),
    parent_max=st.sampled_from([-1, 60, 10**9]),  # the parent cuts none, some, all
    fmt=st.sampled_from(["jsonl", "summary", "compare"]),
    encoded=st.booleans(),
)
def test_cut_beside_equals_one_process_in_order(
    docs: list[str | bytes | None],
    jobs: int,
    ahead: int,
    parent_max: int,
    fmt: str,
    encoded: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fork_pool, "PARENT_MAX_BYTES", parent_max)
    cutter = cut_encoded if encoded else cut
    with tempfile.TemporaryDirectory() as tmp:
        tasks = write_files(Path(tmp), docs)
        output = Output(fmt)
        alone = list(cut_corpus(tasks, output, cutter=cutter))
        with within(30):  # each example its own alarm (Hypothesis runs more after one)
            got = list(cut_beside(tasks, output, jobs, ahead=ahead, cutter=cutter))
    assert got == alone  # text or bytes as the cutter gave them, figures, errors, order


def by_pid(task: Task, output: Output) -> Done:
    """``cut``, its ``Done`` named after the process that cut it."""
    return Done(str(os.getpid()), cut(task, output).text, 0)


def test_this_process_cuts_small_files_and_workers_the_big_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs: list[str | bytes | None] = ["small. " * 3, "big. " * 60] * 8
    tasks = write_files(tmp_path, docs)
    monkeypatch.setattr(fork_pool, "PARENT_MAX_BYTES", 100)
    got = list(cut_beside(tasks, Output(), 2, ahead=4, cutter=by_pid))
    me = str(os.getpid())
    assert [d.text for d in got] == [cut(t, Output()).text for t in tasks]
    assert all(d.name != me for d, doc in zip(got, docs, strict=True) if len(doc or "") > 100)
    assert me in {d.name for d in got}  # this process cut some of the small ones
    assert len({d.name for d in got} - {me}) == 1  # and one worker the rest


def slowly_by_pid(task: Task, output: Output) -> Done:
    """A stand-in cutter that takes a while a file and names the process that took it."""
    time.sleep(0.05)
    return Done(str(os.getpid()), "", 0)


def test_both_processes_cut_files_above_the_page_s_import_limit(tmp_path: Path) -> None:
    """A corpus of files above the page's 100,000-byte limit (with --no-limits) is cut by
    this process and the worker alike: when the parent left every such file to the worker,
    --jobs 2 ran no faster than --jobs 1 on the benchmark's 40 files of 440 kB."""
    assert fork_pool.PARENT_MAX_BYTES >= 1 << 20
    docs: list[str | bytes | None] = ["A sentence of prose. " * 8_000] * 12  # 168 kB each
    tasks = write_files(tmp_path, docs)
    with within(60):
        got = list(cut_beside(tasks, Output(), 2, ahead=4, cutter=slowly_by_pid))
    assert len(got) == len(tasks)
    me = str(os.getpid())
    assert me in {d.name for d in got}  # this process cut some of them
    assert len({d.name for d in got} - {me}) == 1  # and one worker the others


def dies_on_odd(task: Task, output: Output) -> Done:
    """``cut``, except that the process cutting d01, d03... is killed (as the kernel's
    out-of-memory killer would)."""
    if int(task.path[1:3]) % 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return cut(task, output)


def terminated_on_odd(task: Task, output: Output) -> Done:
    """``cut``, except that the process cutting d01, d03... gets SIGTERM (the parent's
    handler, which stops the whole run, must not be a worker's)."""
    if int(task.path[1:3]) % 2:
        os.kill(os.getpid(), signal.SIGTERM)
        signal.pause()
    return cut(task, output)


@pytest.mark.parametrize("cutter", [dies_on_odd, terminated_on_odd])
def test_a_dead_worker_costs_its_files_and_a_new_one_takes_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cutter: Any
) -> None:
    tasks = write_files(tmp_path, [f"file {n}. " * 10 for n in range(8)])
    monkeypatch.setattr(fork_pool, "PARENT_MAX_BYTES", -1)  # workers cut every file
    got = list(cut_beside(tasks, Output(), 2, ahead=3, cutter=cutter))
    assert [d.name for d in got] == [t.settings.source_name for t in tasks]
    for n, (done, task) in enumerate(zip(got, tasks, strict=True)):
        if n % 2:
            assert done.text == "" and done.error is not None
            assert done.error == f"The file {task.path} was not cut: the process cutting it died."
        else:
            assert done == cut(task, Output())


def fails_on_d01(task: Task, output: Output) -> Done:
    if task.path == "d01.md":
        raise ChunkerError("no token data", field="tokenizer")
    return cut(task, output)


def test_an_error_in_a_worker_stops_the_run_and_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = write_files(tmp_path, [f"file {n}. " * 10 for n in range(6)])
    monkeypatch.setattr(fork_pool, "PARENT_MAX_BYTES", -1)
    folders = recorded(monkeypatch, tempfile, "mkdtemp")
    pids = recorded(monkeypatch, os, "fork")
    with pytest.raises(ChunkerError, match="no token data"):
        list(cut_beside(tasks, Output(), 3, ahead=4, cutter=fails_on_d01))
    assert len(folders) == 1 and not os.path.exists(folders[0])
    assert len(pids) == 2 and all(reaped(pid) for pid in pids)


def recorded(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[Any]:
    """What ``module.name()`` returns in this process, call by call, from now on."""
    seen: list[Any] = []
    real = getattr(module, name)

    def record(*args: Any, **kwargs: Any) -> Any:
        value = real(*args, **kwargs)
        if value != 0:  # 0: os.fork in the child
            seen.append(value)
        return value

    monkeypatch.setattr(module, name, record)
    return seen


def reaped(pid: int) -> bool:
    """Whether the child ``pid`` has ended and been waited for."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_a_run_stopped_early_stops_its_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = write_files(tmp_path, [f"file {n}. " * 10 for n in range(10)])
    pids = recorded(monkeypatch, os, "fork")
    results = cut_beside(tasks, Output(), 3, ahead=4)
    assert next(results) == cut(tasks[0], Output())
    results.close()  # as when the reader of the output went away
    assert len(pids) == 2 and all(reaped(pid) for pid in pids)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="cut_beside on Linux")
def test_the_command_line_uses_cut_beside_for_jobs_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chunker_py.io import cli

    tasks = write_files(tmp_path, ["one. " * 20, "two. " * 20])
    seen: list[int] = []
    real = fork_pool.cut_beside

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(args[2])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "cut_beside", spy)
    out: list[str] = []
    assert (
        cli.execute(
            [str(tmp_path), "--jobs", "2", "--size", "40", "--overlap", "5"], out.append, print
        )
        == 0
    )
    assert seen == [2] and "".join(out).count("\n") >= len(tasks)


# A --jobs 2 command line whose every file takes 50 ms more (still running when signalled),
# under a driver that adopts orphans (PR_SET_CHILD_SUBREAPER): a worker left behind by its
# parent, running or dead and never waited for, stays visible in /proc.
SLOW_CLI = """
import sys, time
from chunker_py.io import cli
real = cli.cut_encoded
def slow(task, output):
    time.sleep(0.05)
    return real(task, output)
cli.cut_encoded = slow
sys.argv[0] = "chunker_py"
cli.console()
"""
DRIVER = """
import ctypes, json, os, signal, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
signum, folder, temp, slow = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# a job started in the background of a shell without job control (CI's `.ci/run &`)
# ignores SIGINT, and so would the CLI (an ignored signal stays ignored across exec): a
# handled one is reset to its default there, so the CLI installs its own as usual
signal.signal(signal.SIGINT, signal.default_int_handler)
cli = subprocess.Popen(
    [sys.executable, "-c", slow, folder, "--jobs", "2", "--quiet", "--size", "200"],
    stdout=subprocess.DEVNULL, env={**os.environ, "TMPDIR": temp},
)
def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return found
workers, until = [], time.monotonic() + 60
while not (workers and os.listdir(temp)) and cli.poll() is None and time.monotonic() < until:
    time.sleep(0.01)
    workers = children(cli.pid)
time.sleep(0.2)  # some files cut and written
running = cli.poll() is None
cli.send_signal(signum)
status = cli.wait()
time.sleep(0.5)  # a worker orphaned by its parent has ended by now (its pipes closed)
left = [pid for pid in workers if os.path.exists(f"/proc/{pid}")]
print(json.dumps({"running": running, "status": status, "workers": workers,
                  "left": left, "folders": os.listdir(temp)}))
"""


def signalled_mid_run(tmp_path: Path, signum: int) -> dict[str, Any]:
    """Run ``DRIVER``: a ``--jobs 2`` command line on 40 files in ``tmp_path / "corpus"``
    (its temporary folder ``tmp_path / "temp"``) sent ``signum`` mid-run; what it saw."""
    import subprocess

    folder, temp = tmp_path / "corpus", tmp_path / "temp"
    folder.mkdir()
    temp.mkdir()
    for n in range(40):
        (folder / f"d{n:02d}.md").write_text(f"Sentence {n} of a file. " * 200, encoding="utf-8")
    root = Path(fork_pool.__file__).parents[2]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(signum), str(folder), str(temp), SLOW_CLI],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=100,
    )
    seen: dict[str, Any] = json.loads(done.stdout)
    return seen


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="cut_beside on Linux")
@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_parent_stopped_by_a_signal_reaps_its_workers_and_removes_its_folder(
    tmp_path: Path, signum: int, status: int
) -> None:
    seen = signalled_mid_run(tmp_path, signum)
    assert seen["running"] and len(seen["workers"]) == 1  # signalled mid-run, one worker
    assert seen["status"] == status  # what main returns for the signal, not killed by it
    assert seen["folders"] == []  # the worker outputs' folder is gone
    assert seen["left"] == []  # the worker ended and was waited for by its parent


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="cut_beside on Linux")
def test_the_folder_a_parent_killed_by_sigkill_leaves_is_removed_by_the_next_run(
    tmp_path: Path,
) -> None:
    """SIGKILL reaches no handler, so the killed parent's folder of worker outputs stays
    behind; the next ``--jobs`` run on the machine removes it (its parent is gone) and its
    own. Failed before the sweep: the first run's folder stayed after the second run."""
    import subprocess

    seen = signalled_mid_run(tmp_path, signal.SIGKILL)
    folder, temp = tmp_path / "corpus", tmp_path / "temp"
    root = Path(fork_pool.__file__).parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    assert seen["running"] and seen["status"] == -signal.SIGKILL
    assert len(seen["folders"]) == 1  # what the killed parent left
    until = time.monotonic() + 30  # its orphaned worker ends after the file it holds
    while any(os.path.exists(f"/proc/{pid}") for pid in seen["workers"]):
        assert time.monotonic() < until, "the orphaned worker never ended"
        time.sleep(0.05)
    (folder / "extra.md").write_text("One more file. " * 50, encoding="utf-8")
    again = subprocess.run(
        [sys.executable, "-m", "chunker_py", str(folder), "--jobs", "2", "--quiet"],
        capture_output=True, cwd=root, env={**env, "TMPDIR": str(temp)}, timeout=100,
    )  # fmt: skip
    assert again.returncode == 0 and again.stdout.count(b"\n") > 40
    assert os.listdir(temp) == []


# A fresh interpreter (nothing imported by other tests) runs cut_beside on real documents
# with a cutter that, in a worker, notes the modules its first file made it import.
FIRST_IMPORTS = """
import json, os, sys
from chunker_py import Settings
from dataclasses import replace
from chunker_py.io import fork_pool
from chunker_py.io.corpus import Output, Task, cut_encoded
from chunker_py.io.fork_pool import cut_beside
root, fmt, rules = sys.argv[1], sys.argv[2], sys.argv[3] == "rules"
parent = os.getpid()
fork_pool.PARENT_MAX_BYTES = -1  # every file goes to the worker
first = []
def noting(task, output):
    before = set(sys.modules)
    done = cut_encoded(task, output)
    if os.getpid() != parent and not first:
        first.append(sorted(set(sys.modules) - before))
        return replace(done, name=json.dumps(first[0]))
    return done
names = sorted(os.listdir(root))
tasks = []
for n, name in enumerate(names):
    settings = Settings(chunk_size=300, chunk_overlap=50, source_name=name)
    if rules and n % 2:  # a second splitter, as a rules file gives
        settings = settings.replace(mode="sentence")
    tasks.append(Task(name, settings, metadata={}, root=root))
done = list(cut_beside(tasks, Output(fmt, lifted=True), 2, ahead=2, cutter=noting))
print(next(d.name for d in done if d.name.startswith("[")))
"""


@pytest.mark.parametrize(("fmt", "rules"), [("jsonl", ""), ("summary", "rules"), ("csv", "")])
def test_a_worker_inherits_what_a_first_file_loads(tmp_path: Path, fmt: str, rules: str) -> None:
    """Before it forks, ``cut_beside`` cuts a sample with each splitter of the run, so
    its worker does not import markdown-it, the grapheme tables ... again on its first
    file (~45 ms more CPU for ``--jobs 2`` than ``--jobs 1``). Failed before
    the warm-up: the worker's first file imported 83 modules (markdown_it, the token
    tables' modules ...)."""
    import subprocess

    root = Path(__file__).resolve().parents[3]
    for source in ("README.md", "CHANGELOG.md", "static/sample.txt"):
        (tmp_path / Path(source).name).write_bytes((root / source).read_bytes())
    done = subprocess.run(
        [sys.executable, "-c", FIRST_IMPORTS, str(tmp_path), fmt, rules or "-"],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert json.loads(done.stdout) == []


def test_the_sweep_removes_only_folders_of_this_machine_s_ended_parents(tmp_path: Path) -> None:
    """A folder of a live process, of another machine sharing the folder, or a plain
    file stays; the folder of an ended process of this machine goes."""
    import subprocess

    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)  # fmt: skip
    dead, live = int(ended.stdout), os.getpid()
    prefix = fork_pool._folder_prefix
    names = {
        "dead": prefix(dead) + "a",
        "live": prefix(live) + "b",
        "other machine": prefix(dead).replace("chunker_py-", "chunker_py-elsewhere", 1) + "c",
        "file": prefix(dead) + "d",
    }
    for key, name in names.items():
        if key == "file":
            (tmp_path / name).write_text("not a run's folder")
        else:
            (tmp_path / name).mkdir()
            (tmp_path / name / "0").write_bytes(b"output")
    fork_pool._sweep_orphans(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == sorted(
        names[key] for key in ("live", "other machine", "file")
    )

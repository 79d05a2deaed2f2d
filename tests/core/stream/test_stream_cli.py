"""``--stream`` on the command line: the same bytes as the in-memory run for
files within one buffer, absolute offsets beyond it, refusals before anything is written."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from chunker_py import SettingError
from chunker_py.io.cli import execute

pytestmark = pytest.mark.cpython_only  # Pyodide: the command line, as tests/core/corpus

PROSE = "Reset password. Keep backup codes 😀.\r\nA line, then\r\n\r\nanother paragraph. " * 30
FILES = {
    "notes.md": "---\ntitle: Notes\n---\n# Notes\n\n" + PROSE,
    "plain.txt": PROSE,
    "deep/lf.txt": PROSE.replace("\r\n", "\n"),
}
RULES = '[[rule]]\nglob = "*.md"\npreset = "markdown"\nchunk_size = 120\n'


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(text.encode())
    (tmp_path / "rules.toml").write_text(RULES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*argv: str) -> tuple[int, str, list[str]]:
    written: list[str] = []
    reported: list[str] = []
    status = execute(list(argv), written.append, reported.append)
    return status, "".join(written), reported


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_streamed_files_within_one_buffer_give_the_in_memory_bytes(corpus: Path, fmt: str) -> None:
    argv = ("notes.md", "plain.txt", "deep", "--rules", "rules.toml", "--size", "90")
    argv += ("--overlap", "15", "--meta", "run=7", "--file-meta", "--quiet", "--format", fmt)
    in_memory = run(*argv, "--jobs", "1", "--no-limits")
    assert in_memory[0] == 0 and in_memory[1]
    assert run(*argv, "--stream") == in_memory


def test_standard_input_streams_like_a_file_but_without_its_size(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same records, except the ``size`` of a stream not read to its end yet."""
    argv = ("-", "--size", "60", "--overlap", "0", "--meta", "k=v", "--quiet")
    outputs = []
    for extra in ((), ("--stream",)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PROSE.encode())))
        status, out, reported = run(*argv, *extra)
        assert (status, reported) == (0, [])
        outputs.append([json.loads(line) for line in out.splitlines()])
    in_memory, streamed = outputs
    assert {r["metadata"]["size"] for r in in_memory} == {len(PROSE.encode())}
    for rec in in_memory:
        del rec["metadata"]["size"]
    assert streamed == in_memory


def test_a_file_over_the_buffer_keeps_absolute_offsets(corpus: Path) -> None:
    status, out, _reported = run(
        "plain.txt", "--stream", "--buffer-size", "64", "--size", "40", "--overlap", "8"
    )
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and records[-1]["end"] > 64 * 10
    for index, rec in enumerate(records):
        assert (
            rec["index"] == index and rec["id"] == f"document#{index}"
        )  # one file: no source name
        assert PROSE[rec["start"] : rec["end"]] == rec["text"]
        before = PROSE[: rec["start"]]
        assert rec["start_utf16"] == len(before.encode("utf-16-le")) // 2
        assert rec["start_line"] == before.count("\n") + 1


def test_a_file_broken_part_way_is_reported_after_its_records(corpus: Path) -> None:
    (corpus / "deep" / "broken.txt").write_bytes(PROSE.encode() + b"\xff tail")
    status, out, reported = run("deep", "--stream", "--buffer-size", "256", "--quiet")
    assert status == 1
    assert reported == [
        f"The file deep/broken.txt is not a UTF-8 text file; save it as UTF-8 text (TXT or "
        f"Markdown) and import it again. (invalid UTF-8 at byte {len(PROSE.encode()):,}) "
        "(its records before that point were written) Skipped."
    ]
    sources = [json.loads(line)["source"] for line in out.splitlines()]
    assert "broken.txt" in sources and sources[-1] == "lf.txt"  # names relative to deep


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--format", "summary"), "--stream writes records (jsonl or csv), not summary"),
        (("--mode", "markdown"), "Markdown structure cannot be streamed"),
        (("--buffer-size", "8"), "Buffer size"),
        (("--dask", "tcp://127.0.0.1:1"), "choose one"),
    ],
)
def test_a_run_that_cannot_stream_is_refused_before_writing(
    corpus: Path, extra: tuple[str, ...], message: str
) -> None:
    written: list[str] = []
    with pytest.raises(SettingError, match=re.escape(message)):
        execute(["plain.txt", "--stream", *extra], written.append, written.append)
    assert written == []


def test_a_rule_giving_markdown_structure_refuses_that_file_only(corpus: Path) -> None:
    (corpus / "rules.toml").write_text('[[rule]]\nglob = "*.md"\nmode = "markdown"\n')
    status, out, reported = run("notes.md", "plain.txt", "--rules", "rules.toml", "--stream")
    assert status == 1 and len(reported) == 1 and "cannot be streamed" in reported[0]
    assert {json.loads(line)["source"] for line in out.splitlines()} == {"plain.txt"}

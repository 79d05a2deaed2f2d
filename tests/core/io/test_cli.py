"""The command line: outputs, link reproduction and exit codes (run as a real process)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chunker_py import Settings, analyse, to_csv, to_jsonl
from chunker_py.config.links import settings_to_fragment

ROOT = Path(__file__).resolve().parents[3]
NOTE = "Reset password. Keep backup codes."
pytestmark = pytest.mark.subprocess


def cli(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "chunker_py", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


@pytest.fixture
def note(tmp_path: Path) -> Path:
    path = tmp_path / "note.txt"
    path.write_bytes(NOTE.encode())
    return path


@pytest.mark.parametrize(
    ("mode", "chunks", "repeated", "omitted", "average"),
    [("recursive", 3, 0, 2, "10.7"), ("fixed", 3, 8, 0, "14.0")],
)
def test_summary_reproduces_the_worked_examples(
    note: Path, mode: str, chunks: int, repeated: int, omitted: int, average: str
) -> None:
    done = cli(str(note), "--mode", mode, "--size", "18", "--overlap", "4", "--format", "summary")
    assert done.returncode == 0 and done.stderr == b""
    summary = json.loads(done.stdout)
    assert (summary["chunks"], summary["repeated"], summary["omitted"]) == (
        chunks,
        repeated,
        omitted,
    )
    assert summary["average_display"] == average
    assert [t["size"] for t in summary["tradeoffs"]] == [9, 18, 27, 36]


def test_jsonl_and_csv_equal_the_library(note: Path) -> None:
    settings = Settings(chunk_size=18, chunk_overlap=4)
    result = analyse(NOTE, settings)
    out = cli(str(note), "--size", "18", "--overlap", "4")
    assert out.stdout.decode() == to_jsonl(result)
    out = cli(str(note), "--size", "18", "--overlap", "4", "--format", "csv")
    assert out.stdout.decode() == to_csv(result)


def test_stdin_and_dash_read_standard_input() -> None:
    a = cli("--size", "18", "--overlap", "4", stdin=NOTE.encode())
    b = cli("-", "--size", "18", "--overlap", "4", stdin=NOTE.encode())
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout != b""


def test_a_link_from_the_page_reproduces_its_settings(note: Path) -> None:
    settings = Settings(
        mode="fixed", chunk_size=18, chunk_overlap=4, edges="preserve", source_name="note <1>"
    )
    out = cli(str(note), "--link", settings_to_fragment(settings))
    assert out.returncode == 0
    assert out.stdout.decode() == to_jsonl(analyse(NOTE, settings))


def test_flags_override_the_link(note: Path) -> None:
    link = settings_to_fragment(Settings(mode="fixed", chunk_size=18, chunk_overlap=4))
    out = cli(str(note), "--link", link, "--size", "20", "--format", "summary")
    summary = json.loads(out.stdout)
    assert summary["settings"]["chunk_size"] == 20 and summary["settings"]["mode"] == "fixed"


@pytest.mark.parametrize(
    "args",
    [
        ("--size", "0"),
        ("--size", "12abc"),
        ("--size", "300", "--overlap", "300"),
        ("--separators", "[]"),
        ("--separators", '["", " "]'),
        ("--source-name", "a\nb"),
        ("--link", "#size=0"),
        ("--mode", "clustering"),
    ],
)
def test_invalid_settings_exit_2_with_nothing_on_stdout(note: Path, args: tuple[str, ...]) -> None:
    out = cli(str(note), *args)
    assert out.returncode == 2 and out.stdout == b"" and out.stderr.strip() != b""


def test_over_limit_input_is_refused_with_exit_1(tmp_path: Path) -> None:
    """A file over the page's limits is refused (status 1: a file was skipped), not a
    settings error; --no-limits lifts the limit."""
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 20_000)
    out = cli(str(big), "--size", "10000", "--overlap", "9999")
    assert out.returncode == 1 and out.stdout == b""
    assert b"10,001 chunks" in out.stderr
    lifted = cli(
        str(big), "--size", "10000", "--overlap", "9999", "--no-limits", "--format", "summary"
    )
    assert lifted.returncode == 0 and json.loads(lifted.stdout)["chunks"] == 10_001


def test_bad_files_are_refused_with_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9")
    out = cli(str(bad))
    assert out.returncode == 1 and out.stdout == b"" and b"not a UTF-8 text file" in out.stderr
    out = cli(str(tmp_path / "missing.txt"))
    assert out.returncode == 1 and b"Cannot read" in out.stderr


def test_several_files_get_unique_ids(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("alpha beta", encoding="utf-8")
    b.write_text("gamma delta", encoding="utf-8")
    out = cli(str(a), str(b), "--size", "6", "--overlap", "0")
    ids = [json.loads(line)["id"] for line in out.stdout.decode().splitlines()]
    assert len(ids) == len(set(ids)) == 4
    assert ids[0] == f"{a}#0"


def test_a_refused_file_is_skipped_and_the_others_are_written_whole(
    tmp_path: Path, note: Path
) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\x00\x01")
    out = cli(str(note), str(bad), "--size", "18", "--overlap", "4")
    assert out.returncode == 1 and str(bad).encode() in out.stderr
    expected = to_jsonl(
        analyse(NOTE, Settings(chunk_size=18, chunk_overlap=4, source_name=str(note)))
    )
    assert out.stdout.decode() == expected

"""Cutting a file leaves no reference cycles: everything it built is freed by
reference counting as soon as it is dropped, so a command-line run can cut with the cycle
collector off (``io/collector.py``'s ``Collected``) and its memory stays flat. Before, the
recursive splitter's two inner functions named each other, and that cycle held the job
and the text's index (its Markdown parse, sentences ...) until a collection: ~1,500
objects a file, found and freed only by the collector."""

from __future__ import annotations

import contextlib
import gc
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from chunker_py import Settings
from chunker_py.io import collector
from chunker_py.io.corpus import Done, Output, Task, cut

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTS = [ROOT / "tests" / "data" / "markdown-it-py-README.md", ROOT / "static" / "sample.txt"]
DOCUMENTS.append(ROOT / "tests" / "data" / "user_guide.txt")


@contextlib.contextmanager
def garbage() -> Iterator[list[object]]:
    """What the collector would have to free, as a list (the collector off meanwhile)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@pytest.mark.parametrize("mode", ["recursive", "markdown", "sentence", "fixed", "token-window"])
@pytest.mark.parametrize("fmt", ["jsonl", "csv", "summary", "compare"])
def test_cutting_a_file_leaves_no_cycle(mode: str, fmt: str) -> None:
    overlap = 0 if mode == "token-window" else 30
    tasks = [
        Task(str(path), Settings(mode=mode, chunk_size=200, chunk_overlap=overlap, size_unit=u))
        for u in ("code-points", "tokens")
        for path in DOCUMENTS
    ]
    output = Output(fmt, lifted=True)
    cut(tasks[0], output)  # first imports leave garbage of their own (dataclass slots)
    with garbage() as found:
        for task in tasks:
            done = cut(replace(task, metadata={}), output)
            assert done.error is None and done.text
        gc.collect()
        assert Counter(type(o).__name__ for o in found) == Counter()


def test_the_command_line_cuts_with_the_collector_off_and_collects_every_few_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each file is cut with automatic collection off; a full collection follows every
    ``COLLECT_EVERY`` files (what a path that does make cycles leaves is freed); the
    collector is on again after the run."""
    from chunker_py.io import cli

    for n in range(6):
        (tmp_path / f"d{n}.md").write_text(f"# Part {n}\n\nSome text. " * 20, encoding="utf-8")
    enabled: list[bool] = []

    def noting(task: Task, output: Output) -> Done:
        enabled.append(gc.isenabled())
        return cut(task, output)

    monkeypatch.setattr(cli, "cut", noting)
    monkeypatch.setattr(collector, "COLLECT_EVERY", 2)
    full: list[int] = []

    def on_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(on_collection)
    try:
        out: list[str] = []
        assert cli.execute([str(tmp_path), "--jobs", "1"], out.append, print) == 0
    finally:
        gc.callbacks.remove(on_collection)
    assert enabled == [False] * 6
    assert len(full) >= 3  # one after every second file
    assert gc.isenabled()
    assert "".join(out).count('"index":0,') == 6

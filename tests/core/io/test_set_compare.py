"""The page's comparison over its documents: the corpus lines of
``python -m chunker_py FILE... --format compare``, from rows compared one file at a time
(as the page compares each document in steps)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker_py import Settings
from chunker_py.io.render import row_figures
from chunker_py.io.tally import set_compare_lines
from chunker_py.pipeline.compare import compare_row_steps

from .test_cli import cli

pytestmark = pytest.mark.subprocess

TEXTS = {
    "notes.md": "# Notes\n\nA first paragraph. It has two sentences.\n\n```\ncode here\n```\n" * 20,
    "plain.txt": "One line of plain text without an end" * 30,
    "table.md": "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 60 + "\nAfter the table.\n",
}


@pytest.mark.parametrize("size", [40, 300])
def test_the_set_lines_are_the_command_lines_corpus_lines(tmp_path: Path, size: int) -> None:
    settings = Settings(chunk_size=size, chunk_overlap=size // 10)
    files = []
    for name, text in TEXTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
        rows = [row for row in compare_row_steps(text, settings) if row is not None]
        files.append((len(text.encode()), [row_figures(row) for row in rows]))
    mine = set_compare_lines(files)
    paths = [str(tmp_path / name) for name in TEXTS]
    done = cli(*paths, "--format", "compare", "--size", str(size),
               "--overlap", str(size // 10))  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    corpus = [line for line in lines if line.get("corpus")]
    # the Semantic row's figures depend on the embedder each side has (the model there)
    assert [m for m in mine if m["key"] != "semantic"] == [
        c for c in corpus if c["key"] != "semantic"
    ]
    assert {m["key"] for m in mine} == {c["key"] for c in corpus}
    assert all(m["files"] == 3 for m in mine)

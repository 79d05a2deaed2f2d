"""The splitter comparison in steps (so no task runs long): the page computes one row per
task, so no task holds the seven splits and damage passes of the whole comparison (a
40-level nested list in Markdown structure mode held the page for 693 ms in one task).

Work is counted, not timed: each step of ``compare_rows`` and ``damage_by_size_rows`` may
run at most one analysis, and the steps together give exactly ``compare``'s rows.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Generator, Iterator

import pytest

import chunker_py
from chunker_py import Settings, compare, damage_by_size
from chunker_py.pipeline.analysis import damage_of
from chunker_py.pipeline.cache import text_index
from chunker_py.pipeline.compare import compare_row_steps
from chunker_py.stepwise import compare_rows, damage_by_size_rows
from chunker_py.tokenizers import bpe
from chunker_py.tokenizers.base import MERGE_STEP, LruDict

NESTED = "\n".join(" " * (2 * min(d, 39)) + f"- item {d} of the list" for d in range(150))


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every analysis the comparison module runs, by mode, as it runs."""
    module = sys.modules[compare_rows.__module__]
    real = module.analyse
    calls: list[str] = []

    def counted(text: str, settings: Settings, **options: object) -> chunker_py.Analysis:
        calls.append(settings.mode)
        return real(text, settings, **options)

    monkeypatch.setattr(module, "analyse", counted)
    yield calls


@pytest.mark.parametrize("mode", ["markdown", "recursive", "sentence", "fixed", "token-window"])
def test_each_comparison_step_runs_at_most_one_analysis(analyses: list[str], mode: str) -> None:
    settings = Settings(mode=mode, chunk_size=120, chunk_overlap=0 if mode == "markdown" else 20)
    known = chunker_py.analyse(NESTED, settings)
    steps = compare_rows(NESTED, settings, known=known)
    rows = []
    for row in steps:
        assert len(analyses) <= len(rows) + 1  # this step added one analysis at most
        rows.append(row)
        _ = row.damage  # the row's damage pass belongs to its own step too
    assert len(rows) == 8
    assert len(analyses) == 7  # the current settings' row reuses the known result
    assert [r.as_json() for r in rows] == [r.as_json() for r in compare(NESTED, settings)]


def test_each_damage_by_size_step_runs_at_most_one_analysis(analyses: list[str]) -> None:
    settings = Settings(mode="markdown", chunk_size=120, chunk_overlap=0)
    known = chunker_py.analyse(NESTED, settings)
    rows = []
    for row in damage_by_size_rows(NESTED, settings, known=known):
        assert len(analyses) <= len(rows) + 1
        rows.append(row)
    assert len(rows) == len(analyses) + 1 == 4
    expected = damage_by_size(NESTED, settings)
    assert [r.as_json() for r in rows] == [r.as_json() for r in expected]


def test_a_step_does_not_compute_the_next_rows_in_advance(analyses: list[str]) -> None:
    settings = Settings(mode="markdown", chunk_size=120, chunk_overlap=0)
    steps = compare_rows(NESTED, settings)
    next(steps)
    assert analyses == ["recursive"]
    next(steps)
    assert analyses == ["recursive", "recursive"]


def test_damage_in_steps_equals_damage_at_once() -> None:
    """The page computes damage's text facts (Markdown tokens, outline, sentences, graphemes) one
    per task before the figures: the stepped result is the one-go result."""
    settings = Settings(mode="fixed", chunk_size=120, chunk_overlap=20)
    text = NESTED + "\n\nA closing sentence. And another one."
    stepped = chunker_py.analyse(text, settings)
    assert len(list(stepped.damage_steps())) == 5  # tokens, outline, sentences, edges, figures
    assert "damage" in stepped.__dict__  # computed by the last step
    spans = stepped.spans
    assert stepped.damage == damage_of(text, spans, settings)


@pytest.mark.parametrize("mode", ["recursive", "token-window"])
def test_long_pieces_are_merged_in_steps_before_each_row(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """Long tasks: a 20,000-letter run is one BPE piece; the Token window row
    merged it (and each window's piece) inside its one step. The steps of
    ``compare_row_steps`` merge the long pieces in pauses (the Nones) before each row,
    a pause a few thousand heap entries long, so the step that yields a row merges none;
    the rows are ``compare``'s."""
    letters = random.Random(f"long piece {mode}")  # a text no other test has cached
    text = "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(20_000))
    tokenizer = chunker_py.get_tokenizer("cl100k_base")
    monkeypatch.setattr(tokenizer, "_pieces", {})
    monkeypatch.setattr(tokenizer, "_counts", LruDict(16384))
    real = bpe.merge_long_steps
    merged: list[int] = []  # bytes of the long pieces merged in the current step
    work: list[int] = []  # the work merge_long_steps reported in the current step
    pauses: list[int] = []  # the work of each step

    def watched(piece: bytes, ranks: dict[bytes, int]) -> Generator[int, None, list[int]]:
        merged.append(len(piece))
        steps = real(piece, ranks)
        while True:
            try:
                amount = next(steps)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            work.append(amount)
            yield amount

    monkeypatch.setattr(bpe, "merge_long_steps", watched)
    settings = Settings(mode=mode, chunk_size=300, chunk_overlap=50)
    known = chunker_py.analyse(text, settings)  # the edit's own analysis
    merged.clear()
    work.clear()
    rows = []
    nones_per_row = [0]
    for step in compare_row_steps(text, settings, known=known):
        if step is None:
            nones_per_row[-1] += 1
        else:
            assert not merged, f"row {step.key} merged {merged} bytes in its own step"
            rows.append(step)
            nones_per_row.append(0)
        pauses.append(sum(work))
        merged.clear()
        work.clear()
    assert [r.as_json() for r in rows] == [r.as_json() for r in compare(text, settings)]
    if mode == "recursive":  # the whole text's piece, then the windows' pieces
        assert nones_per_row[[r.key for r in rows].index("token-window")] >= 5
    else:  # the Token window row is the edit's; the first row's 300-letter chunks are new
        assert nones_per_row[0] >= 1
    # a step's merges: one piece's pair look-up (up to its size) and a pause's heap entries
    assert max(pauses) <= len(text) + 2 * MERGE_STEP, pauses


def test_the_text_is_parsed_in_a_step_of_its_own_before_the_first_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Long tasks: the first row's step parsed the text's Markdown for the damage
    figures (a 2,000-row table: ~100 ms CPU in CPython) on top of its split and damage
    pass. The parse (and the sentences) are now steps of their own, before any row: no
    step that yields a row parses, and the rows are ``compare``'s."""
    from chunker_py.text import blocks

    table = "\n".join(["|n|v|", "|-|-|"] + [f"|{n}|row {n} of 300|" for n in range(300)])
    real = blocks.parse_tokens
    parsed: list[int] = []

    def watched(text: str) -> list[object]:
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(blocks, "parse_tokens", watched)
    settings = Settings(mode="recursive", chunk_size=200, chunk_overlap=20)
    rows, parses_per_step = [], []
    for step in compare_row_steps(table, settings):
        parses_per_step.append(len(parsed))
        if step is not None:
            assert not parsed, f"row {step.key} parsed the text in its own step"
            rows.append(step)
        parsed.clear()
    assert parses_per_step.count(1) == 1  # parsed once, in a pause
    assert [r.as_json() for r in rows] == [r.as_json() for r in compare(table, settings)]


def test_prepare_steps_parse_a_long_markdown_text_apart_before_the_analysis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Long tasks: Markdown structure mode's edit parsed a 2,000-row table in the
    edit's own task. ``prepare_steps`` pauses first (the caller's step ends there), then
    parses, a step for the tokens and one for the blocks; the analysis then parses
    nothing and is the same. A short text, or one parsed already, needs no step."""
    from chunker_py.stepwise import prepare_steps
    from chunker_py.text import blocks

    table = "\n".join(["|n|v|", "|-|-|"] + [f"|{n}|q|" for n in range(1_200)])
    real = blocks.parse_tokens
    parsed: list[int] = []
    monkeypatch.setattr(blocks, "parse_tokens", lambda text: parsed.append(1) or real(text))
    settings = Settings(mode="markdown", chunk_size=300, chunk_overlap=0)
    steps = prepare_steps(table, settings)
    assert next(steps, "end") is None and parsed == []  # a pause before any parse
    assert list(steps) == [None, None] and parsed == [1]
    prepared = chunker_py.analyse(table, settings).spans
    assert parsed == [1]  # the analysis found the parse cached
    for other in ("a", "b", "c"):  # the text leaves the per-text cache
        text_index(other)
    assert chunker_py.analyse(table, settings).spans == prepared  # parsed again: the same
    parsed.clear()
    assert list(prepare_steps(table, settings)) == []
    assert list(prepare_steps(NESTED, settings)) == []  # 150 lines: parsed in the edit
    assert list(prepare_steps(table, settings.replace(mode="recursive"))) == []

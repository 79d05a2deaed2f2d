"""The splitter comparison in steps (issue 18, defect 8): the page computes one row per
task, so no task holds the seven splits and damage passes of the whole comparison (a
40-level nested list in Markdown structure mode held the page for 693 ms in one task).

Work is counted, not timed: each step of ``compare_rows`` and ``damage_by_size_rows`` may
run at most one analysis, and the steps together give exactly ``compare``'s rows.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

import chunker_py
from chunker_py import Settings, compare, compare_rows, damage_by_size, damage_by_size_rows

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
    assert len(rows) == 7
    assert len(analyses) == 6  # the current settings' row reuses the known result
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
    """The page computes damage's text facts (Markdown parse, sentences, graphemes) one
    per task before the figures: the stepped result is the one-go result."""
    settings = Settings(mode="fixed", chunk_size=120, chunk_overlap=20)
    text = NESTED + "\n\nA closing sentence. And another one."
    stepped = chunker_py.analyse(text, settings)
    assert len(list(stepped.damage_steps())) == 4
    assert "damage" in stepped.__dict__  # computed by the last step
    spans = stepped.spans
    assert stepped.damage == chunker_py.damage_of(text, spans, settings)

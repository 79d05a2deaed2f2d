"""Retrieval within a context budget (docs/decisions.md "Context budget"): chunks taken in
rank order while their tokens add up to at most the budget, the first-ranked always; Chroma's scores
over the chunks taken, checked against an independent reference (``chroma_reference.py``
over a truncation written here from the rule's words) with Hypothesis; bad input 36."""

from __future__ import annotations

import json
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py import Settings, analyse, parse_settings
from chunker_py.config.links import settings_from_fragment, settings_to_fragment
from chunker_py.engine.errors import SettingError
from chunker_py.io.questions import read_questions
from chunker_py.measures.evidence import (
    ChunkRanges,
    Excerpt,
    Question,
    _union,
    check_evidence,
    evidence_of,
    score_retrieval,
    within_budget,
)

from . import chroma_reference as chroma
from .test_figures import layouts

ROOT = Path(__file__).resolve().parents[3]


def reference_budget(ranked: list[int], counts: list[int], budget: int) -> list[int]:
    """The rule, read literally: the longest prefix of the ranking whose running token sums
    all stay within the budget (sums only grow: counts are never negative), and never
    fewer than one chunk."""
    sums = list(accumulate(counts[i] for i in ranked))
    within = sum(1 for total in sums if total <= budget)
    return ranked[: max(1, within)] if ranked else []


@st.composite
def rankings(draw: st.DrawFn) -> tuple[list[int], list[int], int]:
    """A ranking (a permutation of chunk indexes), each chunk's tokens, and a budget."""
    n = draw(st.integers(1, 12))
    ranked = draw(st.permutations(range(n)))
    counts = draw(st.lists(st.integers(0, 400), min_size=n, max_size=n))
    budget = draw(st.integers(1, 2_000))
    return list(ranked), counts, budget


@given(rankings())
@example(([0, 1], [1_500, 10], 1_000))  # the first chunk alone is over the budget
@example(([1, 0, 2], [300, 700, 1], 1_000))  # exactly at the budget, then one token over
def test_within_budget_equals_the_rule(case: tuple[list[int], list[int], int]) -> None:
    ranked, counts, budget = case
    taken = within_budget(ranked, counts.__getitem__, budget)
    assert list(taken) == reference_budget(ranked, counts, budget)
    assert taken[0] == ranked[0]  # the first-ranked chunk is always read
    if len(taken) > 1:
        assert sum(counts[i] for i in taken) <= budget


def test_first_chunk_over_the_budget_is_taken_alone() -> None:
    assert within_budget([2, 0, 1], [5, 5, 5_000].__getitem__, 1_000) == (2,)


def test_reading_stops_at_the_first_chunk_that_would_pass_the_budget() -> None:
    """A later, smaller chunk that would still fit is not taken: the reading is a prefix
    of the ranking, as an answering model reads its context."""
    assert within_budget([0, 1, 2], [600, 500, 10].__getitem__, 1_000) == (0,)


def _question_over(length: int, excerpts: list[tuple[int, int]]) -> tuple[str, Question]:
    text = "".join(chr(0x41 + i % 26) for i in range(length))
    return text, Question("q", tuple(Excerpt(text[s:e], s, e) for s, e in excerpts))


@settings(max_examples=150)
@given(layouts(), st.lists(st.integers(0, 50), min_size=8, max_size=8), st.integers(1, 120))
def test_budget_scores_equal_chromas_definitions_over_the_chunks_taken(
    layout: tuple[int, list[tuple[int, int]], list[tuple[int, int]]],
    counts: list[int],
    budget: int,
) -> None:
    length, spans, excerpts = layout
    text, q = _question_over(length, excerpts)
    tokens = counts.__getitem__
    (whole,) = check_evidence(text, spans, [q], k=len(spans), tokens=tokens).results
    assert whole.retrieval is not None
    (r,) = check_evidence(text, spans, [q], tokens=tokens, budget=budget).results
    assert r.retrieval is not None
    taken = reference_budget(list(whole.retrieval.chunks), counts, budget)
    assert list(r.retrieval.chunks) == taken
    iou, recall, precision = chroma.retrieval_scores([spans[i] for i in taken], excerpts)
    assert (r.retrieval.iou, r.retrieval.recall, r.retrieval.precision) == (iou, recall, precision)
    assert r.retrieval.tokens == sum(counts[i] for i in taken)
    assert r.retrieval.budget == budget and r.retrieval.k == len(taken)


@settings(max_examples=150)
@given(layouts(), st.data())
def test_scores_of_any_ranking_equal_chromas_definitions(
    layout: tuple[int, list[tuple[int, int]], list[tuple[int, int]]], data: st.DataObject
) -> None:
    """The scoring takes any ranked list (BM25's, a dense or a fused one) truncated by any
    budget."""
    _length, spans, excerpts = layout
    ranked = data.draw(st.permutations(range(len(spans))))
    counts = data.draw(st.lists(st.integers(0, 30), min_size=len(spans), max_size=len(spans)))
    budget = data.draw(st.integers(1, 100))
    taken = within_budget(ranked, counts.__getitem__, budget)
    got = score_retrieval(
        ChunkRanges(spans), excerpts, _union(excerpts), taken, 5, counts.__getitem__, budget
    )
    iou, recall, precision = chroma.retrieval_scores([spans[i] for i in taken], excerpts)
    assert (got.iou, got.recall, got.precision) == (iou, recall, precision)


def test_ties_in_rank_go_to_the_lower_chunk_index_then_the_budget_cuts() -> None:
    """Three chunks with the same text score alike: the budget reads them from the lowest
    index."""
    text = "apple pie. apple pie. apple pie. pear tart."
    spans = [(0, 10), (11, 21), (22, 32), (33, 43)]
    q = Question("apple pie", (Excerpt("apple pie", 22, 31),))
    (r,) = check_evidence(text, spans, [q], tokens=lambda i: 3, budget=6).results
    assert r.retrieval is not None
    assert r.retrieval.chunks == (0, 1)
    assert r.retrieval.recall == 0.0
    (r,) = check_evidence(text, spans, [q], tokens=lambda i: 3, budget=9).results
    assert r.retrieval is not None
    assert r.retrieval.chunks == (0, 1, 2) and r.retrieval.recall == 1.0


def test_a_budget_needs_token_counts() -> None:
    with pytest.raises(ValueError, match="token counts"):
        check_evidence("a b", [(0, 3)], [], budget=10)


@pytest.mark.parametrize("raw", ["0", "-1", "-1000", "abc", "1.5", "1e3", "100001", " 0 "])
def test_a_budget_of_zero_negative_or_not_a_number_is_refused(raw: str) -> None:
    """Bad input 36: refused with the field's rule."""
    with pytest.raises(SettingError) as caught:
        parse_settings({"budget": raw})
    assert caught.value.field == "budget"
    assert caught.value.message.startswith("Budget must be a whole number from 1 to 100,000")


@pytest.mark.parametrize("value", [0, -5, True, 1.5, 100_001])
def test_settings_refuse_a_bad_budget(value: object) -> None:
    with pytest.raises(SettingError, match="Budget"):
        Settings(budget=value)  # type: ignore[arg-type]


def test_an_empty_budget_field_means_top_k() -> None:
    assert parse_settings({"budget": ""}).budget is None
    assert parse_settings({"budget": "1000"}).budget == 1_000
    assert Settings().budget is None


def test_the_budget_travels_in_the_link_and_a_bad_one_is_named() -> None:
    fragment = settings_to_fragment(Settings(budget=750))
    assert "budget=750" in fragment
    assert settings_from_fragment(fragment)[0].budget == 750
    assert "budget" not in settings_to_fragment(Settings())
    restored, notes = settings_from_fragment("#v=1&budget=0")
    assert restored.budget is None and any("Budget" in n for n in notes)


SAMPLE = (ROOT / "static" / "sample.txt").read_text(encoding="utf-8")


def test_the_settings_budget_replaces_top_k_in_evidence_of() -> None:
    questions = read_questions((ROOT / "static" / "sample-questions.csv").read_bytes())
    analysis = analyse(SAMPLE, Settings(budget=400))
    found = evidence_of(analysis, questions)
    assert found is not None and found.budget == 400
    for r in found.matched:
        assert r.retrieval is not None and r.retrieval.budget == 400
        assert r.retrieval.tokens <= 400 or len(r.retrieval.chunks) == 1
    summary = found.summary()["retrieval"]
    assert summary["budget"] == 400
    top = evidence_of(analyse(SAMPLE, Settings()), questions)
    assert top is not None and "budget" not in top.summary()["retrieval"]


@pytest.mark.subprocess
def test_cli_budget_flag_in_evidence_lines_and_refused_when_zero() -> None:
    from .test_cli_evidence import cli

    sample = str(ROOT / "static" / "sample.txt")
    questions = str(ROOT / "static" / "sample-questions.csv")
    done = cli(sample, "--questions", questions, "--format", "evidence", "--budget", "300")
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        retrieval = json.loads(line)["retrieval"]
        if retrieval is not None:
            assert retrieval["budget"] == 300 and retrieval["k"] == len(retrieval["chunks"])
    for bad in ("0", "-2", "many"):
        done = cli(sample, "--budget", bad)
        assert done.returncode == 2 and done.stdout == ""
        assert "Budget must be a whole number from 1 to 100,000" in done.stderr

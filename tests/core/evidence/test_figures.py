"""Evidence check figures (docs/decisions.md "Evidence check"): on hand-built documents where every
figure is known by construction, then against an independent reference of Chroma's
definitions (``chroma_reference.py``) with Hypothesis."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py import Settings, analyse
from chunker_py.measures.evidence import Excerpt, Question, check_evidence, kept_whole

from . import chroma_reference as chroma

RULE = "Refunds are paid within 14 days."
EXCEPTION = "Except for gift cards, which are never refunded."
TEXT = f"{RULE} {EXCEPTION} Shipping is free above 50 euros."


def question(text: str, doc: str, *parts: str) -> Question:
    excerpts = tuple(Excerpt(p, doc.index(p), doc.index(p) + len(p)) for p in parts)
    return Question(text, excerpts)


def spans_of(text: str, settings: Settings) -> list[tuple[int, int]]:
    return [(s.start, s.end) for s in analyse(text, settings).spans]


def test_rule_kept_whole_and_exception_cut_across_three_fixed_windows() -> None:
    # Fixed windows of 40, trimmed: [0, 39) (the space at 39 trimmed), [40, 80), [80, 114).
    # The rule [0, 32) lies in chunk 0; the exception [33, 81) runs from chunk 0 into
    # chunk 2, and its space at 39 is in no chunk.
    spans = spans_of(TEXT, Settings(mode="fixed", chunk_size=40, chunk_overlap=0))
    assert spans == [(0, 39), (40, 80), (80, 114)]
    q = question("Are gift cards refunded?", TEXT, RULE, EXCEPTION)
    (r,) = check_evidence(TEXT, spans, [q]).results
    assert r.matched
    assert [e.kept_whole for e in r.excerpts] == [True, False]
    assert [e.chunks for e in r.excerpts] == [(0,), (0, 1, 2)]
    assert r.one_chunk is False
    assert r.chunks_to_read is None  # code point 39 lies in no chunk
    # evidence in chunks 32 + 47; held chunks' union 39 + 74; evidence outside them 1
    assert r.precision_omega == 79 / 114
    assert r.cut == (1,)


def test_rule_and_exception_in_one_chunk_when_the_size_grows() -> None:
    spans = spans_of(TEXT, Settings(mode="fixed", chunk_size=90, chunk_overlap=0))
    assert spans == [(0, 90), (91, 114)]  # the space at 90 trimmed
    q = question("Are gift cards refunded?", TEXT, RULE, EXCEPTION)
    (r,) = check_evidence(TEXT, spans, [q]).results
    assert [e.kept_whole for e in r.excerpts] == [True, True]
    assert r.one_chunk is True and r.chunks_to_read == 1
    assert r.precision_omega == 80 / 90


def test_excerpt_on_a_chunk_edge_is_kept_whole_and_only_its_chunk_holds_it() -> None:
    text = "aaaa bbbb cccc"
    spans = [(0, 4), (5, 9), (10, 14)]  # edges exactly around "bbbb"
    (r,) = check_evidence(text, spans, [question("b?", text, "bbbb")]).results
    assert r.excerpts[0].kept_whole and r.excerpts[0].chunks == (1,)
    assert r.one_chunk and r.chunks_to_read == 1
    assert r.precision_omega == 1.0  # the chunk is exactly the evidence


def test_a_chunk_ending_where_the_excerpt_starts_does_not_hold_it() -> None:
    text = "aaaabbbbcccc"
    spans = [(0, 4), (4, 8), (8, 12)]
    (r,) = check_evidence(text, spans, [question("b?", text, "bbbb")]).results
    assert r.excerpts[0].chunks == (1,)
    assert r.precision_omega == 1.0
    # Chroma's own code counts the touching chunks 0 and 2 as holding it: 4 / 12
    refs = [(4, 8)]
    assert chroma.precision_omega(spans, refs, touching=True) == 4 / 12
    assert chroma.precision_omega(spans, refs, touching=False) == 1.0


def test_excerpt_inside_an_overlap_is_held_by_both_chunks() -> None:
    text = "0123456789abcdefghij"
    spans = [(0, 12), (8, 20)]  # overlap [8, 12) = "89ab"
    (r,) = check_evidence(text, spans, [question("o?", text, "9a")]).results
    assert r.excerpts[0].chunks == (0, 1)
    assert r.excerpts[0].kept_whole and r.one_chunk and r.chunks_to_read == 1
    assert r.precision_omega == 2 / 20  # both chunks hold it: their union is all 20


def test_excerpt_in_trimmed_whitespace_is_not_covered() -> None:
    text = "alpha\n\n\n\nbeta"
    settings = Settings(mode="fixed", chunk_size=7, chunk_overlap=0)
    spans = spans_of(text, settings)
    assert spans == [(0, 5), (9, 13)]  # "\n\n" trimmed away from both windows
    q = Question("gap?", (Excerpt("\n\n", 6, 8),))
    (r,) = check_evidence(text, spans, [q]).results
    assert r.matched and r.excerpts[0].kept_whole is False and r.excerpts[0].chunks == ()
    assert r.chunks_to_read is None and r.precision_omega == 0.0
    assert r.retrieval is not None and r.retrieval.recall == 0.0
    assert r.retrieval.first_hit_rank is None


def test_excerpt_spanning_three_chunks() -> None:
    text = "one two three four five"
    spans = [(0, 7), (8, 13), (14, 23)]
    q = question("span?", text, "two three four")
    (r,) = check_evidence(text, spans, [q]).results
    assert r.excerpts[0].chunks == (0, 1, 2) and r.excerpts[0].kept_whole is False
    assert r.chunks_to_read is None  # the spaces at 7 and 13 are in no chunk
    # evidence 14 code points of which 12 in chunks; held union 7 + 5 + 9 = 21, plus 2 outside
    assert r.precision_omega == 12 / 23
    spans = [(0, 8), (8, 14), (14, 23)]  # preserved edges: now covered by three chunks
    (r,) = check_evidence(text, spans, [q]).results
    assert r.chunks_to_read == 3 and r.precision_omega == 14 / 23


def test_two_excerpts_in_different_chunks() -> None:
    text = "The rule is X. " + "filler " * 10 + "The exception is Y."
    spans = [(0, 14), (15, 84), (85, len(text))]
    q = question("rule and exception?", text, "The rule is X.", "The exception is Y.")
    (r,) = check_evidence(text, spans, [q], k=1).results
    assert [e.chunks for e in r.excerpts] == [(0,), (2,)]
    assert all(e.kept_whole for e in r.excerpts) and r.one_chunk is False
    assert r.chunks_to_read == 2
    held = 14 + (len(text) - 85)
    assert r.precision_omega == (14 + 19) / held
    retrieval = r.retrieval
    assert retrieval is not None and retrieval.k == 1 and len(retrieval.chunks) == 1
    hit = retrieval.chunks[0]
    got = 14 if hit == 0 else 19 if hit == 2 else 0
    assert retrieval.recall == got / 33
    assert retrieval.precision == got / (spans[hit][1] - spans[hit][0])
    assert retrieval.iou == got / (spans[hit][1] - spans[hit][0] + 33 - got)


def test_retrieval_ranks_the_lexically_closest_chunk_first_and_counts_its_tokens() -> None:
    text = "Cats purr softly. Dogs bark loudly. Birds sing at dawn."
    spans = [(0, 17), (18, 35), (36, len(text))]
    q = question("Which animals bark?", text, "Dogs bark loudly.")
    (r,) = check_evidence(text, spans, [q], k=2, tokens=lambda i: 10 + i).results
    assert r.retrieval is not None
    assert r.retrieval.chunks[0] == 1 and r.retrieval.first_hit_rank == 1
    assert r.retrieval.chunks[1] == 0  # a tie at 0: the lower index
    assert r.retrieval.tokens == 11 + 10
    assert r.retrieval.recall == 1.0
    assert r.retrieval.precision == 17 / 34


def test_unmatched_question_is_kept_but_left_out_of_the_means() -> None:
    text = "abc def"
    spans = [(0, 7)]
    good = question("a?", text, "abc")
    gone = Question("z?", (Excerpt("zzz", 0, 3),))
    evidence = check_evidence(text, spans, [good, gone])
    assert [r.matched for r in evidence.results] == [True, False]
    summary = evidence.summary()
    assert summary["questions"] == 2 and summary["unmatched"] == 1
    assert summary["excerpts"] == 1 and summary["kept_whole"] == 1
    assert summary["precision_omega"] == 3 / 7
    assert summary["retrieval"]["recall"] == 1.0
    assert evidence.results[1].as_json()["excerpts"][0]["found"] is False


def test_summary_without_matched_questions_has_no_means() -> None:
    summary = check_evidence("abc", [(0, 3)], [Question("q", (Excerpt("x", 0, 1),))]).summary()
    assert summary["precision_omega"] is None and summary["chunks_to_read"] is None
    assert summary["retrieval"]["recall"] is None and summary["retrieval"]["hits"] == 0


# -- against Chroma's definitions


@st.composite
def layouts(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], list[tuple[int, int]]]:
    """A text length, chunk ranges in source order (gaps and overlaps), and excerpts."""
    length = draw(st.integers(4, 60))
    starts = sorted(draw(st.lists(st.integers(0, length - 1), min_size=1, max_size=8)))
    spans = []
    for start in starts:
        end = draw(st.integers(start + 1, min(length, start + 20)))
        spans.append((start, end))
    excerpts = []
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, length - 1))
        excerpts.append((start, draw(st.integers(start + 1, length))))
    return length, spans, excerpts


def _question_over(length: int, excerpts: list[tuple[int, int]]) -> tuple[str, Question]:
    text = "".join(chr(0x41 + i % 26) for i in range(length))
    return text, Question("q", tuple(Excerpt(text[s:e], s, e) for s, e in excerpts))


@settings(max_examples=150)
@given(layouts(), st.integers(1, 8))
def test_scores_equal_chromas_definitions(layout, k) -> None:  # type: ignore[no-untyped-def]
    length, spans, excerpts = layout
    text, q = _question_over(length, excerpts)
    (r,) = check_evidence(text, spans, [q], k=k).results
    assert r.matched and r.retrieval is not None
    assert r.precision_omega == chroma.precision_omega(spans, excerpts)
    retrieved = [spans[i] for i in r.retrieval.chunks]
    iou, recall, precision = chroma.retrieval_scores(retrieved, excerpts)
    assert (r.retrieval.iou, r.retrieval.recall, r.retrieval.precision) == (iou, recall, precision)
    touches = any(s == ee or e == es for s, e in spans for es, ee in excerpts)
    if not touches:  # no chunk merely touching an excerpt: Chroma's own rule agrees
        assert r.precision_omega == chroma.precision_omega(spans, excerpts, touching=True)


@settings(max_examples=100)
@given(layouts())
def test_placement_figures_equal_brute_force(layout) -> None:  # type: ignore[no-untyped-def]
    length, spans, excerpts = layout
    text, q = _question_over(length, excerpts)
    (r,) = check_evidence(text, spans, [q]).results
    for (s, e), got in zip(excerpts, r.excerpts, strict=True):
        # the question's excerpts may repeat text; anchoring keeps exact offsets here
        assert (got.placed.start, got.placed.end) == (s, e)
        assert got.chunks == tuple(i for i, (a, b) in enumerate(spans) if a < e and b > s)
        assert got.kept_whole == any(a <= s and b >= e for a, b in spans)
    lo, hi = min(s for s, _ in excerpts), max(e for _, e in excerpts)
    assert r.one_chunk == any(a <= lo and b >= hi for a, b in spans)
    points = {p for s, e in excerpts for p in range(s, e)}
    fewest = None
    for n in range(1, len(spans) + 1):
        if any(points <= {p for a, b in c for p in range(a, b)} for c in combinations(spans, n)):
            fewest = n
            break
    assert r.chunks_to_read == fewest
    ranks = [rank for rank, i in enumerate(r.retrieval.chunks, 1) if i in
             {i for x in r.excerpts for i in x.chunks}]  # fmt: skip
    assert r.retrieval.first_hit_rank == (ranks[0] if ranks else None)


@pytest.mark.parametrize("k", [1, 5, 20])
def test_k_beyond_the_chunk_count_retrieves_every_chunk(k: int) -> None:
    """(With two chunks a word in one of them has idf 0 in BM25 Okapi: three here.)"""
    text = "alpha beta gamma"
    spans = [(0, 5), (6, 10), (11, 16)]
    (r,) = check_evidence(text, spans, [question("beta", text, "beta")], k=k).results
    assert r.retrieval is not None
    assert len(r.retrieval.chunks) == min(k, 3) and r.retrieval.chunks[0] == 1


def test_the_pages_small_steps_give_exactly_the_whole_check() -> None:
    """``evidence_steps`` (a few questions a task, as the page runs it) equals one
    ``check_evidence`` over every question."""
    from chunker_py.measures.evidence import SLICE, evidence_of, evidence_steps

    text = " ".join(f"Sentence {i} says rule {i % 7} holds." for i in range(120))
    analysis = analyse(text, Settings(chunk_size=120, chunk_overlap=20))
    asked = [
        question(f"rule {i % 7} {i}?", text, f"Sentence {i} says") for i in range(3 * SLICE + 1)
    ]
    whole = check_evidence(
        text, [s[:2] for s in analysis.spans], asked, tokens=analysis.chunk_tokens
    )
    steps = evidence_steps(analysis, asked)
    count = 0
    while True:
        try:
            next(steps)
            count += 1
        except StopIteration as done:
            sliced = done.value
            break
    assert count == 1 + 4  # the index (one step: fewer than 250 chunks), then four slices
    assert sliced == whole == evidence_of(analysis, asked)


def test_no_index_is_built_when_no_question_is_in_the_text() -> None:
    from chunker_py.measures.evidence import chunk_ranges, evidence_of

    text = "alpha beta gamma " * 40
    analysis = analyse(text, Settings(chunk_size=30, chunk_overlap=0))
    found = evidence_of(analysis, [Question("z?", (Excerpt("zeta", 0, 4),))])
    assert found is not None and found.summary()["unmatched"] == 1
    ranges = chunk_ranges(analysis)
    assert ranges is not None and ranges._bm25 is None
    found = evidence_of(analysis, [question("beta?", text, "beta gamma")])
    assert ranges._bm25 is not None and found is not None and found.results[0].matched


def test_the_index_is_built_in_steps_of_250_chunks() -> None:
    from chunker_py.measures.bm25 import BM25, bm25_tokens
    from chunker_py.measures.evidence import ChunkRanges

    text = "word " * 600
    spans = [(i * 5, i * 5 + 4) for i in range(600)]
    ranges = ChunkRanges(spans)
    assert sum(1 for _ in ranges.bm25_steps(text)) == 2  # 600 chunks: 3 slices, 2 pauses
    built = ranges.bm25(text)
    reference = BM25([bm25_tokens(text[s:e]) for s, e in spans])
    assert built.scores(["word"]) == reference.scores(["word"])


def test_kept_whole_per_size_for_the_trade_off_chart() -> None:
    """``kept_whole`` (the chart's figure, no BM25): the rule and its exception of the
    first test at fixed windows of 40 (1 of 2 whole) and of 90 (2 of 2); an unmatched
    question's excerpts are not counted; no chunks, no figure."""
    q = question("Are gift cards refunded?", TEXT, RULE, EXCEPTION)
    gone = Question("z?", (Excerpt("zzz", 0, 3),))
    small = analyse(TEXT, Settings(mode="fixed", chunk_size=40, chunk_overlap=0))
    large = analyse(TEXT, Settings(mode="fixed", chunk_size=90, chunk_overlap=0))
    assert kept_whole(small, [q, gone]) == (1, 2)
    assert kept_whole(large, [q, gone]) == (2, 2)
    assert kept_whole(analyse("   ", Settings()), [q]) is None


@settings(max_examples=60)
@given(layouts())
def test_kept_whole_equals_the_summarys_count(layout) -> None:  # type: ignore[no-untyped-def]
    length, _spans, excerpts = layout
    text, q = _question_over(length, excerpts)
    result = analyse(text, Settings(mode="fixed", chunk_size=7, chunk_overlap=2))
    summary = check_evidence(text, [(s.start, s.end) for s in result.spans], [q]).summary()
    assert kept_whole(result, [q]) == (summary["kept_whole"], summary["excerpts"])

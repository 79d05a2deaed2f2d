"""Retrieval choices (docs/decisions.md "Retrieval choices"): dense ranks by the rounded
similarity of the injected embedder's vectors, hybrid by reciprocal rank fusion (k = 60)
of the full BM25 and dense rankings, ties always to the lower chunk index; the ranking is
computed first and only then cut to the top k or a budget; ``method`` is in every
retrieval object; the model's window is counted as damage. The embedder here is a small
deterministic stand-in (letter counts), so these run in Pyodide too."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunker_py import Settings, analyse
from chunker_py.embedding import DIMENSIONS, Vector, supply
from chunker_py.engine.errors import SettingError
from chunker_py.measures import ranking
from chunker_py.measures.evidence import Excerpt, Question, check_evidence, evidence_of
from chunker_py.measures.model_window import describe, window_figures


class Letters:
    """Unit vectors of letter counts (a-z), padded to 384 numbers; counts its calls."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        self.seen.extend(texts)
        out = []
        for text in texts:
            counts = [float(text.lower().count(chr(97 + i))) for i in range(26)]
            norm = math.sqrt(sum(c * c for c in counts)) or 1.0
            out.append(tuple(c / norm for c in counts) + (0.0,) * (DIMENSIONS - 26))
        return out


TEXT = "aaa bbb.\n\nccc ddd.\n\naaa ccc.\n\nbbb bbb.\n\nzzz zzz."
SPANS = [(0, 8), (10, 18), (20, 28), (30, 38), (40, 48)]


def question(text: str) -> Question:
    return Question(text, (Excerpt(TEXT[20:28], 20, 28),))


def test_dense_ranks_by_rounded_similarity_ties_to_the_lower_index() -> None:
    vectors = Letters().embed([TEXT[s:e] for s, e in SPANS])
    (q,) = Letters().embed(["a c"])
    scores = ranking.dense_scores(vectors, q)
    assert ranking.best_first(scores) == sorted(range(5), key=lambda i: (-scores[i], i))
    assert ranking.best_first([0.5, 0.7, 0.5, 0.7]) == [1, 3, 0, 2]


@given(
    st.permutations(list(range(8))),
    st.permutations(list(range(8))),
)
def test_fusion_is_reciprocal_rank_fusion_with_k_60(a: list[int], b: list[int]) -> None:
    score = {i: 1 / (60 + a.index(i) + 1) + 1 / (60 + b.index(i) + 1) for i in range(8)}
    expected = sorted(range(8), key=lambda i: (-score[i], i))
    assert ranking.fused(a, b) == expected


def test_fusion_scores_are_one_over_60_plus_the_rank() -> None:
    assert ranking.fusion_scores([2, 0, 1], [0, 1, 2]) == [
        1 / 62 + 1 / 61,
        1 / 63 + 1 / 62,
        1 / 61 + 1 / 63,
    ]


def test_fusion_ties_go_to_the_lower_index() -> None:
    # chunk 0 is first for one ranking and second for the other, chunk 1 the reverse
    assert ranking.fused([1, 0, 2], [0, 1, 2]) == [0, 1, 2]


@pytest.mark.parametrize("method", ["bm25", "dense", "hybrid"])
def test_every_method_names_itself_and_ranks_fully_before_cutting(method: str) -> None:
    embedder = Letters()
    found = check_evidence(
        TEXT, SPANS, [question("ccc aaa")], k=2, method=method, embedder=embedder
    )
    full = check_evidence(TEXT, SPANS, [question("ccc aaa")], k=5, method=method, embedder=embedder)
    (one,) = found.results
    assert one.retrieval is not None and full.results[0].retrieval is not None
    assert one.retrieval.as_json()["method"] == method
    assert found.summary()["retrieval"]["method"] == method
    assert one.retrieval.chunks == full.results[0].retrieval.chunks[:2]
    assert (embedder.seen != []) == (method != "bm25")  # bm25 never embeds


def test_dense_puts_the_closest_chunk_first_and_hybrid_fuses() -> None:
    found = check_evidence(TEXT, SPANS, [question("a c")], k=5, method="dense", embedder=Letters())
    assert found.results[0].retrieval is not None
    assert found.results[0].retrieval.chunks[0] == 2  # "aaa ccc."
    lexical = check_evidence(TEXT, SPANS, [question("a c")], k=5)
    hybrid = check_evidence(
        TEXT, SPANS, [question("a c")], k=5, method="hybrid", embedder=Letters()
    )
    dense_order = list(found.results[0].retrieval.chunks)
    bm25_order = list(lexical.results[0].retrieval.chunks)  # type: ignore[union-attr]
    assert list(hybrid.results[0].retrieval.chunks) == ranking.fused(bm25_order, dense_order)  # type: ignore[union-attr]


def test_a_budget_cuts_the_dense_ranking() -> None:
    found = check_evidence(
        TEXT,
        SPANS,
        [question("a c")],
        tokens=lambda i: 3,
        budget=7,
        method="dense",
        embedder=Letters(),
    )
    retrieval = found.results[0].retrieval
    assert retrieval is not None and retrieval.budget == 7 and len(retrieval.chunks) == 2


def test_dense_without_a_model_is_a_setting_error() -> None:
    previous = supply.use_embedder(None)
    try:
        with pytest.raises(SettingError) as caught:
            check_evidence(TEXT, SPANS, [question("a")], method="dense")
    finally:
        supply.use_embedder(previous)
    assert caught.value.field == "retrieval"


def test_the_settings_choose_the_method_and_links_carry_it() -> None:
    result = analyse(TEXT, Settings(chunk_size=10, chunk_overlap=0, retrieval="hybrid"))
    found = evidence_of(result, [question("ccc")], embedder=Letters())
    assert found is not None and found.method == "hybrid"
    with pytest.raises(SettingError):
        Settings(retrieval="semantic")


def test_the_model_window_counts_unseen_word_pieces() -> None:
    """BAD-INPUT 34: a chunk beyond 256 word pieces is counted, never an error."""
    text = "word " * 300 + "\n\n" + "short text"
    result = analyse(text, Settings(chunk_size=2000, chunk_overlap=0, retrieval="dense"))
    figures = window_figures(result)
    assert figures == {"beyond_model_window": 1, "beyond_model_window_word_pieces": 302 + 2 - 256}
    assert describe(figures) == (
        "beyond the embedding model's window: 1 chunk, 48 word pieces unseen"
    )


def test_an_empty_chunk_never_reaches_the_model() -> None:
    embedder = Letters()
    assert ranking.chunk_vectors(["a", "", "b"], embedder)[1] is None
    assert embedder.seen == ["a", "b"]


def test_a_new_embedder_is_asked_again_the_same_one_is_not() -> None:
    """The page hands a new embedder once more vectors have arrived (its first answers were
    stand-ins): the chunks' vectors of a result are kept per embedder, not for good."""
    result = analyse(TEXT, Settings(chunk_size=10, chunk_overlap=0, retrieval="dense"))
    first, second = Letters(), Letters()
    evidence_of(result, [question("ccc")], embedder=first)
    evidence_of(result, [question("aaa")], embedder=first)
    chunks = [TEXT[s.start : s.end] for s in result.spans]
    assert first.seen == [*chunks, "ccc", "aaa"]
    evidence_of(result, [question("ccc")], embedder=second)
    assert second.seen == [*chunks, "ccc"]

"""BM25 scores and rankings equal ``rank_bm25.BM25Okapi`` on the same tokens, float for
float (CPython only: rank_bm25 needs NumPy)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from chunker_py.measures.bm25 import BM25, bm25_tokens

pytestmark = pytest.mark.cpython_only  # Pyodide: rank_bm25 needs NumPy

WORDS = st.sampled_from(["rule", "exception", "refund", "gift", "card", "a", "the", "ß", "東"])
DOCS = st.lists(st.lists(WORDS, max_size=12), min_size=1, max_size=12)


def reference_ranking(scores: list[float], k: int) -> list[int]:
    """rank_bm25's scores, best first, ties to the lower index (docs/decisions.md)."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]


@settings(max_examples=200)
@given(DOCS, st.lists(WORDS, max_size=8), st.integers(1, 20))
@example([["rule"], ["rule"]], ["rule"], 2)  # every chunk holds the term: idf floored to eps
@example([["a"], ["b"]], ["a"], 1)  # two chunks, one holding it: idf 0
def test_scores_and_ranking_equal_rank_bm25(docs, query, k) -> None:  # type: ignore[no-untyped-def]
    ours = BM25(docs)
    if not any(docs):  # rank_bm25 divides by zero on a corpus without tokens
        assert ours.scores(query) == [0.0] * len(docs)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = [float(x) for x in BM25Okapi(docs).get_scores(query)]
    assert ours.scores(query) == reference
    assert ours.ranking(query, k) == reference_ranking(reference, k)


@settings(max_examples=60)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=8), st.text(max_size=30))
def test_equal_on_tokens_of_any_text(texts, question) -> None:  # type: ignore[no-untyped-def]
    docs = [bm25_tokens(t) for t in texts]
    assume(any(docs))
    ours = BM25(docs).scores(bm25_tokens(question))
    assert ours == [float(x) for x in BM25Okapi(docs).get_scores(bm25_tokens(question))]

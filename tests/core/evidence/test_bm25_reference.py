"""BM25 scores and rankings equal ``rank_bm25.BM25Okapi`` on the same tokens, float for
float (CPython only: rank_bm25 needs NumPy)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from chunker_py.measures import bm25
from chunker_py.measures.bm25 import BM25, bm25_tokens

WORDS = st.sampled_from(["rule", "exception", "refund", "gift", "card", "a", "the", "ß", "東"])
DOCS = st.lists(st.lists(WORDS, max_size=12), min_size=1, max_size=12)


def reference_ranking(scores: list[float], k: int) -> list[int]:
    """rank_bm25's scores, best first, ties to the lower index (SPEC.md)."""
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


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Refunds: 14 days!", ["refunds", "14", "days"]),
        ("GIFT-Cards_are", ["gift", "cards", "are"]),
        ("Straße STRASSE", ["strasse", "strasse"]),  # case-folded
        ("cafe\u0301 naïve", ["cafe\u0301", "naïve"]),  # marks stay in their word
        ("東京タワーへ行く", ["東", "京", "タ", "ワ", "ー", "へ", "行", "く"]),
        ("abc東京", ["abc", "東", "京"]),
        ("नमस्ते दुनिया", ["नमस्ते", "दुनिया"]),
        ("\u0301x", ["x"]),  # a mark does not start a token
        ("😀 --- ...", []),
    ],
)
def test_tokens(text: str, tokens: list[str]) -> None:
    assert bm25_tokens(text) == tokens


@settings(max_examples=200)
@given(st.text(st.characters(codec="utf-8") | st.sampled_from("aZ9_-.,' \n東ー\u0301")))
def test_the_fast_path_gives_the_tokens_of_the_full_pattern(text: str) -> None:
    assert bm25_tokens(text) == [t.casefold() for t in bm25._TOKEN.findall(text)]

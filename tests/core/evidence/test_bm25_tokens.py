"""BM25 tokens (docs/decisions.md "Evidence check"): case-folded runs of letters and
digits, each Han, Hiragana or Katakana character its own token; the same in CPython and Pyodide."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py.measures import bm25
from chunker_py.measures.bm25 import bm25_tokens


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

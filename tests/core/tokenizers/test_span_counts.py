"""Span counts (``bpe.SpanCounts``): the count of any span of a text from the whole text's
words, counted once, as CPython's tiktoken tokenizer measures a split's pieces and chunks.
Every span's count must equal the count of its sliced text, whatever white space the text
holds (spaces after white space are no cuts), and the pieces the Recursive rule cuts at
single spaces must count as their texts do."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py.tokenizers.bpe import BpeTokenizer, SpanCounts

from .test_word_counts import NAMES, SPACED, TEXTS, TOKENIZERS, WORDY


def reference(tokenizer: BpeTokenizer, text: str) -> int:
    """The count of a text as ``count`` finds it, without its count cache."""
    return tokenizer._count(text)


TEXT = TEXTS | WORDY | SPACED | st.just("  lead, tail  ") | st.just("a\t \n b  c")


@given(text=TEXT, data=st.data())
@example(text=" x  y\t z\n ", data=None)
@example(text="\t \n", data=None)
@pytest.mark.parametrize("name", NAMES)
def test_every_span_counts_as_its_text(name: str, text: str, data: st.DataObject | None) -> None:
    tokenizer = TOKENIZERS[name]
    spans = SpanCounts(tokenizer, text)
    if data is None:  # every span of a small example
        pairs = [(a, b) for a in range(len(text) + 1) for b in range(a, len(text) + 1)]
    else:
        ends = st.integers(0, len(text))
        pairs = data.draw(st.lists(st.tuples(ends, ends).map(sorted), max_size=12))
    for start, end in pairs:
        assert spans.count(start, end) == reference(tokenizer, text[start:end]), (start, end)


@given(text=TEXT, data=st.data())
@example(text="one two  three\t four five", data=None)
@pytest.mark.parametrize("name", NAMES)
def test_pieces_count_as_their_texts(name: str, text: str, data: st.DataObject | None) -> None:
    """Pieces at every space (the " " separator's, the slice of the words' counts where
    the spaces are cuts) and at random bounds."""
    tokenizer = TOKENIZERS[name]
    spans = SpanCounts(tokenizer, text)
    at_spaces = [0, *(i for i, char in enumerate(text) if char == " " and i), len(text)]
    cuts = [sorted(set(at_spaces))]
    if data is not None:
        drawn = data.draw(st.lists(st.integers(0, len(text))))
        cuts.append(sorted({*drawn, 0, len(text)}))
    for bounds in cuts:
        if len(bounds) < 2:
            continue
        expected = [reference(tokenizer, text[a:b]) for a, b in pairwise(bounds)]
        assert spans.piece_counts(bounds) == expected, bounds


def test_a_planted_cut_after_white_space_is_caught() -> None:
    """The fault these tests rule out: a span counted word by word across a space that
    follows white space ("\\t " is one cl100k_base piece with the tab's newline run)."""
    tokenizer = TOKENIZERS["cl100k_base"]
    text = "a\t \nb"
    words = text.split(" ")
    word_sum = reference(tokenizer, words[0]) + reference(tokenizer, " " + words[1])
    assert word_sum != reference(tokenizer, text)
    assert SpanCounts(tokenizer, text).count(0, len(text)) == reference(tokenizer, text)

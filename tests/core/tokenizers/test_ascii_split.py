"""cl100k_base and o200k_base count an ASCII text with ``ascii_pattern``, their split
pattern rewritten over ASCII characters, instead of translating the text to class codes
(a faster count). The rewrite must find exactly the spans the class-code split finds, and the
counts must equal the piece-by-piece ones (a rewrite that drops one character from one
class fails here: see ``test_a_class_missing_one_character_is_caught``)."""

from __future__ import annotations

import re
from collections.abc import Generator
from functools import cache
from itertools import product

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from chunker_py.tokenizers.base import drive
from chunker_py.tokenizers.bpe import PATTERNS, BpeTokenizer, ClassCodes, ascii_pattern

NAMES = ("cl100k_base", "o200k_base")
CODES = ClassCodes()
SPLITS = {name: re.compile(PATTERNS[name]()) for name in NAMES}
TOKENIZERS = {name: BpeTokenizer(name) for name in NAMES}  # counts not through its cache
ASCII_SPLITS = {name: re.compile(ascii_pattern(PATTERNS[name]())) for name in NAMES}
# every character the patterns tell apart, the literals (contractions, CR, LF, space) and
# the white space around them (VT, FF, and the separators \x1c-\x1f that str.isspace
# calls space but Unicode's White_Space does not)
TRICKY = "'sStTdDmMlLvVeErRaZ09 \t\n\r\x0b\x0c\x1c\x1f\x00\x01\x07!/.-_"
ASCII = st.text(st.sampled_from(TRICKY) | st.characters(max_codepoint=127), max_size=60)


def code_spans(name: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in SPLITS[name].finditer(text.translate(CODES))]


def ascii_spans(name: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in ASCII_SPLITS[name].finditer(text)]


@pytest.mark.parametrize("name", NAMES)
@given(text=ASCII)
@example(text="'ll 'LL 'Ve x's ")
@example(text="word  \n\n  next\t\x0b\x0c")
@example(text="a  ")
@example(text="\x1c\x1d a\x1f")
@example(text="1234567 12 a1b2")
@example(text="ABCdefGHI's DEF/\n")
@example(text="")
def test_the_ascii_pattern_finds_the_class_code_spans(name: str, text: str) -> None:
    assert ascii_spans(name, text) == code_spans(name, text)


SHORT = [chr(a) + chr(b) for a in range(128) for b in range(128)] + [
    "".join(t) for t in product(TRICKY, repeat=3)
]


@cache
def short_code_spans(name: str) -> list[list[tuple[int, int]]]:
    return [code_spans(name, t) for t in SHORT]


def differing(name: str, split: re.Pattern[str]) -> list[str]:
    """The short texts (every ASCII character alone and every pair, then every triple of
    ``TRICKY``) on which ``split`` over the text and the class-code split differ."""
    return [
        t
        for t, spans in zip(SHORT, short_code_spans(name), strict=True)
        if [m.span() for m in split.finditer(t)] != spans
    ]


@pytest.mark.parametrize("name", NAMES)
def test_every_short_ascii_text_splits_alike(name: str) -> None:
    wrong = differing(name, ASCII_SPLITS[name])
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dropped", ["\\x0b", "\\x30", "\\x41"])
def test_a_class_missing_one_character_is_caught(name: str, dropped: str) -> None:
    """The planted fault: one character (VT, 0, A) left out of the rewrite."""
    broken = re.compile(ascii_pattern(PATTERNS[name]()).replace(dropped, ""))
    assert differing(name, broken)


@pytest.mark.parametrize("name", NAMES)
@given(text=ASCII | st.text(max_size=40))
@example(text="héllo wörld 'll")
def test_counts_equal_the_piece_by_piece_counts(name: str, text: str) -> None:
    tokenizer = TOKENIZERS[name]
    tokenizer._pieces.clear()
    assert tokenizer._count(text) == drive(tokenizer._count_pieces_steps(text))  # cold
    assert tokenizer._count(text) == drive(tokenizer._count_pieces_steps(text))  # cached


@pytest.mark.parametrize("name", NAMES)
def test_a_cached_ascii_text_is_counted_without_the_piece_loop(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokenizer = TOKENIZERS[name]
    text = "It's 42 words,\n\n  and  some   space\t\n"
    expected = drive(tokenizer._count_pieces_steps(text))

    def refuse(text: str) -> None:
        raise AssertionError("the piece loop ran")

    monkeypatch.setattr(tokenizer, "_count_pieces_steps", refuse)
    assert tokenizer._count(text) == expected


@pytest.mark.parametrize("name", NAMES)
def test_an_ascii_text_with_new_pieces_merges_each_once_without_the_piece_loop(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokenizer = TOKENIZERS[name]
    text = "zyxw zyxw zyxw, qvqv zyxw"
    expected = drive(BpeTokenizer(name)._count_pieces_steps(text))
    tokenizer._pieces.clear()
    tokenizer._pieces["zyxw"] = tokenizer.piece_lengths("zyxw")  # one piece already known
    merged: list[str] = []
    piece_steps = tokenizer._piece_steps

    def spy(piece: str) -> Generator[int, None, tuple[int, ...]]:
        merged.append(piece)
        return (yield from piece_steps(piece))

    def refuse(text: str) -> None:
        raise AssertionError("the piece loop ran")

    monkeypatch.setattr(tokenizer, "_piece_steps", spy)
    monkeypatch.setattr(tokenizer, "_count_pieces_steps", refuse)
    assert tokenizer._count(text) == expected
    assert merged == [" zyxw", ",", " qvqv"]

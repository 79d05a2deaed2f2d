"""cl100k_base and o200k_base count a text in which no space follows a whitespace
character word by word: its first word's count plus, for each later word, the
count of a space and that word, each cached; a text beyond ASCII with such a space is cut
at the other spaces only, and counted so. The counts must equal the piece loop's over the
whole text (and tiktoken's: tests/core/tokenizers/test_native.py); a text with a space
after whitespace (``"\\t \\n"``, where cl100k_base's ``\\s*[\\r\\n]`` takes the space into
the tab's piece) must not be cut there."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py.tokenizers import bpe
from chunker_py.tokenizers import unicode_classes as uc
from chunker_py.tokenizers.base import drive
from chunker_py.tokenizers.bpe import _CUT, _SPACE_AFTER_SPACE, BpeTokenizer

NAMES = ("cl100k_base", "o200k_base")
# what the patterns tell apart, their literals, and the white space around a space:
# VT, FF, NEL, NBSP, ideographic space, line separator, the \x1c-\x1f separators
# str.isspace calls space but Unicode's White_Space does not, a zero-width space (not
# space to either), a lone surrogate, astral and combining characters
TRICKY = (
    "'sStTdDmMlLvVeErR\u017faZ09/.!-_ \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u3000\u2028\u200b"
    "\ud83d\u0301中😀Ωω"
)
TEXTS = st.text(st.sampled_from(TRICKY) | st.characters(), max_size=80)
# texts the word path takes: words of anything but a space, joined by single spaces,
# each word ending outside white space
WORD = st.text(
    st.sampled_from(TRICKY.replace(" ", "")) | st.characters(exclude_characters=" "), max_size=8
).map(lambda w: w.rstrip() if w.strip() else "x")
WORDY = st.lists(WORD, max_size=20).map(" ".join)
# texts beyond ASCII with spaces after white space among the others (the cut path)
GAPS = st.sampled_from([" ", " ", " ", "  ", "\t ", "\n ", " \n ", "\u3000 ", "\xa0 ", "\r\n "])
SPACED = st.lists(st.tuples(WORD, GAPS), max_size=12).map(
    lambda parts: "é" + "".join(word + gap for word, gap in parts)
)


def whole(tokenizer: BpeTokenizer, text: str) -> int:
    """The count from the pieces of the whole text (no word path, no count cache)."""
    return drive(tokenizer._count_text_steps(text))


def fresh(name: str) -> BpeTokenizer:
    tokenizer = BpeTokenizer(name)
    tokenizer.load()
    return tokenizer


TOKENIZERS = {name: fresh(name) for name in NAMES}


def test_every_character_the_patterns_call_space_is_a_python_space() -> None:
    """``_SPACE_AFTER_SPACE`` uses ``re``'s ``\\s`` (``str.isspace``): it must find a space
    after every character in the patterns' whitespace class."""
    ranges = zip(uc.WHITE_SPACE[::2], uc.WHITE_SPACE[1::2], strict=True)
    spaces = [chr(c) for start, end in ranges for c in range(start, end + 1)]
    assert len(spaces) >= 25  # Unicode's White_Space
    for char in [*spaces, "\r", "\n", " "]:
        assert bpe.class_code(ord(char)) in (bpe.SPACE_CODE, "\r", "\n", " ")
        assert _SPACE_AFTER_SPACE.search("a" + char + " b"), repr(char)
        # never cut at the space after it (a space's own space before is a cut: "a| b")
        uncut = ["a", " b"] if char == " " else ["a" + char + " b"]
        assert _CUT.split("a" + char + " b") == uncut, repr(char)
    assert _CUT.split(" a\u200b b") == [" a\u200b", "b"]  # ZWSP is not space to either


@pytest.mark.parametrize("name", NAMES)
@given(text=TEXTS)
@example(text="a\t \nb")  # cl100k: "\t \n" is one piece
@example(text="é\t \nb")  # the same beyond ASCII, where the text is cut at other spaces
@example(text="été \u3000 là\xa0 x  y")
@example(text="x\n \ny")
@example(text="a \u3000 b")
@example(text="end. \n")
@example(text=" lead and trail ")
@example(text="don't 's 'LL \u017f")
@example(text="\ud83d \ude00 😀 x")
@example(text="1234 5678 a/ b/\n c")
@example(text="")
def test_counts_equal_the_whole_texts_pieces(name: str, text: str) -> None:
    tokenizer = TOKENIZERS[name]
    assert drive(tokenizer._count_steps(text)) == whole(tokenizer, text)


@pytest.mark.parametrize("name", NAMES)
@given(text=WORDY)
@settings(max_examples=300)
def test_texts_of_words_take_the_word_path_and_count_the_same(name: str, text: str) -> None:
    tokenizer = TOKENIZERS[name]
    assert _SPACE_AFTER_SPACE.search(text) is None
    assert drive(tokenizer._count_words_steps(text.split(" "))) == whole(tokenizer, text)
    assert drive(tokenizer._count_words_steps(_CUT.split(text))) == whole(tokenizer, text)


@pytest.mark.parametrize("name", NAMES)
@given(text=SPACED)
@settings(max_examples=300)
def test_texts_cut_at_the_spaces_after_other_characters_count_the_same(
    name: str, text: str
) -> None:
    tokenizer = TOKENIZERS[name]
    assert drive(tokenizer._count_steps(text)) == whole(tokenizer, text)


@pytest.mark.parametrize("name", NAMES)
def test_only_the_words_are_counted_and_each_once(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokenizer = fresh(name)
    seen: list[str] = []
    real = tokenizer._count_text_steps

    def spy(text: str):  # type: ignore[no-untyped-def]
        seen.append(text)
        return (yield from real(text))

    monkeypatch.setattr(tokenizer, "_count_text_steps", spy)
    text = "the cat saw the\tdog, the end"
    assert tokenizer.count(text) == whole(fresh(name), text)
    assert seen == ["the", " cat", " saw", " the\tdog,", " the", " end"]
    seen.clear()
    assert tokenizer.count("the end the cat") == whole(fresh(name), "the end the cat")
    assert seen == []  # every word known: no split, no merge
    tokenizer.count("the  cat")  # a space after a space: the whole text's pieces
    assert seen == ["the  cat"]
    seen.clear()
    # beyond ASCII, such a text is cut at the spaces that follow other characters only
    text = "été\t là  bas"
    assert tokenizer.count(text) == whole(fresh(name), text)
    assert seen == ["été\t là", "  bas"]

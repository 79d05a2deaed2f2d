"""The marks every sentence rule shares: terminators, openers and closers, letter classes
from the frozen tables (``sentence_chars``), the Greek and Armenian colon stops, and a
fast check of whether a character can occur in a text at all."""

# ruff: noqa: RUF001  (the rules name punctuation of many scripts)

from __future__ import annotations

import re
from bisect import bisect_right

from . import sentence_chars as chars

Spans = list[tuple[int, int]]


def _union(*tables: tuple[int, ...]) -> tuple[int, ...]:
    """The flat range table (first, last, first, last, …) of all the tables' code points."""
    runs = sorted((t[i], t[i + 1]) for t in tables for i in range(0, len(t), 2))
    merged: list[list[int]] = []
    for first, last in runs:
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return tuple(v for run in merged for v in run)


class _Chars:
    """Code points of frozen tables, tested one at a time by binary search: ``re`` takes
    up to 25 ms to compile a class of tens of thousands of letters, and the page would pay
    it for every such pattern at start-up."""

    __slots__ = ("extra", "seen", "table")

    def __init__(self, *tables: tuple[int, ...], extra: str = "") -> None:
        self.table = _union(*tables)
        self.extra = frozenset(extra)
        self.seen: dict[str, bool] = {}  # answers so far (at most one per code point)

    def has(self, char: str) -> bool:
        found = self.seen.get(char)
        if found is None:
            found = self.seen[char] = self._lookup(char)
        return found

    def _lookup(self, char: str) -> bool:
        if char in self.extra:
            return True
        code = ord(char)
        index = bisect_right(self.table, code)
        return index % 2 == 1 or (index > 0 and self.table[index - 1] == code)

    def match(self, text: str, position: int = 0) -> bool:
        """Whether ``text[position]`` is one of them (like a one-character pattern)."""
        return position < len(text) and self.has(text[position])


_UPPER_CHAR = _Chars(chars.UPPER)
_LOWER_START = _Chars(chars.LOWER)
_LETTER_CHARS = _Chars(chars.UPPER, chars.LOWER, chars.CASELESS)
_DIGIT_CHAR = _Chars(chars.DIGIT)
_CJK_CHAR = _Chars(chars.HAN, chars.HIRAGANA, chars.KATAKANA)
_GREEK_CHAR = _Chars(chars.GREEK)
_ARMENIAN_CHAR = _Chars(chars.ARMENIAN)

# Closing quotes and brackets. German closes with the English opening quotes (after the
# low ones) or with the guillemets pointing left (after those pointing right).
_CLOSERS = "\"'”’»“‘«)]}」』）】》〉›‹〕〗〙〛｣＂＇］｝`"
_OPENERS = "¿¡«„\"'([{“‘‚‹›»「『（【《〈〔＂＇`"
_BULLETS = "•◦▪‣⁃"
_UNCONDITIONAL = "。！？｡．।॥؟۔։።፧။។៕᠃"
_LATIN = ".!?…‼⁇⁈⁉"
_CLOSER_RUN = f"[{re.escape(_CLOSERS)}]*"  # ("''" too: "'" is a closer)

_TERMINATORS = _UNCONDITIONAL + _LATIN
_TERMINATOR_SET = frozenset(_TERMINATORS)


_ascii_part: tuple[str, str | None] = ("", None)


def _present(text: str, needle: str) -> bool:
    """``needle in text``; for ASCII in a text mostly beyond ASCII (Chinese, Japanese…),
    in the text's ASCII characters alone: ``in`` looks for an ASCII character in such a
    text about ten times slower than that copy costs. A needle of several characters may
    be found there when the text lacks it (never the reverse): only for "may be there"
    checks."""
    global _ascii_part
    if not needle.isascii():
        first = _block_start(text, needle[0])
        return first >= 0 and text.find(needle, first) >= 0
    if text.isascii():
        return needle in text
    if _ascii_part[0] is not text:
        head = text[:1000]
        mostly_ascii = len(head.encode("ascii", "ignore")) * 2 >= len(head)
        part = None if mostly_ascii else text.encode("ascii", "ignore").decode("ascii")
        _ascii_part = (text, part)
    part = _ascii_part[1]
    return needle in (text if part is None else part)


# The text whose UTF-32 second bytes are known (``sentence_spans`` notes them), and where
# the first of each of those bytes stands (found so far: one per block of 256 code points).
_blocks: tuple[str, bytes, dict[int, int]] = ("", b"", {})


def _note_blocks(text: str, seconds: bytes) -> None:
    global _blocks
    _blocks = (text, seconds, {})


def _block_start(text: str, char: str) -> int:
    """Where the first code point of ``char``'s block of 256 stands in ``text``, -1 when
    none does (known only for the text ``_note_blocks`` was given: else 0). One
    ``bytes.find`` (memchr) a block rules out the terminators and openers of other
    scripts, where ``in`` costs up to 14 µs a page beyond Latin-1 (it looks for the low
    byte, common in such text), and a search for one of them starts there."""
    known, seconds, seen = _blocks
    if known is not text:
        return 0
    block = ord(char) >> 8 & 0xFF
    found = seen.get(block)
    if found is None:
        found = seen[block] = seconds.find(block)
    return found


# the Greek and Armenian blocks: where ";" and ":" may be full stops (the letter before
# them is then checked exactly)
_GREEK_OR_ARMENIAN = re.compile("[\u0370-\u03ff\u1f00-\u1fff\u0530-\u058f]")
# the second byte of the UTF-32 form of their code points, and of Thai's
_GREEK_OR_ARMENIAN_BYTES = (b"\x03", b"\x05", b"\x1f")
_THAI_BYTES = (b"\x0e",)


def _first_of_block(seconds: bytes, marks: tuple[bytes, ...], start: int) -> int:
    """Where a code point of the blocks whose UTF-32 second byte is one of ``marks`` may
    first stand from ``start`` on (-1: nowhere), given ``seconds``, the second byte of
    each code point of the text: one ``bytes.find`` (memchr) per mark rules a block out,
    where a scan by ``re`` for a class costs about 0.1 ms a page beyond Latin-1."""
    found = [at for mark in marks if (at := seconds.find(mark, start)) >= 0]
    return min(found) if found else -1


def _colon_stops(text: str, start: int, end: int) -> bool:
    """Whether a ";" of the range follows a Greek letter or a ":" an Armenian one, as
    ``_colon_is_a_stop`` checks them (none at ``start``: a paragraph's first character
    ends nothing). Without one, ";" and ":" end no sentence and the terminator scan
    leaves them out (a few dozen matches fewer a page of Markdown that names a Greek or
    Armenian letter; ``str.find`` finds each colon far faster than a class would)."""
    for colon, letters in ((";", _GREEK_CHAR), (":", _ARMENIAN_CHAR)):
        at = text.find(colon, start + 1, end)
        while at >= 0:
            before = text[at - 1]
            if before > "\u036f" and letters.has(before):  # (no letter of theirs before U+0370)
                return True
            at = text.find(colon, at + 1, end)
    return False


_UNCONDITIONAL_SET = frozenset(_UNCONDITIONAL)
_QUESTION_OR_EXCLAMATION = frozenset("!?‼⁇⁈⁉")
_ASCII_LETTER_STRING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ASCII_LETTERS = frozenset(_ASCII_LETTER_STRING)
_ASCII_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
# ASCII characters after a terminator with no space that end no sentence: neither a
# capital (a sentence may start with no space), "[" (a footnote mark) nor white space
_NO_END_AFTER_DOT = frozenset(
    chr(code) for code in range(128) if not chr(code).isspace() and chr(code) not in _ASCII_UPPER
) - {"["}
_STARTS = _Chars(chars.UPPER, chars.CASELESS, chars.DIGIT, extra=_OPENERS + _BULLETS + "…")
_QUOTATIVE = frozenset("とっ")  # Japanese particles after a quotation: the sentence goes on
_DIGITS = frozenset("0123456789０１２３４５６７８９")
_QUOTATIVE_OR_DIGIT = _QUOTATIVE | _DIGITS
_TOKEN_LIMIT = 40  # how far back a word before a dot is looked for


def _colon_is_a_stop(text: str, first: int, start: int, lead: str) -> bool:
    """``;`` after a Greek letter (the question mark), ``:`` after an Armenian one."""
    if first == start:
        return False
    return bool((_ARMENIAN_CHAR if lead == ":" else _GREEK_CHAR).match(text, first - 1))


def _add_trimmed(text: str, start: int, end: int, out: Spans) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        out.append((start, end))

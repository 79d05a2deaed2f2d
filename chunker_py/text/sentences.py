"""Sentence boundaries (SPEC.md "Sentence mode"), shared by Sentence mode and the damage
figures.

- ``。！？．`` end a sentence unconditionally.
- ``. ! ?`` and ``؟ ۔ । ॥`` (runs of them) end a sentence when followed by whitespace and
  then an uppercase or caseless letter, a digit or an opener (``¿ ¡ « „ " ' ( [``), or by
  the end of the text. Closing quotes and brackets right after them stay with the sentence.
- ``…`` is not a terminator. A blank line always ends a sentence.
- A ``.`` right after a known abbreviation (built-in EN/DE/FR/ES list plus the user's,
  case-insensitive, trailing dot optional) ends nothing.

Known limit (seed 002): a German ordinal before a capitalised word ("am 3. Oktober") is
read as a sentence end.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ..engine.index import TextIndex, per_text

# Built-in abbreviations (compared lower-case, without a trailing dot).
ABBREVIATIONS: frozenset[str] = frozenset(
    a.lower()
    for a in (
        # English
        "Dr", "Mr", "Mrs", "Ms", "Prof", "St", "Sr", "Jr", "vs", "etc", "e.g", "i.e", "cf",
        "approx", "No", "Fig", "Vol", "Inc", "Ltd", "Co", "Corp", "Mt", "Jan", "Feb", "Mar",
        "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "a.m", "p.m",
        # German
        "Nr", "bzw", "z.B", "usw", "ca", "vgl", "ggf", "d.h", "u.a", "evtl", "inkl", "sog",
        "Hr", "Fr", "Str", "Abs", "Bsp",
        # French
        "M", "Mme", "Mlle", "MM", "env", "p.ex",
        # Spanish
        "Sra", "Srta", "Dña", "Ud", "Uds", "pág", "aprox",
    )
)  # fmt: skip

_LINE_BREAK = r"(?:\r\n|\r|\n)"
# A blank line: a line break, then any run of lines holding only whitespace.
_PARAGRAPH_BREAK = re.compile(rf"{_LINE_BREAK}(?:[^\S\r\n]*{_LINE_BREAK})+")
# Closing quotes and brackets. German closes with the English opening quotes (after the
# low ones) or with the guillemets pointing left (after those pointing right).
_CLOSERS = "\"'”’»“‘«)]}」』）】›‹"
_TERMINATOR = re.compile(rf"[.!?؟۔।॥]+[{re.escape(_CLOSERS)}]*|[。！？．]+[{re.escape(_CLOSERS)}]*")
_UNCONDITIONAL = frozenset("。！？．")
_OPENERS = frozenset("¿¡«„\"'([“‘‚‹")


def normalise_abbreviation(text: str) -> str:
    return text.removesuffix(".").lower()


def abbreviation_set(extra: Iterable[str] = ()) -> frozenset[str]:
    extra = tuple(extra)
    if not extra:
        return ABBREVIATIONS
    return ABBREVIATIONS | {normalise_abbreviation(a) for a in extra}


def starts_sentence(char: str) -> bool:
    """Whether a sentence may begin with ``char`` after a Latin-style terminator."""
    if char in _OPENERS:
        return True
    category = unicodedata.category(char)
    # Lu/Lt: capitals; Lo/Lm: letters of scripts without case; Nd: digits.
    return category in ("Lu", "Lt", "Lo", "Lm", "Nd")


def _abbreviated(text: str, dot: int, para_start: int, abbreviations: frozenset[str]) -> bool:
    """Whether the word ending at the ``.`` at ``dot`` is a known abbreviation."""
    begin = dot
    while begin > para_start and not text[begin - 1].isspace():
        begin -= 1
    word = text[begin:dot].lstrip("".join(_OPENERS))
    return bool(word) and normalise_abbreviation(word) in abbreviations


def paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` cut at blank lines (the blank lines themselves left out)."""
    out = []
    position = start
    for match in _PARAGRAPH_BREAK.finditer(text, start, end):
        out.append((position, match.start()))
        position = match.end()
    out.append((position, end))
    return out


def sentence_spans(
    text: str, start: int = 0, end: int | None = None, abbreviations: frozenset[str] = ABBREVIATIONS
) -> list[tuple[int, int]]:
    """The sentences of ``text[start:end]`` as ranges without edge whitespace, in order."""
    end = len(text) if end is None else end
    out: list[tuple[int, int]] = []
    for p_start, p_end in paragraphs(text, start, end):
        begin = p_start
        for match in _TERMINATOR.finditer(text, p_start, p_end):
            stop = match.end()
            if not _ends_here(text, match, p_start, p_end, abbreviations):
                continue
            _add_trimmed(text, begin, stop, out)
            begin = stop
        _add_trimmed(text, begin, p_end, out)
    return out


def _ends_here(
    text: str, match: re.Match[str], p_start: int, p_end: int, abbreviations: frozenset[str]
) -> bool:
    if match.group()[0] in _UNCONDITIONAL:
        return True
    stop = match.end()
    if stop < p_end and not text[stop].isspace():
        return False
    if match.group() == "." and _abbreviated(text, match.start(), p_start, abbreviations):
        return False
    following = stop
    while following < p_end and text[following].isspace():
        following += 1
    return following == p_end or starts_sentence(text[following])


def _add_trimmed(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        out.append((start, end))


@per_text
def sentences(index: TextIndex, abbreviations: tuple[str, ...]) -> list[tuple[int, int]]:
    """The text's sentences, cached per text and abbreviation list (Sentence mode and the
    damage figures share them)."""
    return sentence_spans(index.text, abbreviations=abbreviation_set(abbreviations))

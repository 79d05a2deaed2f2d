"""Extended grapheme cluster boundaries (UAX #29), one position at a time.

``unicodedata`` lacks the break properties (and its Unicode version differs by runtime), so
they come from ``grapheme_data``: tables generated from the ones ``wcwidth`` ships
(Unicode 18), decoded once on first use. The rules are those of Unicode 18, whose GB9c
(Indic conjuncts) is ``Linker Extend* (no break) Consonant``; browsers on Unicode 17 also ask for a
consonant before the linker, which is the one place where the two may differ.

A boundary question looks at the two code points around the position and, for GB9c, GB11
(emoji ZWJ sequences) and GB12/13 (flag pairs), at the run before it. Runs of regional
indicators are found once per text with a regular expression, so a text of 20 000 flags
costs no more per question than one flag.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

# Grapheme_Cluster_Break classes (the low four bits of a property value)
OTHER, CR, LF, CONTROL, EXTEND, ZWJ, RI, PREPEND, SPACING_MARK, L, V, T, HANGUL = range(13)
LV, LVT = 13, 14  # HANGUL split by code point
# flag bits
EXT_PICT, LINKER, CONSONANT, INCB_EXTEND = 16, 32, 64, 128

_HANGUL_FIRST, _HANGUL_T_COUNT = 0xAC00, 28
_BREAK_AFTER = frozenset((CONTROL, CR, LF))  # GB4
_HANGUL_NEXT = {L: frozenset((L, V, LV, LVT)), LV: frozenset((V, T)), V: frozenset((V, T))}
_HANGUL_NEXT[LVT] = _HANGUL_NEXT[T] = frozenset((T,))
# the first code point whose class is not Other, Control, CR or LF: below it, only CR LF
# is not a boundary (the damage figures check that first, too)
FIRST_MARK = "\u0300"
_RI_RUN = re.compile("[\U0001f1e6-\U0001f1ff]+")


@lru_cache(maxsize=1)
def _table() -> tuple[list[int], list[int]]:
    from .grapheme_data import RUNS

    starts, values = [], []
    for run in RUNS.split():
        start, value = run.split(":")
        starts.append(int(start, 16))
        values.append(int(value, 16))
    return starts, values


@lru_cache(maxsize=4096)
def properties(char: str) -> int:
    """The property value of one code point: its class plus flag bits."""
    cp = ord(char)
    starts, values = _table()
    value = values[bisect_right(starts, cp) - 1]
    if value & 15 == HANGUL:
        value += LV - HANGUL if (cp - _HANGUL_FIRST) % _HANGUL_T_COUNT == 0 else LVT - HANGUL
    return value


class Graphemes:
    """Answers "is ``p`` a grapheme cluster boundary of ``text``?" for any ``p``."""

    __slots__ = ("_ri_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._ri_starts: list[int] | None = None

    def is_boundary(self, p: int) -> bool:
        text = self.text
        if p <= 0 or p >= len(text):
            return True  # GB1, GB2
        before, after = text[p - 1], text[p]
        if before < FIRST_MARK and after < FIRST_MARK:
            # no marks, joiners, prepends or Hangul below U+0300: only CR LF holds together
            return not (before == "\r" and after == "\n")
        left, right = properties(before), properties(after)
        a, b = left & 15, right & 15
        if a == CR and b == LF:  # GB3
            return False
        if a in _BREAK_AFTER or b in _BREAK_AFTER:  # GB4, GB5
            return True
        if b in _HANGUL_NEXT.get(a, ()):  # GB6, GB7, GB8
            return False
        if b in (EXTEND, ZWJ, SPACING_MARK) or a == PREPEND:  # GB9, GB9a, GB9b
            return False
        if right & CONSONANT and self._after_linker(p):  # GB9c
            return False
        if a == ZWJ and right & EXT_PICT and self._pictograph_before(p - 1):  # GB11
            return False
        if a == RI and b == RI:  # GB12, GB13: pairs from the start of the run
            return (p - self._ri_run_start(p - 1)) % 2 == 0
        return True  # GB999

    def _after_linker(self, p: int) -> bool:
        """GB9c (Unicode 18): ``Linker InCB_Extend*`` ends right before ``p``."""
        i = p - 1
        while i >= 0:
            value = properties(self.text[i])
            if value & LINKER:
                return True
            if not value & INCB_EXTEND:
                return False
            i -= 1
        return False

    def _pictograph_before(self, zwj: int) -> bool:
        """GB11: ``ExtPict Extend*`` ends right before the ZWJ at ``zwj``."""
        i = zwj - 1
        while i >= 0:
            value = properties(self.text[i])
            if value & EXT_PICT:
                return True
            if value & 15 != EXTEND:
                return False
            i -= 1
        return False

    def _ri_run_start(self, position: int) -> int:
        """Where the run of regional indicators holding ``position`` starts."""
        if self._ri_starts is None:
            self._ri_starts = [match.start() for match in _RI_RUN.finditer(self.text)]
        return self._ri_starts[bisect_right(self._ri_starts, position) - 1]


def is_boundary(text: str, p: int) -> bool:
    """Whether ``p`` is an extended grapheme cluster boundary of ``text`` (one question;
    keep a ``Graphemes`` for many)."""
    return Graphemes(text).is_boundary(p)


def boundaries(text: str) -> list[int]:
    """Every boundary of ``text``, 0 and ``len(text)`` included (for tests and tools)."""
    graphemes = Graphemes(text)
    return [p for p in range(len(text) + 1) if graphemes.is_boundary(p)]

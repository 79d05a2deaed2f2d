"""The shared engine: spans, edge trimming and the whole-piece merge.

Everything works on code-point positions in the source string. A piece is the range between
two consecutive boundaries; merging never builds text, so its cost depends on the number of
chunks, not on their length.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import NamedTuple

_WHITESPACE_RUN = re.compile(r"\s+")  # same set as str.isspace(); a test checks every code point


class Span(NamedTuple):
    """A chunk's source range ``[start, end)``.

    ``whole`` marks a terminal piece that no remaining separator could split: it is emitted
    unchanged (never trimmed) and may be longer than the chunk size.
    """

    start: int
    end: int
    whole: bool = False


Emit = Callable[[int, int], None]


class EdgeIndex:
    """Trims ranges of one text in O(log r) time, r being the number of whitespace runs."""

    __slots__ = ("_ends", "_starts")

    def __init__(self, text: str) -> None:
        starts: list[int] = []
        ends: list[int] = []
        for match in _WHITESPACE_RUN.finditer(text):
            starts.append(match.start())
            ends.append(match.end())
        self._starts = starts
        self._ends = ends

    def trim(self, start: int, end: int) -> tuple[int, int]:
        """Return ``[start, end)`` without whitespace at either edge; empty means start == end."""
        starts, ends = self._starts, self._ends
        run = bisect_right(starts, start) - 1
        if run >= 0 and ends[run] > start:
            start = min(ends[run], end)
        if start >= end:
            return end, end
        run = bisect_right(starts, end - 1) - 1
        if run >= 0 and ends[run] > end - 1:
            end = max(starts[run], start)
        return start, end


def merge_pieces(
    bounds: Sequence[int], lo: int, hi: int, size: int, overlap: int, emit: Emit
) -> None:
    """Merge the pieces ``bounds[i]..bounds[i+1]`` for ``lo <= i < hi`` like LangChain does.

    Pieces are added while the next one fits; when it does not, the current chunk is emitted
    and whole pieces are dropped from its front until the retained length is at most
    ``overlap`` and the next piece fits. Every piece is shorter than ``size``. Both steps are
    binary searches over the boundaries, so the cost is O(chunks · log pieces).
    """
    first = lo
    while True:
        last = bisect_right(bounds, bounds[first] + size, first, hi + 1) - 1
        emit(bounds[first], bounds[last])
        if last >= hi:
            return
        floor = max(bounds[last] - overlap, bounds[last + 1] - size)
        first = bisect_left(bounds, floor, first, last + 1)


def merge_units(start: int, end: int, size: int, overlap: int, emit: Emit) -> None:
    """``merge_pieces`` for one-code-point pieces, where the searches become arithmetic."""
    first = start
    while True:
        last = min(first + size, end)
        emit(first, last)
        if last >= end:
            return
        first = max(last - overlap, last + 1 - size)

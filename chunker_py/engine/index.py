"""The text index: facts about one text kept across splits (edge trimming, whitespace runs,
cached piece bounds and the facts other layers cache per text)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from .spans import window_count

P = ParamSpec("P")
T = TypeVar("T")

_WHITESPACE_RUN = re.compile(r"\s+")  # = str.isspace(); test_invariants checks each code point
_LONG_RUN = re.compile(r"\s{32,}")  # runs of at least TextIndex._SHORT


class TextIndex:
    """Facts about one text reused across splits: edge trimming and cached piece bounds.

    Most chunk edges are not whitespace or sit next to a short run, so those are checked
    directly; an index of whitespace runs (O(log r) a lookup) is built the first time an
    edge sits in a long run, so long runs are never rescanned chunk after chunk.
    """

    __slots__ = ("_ends", "_facts", "_long", "_starts", "pieces", "text")

    _SHORT = 32  # longest run handled by direct scanning

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        self._ends: list[int] = []
        self._long: tuple[list[int], list[int]] | None = None
        # (start, end, separator) -> piece bounds; shared by the trade-off sizes
        self.pieces: dict[tuple[int, int, str, bool], list[int]] = {}
        # what ``per_text`` functions found: (function, arguments) -> result
        self._facts: dict[tuple[object, ...], Any] = {}

    def _runs(self) -> tuple[list[int], list[int]]:
        if self._starts is None:
            starts: list[int] = []
            ends = self._ends
            for match in _WHITESPACE_RUN.finditer(self.text):
                starts.append(match.start())
                ends.append(match.end())
            self._starts = starts
        return self._starts, self._ends

    def _long_runs(self) -> tuple[list[int], list[int]]:
        """Starts and ends of the whitespace runs of ``_SHORT`` or more code points: an
        edge the direct scan found ``_SHORT`` whitespace code points from lies in one."""
        if self._long is None:
            runs = [m.span() for m in _LONG_RUN.finditer(self.text)]
            self._long = [a for a, _b in runs], [b for _a, b in runs]
        return self._long

    def trim(self, start: int, end: int) -> tuple[int, int]:
        """Return ``[start, end)`` without whitespace at either edge; empty means start == end."""
        text = self.text
        if text[start].isspace():
            limit = min(end, start + self._SHORT)
            while start < limit and text[start].isspace():
                start += 1
            if start == limit and limit < end:
                starts, ends = self._long_runs()
                run = bisect_right(starts, start) - 1
                if run >= 0 and ends[run] > start:
                    start = min(ends[run], end)
            if start >= end:
                return end, end
        if text[end - 1].isspace():
            limit = max(start, end - self._SHORT)
            while end > limit and text[end - 1].isspace():
                end -= 1
            if end == limit and limit > start:
                starts, ends = self._long_runs()
                run = bisect_right(starts, end - 1) - 1
                if run >= 0 and ends[run] > end - 1:
                    end = max(starts[run], start)
        return start, end

    def skip_space(self, position: int) -> int:
        """The first position at or after ``position`` that is not whitespace (or the end).

        A short run is matched directly; the run index is built only for a long one."""
        text = self.text
        if position < len(text) and text[position].isspace():
            limit = position + self._SHORT
            run = _WHITESPACE_RUN.match(text, position, limit)
            assert run is not None
            if run.end() < limit or run.end() >= len(text):
                return run.end()
            starts, ends = self._long_runs()
            return ends[bisect_right(starts, position) - 1]
        return position

    def skip_space_back(self, position: int) -> int:
        """The smallest ``q <= position`` with only whitespace in ``[q, position)``.

        A short run is scanned directly; the run index is built only for a long one."""
        text = self.text
        if position > 0 and text[position - 1].isspace():
            q, limit = position - 1, max(0, position - self._SHORT)
            while q > limit and text[q - 1].isspace():
                q -= 1
            if q > limit or q == 0:
                return q
            starts, _ends = self._long_runs()
            return starts[bisect_right(starts, position - 1) - 1]
        return position

    def blank_windows(self, start: int, end: int, size: int, overlap: int) -> int:
        """How many of the windows over ``[start, end)`` hold only whitespace."""
        total = window_count(end - start, size, overlap)
        if total == 0:
            return 0
        advance = size - overlap
        last_start = start + (total - 1) * advance
        starts, ends = self._runs()
        blank = 0
        for run in range(bisect_right(ends, start), bisect_left(starts, end)):
            lo, hi = max(starts[run], start), min(ends[run], end)
            # windows before the last are [a, a + size) with a = start + k * advance
            first_k = -(-(lo - start) // advance)
            last_k = min((hi - size - start) // advance, total - 2)
            if hi - size >= start and last_k >= first_k:
                blank += last_k - first_k + 1
            if lo <= last_start and hi == end:  # the last window ends at ``end``
                blank += 1
        return blank


def per_text(
    compute: Callable[Concatenate[TextIndex, P], T],
) -> Callable[Concatenate[TextIndex, P], T]:
    """``compute(index, *args)`` computed once per text and arguments, and kept in the
    index (a Markdown parse, sentences, token ends ...): a settings change, the trade-off
    sizes and the comparison rows re-derive nothing. The arguments must be hashable; the
    function itself is the key, so no two callers can collide."""

    @wraps(compute)
    def cached(index: TextIndex, /, *args: P.args, **kwargs: P.kwargs) -> T:
        key = (compute, args, *kwargs.items())
        facts = index._facts
        if key in facts:
            found: T = facts[key]
            return found
        value = facts[key] = compute(index, *args, **kwargs)
        return value

    return cached


def computed(index: TextIndex, fact: Callable[..., object], *args: object) -> bool:
    """Whether ``fact`` (a ``per_text`` function) is kept in ``index`` for ``args``: a
    caller can then tell a long computation from a look-up before making it."""
    return (getattr(fact, "__wrapped__", fact), args) in index._facts

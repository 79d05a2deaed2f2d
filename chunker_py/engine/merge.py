"""The shared engine: the whole-piece merge and the chunk sink (spans: ``spans.py``; edge
trimming: ``index.py``).

Everything works on code-point positions in the source string. A piece is the range between
two consecutive boundaries; merging never builds text, so its cost depends on the number of
chunks, not on their length. Runs of one-code-point pieces merge exactly like fixed windows
and are counted arithmetically when their spans are not needed.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .index import TextIndex
from .sizer import Sizer
from .spans import Span, SpanMeta, window_count

Emit = Callable[[int, int], None]


class Sink:
    """Receives chunks as the modes find them; keeps spans until ``keep`` is exceeded and
    then only counts, so counts stay exact and cheap above any limit."""

    __slots__ = ("_index", "_keep", "_text", "context", "count", "spans", "trim")

    def __init__(self, index: TextIndex, *, trim: bool, keep: int | None = None) -> None:
        self._index = index
        self._text = index.text
        self.trim = trim
        self.count = 0
        self.spans: list[Span] | None = [] if keep is None or keep > 0 else None
        self._keep = keep
        # metadata for spans added without their own (e.g. a section's heading path)
        self.context: SpanMeta | None = None

    def finished(self, start: int, end: int, meta: SpanMeta | None = None) -> None:
        """A chunk a mode has already shaped (its edges are final): kept as it is."""
        self._add(Span(start, end, False, meta))

    def merged(self, start: int, end: int) -> None:
        """A merged chunk: trimmed when trimming, dropped when nothing remains."""
        if self.trim:
            text = self._text
            if text[start].isspace() or text[end - 1].isspace():
                if self.spans is None and not (text[start].isspace() and text[end - 1].isspace()):
                    self.count += 1  # counting only: one non-space edge means it stays
                    return
                start, end = self._index.trim(start, end)
                if start == end:
                    return
        self._add(Span(start, end))

    def whole(self, start: int, end: int) -> None:
        """A terminal piece no separator could split: kept as it is."""
        self._add(Span(start, end, True))

    def replay(self, offset: int, chunks: Sequence[tuple[int, int, bool]]) -> None:
        """Chunks found before for the same text elsewhere, ``(start, end, whole)`` relative
        to ``offset``: added as they are (already trimmed, blank ones already dropped)."""
        for start, end, whole in chunks:
            self._add(Span(offset + start, offset + end, whole))

    def _add(self, span: Span) -> None:
        self.count += 1
        if self.spans is not None:
            if span.meta is None and self.context is not None:
                span = span._replace(meta=self.context)
            if self._keep is not None and self.count > self._keep:
                self.spans = None
            else:
                self.spans.append(span)

    def windows(
        self, start: int, end: int, size: int, overlap: int, meta: SpanMeta | None = None
    ) -> None:
        """Fixed windows over ``[start, end)``: merged chunks of one-code-point pieces."""
        total = window_count(end - start, size, overlap)
        blank: int | None = None
        if self.spans is not None and self._keep is not None and self.count + total > self._keep:
            # windows that trim to nothing are dropped: only the others count toward ``keep``
            blank = self._index.blank_windows(start, end, size, overlap) if self.trim else 0
            if self.count + total - blank > self._keep:
                self.spans = None
        if self.spans is None:
            if blank is None:
                blank = self._index.blank_windows(start, end, size, overlap) if self.trim else 0
            self.count += total - blank
            return
        advance = size - overlap
        for a in range(start, start + total * advance, advance):
            if meta is None:
                self.merged(a, min(a + size, end))
            else:
                b = min(a + size, end)
                if self.trim:
                    a, b = self._index.trim(a, b)
                if a < b:
                    self._add(Span(a, b, False, meta))


@dataclass(frozen=True)
class Job:
    """One split of one text: what every mode's ``feed`` receives besides its options."""

    text: str
    index: TextIndex
    sink: Sink
    sizer: Sizer
    size: int
    overlap: int


def merge_pieces(
    bounds: Sequence[int],
    lo: int,
    hi: int,
    size: int,
    overlap: int,
    emit: Emit,
    cum: Sequence[int] | None = None,
) -> None:
    """Merge the pieces ``bounds[i]..bounds[i+1]`` for ``lo <= i < hi`` like LangChain does.

    Pieces are added while the next one fits; when it does not, the current chunk is emitted
    and whole pieces are dropped from its front until the retained size is at most
    ``overlap`` and the next piece fits. Every piece is at most ``size``. ``cum[i]`` is the
    summed size of the pieces before boundary ``i`` (LangChain adds piece lengths); for
    code points it is ``bounds`` itself. Both steps are binary searches over ``cum``, so the
    cost is O(chunks · log pieces).
    """
    if cum is None:
        cum = bounds
    first = lo
    while True:
        last = bisect_right(cum, cum[first] + size, first, hi + 1) - 1
        emit(bounds[first], bounds[last])
        if last >= hi:
            return
        floor = max(cum[last] - overlap, cum[last + 1] - size)
        first = bisect_left(cum, floor, first, last + 1)


Measure = Callable[[int, int], int]


def pack_units(
    units: Sequence[tuple[int, int]],
    lo: int,
    hi: int,
    size: int,
    overlap: int,
    measure: Measure,
    emit: Emit,
) -> None:
    """Pack whole units (sentences, blocks) ``units[lo:hi]``, each at most ``size``, into
    chunks ``[start of first, end of last]`` measured as one slice, the text between
    units included. The next chunk repeats the longest run of trailing units that fits in
    ``overlap`` and still leaves room for the next unit. Binary searches over units, so
    the cost is O(chunks · log units) measurements.
    """
    first = lo
    while first < hi:
        start = units[first][0]
        last = (
            first
            + bisect_right(range(first, hi), size, key=lambda k: measure(start, units[k][1]))
            - 1
        )
        last = max(last, first)
        emit(start, units[last][1])
        if last + 1 >= hi:
            return
        end, following = units[last][1], units[last + 1][1]

        def carried(j: int, end: int = end, following: int = following) -> bool:
            a = units[j][0]
            return measure(a, end) <= overlap and measure(a, following) <= size

        first = (
            first + 1 + bisect_left(range(first + 1, last + 1), True, key=carried)
            if overlap > 0
            else last + 1
        )

"""Fixed mode: windows of ``size`` code points advancing by ``size - overlap``.

Window i (from 1) is ``[a, min(a + size, N))`` with ``a = (i - 1)(size - overlap)``;
splitting stops at the first window that reaches N. Each window is trimmed on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._engine import EdgeIndex, Span


def window_count(length: int, size: int, overlap: int) -> int:
    """The number of raw windows: 1 + ceil((N - C) / d) for N > C, before trimming."""
    if length == 0:
        return 0
    if length <= size:
        return 1
    advance = size - overlap
    return 1 + -(-(length - size) // advance)


def split_spans(
    text: str,
    *,
    size: int,
    overlap: int,
    trim: bool,
    separators: Sequence[str] = (),
    edges: EdgeIndex | None = None,
) -> list[Span]:
    """Return the retained windows of ``text`` as spans in source order."""
    del separators  # fixed windows ignore separators
    length = len(text)
    advance = size - overlap
    starts = range(0, window_count(length, size, overlap) * advance, advance)
    if not trim:
        return [Span(a, min(a + size, length)) for a in starts]
    if edges is None:
        edges = EdgeIndex(text)
    spans = []
    for a in starts:
        start, end = edges.trim(a, min(a + size, length))
        if start < end:
            spans.append(Span(start, end))
    return spans

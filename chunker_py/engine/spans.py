"""Spans: a chunk is a code-point range ``[start, end)`` of the source, plus what its mode
knows about it; and the arithmetic of fixed windows over a range."""

from __future__ import annotations

from typing import NamedTuple


class SpanMeta(NamedTuple):
    """What a mode knows about a chunk beyond its range.

    ``prefix`` is context the mode would prepend when embedding (a heading breadcrumb, a
    repeated table header); it is never part of the chunk's text. ``note`` says why a
    chunk breaks the mode's usual rule (e.g. a sentence too long for the size).
    """

    heading_path: str = ""
    prefix: str = ""
    note: str = ""


class Span(NamedTuple):
    """A chunk's source range ``[start, end)``.

    ``whole`` marks a terminal piece that no remaining separator could split: it is emitted
    unchanged (never trimmed) and may be longer than the chunk size.
    """

    start: int
    end: int
    whole: bool = False
    meta: SpanMeta | None = None


def window_count(length: int, size: int, overlap: int) -> int:
    """Raw windows over ``length`` code points: 1 + ceil((N - C) / (C - O)) when N > C."""
    if length <= 0:
        return 0
    if length <= size:
        return 1
    return 1 + -(-(length - size) // (size - overlap))

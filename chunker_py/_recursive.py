"""Recursive mode: the guide's five-step separator recursion, as spans.

Piece for piece this is LangChain's ``RecursiveCharacterTextSplitter(keep_separator="start")``
with ``len`` as the length function: separators are matched literally, kept at the start of
the following piece, and count toward the size.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._engine import EdgeIndex, Span, merge_pieces, merge_units


def split_spans(
    text: str,
    *,
    size: int,
    overlap: int,
    trim: bool,
    separators: Sequence[str],
    edges: EdgeIndex | None = None,
) -> list[Span]:
    """Return the chunks of ``text`` as spans in source order."""
    spans: list[Span] = []
    if not text:
        return spans
    if trim and edges is None:
        edges = EdgeIndex(text)

    def emit_merged(start: int, end: int) -> None:
        if edges is not None:
            start, end = edges.trim(start, end)
            if start == end:
                return
        spans.append(Span(start, end))

    def split(start: int, end: int, seps: Sequence[str]) -> None:
        separator, rest = _choose_separator(text, start, end, seps)
        if separator == "":
            if size > 1:
                merge_units(start, end, size, overlap, emit_merged)
            else:
                spans.extend(Span(i, i + 1, True) for i in range(start, end))
            return
        bounds = _piece_bounds(text, start, end, separator)
        run_start = 0
        for i in range(len(bounds) - 1):
            if bounds[i + 1] - bounds[i] < size:
                continue
            if run_start < i:
                merge_pieces(bounds, run_start, i, size, overlap, emit_merged)
            if rest:
                split(bounds[i], bounds[i + 1], rest)
            else:
                spans.append(Span(bounds[i], bounds[i + 1], True))
            run_start = i + 1
        if run_start < len(bounds) - 1:
            merge_pieces(bounds, run_start, len(bounds) - 1, size, overlap, emit_merged)

    split(0, len(text), separators)
    return spans


def _choose_separator(
    text: str, start: int, end: int, seps: Sequence[str]
) -> tuple[str, Sequence[str]]:
    """The first separator occurring in ``text[start:end]`` and the separators after it.

    The empty separator always matches and leaves nothing after it; when no separator
    occurs, the last one is used and nothing remains, so the passage stays whole.
    """
    for i, sep in enumerate(seps):
        if sep == "":
            return "", ()
        if text.find(sep, start, end) != -1:
            return sep, seps[i + 1 :]
    return seps[-1], ()


def _piece_bounds(text: str, start: int, end: int, separator: str) -> list[int]:
    """Piece boundaries: the passage start, each separator occurrence, the passage end.

    Occurrences are found left to right without overlapping, as ``re.split`` does; a piece
    starts with its separator, and an empty first piece is dropped.
    """
    pattern = re.compile(re.escape(separator))
    bounds = [start]
    bounds.extend(m.start() for m in pattern.finditer(text, start, end))
    if len(bounds) > 1 and bounds[1] == start:
        del bounds[0]
    bounds.append(end)
    return bounds

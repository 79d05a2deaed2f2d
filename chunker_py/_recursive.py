"""Recursive mode: the guide's five-step separator recursion, as spans.

Piece for piece this is LangChain's ``RecursiveCharacterTextSplitter(keep_separator="start")``
with ``len`` as the length function: separators are matched literally, kept at the start of
the following piece, and count toward the size.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate, compress, repeat
from operator import add, ge, sub

from ._engine import Sink, TextIndex, merge_pieces


def feed(
    text: str,
    *,
    size: int,
    overlap: int,
    separators: Sequence[str],
    index: TextIndex,
    sink: Sink,
) -> None:
    """Send the chunks of ``text`` to ``sink`` in source order."""
    pieces = index.pieces

    def split(start: int, end: int, seps: Sequence[str]) -> None:
        separator, rest = _choose_separator(text, start, end, seps)
        if separator == "":
            if size > 1:  # one-code-point pieces merge exactly like fixed windows
                sink.windows(start, end, size, overlap)
            else:  # at size 1 every code point is a terminal piece, kept untrimmed
                for i in range(start, end):
                    sink.whole(i, i + 1)
            return
        key = (start, end, separator)
        bounds = pieces.get(key)
        if bounds is None:
            bounds = pieces[key] = _passage_bounds(index, start, end, separator)
        last = len(bounds) - 1
        run_start = 0
        for i in _long_pieces(bounds, size):
            if run_start < i:
                merge_pieces(bounds, run_start, i, size, overlap, sink.merged)
            if rest:
                split(bounds[i], bounds[i + 1], rest)
            else:
                sink.whole(bounds[i], bounds[i + 1])
            run_start = i + 1
        if run_start < last:
            merge_pieces(bounds, run_start, last, size, overlap, sink.merged)

    if text:
        split(0, len(text), separators)


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


def _passage_bounds(index: TextIndex, start: int, end: int, separator: str) -> list[int]:
    """Piece bounds of ``[start, end)``, sliced from the whole text's occurrences when the
    separator cannot overlap itself (then matching from any start finds the same ones)."""
    width = len(separator)
    if not _self_overlapping(separator):
        occurrences = index.pieces.get((-1, -1, separator))
        if occurrences is None:
            occurrences = _piece_bounds(index.text, 0, len(index.text), separator)
            index.pieces[(-1, -1, separator)] = occurrences
        first = bisect_right(occurrences, start)
        last = bisect_left(occurrences, end - width + 1, first)
        return [start, *occurrences[first:last], end]
    return _piece_bounds(index.text, start, end, separator)


def _self_overlapping(separator: str) -> bool:
    """True when two occurrences can overlap, e.g. "\n\n" in "\n\n\n"."""
    return any(separator[:k] == separator[-k:] for k in range(1, len(separator)))


def _piece_bounds(text: str, start: int, end: int, separator: str) -> list[int]:
    """Piece boundaries: the passage start, each separator occurrence, the passage end.

    Occurrences are found left to right without overlapping, as ``re.split`` does, so
    ``str.split`` gives the text between them; a piece starts with its separator and an
    empty first piece is dropped. Built with C-level iterators: this is the hot loop.
    """
    width = len(separator)
    parts = text[start:end].split(separator)
    bounds = list(accumulate(map(add, map(len, parts), repeat(width)), initial=start - width))
    bounds[0] = start
    if bounds[1] == start:
        del bounds[0]
    return bounds


def _long_pieces(bounds: list[int], size: int) -> compress[int]:
    """Indices of the pieces at least ``size`` long (they are split again or kept whole)."""
    lengths = map(sub, bounds[1:], bounds)
    return compress(range(len(bounds) - 1), map(ge, lengths, repeat(size)))

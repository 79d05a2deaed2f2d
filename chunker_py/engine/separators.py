"""The recursive rule: split a range at the first separator found in it, recurse into the
pieces still too long with the next separators, and merge the pieces up to the size.

Recursive mode applies it to the whole text (its separators or a preset's patterns);
Markdown structure mode to a block too long for the size (line breaks, spaces, code points).
Separators are kept at the start of the following piece and count toward the size.
The check of a typed separator list is here too: the settings and Recursive mode both use it.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from operator import add, ge, sub

from .errors import SettingError
from .fields import LONE_SURROGATE, json_list
from .index import TextIndex, per_text
from .limits import MAX_SEPARATOR_LENGTH, MAX_SEPARATORS
from .merge import Job, Sink, merge_pieces
from .sizer import Sizer


@dataclass(frozen=True)
class Separator:
    """A separator: literal text, or a preset's regular expression."""

    text: str
    regex: re.Pattern[str] | None = None


_WORDS = (Separator("\n"), Separator(" "), Separator(""))

# The separator list a user types (Recursive mode's Separators field), checked.
DEFAULT_SEPARATORS: tuple[str, ...] = ("\n\n", "\n", " ", "")


def check_separators(value: object) -> tuple[str, ...]:
    """Validate an ordered separator list and return it as a tuple."""
    key = "separators"
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise SettingError("Separators must be a list of strings.", field=key)
    seps = tuple(value)
    if not seps:
        raise SettingError(
            'Separators must list at least one separator, e.g. ["\\n\\n", "\\n", " ", ""].',
            field=key,
        )
    if len(seps) > MAX_SEPARATORS:
        raise SettingError(
            f"Separators can list at most {MAX_SEPARATORS} entries (got {len(seps)}).",
            field=key,
        )
    seen: set[str] = set()
    for number, sep in enumerate(seps, 1):
        if not isinstance(sep, str):
            raise SettingError(f"Separator {number} must be a string.", field=key)
        if len(sep) > MAX_SEPARATOR_LENGTH:
            raise SettingError(
                f"Separator {number} has {len(sep)} code points; the limit is "
                f"{MAX_SEPARATOR_LENGTH}.",
                field=key,
            )
        if LONE_SURROGATE.search(sep):
            raise SettingError(f"Separator {number} contains a lone surrogate.", field=key)
        if sep in seen:
            raise SettingError(
                f"Separator {number} ({json.dumps(sep)}) is listed twice; remove the duplicate.",
                field=key,
            )
        if sep == "" and number != len(seps):
            raise SettingError(
                'Separators: the empty separator "" (split into single code points) must be '
                "the last entry.",
                field=key,
            )
        seen.add(sep)
    return seps


def parse_separators(raw: object) -> tuple[str, ...]:
    """Read separators given as a JSON list such as ``["\\n\\n", "\\n", " ", ""]``."""
    message = 'Separators must be a JSON list of strings, e.g. ["\\n\\n", "\\n", " ", ""].'
    if isinstance(raw, str):
        return check_separators(json_list(raw, "separators", message))
    return check_separators(raw)


def split_words(job: Job, start: int, end: int) -> None:
    """``[start, end)`` split by the recursive rules at line breaks, spaces, code points,
    for modes whose chunks never hold only whitespace (at size 1 the guide keeps blank
    one-code-point pieces; these modes drop them)."""
    split_range(job, start, end, _WORDS, blank_pieces=False)


# A long piece's chunks depend on its text alone (separators are searched in the passage,
# edges trimmed within it), so they are kept by content: after an edit only the pieces that
# changed are split again, the others' chunks are replayed at their new offsets. Keys hold
# the piece's text and every setting that shapes its chunks.
_PIECE_CHUNKS: dict[tuple[object, ...], tuple[tuple[int, int, bool], ...]] = {}
_PIECE_CHUNKS_MAX = 20_000  # entries; the whole cache is dropped when it is full


def split_range(
    job: Job, start: int, end: int, separators: Sequence[Separator], *, blank_pieces: bool = True
) -> None:
    """Send the chunks of ``[start, end)`` to the sink in source order."""
    text, index, sizer = job.text, job.index, job.sizer
    size, overlap = job.size, job.overlap
    sized = not sizer.per_code_point
    # the two functions below call each other through this dict, emptied at the end: were
    # they to name each other, they would form a reference cycle that kept the job and
    # the text's index (its Markdown parse, sentences ...) alive until the cycle collector
    # ran
    calls: dict[str, Callable[[int, int, Sequence[Separator], Sink], None]] = {}

    def split(start: int, end: int, seps: Sequence[Separator], sink: Sink) -> None:
        separator, rest = _choose_separator(text, start, end, seps)
        if separator.text == "" and not sized:
            if size > 1:  # one-code-point pieces merge exactly like fixed windows
                sink.windows(start, end, size, overlap)
            else:  # at size 1 every code point is a terminal piece, kept untrimmed
                for i in range(start, end):
                    if blank_pieces or not text[i].isspace():
                        sink.whole(i, i + 1)
            return
        bounds = _bounds(index, start, end, separator)
        cum = _piece_sizes(index, start, end, separator, sizer) if sized else None
        last = len(bounds) - 1
        run_start = 0
        for i in _long_pieces(cum if cum is not None else bounds, size):
            if run_start < i:
                merge_pieces(bounds, run_start, i, size, overlap, sink.merged, cum)
            if rest:
                calls["split_long"](bounds[i], bounds[i + 1], rest, sink)
            else:
                sink.whole(bounds[i], bounds[i + 1])
            run_start = i + 1
        if run_start < last:
            merge_pieces(bounds, run_start, last, size, overlap, sink.merged, cum)

    def split_long(start: int, end: int, seps: Sequence[Separator], sink: Sink) -> None:
        """A long piece split again: its chunks from the cache when the same text was
        split with the same settings before (counting-only sinks split it afresh)."""
        if sink.spans is None:
            calls["split"](start, end, seps, sink)
            return
        key = (text[start:end], tuple(seps), size, overlap, sizer.name, sink.trim, blank_pieces)
        chunks = _PIECE_CHUNKS.get(key)
        if chunks is None:
            found = Sink(index, trim=sink.trim)
            calls["split"](start, end, seps, found)
            assert found.spans is not None
            chunks = tuple((s.start - start, s.end - start, s.whole) for s in found.spans)
            if len(_PIECE_CHUNKS) >= _PIECE_CHUNKS_MAX:
                _PIECE_CHUNKS.clear()
            _PIECE_CHUNKS[key] = chunks
        sink.replay(start, chunks)

    calls.update(split=split, split_long=split_long)
    try:
        split(start, end, separators, job.sink)
    finally:
        calls.clear()


@per_text
def _piece_sizes(index: TextIndex, start: int, end: int, sep: Separator, sizer: Sizer) -> list[int]:
    """Cumulative sizes of the pieces of ``[start, end)`` at ``sep`` (sizers that are not
    per code point; one sizer per tokenizer, so the sizer is the key)."""
    return list(accumulate(sizer.lengths(index.text, _bounds(index, start, end, sep)), initial=0))


def _choose_separator(
    text: str, start: int, end: int, seps: Sequence[Separator]
) -> tuple[Separator, Sequence[Separator]]:
    """The first separator occurring in ``text[start:end]`` and the separators after it.

    The empty separator always matches and leaves nothing after it; when no separator
    occurs, the last one is used and nothing remains, so the passage stays whole. A
    pattern is searched in the passage alone, as LangChain does (anchors and lookarounds
    see only the passage).
    """
    passage: str | None = None
    for i, sep in enumerate(seps):
        if sep.text == "":
            return sep, ()
        if sep.regex is None:
            if text.find(sep.text, start, end) != -1:
                return sep, seps[i + 1 :]
        else:
            if passage is None:
                passage = text[start:end]
            if sep.regex.search(passage):
                return sep, seps[i + 1 :]
    return seps[-1], ()


def _bounds(index: TextIndex, start: int, end: int, sep: Separator) -> list[int]:
    key = (start, end, sep.text, sep.regex is not None)
    bounds = index.pieces.get(key)
    if bounds is None:
        if sep.regex is not None:
            bounds = _pattern_bounds(index.text, start, end, sep.regex)
        elif sep.text == "":
            bounds = list(range(start, end + 1))
        else:
            bounds = _passage_bounds(index, start, end, sep.text)
        index.pieces[key] = bounds
    return bounds


def _pattern_bounds(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[int]:
    """Piece bounds where a pattern matches, as ``re.split`` with a kept separator gives:
    each piece starts at a match; empty pieces (a match at the start, two zero-width
    matches in a row) are dropped."""
    bounds = [start]
    for match in pattern.finditer(text[start:end]):
        position = start + match.start()
        if position > bounds[-1]:
            bounds.append(position)
    if end > bounds[-1]:
        bounds.append(end)
    return bounds


def _passage_bounds(index: TextIndex, start: int, end: int, separator: str) -> list[int]:
    """Piece bounds of ``[start, end)``, sliced from the whole text's occurrences when the
    separator cannot overlap itself (then matching from any start finds the same ones)."""
    width = len(separator)
    if not _self_overlapping(separator):
        # the whole text's occurrences: _bounds' keys are (start, end, ...) with
        # 0 <= start <= end, so a key whose start or end is negative never meets them
        # mutation: equivalent - -> + — either number alone, negative, keeps the key apart
        # mutation: equivalent 1 -> 0 — the other number stays -1
        key = (-1, -1, separator, False)
        occurrences = index.pieces.get(key)
        if occurrences is None:
            occurrences = _piece_bounds(index.text, 0, len(index.text), separator)
            index.pieces[key] = occurrences
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


def _long_pieces(cum: list[int], size: int) -> compress[int]:
    """Indices of the pieces at least ``size`` big (they are split again or kept whole);
    ``cum`` holds cumulative sizes (for code points, the bounds themselves)."""
    lengths = map(sub, cum[1:], cum)
    return compress(range(len(cum) - 1), map(ge, lengths, repeat(size)))

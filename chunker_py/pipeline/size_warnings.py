"""The size warnings: chunks longer than the chunk size, in its unit (the mode says why, by
its ``over_size``, or its chunks' notes do), and chunks far below it (under a twentieth of
it: a lone closing fence, a heading alone), which the peers' users ask a minimum size for."""

from __future__ import annotations

from collections.abc import Sequence

from ..config.settings import Settings
from ..engine.spans import Span
from .units import size_unit_name, sizer_for


def over_size_warnings(text: str, spans: Sequence[Span], settings: Settings) -> tuple[str, ...]:
    """Chunks over the chunk size, measured in its unit (code points or tokens)."""
    size = settings.chunk_size
    sizer = sizer_for(settings)
    if sizer.per_code_point:
        long = [(i, s.end - s.start) for i, s in enumerate(spans) if s.end - s.start > size]
    else:
        # a token holds at least one UTF-8 byte, so a span of n code points has at most
        # 4n tokens: only longer spans are counted
        long = [
            (i, n)
            for i, s in enumerate(spans)
            if 4 * (s.end - s.start) > size and (n := sizer.length(text, s.start, s.end)) > size
        ]
    return _long_warnings(long, spans, settings)


def _long_warnings(
    long: list[tuple[int, int]], spans: Sequence[Span], settings: Settings
) -> tuple[str, ...]:
    if not long:
        return ()
    size = settings.chunk_size
    unit = size_unit_name(settings)
    shown = ", ".join(str(i) for i, _n in long[:5]) + (", ..." if len(long) > 5 else "")
    head = (
        f"{len(long):,} chunk(s) exceed the chunk size of {size:,} {unit} (index {shown}; "
        f"the longest has {max(n for _i, n in long):,} {unit})"
    )
    explain = settings.mode_info.over_size
    if explain is not None:  # the mode says why (its chunks carry no note)
        notes = [explain(settings.options())]
    else:
        notes = sorted({s.meta.note for s in spans if s.meta and s.meta.note})
    return (head + (": " + "; ".join(notes) + "." if notes else "."),)


TINY_SHARE = 20  # a chunk under chunk size / TINY_SHARE is far below the size


def tiny_chunks(text: str, spans: Sequence[Span], settings: Settings) -> list[tuple[int, int]]:
    """(index, length in the size unit) of each chunk under a twentieth of the chunk size."""
    limit = settings.chunk_size / TINY_SHARE
    sizer = sizer_for(settings)
    if sizer.per_code_point:
        return [(i, s.end - s.start) for i, s in enumerate(spans) if s.end - s.start < limit]
    return [
        (i, n) for i, s in enumerate(spans) if (n := sizer.length(text, s.start, s.end)) < limit
    ]


def tiny_chunk_warnings(text: str, spans: Sequence[Span], settings: Settings) -> tuple[str, ...]:
    """Chunks under a twentieth of the chunk size, measured in its unit."""
    size = settings.chunk_size
    tiny = tiny_chunks(text, spans, settings)
    if not tiny:
        return ()
    unit = size_unit_name(settings)
    shown = ", ".join(str(i) for i, _n in tiny[:5]) + (", ..." if len(tiny) > 5 else "")
    return (
        f"{len(tiny):,} chunk(s) far below the size (index {shown}; the smallest has "
        f"{min(n for _i, n in tiny):,} {unit}): under a twentieth of the chunk size of "
        f"{size:,} {unit}, too little to retrieve on its own; merge them into a neighbour "
        "or choose another preset or mode.",
    )

"""The over-size warning: chunks longer than the chunk size, in its unit; the mode says why
(its ``over_size``) or its chunks' notes do."""

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

"""A long document offered in parts: the page's way to inspect a file over 20,000 code points.

A document longer than one part (20,000 code points, the guide's document limit) is cut
where the streamed path cuts it with a buffer of that size (``iter_segments``, as
``python -m chunker_py --stream --buffer-size 20000``): the same seams per mode, so each
part's chunks are the streamed path's chunks of that segment, and each part knows where
it starts in the file, so its records keep their offsets in the original file. Parts
cover the file in order, without gaps or overlap. A file over ``MAX_TOTAL_CODE_POINTS``
in all is refused with the limit.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from ..config.settings import Settings
from ..engine.errors import DocumentError
from ..engine.limits import MAX_CODE_POINTS, MAX_TOTAL_CODE_POINTS
from ..pipeline.analysis import Analysis, analyse, count_chunks
from ..pipeline.results import Chunk
from .stream import Position, Segment, absolute, csv_header, iter_segments, lines_of, records_at

__all__ = ["MAX_TOTAL_CODE_POINTS", "cut_parts", "part_chunks", "part_lines"]


def cut_parts(
    text: str, settings: Settings, *, part_size: int = MAX_CODE_POINTS, name: str = "The file"
) -> list[Segment]:
    """``text`` as parts of at most ``part_size`` code points, each with its position in
    ``text``; one part when it fits. Raises ``DocumentError`` over the total limit and
    ``SettingError`` for a mode the streamed path refuses (Markdown)."""
    if len(text) > MAX_TOTAL_CODE_POINTS:
        raise DocumentError(
            f"{name} has {len(text):,} code points; a file offered in parts may hold at most "
            f"{MAX_TOTAL_CODE_POINTS:,} code points in all."
        )
    if len(text) <= part_size:
        return [Segment(text, Position())]
    source = io.StringIO(text, newline="")
    return list(iter_segments(source, settings, buffer_size=part_size, name=name))


def part_chunks(parts: list[Segment], settings: Settings) -> Iterator[Chunk]:
    """Every part's chunks with offsets in the original file and indices across the file
    (a part that trims to nothing has none), as the streamed path numbers them."""
    index = 0
    for part in parts:
        analysis = _part_analysis(part, settings)
        if analysis is None:
            continue
        for chunk in analysis.chunks:
            yield absolute(chunk, part.position, index)
            index += 1


def part_lines(
    parts: list[Segment],
    which: int,
    settings: Settings,
    format: str = "jsonl",
    *,
    spreadsheet_safe: bool = False,
) -> str:
    """Part ``which``'s records as JSONL or CSV (with its header): the lines the streamed
    path writes for that segment of the file, with offsets in the file and chunk indices
    (and ids) across it: the chunks of the parts before it come first."""
    index = sum(count_chunks(part.text, settings) for part in parts[:which])
    analysis = _part_analysis(parts[which], settings)
    records = [] if analysis is None else records_at(analysis, parts[which].position, index)
    text = lines_of(records, settings, format, spreadsheet_safe=spreadsheet_safe)
    return csv_header(settings) + text if format == "csv" else text


def _part_analysis(part: Segment, settings: Settings) -> Analysis | None:
    """The part's chunks, as the streamed path cuts its segment (None when it trims to
    nothing: the streamed path leaves such a segment out)."""
    analysis = analyse(
        part.text, settings, max_chunks=None, max_code_points=None, with_tradeoffs=False
    )
    return None if analysis.error is not None else analysis

"""Chunk sizes: a Plotly histogram of chunk lengths, with the chunk size drawn as a line.

Bin edges sit at the chunk size plus whole multiples of the bin width, so one edge is
the chunk size itself and every bar is either within the size or over it. Redrawn only
when its data (or the colour scheme) changes; hidden when there is one chunk or none.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from math import ceil

import theme
from dom import by_id, number, plot, set_text
from js import window

from chunker_py import Analysis
from chunker_py.pipeline.units import size_unit_name, sizer_for

MAX_BINS = 60


def chunk_lengths(analysis: Analysis) -> list[int]:
    """Each chunk's length in the size unit: code points from the spans alone, or the
    chunks' token counts when the chunk size counts tokens."""
    if sizer_for(analysis.settings).per_code_point:
        return [s.end - s.start for s in analysis.spans]
    return list(analysis.tokens)  # the size's tokenizer is the settings' tokenizer


def bins(lengths: Sequence[int], size: int) -> list[tuple[int, int, int]]:
    """(first, last, count) per bin, lengths first..last inclusive, ascending, empty bins
    between the shortest and the longest chunk included. Pure: the tests use it too."""
    if not lengths:
        return []
    low, high = min(lengths), max(lengths)
    width = max(1, ceil(size / 20))
    width = max(width, ceil((high - low + 1) / MAX_BINS))

    def bin_of(length: int) -> int:  # bin m holds (size + (m-1)*width, size + m*width]
        return -((size - length) // width)

    first, last = bin_of(low), bin_of(high)
    counts = [0] * (last - first + 1)
    for length in lengths:
        counts[bin_of(length) - first] += 1
    return [
        (max(1, size + (m - 1) * width + 1), size + m * width, counts[m - first])
        for m in range(first, last + 1)
    ]


class SizesChart:
    """The sizes histogram of one result (None: no chunks)."""

    def __init__(self) -> None:
        self.last: str | None = None  # what it was last drawn from
        self.analysis: Analysis | None = None

    def show(self, view: Analysis | None) -> None:
        analysis = self.analysis = view
        lengths = chunk_lengths(analysis) if analysis is not None else []
        size = analysis.settings.chunk_size if analysis is not None else 0
        unit = size_unit_name(analysis.settings) if analysis is not None else "code points"
        table = bins(lengths, size) if len(lengths) > 1 else []
        colours = theme.colours()
        key = json.dumps([table, size, unit, colours["name"]])
        if key == self.last:
            return
        self.last = key
        chart = by_id("sizes-chart")
        chart.dataset.bins = json.dumps(table)
        chart.dataset.unit = unit
        _describe(lengths, size, unit)
        chart.hidden = not table
        if not table:
            window.Plotly.purge(chart)
            return
        _draw(chart, table, size, unit, colours)

    def redraw(self) -> None:
        """The colour scheme changed: draw again with the new colours."""
        self.last = None
        self.show(self.analysis)


def _draw(
    chart: object, table: list[tuple[int, int, int]], size: int, unit: str, c: dict[str, str]
) -> None:
    over = [first > size for first, _last_, _count in table]
    data = [
        {
            "type": "bar",
            "x": [(first + last) / 2 for first, last, _n in table],
            "width": [last - first + 1 for first, last, _n in table],
            "y": [n for _f, _l, n in table],
            "customdata": [
                f"{number(first)}–{number(last)}" if first != last else number(first)  # noqa: RUF001
                for first, last, _n in table
            ],
            "marker": {
                "color": [c["over"] if o else c["bar"] for o in over],
                "line": {"color": c["ink"], "width": 0.5},
                "pattern": {"shape": ["/" if o else "" for o in over], "fgcolor": c["ink"]},
            },
            "hovertemplate": f"%{{customdata}} {unit}: %{{y}} chunks<extra></extra>",
        }
    ]
    top = max(n for _f, _l, n in table)
    width = table[-1][1] - table[-1][0] + 1  # the first bin may be cut at 1
    # room on both sides, so the chunk size line never sits on the plot's edge
    x_range = [table[0][0] - 0.5 - width / 2, max(table[-1][1], size) + 0.5 + width / 2]
    layout = theme.layout(
        c,
        left=48,
        xaxis={"title": {"text": f"Chunk length ({unit})"}, "zeroline": False, "range": x_range},
        yaxis={
            "title": {"text": "Chunks"},
            "rangemode": "tozero",
            "tickformat": ",d",
            **({"dtick": 1} if top <= 8 else {}),
        },
        bargap=0.08,
        shapes=[
            {
                "type": "line", "yref": "paper", "x0": size + 0.5, "x1": size + 0.5,
                "y0": 0, "y1": 1, "line": {"color": c["ink"], "dash": "dash", "width": 1.5},
            }
        ],
        annotations=[
            {
                "yref": "paper", "x": size + 0.5, "y": 1, "xanchor": "right",
                "yanchor": "bottom", "text": f"chunk size {number(size)} {unit}",
                "showarrow": False, "font": {"color": c["ink"]},
            }
        ],
    )  # fmt: skip
    plot(chart, data, layout)


def _describe(lengths: Sequence[int], size: int, unit: str) -> None:
    """The distribution in words, for screen readers and when the chart is hidden."""
    if not lengths:
        set_text("sizes-text", "No chunks: see Chunk readiness.")
        return
    if len(lengths) == 1:
        set_text("sizes-text", f"One chunk of {number(lengths[0])} {unit}.")
        return
    over = sum(1 for n in lengths if n > size)
    set_text(
        "sizes-text",
        f"{number(len(lengths))} chunks from {number(min(lengths))} to "
        f"{number(max(lengths))} {unit}; {number(over)} over the chunk size of "
        f"{number(size)} {unit}.",
    )

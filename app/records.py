"""Chunk records: index, start, end, length, actual overlap and text (code-point offsets).

The first rows are shown at once and the rest on request: laying out 2,000 long rows on
every keystroke would make typing lag, and downloads always hold every record.
"""

from __future__ import annotations

from typing import Any

from dom import by_id, number, on, render, to_json

from chunker_py import Analysis

FIRST = 100


class Records:
    def __init__(self) -> None:
        self.show_all = False
        self.analysis: Analysis | None = None

    def wire(self) -> None:
        on(by_id("records-more"), "click", self._toggle)

    def _toggle(self, _event: Any) -> None:
        self.show_all = not self.show_all
        self.show(self.analysis)

    def show(self, analysis: Analysis | None) -> None:
        self.analysis = analysis
        total = analysis.count if analysis is not None and analysis.summary else 0
        chunks = (
            () if analysis is None else analysis.chunk_window(0, total if self.show_all else FIRST)
        )
        rows = [[c.index, c.start, c.end, c.length, c.overlap, c.text] for c in chunks]
        render().rows(by_id("records-body"), to_json(rows))
        shown = f"showing {number(len(rows))}; " if len(rows) < total else ""
        by_id("records-caption").textContent = (
            f"{number(total)} records ({shown}offsets in code points, end-exclusive)."
            if total
            else "No records: see Chunk readiness."
        )
        more = by_id("records-more")
        more.hidden = total <= FIRST
        more.textContent = (
            f"Show the first {FIRST} records only"
            if self.show_all
            else f"Show all {number(total)} records"
        )

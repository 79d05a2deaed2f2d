"""Chunk records: index, start, end, length, actual overlap and text (code-point offsets).
The first rows are shown at once and the rest on request (see ``dom.Windowed``).
"""

from __future__ import annotations

from dom import Windowed, by_id, number, render, to_json

from chunker_py import Analysis


class Records(Windowed):
    first = 100
    more_id = "records-more"
    noun = "records"

    def show(self, analysis: Analysis | None) -> None:
        total, chunks = self.window(analysis)
        rows = [[c.index, c.start, c.end, c.length, c.overlap, c.text] for c in chunks]
        render().rows(by_id("records-body"), to_json(rows))
        shown = f"showing {number(len(rows))}; " if len(rows) < total else ""
        by_id("records-caption").textContent = (
            f"{number(total)} records ({shown}offsets in code points, end-exclusive)."
            if total
            else "No records: see Chunk readiness."
        )
        self.offer_more(total)

"""Chunk records: index, start, end, length, actual overlap and text (code-point offsets).
The first rows are shown at once and the rest on request (see ``dom.Windowed``).
"""

from __future__ import annotations

from dom import Windowed, by_id, number, render, to_json

from chunker_py import Analysis

COLUMNS = ["Index", "Start", "End", "Length", "Tokens", "Overlap", "Text"]
TOKENS_COLUMN = COLUMNS.index("Tokens")


class Records(Windowed):
    columns = COLUMNS
    first = 100
    more_id = "records-more"
    noun = "records"
    # token counts show once the tokenizer's tables are in (never waited for on a keystroke)
    tokens_ready = False

    def _tokens(self, index: int) -> int | str:
        if not self.tokens_ready or self.analysis is None:
            return "…"
        return int(self.analysis.tokens[index])

    def show(self, analysis: Analysis | None) -> None:
        total, chunks = self.window(analysis)
        headings = (
            analysis is not None and "heading_path" in analysis.settings.mode_info.record_keys
        )
        self._header(headings)
        if headings:
            rows = [
                [c.index, c.start, c.end, c.length, self._tokens(c.index), c.overlap,
                 c.heading_path, c.text]
                for c in chunks
            ]  # fmt: skip
        else:
            rows = [
                [c.index, c.start, c.end, c.length, self._tokens(c.index), c.overlap, c.text]
                for c in chunks
            ]
        render().rows(by_id("records-body"), to_json(rows), TOKENS_COLUMN)
        shown = f"showing {number(len(rows))}; " if len(rows) < total else ""
        by_id("records-caption").textContent = (
            f"{number(total)} records ({shown}offsets in code points, end-exclusive)."
            if total
            else "No records: see Chunk readiness."
        )
        self.offer_more(total)

    def _header(self, headings: bool) -> None:
        """Column headings: the heading path column only where the mode sets paths."""
        columns = [*COLUMNS[:-1], "Heading path", COLUMNS[-1]] if headings else COLUMNS
        if columns != self.columns:
            self.columns = columns
            render().header(by_id("records-head"), to_json(columns))

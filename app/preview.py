"""Overlap preview: each chunk with its boundaries and the actually repeated prefix marked."""

from __future__ import annotations

from typing import Any

from dom import by_id, number, on, render, to_json

from chunker_py import Analysis

FIRST = 60  # chunks shown before "Show all"


class Preview:
    def __init__(self) -> None:
        self.show_all = False
        self.analysis: Analysis | None = None

    def wire(self) -> None:
        on(by_id("preview-more"), "click", self._toggle)
        on(by_id("show-whitespace"), "change", self._whitespace)

    def _toggle(self, _event: Any) -> None:
        self.show_all = not self.show_all
        self.show(self.analysis)

    def _whitespace(self, event: Any) -> None:
        by_id("preview-list").classList.toggle("show-ws", bool(event.target.checked))
        self.show(self.analysis)  # whitespace symbols are built only while shown

    def show(self, analysis: Analysis | None) -> None:
        self.analysis = analysis
        total = analysis.count if analysis is not None and analysis.summary else 0
        shown = (
            () if analysis is None else analysis.chunk_window(0, total if self.show_all else FIRST)
        )
        items = []
        previous_end = 0
        for c in shown:
            cut = c.overlap
            gap = c.start - previous_end if c.index else c.start
            item = {
                "title": (
                    f"#{c.index} · {number(c.start)}–{number(c.end)} · "  # noqa: RUF001
                    f"{number(c.length)} code points"
                    + (f" · repeats {number(c.overlap)}" if c.overlap else "")
                    + (" · unsplittable piece, kept whole" if c.whole else "")
                ),
                "repeated": c.text[:cut],
                "rest": c.text[cut:],
            }
            if gap > 0:
                item["gap"] = f"{number(gap)} code point{'s' if gap != 1 else ''} omitted"
            items.append(item)
            previous_end = max(previous_end, c.end)
        render().preview(by_id("preview-list"), to_json(items))
        more = by_id("preview-more")
        more.hidden = total <= FIRST
        more.textContent = (
            f"Show the first {FIRST} chunks only"
            if self.show_all
            else f"Show all {number(total)} chunks"
        )
        by_id("preview-note").textContent = (
            f"Showing {number(len(shown))} of {number(total)} chunks." if total else ""
        )

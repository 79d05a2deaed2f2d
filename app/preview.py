"""Overlap preview: each chunk with its boundaries and the actually repeated prefix marked."""

from __future__ import annotations

from typing import Any

import describe
from damage import show_words
from dom import ListView, Windowed, by_id, number, on, render, to_json

from chunker_py import Analysis, Chunk


class Preview(Windowed):
    first = 60
    more_id = "preview-more"
    keeps_items = True  # an edit redraws the items from the chunk it falls in on
    list_id = "preview-list"
    item_tag = "li"

    def wire(self) -> None:
        super().wire()
        on(by_id("show-whitespace"), "change", self._whitespace)

    def _whitespace(self, event: Any) -> None:
        by_id("preview-list").classList.toggle("show-ws", bool(event.target.checked))
        self.forget()
        self.show(self.view)  # whitespace symbols are built only while shown

    def show(self, view: ListView) -> None:
        super().show(view)
        show_words(by_id("preview-list"), view, self.listed)

    def draw(self, analysis: Analysis | None, total: int, shown: tuple[Chunk, ...]) -> None:
        items = []
        spans = analysis.spans if analysis is not None else ()
        for c in shown:
            cut = c.overlap
            # span ends never decrease, so the previous chunk's end is the reach so far
            gap = c.start - spans[c.index - 1].end if c.index else c.start
            item = {
                "index": c.index,
                "title": describe.title(c),
                "repeated": c.text[:cut],
                "rest": c.text[cut:],
            }
            if c.prefix:
                item["prefix"] = c.prefix
            if gap > 0:
                item["gap"] = f"{number(gap)} code point{'s' if gap != 1 else ''} omitted"
            items.append(item)
        render().preview(by_id("preview-list"), to_json(items), self.kept)

    def caption(self, total: int, shown: int) -> None:
        kind = "damaged chunks" if self.only is not None else "chunks"
        by_id("preview-note").textContent = (
            f"Showing {number(shown)} of {number(total)} {kind}."
            if total or self.only is not None
            else ""
        )

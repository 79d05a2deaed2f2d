"""Chunk map: the whole source text once, each chunk's span painted in place.

static/chunkmap.js draws it from the text and the result's spans (code-point offsets; it
maps them to UTF-16 itself), keeping unchanged elements between keystrokes. Activating a
chunk (click, Enter or Space) shows its record row and preview item, all records being
listed first if needed; "Back to the chunk map" (or Escape on the row) returns to it.
"""

from __future__ import annotations

from typing import Any

from dom import Windowed, by_id, number, on, to_json
from pyscript import window

from chunker_py import Analysis


def edge_marks(analysis: Analysis) -> list[list[str]] | None:
    """Words to mark at each chunk's start and end (e.g. damage done at that edge).

    Hook for the damage analysis: none yet, so no marks are sent.
    """
    return None


class ChunkMap:
    def __init__(self, records: Windowed, preview: Windowed) -> None:
        self.records = records
        self.preview = preview
        self.root = by_id("chunk-map")
        self.back = by_id("map-back")
        self.last: tuple[Any, ...] | None = None
        self.selected = -1

    def wire(self) -> None:
        js = window.ciChunkMap
        js.wireChunkMap(self.root, by_id("chunk-map-detail"))
        on(self.root, "click", self._clicked)
        on(self.root, "keydown", self._key)
        on(self.back, "click", lambda _event: self._return())
        for panel_id in ("records-body", "preview-list"):
            on(by_id(panel_id), "keydown", self._key_in_target)

    def show(self, analysis: Analysis | None) -> None:
        if analysis is None or not analysis.spans:
            self.last = None
            self.root.replaceChildren()
            by_id("chunk-map-panel").hidden = True
            self.back.hidden = True
            return
        by_id("chunk-map-panel").hidden = False
        key = (analysis.text, analysis.spans)
        if key == self.last:
            return  # same text and chunks (e.g. only the source name changed)
        self.last = key
        self._unmark()
        self.back.hidden = True
        spans = [x for s in analysis.spans for x in (s.start, s.end)]
        data: dict[str, Any] = {"text": analysis.text, "spans": spans}
        marks = edge_marks(analysis)
        if marks is not None:
            data["edges"] = marks
        window.ciChunkMap.chunkMap(self.root, to_json(data))
        count = len(analysis.spans)
        noun = "chunk" if count == 1 else "chunks"
        self.root.setAttribute(
            "aria-label", f"Chunk map: the source text with its {number(count)} {noun}"
        )

    # -- activation
    def _index(self, event: Any) -> int | None:
        node = event.target.closest(".map-chunk")
        return None if node is None else int(node.dataset.index)

    def _clicked(self, event: Any) -> None:
        index = self._index(event)
        if index is not None:
            self.activate(index)

    def _key(self, event: Any) -> None:
        if str(event.key) in ("Enter", " "):
            index = self._index(event)
            if index is not None:
                event.preventDefault()
                self.activate(index)

    def activate(self, index: int) -> None:
        """Show chunk ``index``'s record row (focused) and preview item, both marked."""
        for panel in (self.records, self.preview):
            if index >= panel.first and not panel.show_all:
                panel.show_all = True
                panel.show(panel.analysis)
        self._mark(index)
        item = by_id("preview-list").children.item(index)
        if item is not None:
            item.scrollIntoView(window.JSON.parse('{"block": "nearest"}'))
        row = by_id("records-body").rows.item(index)
        if row is not None:
            row.tabIndex = -1
            row.scrollIntoView(window.JSON.parse('{"block": "center"}'))
            row.focus(window.JSON.parse('{"preventScroll": true}'))
        self.back.textContent = f"Back to chunk #{number(index)} in the chunk map"
        self.back.hidden = False

    def _unmark(self) -> None:
        """Clear the marks (kept rows and items would keep them into a new result)."""
        self.selected = -1
        for element_id in ("records-body", "preview-list", "chunk-map"):
            for node in by_id(element_id).querySelectorAll(".selected"):
                node.classList.remove("selected")

    def _mark(self, index: int) -> None:
        self._unmark()
        self.selected = index
        for parent, child in (
            (by_id("records-body"), lambda p: p.rows.item(index)),
            (by_id("preview-list"), lambda p: p.children.item(index)),
        ):
            node = child(parent)
            if node is not None:
                node.classList.add("selected")
        chunk = self.root.querySelector(f'.map-chunk[data-index="{index}"]')
        if chunk is not None:
            chunk.classList.add("selected")

    def _key_in_target(self, event: Any) -> None:
        if str(event.key) == "Escape" and self.selected >= 0:
            self._return()

    def _return(self) -> None:
        self.back.hidden = True
        if self.selected >= 0:
            window.ciChunkMap.focusChunk(self.root, self.selected)

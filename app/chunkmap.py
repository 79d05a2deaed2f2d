"""Chunk map: the whole source text once, each chunk's span painted in place.

static/chunkmap.js draws it from the text and the result's spans (code-point offsets; it
maps them to UTF-16 itself), keeping unchanged elements between keystrokes. Activating a
chunk (click, Enter or Space) chooses it: the page (app/inspector.py) makes it the
selection of its views, which the map, the records and the preview each mark, and brings
its record row and preview item into view (all records listed first if needed); "Back to
the chunk map" (or Escape on the row) returns to it.
The map is shown from a ``MapView``, one per result, which the page (app/inspector.py)
makes when the result is shown and replaces once the result's damage and evidence are
found after the paint: the damage marks the chunks' edges (words in each handle's name);
the Evidence check's excerpts are underlined over the chunks by a CSS highlight (the
text's elements are not touched) and each chunk holding some names its questions. No other
panel sets the map's marks. Every word said about a chunk (its handle's name, the detail
line) is written here, with app/describe.py; the script only sets them. Text selected in
the map can be added as evidence (``selection``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import describe
from dom import by_id, found, number, on, to_json
from js import window

from chunker_py import Analysis
from chunker_py.measures.damage import Damage


def damage_marks(damage: Damage) -> list[list[str]]:
    """Per chunk: what is wrong at its start, at its end, and all its damage in words.

    Only the sentence figures say which edge they concern; mid-word and split-grapheme
    edges are counted per chunk, so they are in the words but mark no edge.
    """
    return [
        [
            "starts mid-sentence" if d.starts_mid_sentence else "",
            "ends mid-sentence" if d.ends_mid_sentence else "",
            "; ".join(d.describe()),
        ]
        for d in damage.chunks
    ]


# the evidence marks of one result: the matched excerpts' ranges (code points, in text
# order) and, per chunk index, the questions whose evidence the chunk holds, in words
EvidenceMarks = tuple[Sequence[tuple[int, int]], Mapping[int, str]]


@dataclass(frozen=True)
class MapView:
    """What the chunk map shows of one result: the result, its damage once computed after
    the paint, its evidence marks once the Evidence check has found them, and the chunk
    chosen (``selected``, marked). The page makes one per result and gives it the damage,
    the evidence and the selection as they come.

    None (not found yet): a map drawn anew for this result shows no damage or evidence;
    a map already showing the same text and spans (only the source name or a setting
    that moves no chunk changed) keeps the marks it has until the new ones come."""

    analysis: Analysis | None = None
    damage: Damage | None = None
    evidence: EvidenceMarks | None = None
    selected: int | None = None


class ChunkMap:
    """The chunk map, shown from a ``MapView``. Activating a chunk calls ``choose`` with
    its index (the page's selection, given back in the views)."""

    def __init__(self, choose: Callable[[int], None]) -> None:
        self.choose = choose
        self.root = by_id("chunk-map")
        self.back = by_id("map-back")
        self.view = MapView()
        self.last: tuple[Any, ...] | None = None  # the drawn text and spans
        self.selected: int | None = None  # the chunk marked as the selection
        # the view's result is not drawn yet because the map was off screen (drawn after
        # the paint, by ``catch_up``)
        self.waiting = False
        self.evidence: tuple[str, str] = ("", "")  # the text and marks of the evidence shown
        # the drawn result, its chunks' names without damage and evidence, the damage
        # marked, their damage and evidence in words, and the names the handles have now
        self.drawn: Analysis | None = None
        self.base: list[str] = []
        self.marked: Damage | None = None
        self.damage_words: list[str] = []
        self.evidence_words: dict[int, str] = {}
        self.names: list[str] = []
        self.last_spans: Any = ()

    @property
    def deferred(self) -> bool:
        return self.waiting

    def wire(self) -> None:
        js = window.ciChunkMap
        js.wireChunkMap(self.root, by_id("chunk-map-panel"))
        js.wireSelection(self.root)
        on(self.root, "mouseover", self._describe)
        on(self.root, "focusin", self._describe)
        on(self.root, "click", self._clicked)
        on(self.root, "keydown", self._key)
        on(self.back, "click", lambda _event: self._return())
        for panel_id in ("records-body", "preview-list"):
            on(by_id(panel_id), "keydown", self._key_in_target)

    def show(self, view: MapView) -> None:
        """Show ``view``: its result drawn now if the map is on screen (or already shows
        its text and spans: then only its marks are drawn); otherwise the view is kept
        for ``catch_up`` after the paint (laying out 20,000 code points of spans off
        screen would only delay the keystroke's frame)."""
        self.view = view
        self.waiting = False
        analysis = view.analysis
        if analysis is None or not analysis.spans:
            self.last = self.drawn = self.marked = self.selected = None
            self.base, self.names, self.damage_words, self.last_spans = [], [], [], ()
            self.evidence_words = {}
            self.root.replaceChildren()
            by_id("chunk-map-panel").hidden = True
            self.back.hidden = True
            return
        panel = by_id("chunk-map-panel")
        drawn = (analysis.text, analysis.spans) == self.last
        if not drawn and (panel.hidden or not window.ciChunkMap.onScreen()):
            self.waiting = True  # a hidden panel is off screen too: shown, drawn later
            panel.hidden = False
            return
        self._draw(view)

    def catch_up(self) -> None:
        """After the paint: draw the view kept while the map was off screen."""
        if self.waiting:
            self.waiting = False
            self._draw(self.view)

    def _draw(self, view: MapView) -> None:
        analysis = view.analysis
        assert analysis is not None
        self.drawn = analysis
        key = (analysis.text, analysis.spans)
        redrawn = key != self.last  # else the same text and chunks (only the name changed)
        self.last = key
        if redrawn:
            self._draw_chunks(analysis)
        renamed = redrawn
        if view.damage is not None and view.damage is not self.marked:
            self.marked = view.damage
            marks = damage_marks(view.damage)
            window.ciChunkMap.markDamage(self.root, to_json(marks))
            self.damage_words = [words for _start, _end, words in marks]
            renamed = True
        if view.evidence is not None:
            ranges, words = view.evidence
            if redrawn:  # the underline's ranges lay on the text elements replaced
                self.evidence = ("", "")
            marked = to_json({"ranges": ranges, "chunks": {str(i): w for i, w in words.items()}})
            self._evidence(analysis.text, marked)
            if words != self.evidence_words:
                self.evidence_words = dict(words)
                renamed = True
        elif redrawn:
            # evidence marks are the older text's until this result's are found
            self._evidence(analysis.text, _NO_EVIDENCE)
        if renamed:
            self._name()
        if view.selected != self.selected or redrawn:
            self._mark(view.selected)

    def _draw_chunks(self, analysis: Analysis) -> None:
        """The text cut at the chunks' offsets, with no damage, evidence or selection
        marks yet."""
        self.selected = None
        self.back.hidden = True
        # [[start, end], ...]: a span's first two fields, picked in C
        spans = to_json(list(map(itemgetter(0, 1), analysis.spans)))
        window.ciChunkMap.chunkMap(self.root, analysis.text, spans)
        self.base = self._base_names(analysis.spans)
        self.marked, self.damage_words, self.evidence_words = None, [], {}
        count = len(analysis.spans)
        noun = "chunk" if count == 1 else "chunks"
        self.root.setAttribute(
            "aria-label", f"Chunk map: the source text with its {number(count)} {noun}"
        )

    def _base_names(self, spans: Any) -> list[str]:
        """Each chunk's name before its damage and evidence; a chunk whose span and the
        one before it are unchanged keeps its name (typing near the end renames few)."""
        old, kept = self.last_spans, 0
        limit = min(len(old), len(spans), len(self.base))
        while kept < limit and spans[kept] == old[kept]:
            kept += 1
        self.last_spans = spans
        return self.base[:kept] + describe.names(spans, kept)

    def _name(self) -> None:
        """Give the handles their names: only the ones changed are sent."""
        damage, evidence = self.damage_words, self.evidence_words
        names = [
            describe.full_name(base, damage[i] if i < len(damage) else "", evidence.get(i, ""))
            for i, base in enumerate(self.base)
        ] if damage or evidence else self.base  # fmt: skip
        old = self.names
        changed = {str(i): n for i, n in enumerate(names) if i >= len(old) or old[i] != n}
        self.names = names
        window.ciChunkMap.nameChunks(self.root, to_json({"count": len(names), "changed": changed}))

    def _describe(self, event: Any) -> None:
        """The detail line: the chunk under the pointer or focus, in words."""
        index = self._index(event)
        analysis = self.drawn
        if index is None or analysis is None or index >= len(analysis.spans):
            return
        (chunk,) = analysis.chunk_window(index, index + 1)
        damage = self.damage_words[index] if index < len(self.damage_words) else ""
        by_id("chunk-map-detail").textContent = describe.detail(
            chunk, damage, self.evidence_words.get(index, "")
        )

    def _evidence(self, text: str, marks: str) -> None:
        if self.evidence != (text, marks):
            self.evidence = (text, marks)
            window.ciChunkMap.markEvidence(self.root, marks)

    def selection(self) -> tuple[int, int] | None:
        """The code-point range of the text last selected in the map, if it still is, in
        the text of the view shown (None while that view waits to be drawn)."""
        if str(window.ciChunkMap.selectedIn()) != "map" or self.last is None or self.waiting:
            return None
        found_range = found(window.ciChunkMap.selectionOffsets(self.root))
        if found_range is None:
            return None
        return int(found_range[0]), int(found_range[1])

    # -- activation
    def _index(self, event: Any) -> int | None:
        node = found(event.target.closest(".map-chunk"))
        return None if node is None else int(node.dataset.index)

    def _clicked(self, event: Any) -> None:
        if not window.getSelection().isCollapsed:
            return  # the end of selecting text (e.g. to add it as evidence), not a choice
        index = self._index(event)
        if index is not None:
            self.choose(index)

    def _key(self, event: Any) -> None:
        if str(event.key) in ("Enter", " "):
            index = self._index(event)
            if index is not None:
                event.preventDefault()
                self.choose(index)

    def chosen(self, index: int, listed: bool) -> None:
        """Chunk ``index`` was chosen and its record row brought into view (``listed``),
        or not (filtered out by "Show damaged chunks only"): say so, or offer the way back."""
        if not listed:
            by_id(
                "chunk-map-detail"
            ).textContent = f"Chunk #{number(index)} is not listed: Show damaged chunks only is on."
            return
        self.back.textContent = f"Back to chunk #{number(index)} in the chunk map"
        self.back.hidden = False

    def _mark(self, index: int | None) -> None:
        """Mark chunk ``index`` as the selection (None: no chunk)."""
        if self.selected is not None:
            for node in self.root.querySelectorAll(".map-chunk.selected"):
                node.classList.remove("selected")
        self.selected = index
        if index is None:
            self.back.hidden = True
            return
        chunk = found(self.root.querySelector(f'.map-chunk[data-index="{index}"]'))
        if chunk is not None:
            chunk.classList.add("selected")

    def _key_in_target(self, event: Any) -> None:
        if str(event.key) == "Escape" and self.selected is not None:
            self._return()

    def _return(self) -> None:
        self.back.hidden = True
        if self.selected is not None:
            window.ciChunkMap.focusChunk(self.root, self.selected)


_NO_EVIDENCE = '{"ranges": [], "chunks": {}}'

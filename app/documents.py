"""The document list: several files imported at once, one of them shown in every panel.

Each valid file becomes a document and keeps the guide's limits (an import up to 100,000
bytes, a document up to 20,000 code points, 2,000 chunks); a refused file is listed with
its reason and no document already loaded is lost. Two files with the same name are both
kept, told apart by a number: "notes.txt", "notes.txt (2)". The sample document stays
shown until files replace it. All documents share the page's one set of settings (the
share link carries settings only); choosing a document shows it as the Source text.

The list shows each document's name, size in bytes and chunk count at the current
settings: the shown document's from its result, the others' counted after the paint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dom import by_id, element, number, on

from chunker_py import ChunkerError, Settings
from chunker_py.pipeline.analysis import count_chunks


@dataclass
class Document:
    name: str  # as the list shows it: the file's name, numbered when it repeats
    text: str  # the last accepted text (edits to the shown document update it)
    size: int  # the file's size in bytes
    file: str  # the file's name as imported (a questions file's corpus_id may name it)
    counted: tuple[str, Settings] | None = None  # the text and settings `chunks` is of
    chunks: int | None = None


@dataclass(frozen=True)
class Refusal:
    name: str
    reason: str


class Documents:
    def __init__(self, choose: Callable[[Document], None]) -> None:
        self._choose = choose
        self.items: list[Document] = []
        self.shown: Document | None = None  # None while the sample (or pasted text) is shown

    def wire(self) -> None:
        on(by_id("document-list"), "click", self._clicked)

    def add(self, name: str, text: str, size: int) -> Document:
        """A new document named after its file; a name already in the list gets a number."""
        taken = {d.name for d in self.items}
        label, n = name, 1
        while label in taken:
            n += 1
            label = f"{name} ({n})"
        document = Document(label, text, size, name)
        self.items.append(document)
        return document

    def show(self, document: Document) -> None:
        self.shown = document
        self.render()

    def edited(self, text: str) -> None:
        """The Source text accepted an edit: it is the shown document's text now."""
        if self.shown is not None and self.shown.text != text:
            self.shown.text = text
            self.shown.size = len(text.encode("utf-8", "surrogatepass"))
            self.render()

    def counted(self, text: str, settings: Settings, chunks: int) -> None:
        """The shown document's result: its chunk count at these settings."""
        if self.shown is not None and self.shown.text == text:
            self._set(self.shown, text, settings, chunks)
            self.render()

    def count_others(self, settings: Settings) -> None:
        """The chunk count of every document not counted at these settings (after the
        paint; a document its settings refuse, e.g. over 2,000 chunks, shows none)."""
        changed = False
        for document in self.items:
            if document.counted == (document.text, settings):
                continue
            try:
                chunks: int | None = count_chunks(document.text, settings)
            except ChunkerError:
                chunks = None
            self._set(document, document.text, settings, chunks)
            changed = True
        if changed:
            self.render()

    @staticmethod
    def _set(document: Document, text: str, settings: Settings, chunks: int | None) -> None:
        document.counted, document.chunks = (text, settings), chunks

    def refused(self, refusals: list[Refusal]) -> None:
        """List the files refused by the last import, each with its reason."""
        listing = by_id("documents-refused")
        listing.replaceChildren()
        for refusal in refusals:
            listing.append(element("li", f"{refusal.name}: {refusal.reason}"))
        listing.hidden = not refusals

    def render(self) -> None:
        by_id("documents").hidden = not self.items
        listing = by_id("document-list")
        listing.replaceChildren()
        for index, document in enumerate(self.items):
            chunks = "— chunks" if document.chunks is None else f"{number(document.chunks)} chunks"
            button = element(
                "button", f"{document.name} · {number(document.size)} bytes · {chunks}"
            )
            button.type = "button"
            button.dataset.index = str(index)
            button.setAttribute("aria-pressed", "true" if document is self.shown else "false")
            item = element("li")
            item.append(button)
            listing.append(item)

    def _clicked(self, event: Any) -> None:
        button = event.target.closest("button")
        if button is None or not button.dataset.index:
            return
        document = self.items[int(button.dataset.index)]
        if document is not self.shown:
            self._choose(document)

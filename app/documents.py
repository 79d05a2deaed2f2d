"""The document list: several files imported at once, one of them shown in every panel.

Each valid file becomes a document and keeps the guide's limits (an import up to 100,000
bytes, a document up to 20,000 code points, 2,000 chunks); a refused file is listed with
its reason and no document already loaded is lost. Two files with the same name are both
kept, told apart by a number: "notes.txt", "notes.txt (2)". The sample document stays
shown until files replace it. All documents share the page's one set of settings (the
share link carries settings only); choosing a document shows it as the Source text.

The list shows each document's name, size in bytes and chunk count at the current
settings: the shown document's from its result, the others' counted after the paint.

A file over an import's limits (over 100,000 bytes or 20,000 code points), up to
1,000,000 code points in all, is refused as a document and offered in parts ("Load in
parts" next to its reason): parts of at most 20,000 code points, cut where
``python -m chunker_py FILE --stream --buffer-size 20000`` cuts it with the settings of
that moment (a mode the streamed path cannot cut, Markdown structure, is cut at
Recursive's seams), each a document named "FILE · part 2 of 5". A part's records, shown
and downloaded, keep their offsets in the file (``chunker_py.io.parts``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dom import by_id, element, number, on

from chunker_py import ChunkerError, Settings
from chunker_py.pipeline.analysis import count_chunks

if TYPE_CHECKING:  # chunker_py.io loads when a file is first loaded in parts
    from chunker_py.io.stream import Segment


@dataclass(frozen=True)
class PartOf:
    """A document that is a part of a file loaded in parts: the file's parts, as cut when
    it was loaded, and which one this is."""

    file: str
    parts: tuple[Segment, ...]
    which: int

    def label(self) -> str:
        return f"part {self.which + 1} of {len(self.parts)}"


@dataclass
class Document:
    name: str  # as the list shows it: the file's name, numbered when it repeats
    text: str  # the last accepted text (edits to the shown document update it)
    size: int  # the file's size in bytes
    file: str  # the file's name as imported (a questions file's corpus_id may name it)
    counted: tuple[str, Settings] | None = None  # the text and settings `chunks` is of
    chunks: int | None = None
    part: PartOf | None = None  # a part of a file loaded in parts (its text unedited)

    def part_shown(self, text: str) -> PartOf | None:
        """The part this document is, while ``text`` is its text as loaded (an edited
        part is a document of its own: its offsets are no longer the file's)."""
        if self.part is None or text != self.part.parts[self.part.which].text:
            return None
        return self.part


@dataclass(frozen=True)
class Refusal:
    name: str
    reason: str
    offer: tuple[str, int] | None = None  # the text and bytes, offered in parts


class Documents:
    def __init__(
        self,
        choose: Callable[[Document], None],
        in_parts: Callable[[str, str, int], bool],
    ) -> None:
        self._choose = choose
        self._in_parts = in_parts
        self.items: list[Document] = []
        self.shown: Document | None = None  # None while the sample (or pasted text) is shown
        self.listed: list[Refusal] = []  # the files the last import refused
        self.offers: list[Refusal] = []  # … those offered in parts

    def wire(self) -> None:
        on(by_id("document-list"), "click", self._clicked)
        on(by_id("documents-refused"), "click", self._offer_taken)

    def add(self, name: str, text: str, size: int, part: PartOf | None = None) -> Document:
        """A new document named after its file; a name already in the list gets a number."""
        shown = name if part is None else f"{name} · {part.label()}"
        taken = {d.name for d in self.items}
        label, n = shown, 1
        while label in taken:
            n += 1
            label = f"{shown} ({n})"
        document = Document(label, text, size, name, part=part)
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

    def count_others(self, settings: Settings) -> Iterator[None]:
        """The chunk count of every document not counted at these settings, one document
        per step (after the paint: a file in 40 parts is 40 counts; a document its settings
        refuse, e.g. over 2,000 chunks, shows none)."""
        for document in list(self.items):
            if document.counted == (document.text, settings):
                continue
            try:
                chunks: int | None = count_chunks(document.text, settings)
            except ChunkerError:
                chunks = None
            self._set(document, document.text, settings, chunks)
            self.render()
            yield

    @staticmethod
    def _set(document: Document, text: str, settings: Settings, chunks: int | None) -> None:
        document.counted, document.chunks = (text, settings), chunks

    def refused(self, refusals: list[Refusal]) -> None:
        """List the files refused by the last import, each with its reason."""
        self.listed = list(refusals)
        listing = by_id("documents-refused")
        listing.replaceChildren()
        self.offers = []
        for refusal in refusals:
            item = element("li", f"{refusal.name}: {refusal.reason}")
            if refusal.offer is not None:
                button = element("button", "Load in parts")
                button.type = "button"
                button.dataset.offer = str(len(self.offers))
                button.setAttribute("aria-label", f"Load {refusal.name} in parts")
                item.append(" ", button)
                self.offers.append(refusal)
            listing.append(item)
        listing.hidden = not refusals

    def _offer_taken(self, event: Any) -> None:
        button = event.target.closest("button")
        if button is None or not button.dataset.offer:
            return
        refusal = self.offers[int(button.dataset.offer)]
        assert refusal.offer is not None
        if self._in_parts(refusal.name, *refusal.offer):  # loaded: the others stay listed
            self.refused([listed for listed in self.listed if listed is not refusal])

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

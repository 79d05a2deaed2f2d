"""Source panel: the Source text area, Browse TXT/MD and drag-and-drop import.

Text that breaks a document rule (over 20,000 code points, a lone surrogate) is refused
with a message and the previous text stays; a text refused only for its length can be
kept cut to its first 20,000 code points, as an explicit choice (Keep the first ...).
Files go through the core's strict decoder. Clear text empties the area in one step; the
sample document is labelled as such while it is shown unchanged. A file refused for its
size alone is offered in parts (app/documents.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from documents import Document, Documents, PartOf, Refusal
from dom import by_id, number, on

from chunker_py import ChunkerError, Settings, decode_document
from chunker_py.engine.limits import MAX_CODE_POINTS, MAX_IMPORT_BYTES, MAX_TOTAL_CODE_POINTS
from chunker_py.text.documents import check_document

# the most bytes read from one file: a file in parts holds at most MAX_TOTAL_CODE_POINTS
# code points, each at most 4 bytes of UTF-8
MAX_PARTS_BYTES = 4 * MAX_TOTAL_CODE_POINTS


class Source:
    def __init__(self, changed: Callable[[], Any], settings: Callable[[], Settings]) -> None:
        self._changed = changed
        self._settings = settings  # the settings shown (a file in parts is cut with them)
        self.area = by_id("source-text")
        self.text = str(self.area.value)  # the last accepted text
        # the sample the HTML holds, a text area's content (its defaultValue): a text
        # pasted while the page started is not it
        self.sample = str(self.area.textContent) or self.text
        self.refused = ""  # a text refused for its length only, offered cut to the limit
        self.file_name = ""  # the file the text was imported from ("": typed or the sample)
        self.imports = 0  # documents imported (Browse, drop): each replaces the text
        self.documents = Documents(self.choose, self.load_parts)

    def wire(self) -> None:
        on(self.area, "input", lambda _event: self._changed())
        on(by_id("browse"), "change", self._browse)
        on(self.area, "dragover", self._drag_over)
        on(self.area, "dragleave", lambda _event: self.area.classList.remove("dropping"))
        on(self.area, "drop", self._drop)
        on(by_id("clear-text"), "click", lambda _event: self._clear())
        on(by_id("keep-first"), "click", lambda _event: self._keep_first())
        self.documents.wire()

    def names(self) -> set[str]:
        """The names a questions file's corpus_id may give the text: its file's name and
        that name without its extension (none for a typed text or the sample)."""
        if not self.file_name:
            return set()
        return {self.file_name, self.file_name.rsplit(".", 1)[0]}

    def other_names(self) -> set[str]:
        """The names of the documents loaded but not shown (as ``names`` gives them)."""
        return {
            name
            for document in self.documents.items
            if document is not self.documents.shown
            for name in (document.file, document.file.rsplit(".", 1)[0])
        } - self.names()

    def part_span(self) -> tuple[int, int] | None:
        """Where the text lies in its file, when it is a part of a file loaded in parts
        (code points ``[start, end)``): questions written for the file keep those whose
        evidence lies here."""
        shown = self.documents.shown
        part = None if shown is None else shown.part_shown(self.text)
        if part is None:
            return None
        start = part.parts[part.which].position.code_points
        return start, start + len(self.text)

    def _clear(self) -> None:
        self.file_name = ""
        self.area.value = ""
        self.area.focus()
        self._changed()

    def _keep_first(self) -> None:
        """Keep the first MAX_CODE_POINTS code points of the refused text (code points,
        as Python slices them, so no surrogate pair is cut)."""
        kept, self.refused = self.refused[:MAX_CODE_POINTS], ""
        self.area.value = kept
        self.area.focus()
        self._changed()

    def current(self) -> str:
        """The text to split: the area's text if acceptable, else the previous text."""
        value = str(self.area.value)
        if value == self.text or value == _as_text_area_shows(self.text):
            # A text area reports CR and CRLF as LF: while the user has not edited an
            # imported text, keep it exactly as read, line endings included.
            return self.text
        try:
            check_document(value, max_code_points=MAX_CODE_POINTS)
        except ChunkerError as error:
            self.area.value = self.text
            self.tell(f"{error.message} The previous text was kept.", problem=True)
            try:  # refused for its length alone: offer to keep its start
                check_document(value[:MAX_CODE_POINTS], max_code_points=MAX_CODE_POINTS)
            except ChunkerError:
                return self.text
            if len(value) > MAX_CODE_POINTS:
                self.refused = value
                by_id("keep-first").hidden = False
            return self.text
        self.text = value
        self.tell("")
        self.documents.edited(value)
        return value

    def tell(self, message: str, *, problem: bool = False) -> None:
        status = by_id("source-status")
        status.textContent = message
        status.classList.toggle("problem", problem)
        self.refused = ""  # any new message withdraws the offer
        by_id("keep-first").hidden = True

    def show_count(self) -> None:
        by_id("source-sample").hidden = self.text != self.sample or not self.text
        count = len(self.text)  # Python counts code points, as the limit does
        by_id(
            "source-count"
        ).textContent = f"{number(count)} of {number(MAX_CODE_POINTS)} code points"

    async def _browse(self, event: Any) -> None:
        files = event.target.files
        if files.length:
            await self._import([files.item(i) for i in range(files.length)])
        event.target.value = ""  # choosing the same file again fires change again

    def _drag_over(self, event: Any) -> None:
        event.preventDefault()
        self.area.classList.add("dropping")

    async def _drop(self, event: Any) -> None:
        event.preventDefault()
        self.area.classList.remove("dropping")
        transfer = event.dataTransfer
        items = transfer.items
        if items and items.length:
            entry = items[0].webkitGetAsEntry() if hasattr(items[0], "webkitGetAsEntry") else None
            if entry and entry.isDirectory:
                self.tell("Folders cannot be imported; drop TXT or Markdown files.", problem=True)
                return
        files = transfer.files
        if files.length == 0:
            self.tell("Nothing to import: drop TXT or Markdown files.", problem=True)
            return
        await self._import([files.item(i) for i in range(files.length)])

    async def _import(self, files: list[Any]) -> None:
        """Each valid file becomes a document; the first of them is shown. A refused file
        is listed with its reason; the documents already loaded stay."""
        refusals: list[Refusal] = []
        added: list[Document] = []
        for file in files:
            name = str(file.name)
            size = int(file.size)
            if size > MAX_PARTS_BYTES:  # refused before reading
                refusals.append(
                    Refusal(
                        name,
                        f"{name} has {number(size)} bytes; imports accept at most "
                        f"{number(MAX_IMPORT_BYTES)} bytes, and a file loaded in parts at "
                        f"most {number(MAX_TOTAL_CODE_POINTS)} code points in all.",
                    )
                )
                continue
            data = (await file.arrayBuffer()).to_bytes()
            try:
                text = decode_document(data, name=name)
            except ChunkerError as error:
                refusals.append(_refusal(data, name, error.message))
                continue
            added.append(self.documents.add(name, text, size))
        offered = any(refusal.offer is not None for refusal in refusals)
        self.documents.refused(refusals if len(files) > 1 or offered else [])
        if not added:
            if len(files) == 1:
                offer = " It can be loaded in parts: Load in parts, below." if offered else ""
                self.tell(f"{refusals[0].reason} The previous text was kept.{offer}", problem=True)
            else:
                offer = " Those over the size can be loaded in parts, below." if offered else ""
                self.tell(
                    f"None of the {len(files)} files was imported; the previous text was "
                    f"kept.{offer}",
                    problem=True,
                )
            self.documents.render()
            return
        self._load(added[0])
        text = added[0].text
        note = ""
        if "\r" in text:
            note = (
                " Its CR line endings are kept for splitting; the text area shows them as "
                "line feeds, and editing the text converts them."
            )
        message = f"Imported {added[0].name} ({number(len(text))} code points).{note}"
        if len(files) > 1:
            message = f"Imported {len(added)} of {len(files)} files; showing {added[0].name}."
            if refusals:
                message += f" Refused {len(refusals)}, listed below with the reason."
        self.tell(message, problem=bool(refusals))
        self._changed()

    def load_parts(self, name: str, text: str, size: int) -> bool:
        """A file refused for its size alone, loaded in parts (each a document) cut where
        the streamed path cuts it with the settings shown; the first part is shown.
        Whether it loaded."""
        from chunker_py.io.parts import cut_parts  # loaded when first needed

        settings = self._settings()
        if settings.mode_info.stream_seam is None:  # Markdown structure: Recursive's seams
            settings = settings.replace(mode="recursive")
        try:
            parts = tuple(cut_parts(text, settings, name=name))
        except ChunkerError as error:
            self.tell(error.message, problem=True)
            return False
        added = [
            self.documents.add(
                name, part.text, len(part.text.encode("utf-8")), PartOf(name, parts, which)
            )
            for which, part in enumerate(parts)
        ]
        self._load(added[0])
        self.tell(
            f"Loaded {name} ({number(len(text))} code points, {number(size)} bytes) in "
            f"{len(parts)} parts of at most {number(MAX_CODE_POINTS)} code points, cut where "
            f"{settings.mode_info.label} streams it; showing {added[0].name}. Records and "
            "downloads give offsets in the whole file."
        )
        self._changed()
        return True

    def choose(self, document: Document) -> None:
        """A document chosen in the list: shown as the Source text, every panel follows."""
        self._load(document)
        self.tell(f"Showing {document.name} ({number(len(document.text))} code points).")
        self._changed()

    def _load(self, document: Document) -> None:
        """Show ``document`` as the text; for the Evidence check, a document replaced the
        text (its questions are checked against the new one) and it has a file name."""
        self.area.value = document.text
        self.text = document.text
        self.file_name = document.file
        self.imports += 1
        self.documents.show(document)


def _as_text_area_shows(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _refusal(data: bytes, name: str, reason: str) -> Refusal:
    """A refused file; one refused for its size alone (over the bytes or code points of
    an import, a valid text within MAX_TOTAL_CODE_POINTS in all) is offered in parts."""
    try:
        text = decode_document(data, name=name, max_bytes=None, max_code_points=None)
    except ChunkerError:
        return Refusal(name, reason)  # not a valid text either
    if len(data) <= MAX_IMPORT_BYTES and len(text) <= MAX_CODE_POINTS:
        return Refusal(name, reason)  # refused for something else
    if len(text) > MAX_TOTAL_CODE_POINTS:
        return Refusal(
            name,
            f"{reason} It has {number(len(text))} code points; a file loaded in parts may "
            f"hold at most {number(MAX_TOTAL_CODE_POINTS)} code points in all.",
        )
    return Refusal(name, reason, (text, len(data)))

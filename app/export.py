"""Downloads and copies: JSONL and CSV of the current records, and the settings link.

A part of a file loaded in parts gives its records as the streamed path writes them for
that part of the file: offsets, ids and indices in the whole file."""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from typing import Any

from documents import Document, Documents, PartOf
from dom import by_id, copy_text, element, on, render
from js import window
from pyodide.ffi import create_once_callable
from snippets import cli_command

from chunker_py import Analysis, ChunkerError, Settings, to_csv, to_jsonl
from chunker_py.io.records import download_name

BUTTONS = ("download-jsonl", "download-csv", "copy-jsonl", "copy-csv")


class Export:
    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self.analysis: Analysis | None = None
        self.part: PartOf | None = None

    def wire(self) -> None:
        on(by_id("download-jsonl"), "click", lambda _e: self._download("jsonl"))
        on(by_id("download-file"), "click", lambda _e: self._whole_file())
        on(by_id("download-set"), "click", lambda _e: self._set())
        on(by_id("download-csv"), "click", lambda _e: self._download("csv"))

        async def copy_jsonl(_event: Any) -> None:
            if self.analysis is not None:
                await self._copy(self._jsonl(), "JSONL")

        async def copy_csv(_event: Any) -> None:
            if self.analysis is not None:
                await self._copy(self._csv(), "CSV")

        async def copy_link(_event: Any) -> None:
            if not by_id("copy-link").disabled:
                await self._copy(str(window.location.href), "Settings link")

        on(by_id("copy-jsonl"), "click", copy_jsonl)
        on(by_id("copy-csv"), "click", copy_csv)
        on(by_id("copy-link"), "click", copy_link)

    def show(self, analysis: Analysis | None, part: PartOf | None = None) -> None:
        self.analysis, self.part = analysis, part
        for button in BUTTONS:
            by_id(button).disabled = analysis is None
        self._show_set(analysis)
        note = by_id("export-part")
        note.hidden = by_id("download-file").hidden = part is None or analysis is None
        if part is None or analysis is None:
            return
        whole = (
            f"Records of {part.label()} of {part.file}: offsets, ids and indices in the whole file"
        )
        if analysis.settings.mode_info.stream_seam is None:
            by_id("download-file").hidden = True
            note.replaceChildren(
                f"{whole}. {analysis.settings.mode_info.label} cannot be streamed from the "
                "command line; Recursive with the Markdown preset can."
            )
            return
        command = cli_command(analysis.settings, part.file) + " --stream --buffer-size 20000"
        note.replaceChildren(f"{whole}, as ", element("code", command), " writes them.")

    def _show_set(self, analysis: Analysis | None) -> None:
        """From two documents on: Download the set (JSONL), and the command it equals
        (each file once, by name; Markdown structure, which cannot be streamed, has none)."""
        files = set_files(self.documents.items)
        note, button = by_id("export-set"), by_id("download-set")
        note.hidden = button.hidden = (
            len(files) < 2 or analysis is None or analysis.settings.mode_info.stream_seam is None
        )
        if note.hidden or analysis is None:
            return
        settings = analysis.settings.replace(source_name="")
        words = shlex.split(cli_command(settings, "FILE"))
        at = words.index("FILE")
        words[at : at + 1] = [file for file, _text in files]
        command = shlex.join(words) + " --stream --buffer-size 20000"
        note.replaceChildren(
            f"The set: {len(files)} files, each record named after its file (name#index), as ",
            element("code", command),
            " writes them from the same files in one folder.",
        )

    def show_link(self, problem: str | None) -> None:
        """Offer the settings link only while the settings shown are valid: the link
        holds the settings shown, never the last valid ones."""
        by_id("copy-link").disabled = problem is not None
        by_id("link-note").hidden = problem is None
        by_id("link-note").textContent = (
            ""
            if problem is None
            else "No settings link until the settings are valid: "
            "fix the field Chunk readiness names."
        )

    def _jsonl(self) -> str:
        assert self.analysis is not None
        if self.part is not None:
            return self._part_lines("jsonl")
        return to_jsonl(self.analysis)

    def _csv(self) -> str:
        assert self.analysis is not None
        if self.part is not None:
            return self._part_lines("csv")
        return to_csv(self.analysis, spreadsheet_safe=bool(by_id("spreadsheet-safe").checked))

    def _part_lines(self, kind: str) -> str:
        from chunker_py.io.parts import part_lines  # loaded when first needed

        assert self.analysis is not None and self.part is not None
        safe = bool(by_id("spreadsheet-safe").checked)
        return part_lines(list(self.part.parts), self.part.which, self.analysis.settings, kind,
                          spreadsheet_safe=safe)  # fmt: skip

    def _download(self, kind: str) -> None:
        if self.analysis is None:
            return
        text = self._jsonl() if kind == "jsonl" else self._csv()
        kind_type = "application/jsonl" if kind == "jsonl" else "text/csv"
        name = download_name(self.analysis.settings.source_name, kind)
        render().download(text, name, f"{kind_type};charset=utf-8")
        self._say(f"Saved {name}.")

    def _whole_file(self) -> None:
        """Download the JSONL of the whole file the part shown belongs to: what the
        command the note names writes, cut one part per task (each a part's split)."""
        if self.analysis is None or self.part is None:
            return
        part, settings = self.part, self.analysis.settings
        name = download_name(part.file.rsplit(".", 1)[0], "jsonl")
        pieces = [p.text for p in part.parts]
        self._write(by_id("download-file"), name, [(part.file, pieces)], settings, named=False)

    def _set(self) -> None:
        """Download the JSONL of every document of the list, each file once (a file in
        parts whole), named by its file: what the command the note names writes."""
        if self.analysis is None:
            return
        settings = self.analysis.settings.replace(source_name="")
        self._write(by_id("download-set"), "documents.jsonl", set_files(self.documents.items),
                    settings, named=True)  # fmt: skip

    def _write(
        self,
        button: Any,
        name: str,
        files: list[tuple[str, Sequence[str]]],
        settings: Settings,
        *,
        named: bool,
    ) -> None:
        """Write ``files`` (name, the parts of its text) as ``python -m chunker_py FILE... --stream
        --buffer-size 20000`` does, one segment per task, then download it as ``name``;
        ``named``: each file's records named after it, as the command names them when it
        is given several files (one file's are named by the settings' source name)."""
        import io

        from chunker_py.io.stream import lines_of, segment_records

        def segments() -> Iterator[list[dict[str, Any]]]:
            for file, pieces in files:
                used = settings.replace(source_name=file) if named else settings
                source = io.StringIO("".join(pieces), newline="")
                yield from segment_records(source, used, buffer_size=20_000, name=file)

        pending = segments()
        written: list[str] = []
        button.disabled = True

        def step() -> None:
            try:
                records = next(pending, None)
            except ChunkerError as error:
                button.disabled = False
                self._say(error.message)
                return
            if records is not None:
                written.append(lines_of(records, settings))
                self._say(f"Writing {name}: {len(written)} parts cut…")
                window.setTimeout(create_once_callable(step), 0)
                return
            button.disabled = False
            render().download("".join(written), name, "application/jsonl;charset=utf-8")
            self._say(f"Saved {name}.")

        step()

    async def _copy(self, text: str, what: str) -> None:
        await copy_text(text, what, "export-status")

    def _say(self, message: str) -> None:
        by_id("export-status").textContent = message


def set_files(documents: Sequence[Document]) -> list[tuple[str, Sequence[str]]]:
    """Each file of the list once, in order, with the pieces of its text: a document's
    text, or all the parts of a file in parts, once for all of them (joined only when
    written: this runs on every update)."""
    files: list[tuple[str, Sequence[str]]] = []
    seen: set[int] = set()
    for document in documents:
        part = document.part_shown(document.text)
        if part is None:
            files.append((document.file, (document.text,)))
        elif id(part.parts) not in seen:
            seen.add(id(part.parts))
            files.append((part.file, [p.text for p in part.parts]))
    return files

"""Downloads and copies: JSONL and CSV of the current records, and the settings link.

A part of a file loaded in parts gives its records as the streamed path writes them for
that part of the file: offsets, ids and indices in the whole file."""

from __future__ import annotations

from typing import Any

from documents import PartOf
from dom import by_id, copy_text, element, on, render
from js import window
from pyodide.ffi import create_once_callable
from snippets import cli_command

from chunker_py import Analysis, ChunkerError, to_csv, to_jsonl
from chunker_py.io.records import download_name

BUTTONS = ("download-jsonl", "download-csv", "copy-jsonl", "copy-csv")


class Export:
    def __init__(self) -> None:
        self.analysis: Analysis | None = None
        self.part: PartOf | None = None

    def wire(self) -> None:
        on(by_id("download-jsonl"), "click", lambda _e: self._download("jsonl"))
        on(by_id("download-file"), "click", lambda _e: self._whole_file())
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
        parts = list(self.part.parts)
        return part_lines(parts, self.part.which, self.analysis.settings, kind,
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
        import io

        from chunker_py.io.stream import lines_of, segment_records

        part, settings = self.part, self.analysis.settings
        whole = "".join(p.text for p in part.parts)
        name = download_name(part.file.rsplit(".", 1)[0], "jsonl")
        segments = segment_records(
            io.StringIO(whole, newline=""), settings, buffer_size=20_000, name=part.file
        )
        written: list[str] = []
        button = by_id("download-file")
        button.disabled = True

        def step() -> None:
            try:
                records = next(segments, None)
            except ChunkerError as error:
                button.disabled = False
                self._say(error.message)
                return
            if records is not None:
                written.append(lines_of(records, settings))
                self._say(f"Writing {name}: {len(written)} of about {len(part.parts)} parts…")
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

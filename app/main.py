"""Chunk Inspector's UI: wires the panels to chunker_py and recomputes on every edit.

Runs on the page's main thread under PyScript. Every edit schedules one recompute that
reads the controls when it runs, so only the latest input's result is ever shown.
#app[data-state] is "busy" from an edit until the panels show its result, then "ready".
"""

from __future__ import annotations

import traceback

import chart
import histogram
import readiness
import settings
import summary
import theme
from chunkmap import ChunkMap
from copycode import CopyCode
from dom import before_next_frame, by_id, on
from export import Export
from preview import Preview
from pyscript import window
from records import Records
from source import Source

import chunker_py
from chunker_py import ChunkerError, Settings, analyse, parse_settings, settings_from_fragment


class Page:
    def __init__(self) -> None:
        self.root = by_id("app")
        self.source = Source(self.changed)
        self.preview = Preview()
        self.export = Export()
        self.records = Records()
        # issue 11: chunk map and copy as code
        self.chunk_map = ChunkMap(self.records, self.preview)
        self.copy_code = CopyCode()
        self.pending = False
        self.link_notes: list[str] = []

    def start(self) -> None:
        self._read_link()
        self.source.wire()
        settings.wire(self.changed)
        self.preview.wire()
        self.records.wire()
        self.export.wire()
        # issue 11: chunk map, copy as code, charts follow the colour scheme
        self.chunk_map.wire()
        self.copy_code.wire()
        theme.on_change(lambda: (chart.redraw(), histogram.redraw()))
        on(window, "hashchange", lambda _event: self._link_changed())
        by_id("core-version").textContent = f"chunker_py {chunker_py.__version__}"
        self.update()

    def _read_link(self) -> None:
        fragment = str(window.location.hash)
        if fragment:
            chosen, notes = settings_from_fragment(fragment)
            settings.apply(chosen)
            self.link_notes = [f"From the settings link: {n}" for n in notes]
        else:
            settings.sync_sliders()
            settings.show_mode()

    def _link_changed(self) -> None:
        self._read_link()
        self.changed()

    def changed(self) -> None:
        """Any edit: mark the page busy and schedule one recompute."""
        self.root.dataset.state = "busy"
        self.root.setAttribute("aria-busy", "true")
        if not self.pending:
            self.pending = True
            before_next_frame(self._run)

    def _run(self) -> None:
        self.pending = False
        try:
            self.update()
        except Exception as exc:  # a bug, not a user error: show it, keep the page working
            traceback.print_exc()
            self._clear_after_bug()
            readiness.bug(f"{type(exc).__name__}: {exc}")
            self.root.dataset.state = "error"
            self.root.removeAttribute("aria-busy")

    def _clear_after_bug(self) -> None:
        """No panel may keep showing (or offer to download) an earlier text's result."""
        self.export.show(None)
        for clear in (lambda: summary.show(None), lambda: self.preview.show(None),
                      lambda: self.records.show(None), lambda: chart.show((), None),
                      lambda: self.chunk_map.show(None), lambda: histogram.show(None)):  # fmt: skip
            try:
                clear()
            except Exception:  # the bug may sit in a panel: clear the others anyway
                traceback.print_exc()

    def update(self) -> None:
        text = self.source.current()
        self.source.show_count()
        notes, self.link_notes = self.link_notes, []
        try:
            chosen = parse_settings(settings.read_raw())
        except ChunkerError as error:
            settings.mark_invalid(error.field)
            self._show(None, error.message, notes=notes)
            return
        settings.mark_invalid(None)
        settings.show_separator_summary(chosen)
        settings.update_link(chosen)
        result = analyse(text, chosen)
        if result.error is not None:
            settings.mark_invalid(result.error.field)
            self._show(None, result.error.message, chosen, result.tradeoffs, notes=notes)
            return
        self._show(result, None, chosen, result.tradeoffs, warnings=result.warnings, notes=notes)

    def _show(
        self,
        result: chunker_py.Analysis | None,
        problem: str | None,
        chosen: Settings | None = None,
        tradeoffs: tuple[chunker_py.Tradeoff, ...] = (),
        warnings: tuple[str, ...] = (),
        notes: list[str] | None = None,
    ) -> None:
        readiness.show(problem, warnings, notes or ())
        summary.show(result.summary if result is not None else None)
        self.preview.show(result)
        self.records.show(result)
        chart.show(tradeoffs, chosen.chunk_size if chosen is not None else None)
        self.export.show(result)
        # issue 11: chunk map, sizes histogram, copy as code
        self.chunk_map.show(result)
        histogram.show(result)
        self.copy_code.show(chosen)
        self.root.dataset.state = "ready"
        self.root.removeAttribute("aria-busy")


Page().start()

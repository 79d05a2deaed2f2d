"""Chunk records: index, start, end, length, actual overlap and text (code-point offsets).
The first rows are shown at once and the rest on request (see ``dom.Windowed``). After the
paint the Evidence column names the questions whose evidence each chunk holds (Evidence check)
and the Damage column its damage; neither is part of the downloaded records.
"""

from __future__ import annotations

from damage import show_words
from dom import ListView, Windowed, by_id, number, render, to_json

from chunker_py import Analysis, Chunk

COLUMNS = ["Index", "Start", "End", "Length", "Tokens", "Overlap", "Text"]
TOKENS_COLUMN = COLUMNS.index("Tokens")
LATER = ["Evidence", "Damage"]  # filled in after the paint (cells the rows end with)


class Records(Windowed):
    columns = COLUMNS
    first = 100
    more_id = "records-more"
    noun = "records"
    keeps_items = True  # an edit redraws the rows from the chunk it falls in on
    list_id = "records-body"
    item_tag = "tr"
    scroll_to = "center"
    focus_chosen = True

    def __init__(self) -> None:
        super().__init__()
        self.evidence_shown: str | None = None  # the Evidence words the rows have (JSON)
        self.uncounted = False  # whether a row drawn last shows "…" for its tokens

    def show(self, view: ListView) -> None:
        if view.counted and self.uncounted:
            # every chunk is counted now: rows drawn with "…" get their count
            # (render.rows keeps the rows whose cells are unchanged)
            self.forget()
        super().show(view)
        body = by_id("records-body")
        show_words(body, view, self.listed)
        # the Evidence words come with the view once found for its result; none before
        evidence = view.evidence if view.analysis is not None else None
        shown = to_json({str(i): w for i, w in (evidence or {}).items()})
        if shown != self.evidence_shown:
            render().evidence(body, shown)
            self.evidence_shown = shown

    def _tokens(self, index: int) -> int | str:
        # counts show once the tokenizer's tables are in and the chunk is counted: an
        # edit's own task counts nothing (so no task runs long: the first 100 rows of a
        # 20,000-letter run took 190 ms to count there); the rows are drawn again once
        # every chunk is counted after the paint (the view's ``counted``)
        if not self.view.tokens_ready or self.analysis is None:
            self.uncounted = True
            return "…"
        known = self.analysis.known_tokens(index)
        if known is None:
            self.uncounted = True
            return "…"
        return int(known)

    def extra(self, analysis: Analysis) -> object:
        return (analysis.settings.mode, analysis.settings.tokenizer, self.view.tokens_ready)

    def draw(self, analysis: Analysis | None, total: int, chunks: tuple[Chunk, ...]) -> None:
        """The rows of ``chunks``, after the first ``self.kept`` rows (kept as they are)."""
        self.uncounted = False
        headings = (
            analysis is not None and "heading_path" in analysis.settings.mode_info.record_keys
        )
        self._header(headings)
        if headings:
            rows = [
                [c.index, c.start, c.end, c.length, self._tokens(c.index), c.overlap,
                 c.heading_path, c.text]
                for c in chunks
            ]  # fmt: skip
        else:
            rows = [
                [c.index, c.start, c.end, c.length, self._tokens(c.index), c.overlap, c.text]
                for c in chunks
            ]
        render().rows(by_id("records-body"), to_json(rows), TOKENS_COLUMN, self.kept)
        self.evidence_shown = None  # rows drawn: ``show`` gives them their Evidence words

    def caption(self, total: int, shown: int) -> None:
        listed = f"showing {number(shown)}; " if shown < total else ""
        tokenizer = self.analysis.settings.tokenizer if self.analysis is not None else ""
        by_id("records-caption").textContent = (
            f"{number(total)} records ({listed}offsets and lengths in code points, "
            f"offsets end-exclusive; tokens in {tokenizer})."
            if total
            else "No records: see Chunk readiness."
        )

    def _header(self, headings: bool) -> None:
        """Column headings: the heading path column only where the mode sets paths."""
        columns = [*COLUMNS[:-1], "Heading path", COLUMNS[-1]] if headings else COLUMNS
        if columns != self.columns:
            self.columns = columns
            render().header(by_id("records-head"), to_json(columns + LATER))

"""The splitter comparison over the set: one line per splitter over every document of the
list, as ``python -m chunker_py FILE... --format compare`` prints its corpus lines.

Each document is compared at the shared settings, one comparison row per step (after the
shown document's own comparison, which it reuses); the rows' figures are kept per text and
settings, so an edit compares again only the document edited. A file in parts counts as
its parts, each a document. The table is shown from two documents on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from documents import Document
from dom import by_id, element, number

from chunker_py import Analysis, Row, Settings
from chunker_py.pipeline.compare import compare_row_steps

# the corpus line's figures, as the table shows them: (heading, key)
COLUMNS = (
    ("Chunks", "chunks"),
    ("Documents over the limit", "files_over_limit"),
    ("Max tokens", "max_tokens"),
    ("Code blocks cut", "code_blocks_cut"),
    ("Tables cut", "tables_cut"),
    ("Ending mid-sentence", "ends_mid_sentence"),
    ("Mid-word edges", "mid_word_edges"),
    ("Split graphemes", "split_grapheme_edges"),
    ("Over size", "over_size"),
    ("Documents without figures", "files_without_figures"),
)


class SetComparison:
    def __init__(self) -> None:
        self.kept: dict[tuple[str, Settings], tuple[Any, ...]] = {}  # rows' figures
        self.lines: list[dict[str, Any]] = []  # the corpus lines shown

    def work(
        self, documents: Sequence[Document], shown: Analysis, rows: Sequence[Row]
    ) -> Iterator[None]:
        """Compare every document not compared at these settings, a row per step, then
        show the set's lines (nothing with fewer than two documents)."""
        section = by_id("set-compare")
        root = by_id("app")
        if len(documents) < 2:
            section.hidden = True
            root.removeAttribute("data-set")
            return
        from chunker_py.io.render import row_figures  # the command line's, loaded once
        from chunker_py.io.tally import set_compare_lines

        root.dataset.set = "pending"
        settings = shown.settings
        files = []
        for document in list(documents):
            key = (document.text, settings)
            figures = self.kept.get(key)
            if figures is None:
                if document.text == shown.text:
                    compared: Sequence[Row] = rows
                else:
                    compared = []
                    for row in compare_row_steps(document.text, settings):
                        if row is not None:
                            compared.append(row)
                        yield
                figures = tuple(row_figures(row) for row in compared)
                self.kept[key] = figures
            files.append((document.size, figures))
        self.lines = set_compare_lines(files)
        self._show(len(files))
        root.dataset.set = "ready"

    def _show(self, documents: int) -> None:
        by_id("set-compare").hidden = False
        by_id("set-compare-count").textContent = f"{number(documents)} documents"
        body = by_id("set-compare-body")
        body.replaceChildren()
        for line in self.lines:
            row = element("tr")
            row.append(element("th", line["row"]))
            row.lastChild.scope = "row"
            for _heading, key in COLUMNS:
                row.append(element("td", cell(line, key, documents), "num"))
            body.append(row)


def cell(line: dict[str, Any], key: str, documents: int) -> str:
    """A corpus line's figure as the table shows it ("—": no figure, or chunks of a row
    no document has figures for: the Semantic row before the model's vectors)."""
    value = line.get(key)
    unmeasured = key == "chunks" and not value and line["files_without_figures"] == documents
    if value is None or unmeasured:
        return "—"
    if key == "ends_mid_sentence":
        pct = line.get("ends_mid_sentence_pct")
        return number(value) if pct is None else f"{number(value)} ({pct:.1f}%)"
    return number(value)

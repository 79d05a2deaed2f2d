"""The Records table and the Overlap preview after an edit (app/records.py, app/preview.py,
app/dom.py ``Windowed``), in CPython with a stand-in for the page's scripts: the items
before the edited chunk are kept as they are and only the rest are built and sent; the
lists then hold exactly what a full redraw would (Sentence mode's keystroke with
every chunk listed)."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py import Settings, analyse

from .page_stub import import_page

ROOT = Path(__file__).resolve().parents[3]


class Element:
    def __init__(self) -> None:
        self.textContent = ""
        self.hidden = False
        self.rows: list[list[Any]] = []  # a table body: its rows' cells, in order
        self.evidence: dict[int, str] = {}  # its rows' Evidence words, by chunk index


class Scripts:
    """static/render.js's ``rows``: the first ``kept`` rows stay, the others are the
    ones sent (what its keyed reconcile leaves in the table body)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int]] = []  # per call: rows kept, rows sent

    def rows(self, tbody: Element, rows_json: str, _tokens_at: int, kept: int = 0) -> None:
        rows = json.loads(rows_json)
        assert kept <= len(tbody.rows)
        tbody.rows = tbody.rows[:kept] + rows
        kept_indices = {row[0] for row in tbody.rows[:kept]}
        tbody.evidence = {i: w for i, w in tbody.evidence.items() if i in kept_indices}
        self.sent.append((kept, len(rows)))

    def preview(self, items: Element, items_json: str, kept: int = 0) -> None:
        assert kept <= len(items.rows)
        items.rows = items.rows[:kept] + json.loads(items_json)

    def header(self, _head: Element, _json: str) -> None:
        pass

    def damage(self, _listing: Element, _json: str) -> None:
        pass

    def evidence(self, tbody: Element, words_json: str) -> None:
        """render.js's ``evidence``: every row's Evidence cell set from ``words_json``."""
        words = json.loads(words_json)
        tbody.evidence = {row[0]: words[str(row[0])] for row in tbody.rows if str(row[0]) in words}


SCRIPTS = Scripts()
ELEMENTS: dict[str, Element] = {}
dom, records, preview = import_page(
    ("dom", "records", "preview"),
    types.SimpleNamespace(ciRender=SCRIPTS),
    lambda name: ELEMENTS.setdefault(name, Element()),
)

SENTENCES = ["One sentence here. ", "Dr. Who came. ", "Why? ", "No. 5 is it.\n\n", "Yes! "]


def expected(text: str, chosen: Settings) -> list[list[Any]]:
    """Records' first 100 rows, as the core gives them (token counts not in yet)."""
    return [[c.index, c.start, c.end, c.length, "…", c.overlap, c.text]
            for c in analyse(text, chosen).chunks[:100]]  # fmt: skip


def show(table: Any, text: str, chosen: Settings) -> list[list[Any]]:
    table.show(dom.ListView(analysis=analyse(text, chosen)))
    return ELEMENTS["records-body"].rows


def shown_items(items: Any, text: str, chosen: Settings) -> list[Any]:
    items.show(dom.ListView(analysis=analyse(text, chosen)))
    return ELEMENTS["preview-list"].rows


def redrawn_items(text: str, chosen: Settings) -> list[Any]:
    """The preview's items drawn afresh (nothing kept)."""
    return shown_items(preview.Preview(), text, chosen)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=60).map("".join),
    st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(["x", ". A", "\n\n", ""])),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from([("sentence", 40, 0), ("sentence", 60, 10), ("recursive", 30, 5)]),
)
def test_the_table_after_edits_is_a_full_redraw(
    text: str, edits: list[tuple[float, int, str]], setting: tuple[str, int, int]
) -> None:
    mode, size, overlap = setting
    chosen = Settings(mode=mode, chunk_size=size, chunk_overlap=overlap)
    table = records.Records()
    items = preview.Preview()
    assert show(table, text, chosen) == expected(text, chosen)
    shown_items(items, text, chosen)
    for where, removed, inserted in edits:
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + removed :]
        assert show(table, text, chosen) == expected(text, chosen)
        kept_items = list(shown_items(items, text, chosen))
        assert kept_items == redrawn_items(text, chosen)


def test_an_edit_in_the_last_chunk_sends_only_its_row() -> None:
    chosen = Settings(mode="sentence", chunk_size=300, chunk_overlap=50)
    text = "".join(f"Sentence {i} is here. It ends. " for i in range(300))  # 80 chunks
    table = records.Records()
    first = show(table, text, chosen)
    assert 1 < len(first) <= 100
    SCRIPTS.sent.clear()
    assert show(table, text + "More", chosen) == expected(text + "More", chosen)
    assert SCRIPTS.sent == [(len(first) - 1, 1)]
    # an edit in chunk 0 with the same spans: every row's text is new from there on
    SCRIPTS.sent.clear()
    changed = "T" + text[1:] + "More"
    assert show(table, changed, chosen) == expected(changed, chosen)
    assert SCRIPTS.sent == [(0, len(first))]
    # the last character of chunk 3 replaced, its span the same ("." -> "!")
    end = analyse(changed, chosen).spans[3].end
    assert changed[end - 1] == "."
    SCRIPTS.sent.clear()
    changed = changed[: end - 1] + "!" + changed[end:]
    assert show(table, changed, chosen) == expected(changed, chosen)
    assert SCRIPTS.sent == [(3, len(first) - 3)]


def test_the_evidence_words_come_with_the_view_and_an_edit_drops_them() -> None:
    """The Evidence column shows the words of the view it is shown from: none before the
    evidence is found, none of the previous text's once an edit's result is shown (even
    where no row is drawn again), every listed row's once found (rows listed later too)."""
    chosen = Settings(mode="sentence", chunk_size=120, chunk_overlap=20)
    text = "".join(f"Sentence {i} is here. It ends. " for i in range(600))  # >100 chunks
    result = analyse(text, chosen)
    assert len(result.spans) > 110
    table = records.Records()
    view = dom.ListView(analysis=result)
    table.show(view)
    body = ELEMENTS["records-body"]
    assert body.evidence == {}
    words = {2: "question 1", 105: "questions 1, 2"}
    view = dom.ListView(analysis=result, evidence=words)
    table.show(view)
    assert body.evidence == {2: "question 1"}  # chunk 105 is not listed yet
    table.reveal(105)  # all rows listed: the later row has its words too
    assert body.evidence == words
    # an edit after every chunk's end: no row changes, the old words go all the same
    SCRIPTS.sent.clear()
    edited = analyse(text + "More", chosen)
    table.show(dom.ListView(analysis=edited))
    assert body.evidence == {}
    table.show(dom.ListView(analysis=edited, evidence={3: "question 2"}))
    assert body.evidence == {3: "question 2"}
    table.show(dom.ListView())
    assert body.evidence == {}

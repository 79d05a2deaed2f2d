"""The trade-off chart, the Splitter comparison and the records shown from their views
(app/chart.py ``TradeoffView``, app/damage.py ``ComparisonView``, app/dom.py ``ListView``'s
``counted``), in CPython with stand-ins for Plotly and static/render.js: what the page finds
after the paint (each size's damage, the excerpts kept whole, the evidence cells, every
chunk's tokens) comes with the view the panel is shown; an empty view drops all of it."""

from __future__ import annotations

import json
import types
from dataclasses import replace
from typing import Any

from chunker_py import Settings, analyse
from chunker_py.pipeline.analysis import tradeoffs
from chunker_py.stepwise import compare_row_steps, damage_by_size_row_steps

from . import page_stub
from .page_stub import import_page

TEXT = "One sentence here. Another one follows it.\n\n```\ncode block\n```\n" * 6
CHOSEN = Settings(mode="fixed", chunk_size=40, chunk_overlap=0)


class Element(page_stub.Element):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[Any]] = []  # a table body's rows (records, comparison)
        self.evidence_cells: list[list[str]] = []  # the comparison rows' evidence cells

    def replaceChildren(self) -> None:
        super().replaceChildren()
        self.rows, self.evidence_cells = [], []

    def querySelector(self, _selector: str) -> None:
        return None

    def querySelectorAll(self, _selector: str) -> list[Any]:
        """The comparison body's rows (":scope > tr"), each with its evidence cells."""
        return [Row(self, i) for i in range(len(self.rows))]


class ClassList:
    def __init__(self) -> None:
        self.names: set[str] = set()

    def toggle(self, name: str, on: bool) -> None:
        (self.names.add if on else self.names.discard)(name)


class Cell:
    def __init__(self, body: Element, row: int, column: int) -> None:
        self.body, self.row, self.column = body, row, column
        self.classList = ClassList()

    @property
    def textContent(self) -> str:
        return self.body.evidence_cells[self.row][self.column]

    @textContent.setter
    def textContent(self, text: str) -> None:
        self.body.evidence_cells[self.row][self.column] = text


class Row:
    def __init__(self, body: Element, index: int) -> None:
        self.body, self.index = body, index

    def querySelectorAll(self, _selector: str) -> list[Cell]:  # "td.ev-col"
        return [Cell(self.body, self.index, c) for c in range(7)]


class Plotly:
    def __init__(self) -> None:
        self.drawn = 0  # Plotly.react calls: the bars drawn anew
        self.updated: list[Any] = []  # Plotly.update calls' data: the notes on the bars

    def react(self, *_args: Any) -> None:
        self.drawn += 1

    def update(self, _chart: Element, data: Any, _layout: Any) -> None:
        self.updated.append(data)

    def purge(self, _chart: Element) -> None:
        self.drawn = 0


class Scripts:
    """static/render.js as the panels call it."""

    def __init__(self) -> None:
        self.compared = 0  # tables of comparison rows drawn

    def compare(self, body: Element, rows_json: str, _apply: Any) -> None:
        self.compared += 1
        body.rows = [row["cells"] for row in json.loads(rows_json)]
        body.evidence_cells = [row[row_cells_at:] for row in body.rows]

    def rows(self, tbody: Element, rows_json: str, _tokens_at: int, kept: int = 0) -> None:
        tbody.rows = tbody.rows[:kept] + json.loads(rows_json)

    def header(self, *_args: Any) -> None:
        pass

    def damage(self, *_args: Any) -> None:
        pass

    def evidence(self, *_args: Any) -> None:
        pass


PLOTLY = Plotly()
SCRIPTS = Scripts()
ELEMENTS: dict[str, Element] = {}
window = types.SimpleNamespace(
    Plotly=PLOTLY,
    ciRender=SCRIPTS,
    JSON=types.SimpleNamespace(parse=json.loads),
    matchMedia=lambda _query: types.SimpleNamespace(matches=False),
)
chart, damage, dom, records = import_page(
    ("chart", "damage", "dom", "records"),
    window,
    lambda name: ELEMENTS.setdefault(name, Element()),
)
row_cells_at = damage.EVIDENCE_AT


def reset() -> None:
    PLOTLY.__init__()  # type: ignore[misc]
    SCRIPTS.__init__()  # type: ignore[misc]
    for element in ELEMENTS.values():  # app/dom.py's by_id keeps them: the same ones
        element.__init__()  # type: ignore[misc]


def said() -> str:
    return ELEMENTS["tradeoff-text"].textContent


def test_the_trade_off_notes_come_with_the_view() -> None:
    reset()
    result = analyse(TEXT, CHOSEN)
    bars = tradeoffs(TEXT, CHOSEN, known=result.count)
    by_size = [r for r in damage_by_size_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    assert by_size and all(r.damage is not None for r in by_size)
    shown = chart.TradeoffChart()
    view = chart.TradeoffView(bars, CHOSEN.chunk_size, "code points")
    shown.show(view)
    assert PLOTLY.drawn == 1 and "Damage" not in said() and not PLOTLY.updated
    assert said().startswith("Sizes in code points: ")

    view = replace(view, damage=by_size)
    shown.show(view)
    assert PLOTLY.drawn == 1  # the same bars: only their notes are added
    for row in by_size:
        d, pct = row.damage, row.ends_mid_sentence_pct
        assert d is not None and pct is not None
        note = f"size {row.settings.chunk_size:,}: {d.code_blocks_cut:,} code block(s) cut"
        assert note in said()
        assert f"{pct:.1f}% ending mid-sentence" in said()
    assert "Evidence kept whole" not in said()
    sizes = [r.settings.chunk_size for r in by_size]
    view = replace(view, evidence={sizes[0]: (2, 3), sizes[1]: (0, 0)})
    shown.show(view)
    assert PLOTLY.drawn == 1
    assert f"Evidence kept whole: size {sizes[0]:,}: 2 of 3." in said()
    assert f"size {sizes[1]:,}: 0 of 0" not in said()  # no matched question at that size
    assert "2/3 \\u2713" in json.dumps(PLOTLY.updated[-1])  # 2 of 3 kept whole

    # a new result with the same bars keeps the notes until its own come
    shown.show(chart.TradeoffView(bars, CHOSEN.chunk_size, "code points"))
    assert "Damage" in said() and "Evidence kept whole" in said()
    # other bars: no notes of the older ones
    edited = "Intro. " + TEXT * 2
    other = tradeoffs(edited, CHOSEN, known=analyse(edited, CHOSEN).count)
    shown.show(chart.TradeoffView(other, CHOSEN.chunk_size, "code points"))
    assert PLOTLY.drawn == 2
    assert "Damage" not in said() and "Evidence kept whole" not in said()
    # the colour scheme changes: drawn again, with the notes of its view
    shown.show(replace(view, tradeoffs=other))
    shown.redraw()
    assert PLOTLY.drawn == 3 and "Damage" in said()
    shown.show(chart.TradeoffView())
    assert said() == "No comparison: see Chunk readiness."
    assert ELEMENTS["tradeoff-chart"].hidden


def test_the_trade_off_notes_are_worded_from_the_view_the_chart_shows() -> None:
    """The chart keeps no notes beside its view: a new result with the same bars shows
    (and redraws with) the rows and excerpts kept whole of the view it showed, until its
    own come; the notes under the bars are worded from those."""
    reset()
    result = analyse(TEXT, CHOSEN)
    bars = tradeoffs(TEXT, CHOSEN, known=result.count)
    by_size = [r for r in damage_by_size_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    size = by_size[0].settings.chunk_size
    shown = chart.TradeoffChart()
    shown.show(chart.TradeoffView(bars, CHOSEN.chunk_size, damage=by_size, evidence={size: (1, 2)}))
    shown.show(chart.TradeoffView(bars, CHOSEN.chunk_size))  # a new result: notes not found yet
    assert shown.view.damage is by_size and shown.view.evidence == {size: (1, 2)}
    damage, evidence = chart.notes(shown.view)
    assert f"size {size:,}: {damage[size]}" in said() and evidence == {size: "1 of 2"}
    assert not [name for name, value in vars(shown).items() if isinstance(value, dict)]
    shown.redraw()
    assert f"Evidence kept whole: size {size:,}: 1 of 2." in said()


def test_the_comparison_evidence_cells_come_with_the_view() -> None:
    reset()
    result = analyse(TEXT, CHOSEN)
    rows = [r for r in compare_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    table = damage.Comparison(lambda _fragment: None)
    view = damage.ComparisonView(rows)
    table.show(view)
    body = ELEMENTS["compare-body"]
    assert SCRIPTS.compared == 1 and len(body.rows) == len(rows)
    assert body.evidence_cells == [["…"] * 7 for _row in rows]
    cells = [
        [f"{i} of 3", "1 of 2", "2.0", "0.500", "1.000", "0.250", "30.0"] for i in range(len(rows))
    ]
    table.show(replace(view, evidence=cells))
    assert SCRIPTS.compared == 1  # the same rows: only their evidence cells are set
    assert body.evidence_cells == cells
    table.show(damage.ComparisonView())
    assert body.rows == [] and body.evidence_cells == []
    assert ELEMENTS["compare-status"].textContent == "No comparison: see Chunk readiness."
    table.show(damage.ComparisonView(rows))  # the rows again: drawn anew, "…" again
    assert SCRIPTS.compared == 2 and body.evidence_cells == [["…"] * 7 for _row in rows]


def test_the_records_get_their_token_counts_with_a_counted_view() -> None:
    reset()
    # chunks no other test counted (the tokenizer's cache would know them)
    uncounted = "".join(f"Record {i} waits for its token count here. " for i in range(12))
    result = analyse(uncounted, CHOSEN)
    table = records.Records()
    at = records.TOKENS_COLUMN
    view = dom.ListView(result, tokens_ready=True)
    table.show(view)
    body = ELEMENTS["records-body"]
    assert [row[at] for row in body.rows] == ["…"] * len(result.spans)
    for _step in result.token_steps():
        pass
    table.show(view)  # the same view: the rows are not drawn again
    assert [row[at] for row in body.rows] == ["…"] * len(result.spans)
    table.show(replace(view, counted=True))
    counts = [result.known_tokens(i) for i in range(len(result.spans))]
    assert all(isinstance(n, int) and n > 0 for n in counts)
    assert [row[at] for row in body.rows] == counts
    table.show(dom.ListView())
    assert body.rows == []

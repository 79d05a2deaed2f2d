"""The page's state has one owner: app/inspector.py's ``Page`` makes the views and
the panels show them; no panel writes another's state, and the page reads none back from a
panel. In CPython over a small stand-in DOM (``page_stub.Node``) and stand-ins for
static/render.js, static/chunkmap.js and Plotly:

- the chunk chosen in the chunk map is the page's selection, which the map, the records
  and the preview mark from their views (so a row or item drawn again is still marked);
- the text selected in the chunk map is used only when the page's own map view is of the
  current text;
- the Evidence check is shown from one ``EvidenceView`` per result, and works out only
  what is new since the view it shows; a question added or removed while its figures are
  still being worked out drops that older work (stale, never drawn).
"""

from __future__ import annotations

import json
import types
from dataclasses import replace
from typing import Any

from chunker_py import Settings, analyse
from chunker_py.measures.evidence import Excerpt, Question
from chunker_py.stepwise import compare_row_steps, damage_by_size_row_steps

from .page_stub import Node, Quiet, import_page, item

TEXT = "".join(f"Sentence number {i} of the long text.\n\n" for i in range(180))
CHOSEN = Settings(mode="fixed", chunk_size=40, chunk_overlap=0)
TARGET = 150  # past the first 100 records and the first 60 preview items


class Scripts(Quiet):
    """static/render.js as the panels call it: the rows and items it draws (the first
    ``kept`` stay, the others are new elements, without any mark); the rest does nothing."""

    def rows(self, body: Node, rows_json: str, _tokens_at: int, kept: int = 0) -> None:
        rows = json.loads(rows_json)
        body.replaceChildren(*body.children[:kept], *[item("tr", row[0]) for row in rows])

    def preview(self, listing: Node, items_json: str, kept: int = 0) -> None:
        items = json.loads(items_json)
        listing.replaceChildren(*listing.children[:kept], *[item("li", i["index"]) for i in items])

    def compare(self, body: Node, rows_json: str, _apply: Any) -> None:
        body.replaceChildren(*[Node("tr") for _row in json.loads(rows_json)])


class MapScript(Quiet):
    """static/chunkmap.js: one element per chunk, and the text selected in the map."""

    def __init__(self) -> None:
        self.offsets = [3, 10]

    def chunkMap(self, root: Node, _text: str, spans_json: str) -> None:
        spans = json.loads(spans_json)
        root.replaceChildren(*[item("span", i, "map-chunk") for i in range(len(spans))])

    def onScreen(self) -> bool:
        return True

    def selectedIn(self) -> str:
        return "map"

    def selectionOffsets(self, _root: Node) -> list[int]:
        return self.offsets


ELEMENTS: dict[str, Node] = {}


def by_id(name: str) -> Node:
    return ELEMENTS.setdefault(name, Node())


window = types.SimpleNamespace(
    ciRender=Scripts(),
    ciChunkMap=MapScript(),
    Plotly=Quiet(),
    ciSweep=Quiet(),  # static/sweep.js: the sweep chart
    JSON=types.SimpleNamespace(parse=json.loads),
    matchMedia=lambda _query: types.SimpleNamespace(matches=False),
    performance=types.SimpleNamespace(now=lambda: 0.0),
    setTimeout=lambda _handler, _ms=0: 0,  # the work after the paint is run by the tests
    clearTimeout=lambda _timer: None,
    requestAnimationFrame=lambda _handler: 0,
    getSelection=lambda: types.SimpleNamespace(isCollapsed=True),
)
document = types.SimpleNamespace(
    getElementById=by_id,
    createElement=Node,
    querySelector=lambda _selector: Node(),
    querySelectorAll=lambda _selector: [],
)
evidence, inspector, chunkmap = import_page(
    ("evidence", "inspector", "chunkmap"), window, by_id, document
)


def reset() -> None:
    for element in ELEMENTS.values():  # app/dom.py's by_id keeps them: the same ones
        element.__init__(element.tag)  # type: ignore[misc]


def new_page(text: str = TEXT, chosen: Settings = CHOSEN) -> Any:
    """A page showing ``text``'s result, as ``Page.update`` shows it."""
    reset()
    page = inspector.Page()
    show(page, text, chosen)
    return page


def show(page: Any, text: str, chosen: Settings = CHOSEN) -> Any:
    page.source.text = text
    result = analyse(text, chosen)
    page._show(result, None, chosen, (text, chosen, result.count))
    return result


def marked(list_id: str) -> list[str]:
    """The chunk indices whose item in ``list_id`` is marked as the selection."""
    return [n.dataset.index for n in by_id(list_id).children if "selected" in n.classes]


def click_chunk(page: Any, index: int) -> None:
    """A click on chunk ``index``'s element in the chunk map."""
    (chunk,) = by_id("chunk-map").querySelectorAll(f'.map-chunk[data-index="{index}"]')
    target = types.SimpleNamespace(closest=lambda _selector: chunk)
    page.chunk_map._clicked(types.SimpleNamespace(target=target))


def all_marked() -> dict[str, list[str]]:
    return {panel: marked(panel) for panel in ("records-body", "preview-list", "chunk-map")}


def test_the_chosen_chunk_is_the_pages_selection_marked_in_every_view() -> None:
    """Choosing a chunk in the map marks it in the map, the records and the preview, lists
    it and focuses its row; the rows and items drawn again after "Show the first 100
    records only" and "Show all" are still marked (they came without the mark when the
    map set it on the elements it found)."""
    page = new_page()
    click_chunk(page, TARGET)
    assert all_marked() == {panel: [str(TARGET)] for panel in all_marked()}
    (row,) = by_id("records-body").querySelectorAll(f':scope > tr[data-index="{TARGET}"]')
    assert row.focused
    assert by_id("map-back").textContent == f"Back to chunk #{TARGET} in the chunk map"
    assert not by_id("map-back").hidden
    for panel in (page.records, page.preview):
        panel._toggle(None)  # Show the first ... only
        assert TARGET not in panel.listed
        panel._toggle(None)  # Show all
    assert all_marked() == {panel: [str(TARGET)] for panel in all_marked()}


def test_the_selection_stays_while_the_chunks_do_and_goes_with_them() -> None:
    page = new_page()
    click_chunk(page, 7)
    show(page, TEXT, Settings(mode="fixed", chunk_size=40, chunk_overlap=0, source_name="notes.md"))
    assert all_marked() == {panel: ["7"] for panel in all_marked()}
    show(page, "Intro. " + TEXT)  # every chunk moved
    assert all_marked() == {panel: [] for panel in all_marked()}
    assert by_id("map-back").hidden
    assert page.view.selected is None and page.map_view.selected is None


def test_a_chunk_chosen_but_filtered_out_is_said_to_be_unlisted() -> None:
    page = new_page()
    page.view = replace(page.view, only=(1, 2))  # "Show damaged chunks only": two listed
    page.records.show(page.view)
    page._choose_chunk(TARGET)
    assert marked("records-body") == [] and marked("chunk-map") == [str(TARGET)]
    assert by_id("chunk-map-detail").textContent == (
        f"Chunk #{TARGET} is not listed: Show damaged chunks only is on."
    )


class MapStandIn:
    """A chunk map that only answers what text is selected in it."""

    def __init__(self) -> None:
        self.asked = 0

    def selection(self) -> tuple[int, int]:
        self.asked += 1
        return (3, 10)


def test_the_map_selection_is_used_when_the_pages_map_view_is_of_the_current_text() -> None:
    """The page decides from its own map view whether the map's selection is of the
    current text; it reads nothing else of the map (it read the map's drawn text)."""
    page = new_page()
    page.chunk_map = MapStandIn()
    assert page._map_selection() == (3, 10)
    page.source.text = TEXT + "More."  # edited: the map's view is of the text before
    assert page._map_selection() is None
    assert page.chunk_map.asked == 1


def question(text: str, phrase: str) -> Question:
    at = text.index(phrase)
    return Question(f"Where is {phrase!r}?", (Excerpt(phrase, at, at + len(phrase)),))


def new_panel(calls: dict[str, list[Any]]) -> Any:
    reset()
    source = types.SimpleNamespace(text=TEXT)
    panel = evidence.EvidencePanel(
        source,
        apply_row=lambda _fragment: None,
        map_selection=lambda: None,
        on_found=lambda result, _found: calls["found"].append(result),
        on_rows=lambda rows, cells: calls["rows"].append((rows, cells)),
        on_sizes=lambda rows, kept: calls["sizes"].append((rows, kept)),
        show_chunk=lambda _index: None,
    )
    panel.questions = [question(TEXT, "Sentence number 7 of"), question(TEXT, "long text.")]
    panel.anchored_to = TEXT
    return panel


def test_the_evidence_check_is_shown_from_one_view_per_result() -> None:
    """Each part of an ``EvidenceView`` is worked out once: the result's figures, then the
    comparison rows' (their cells for the Splitter comparison's Evidence columns), then
    the sizes' (excerpts kept whole); questions changed: all again; a view without a
    result says so."""
    calls: dict[str, list[Any]] = {"found": [], "rows": [], "sizes": []}
    panel = new_panel(calls)
    result = analyse(TEXT, CHOSEN)
    view = evidence.EvidenceView(result)
    assert list(panel.work(view))  # in steps
    assert calls["found"] == [result] and not calls["rows"] and not calls["sizes"]
    assert by_id("evidence-questions").textContent == "2 of 2"
    rows = [r for r in compare_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    view = replace(view, rows=rows)
    panel.show(view)
    assert calls["found"] == [result]  # the result's figures are not found again
    assert [(r, len(cells)) for r, cells in calls["rows"]] == [(rows, len(rows))]
    ((_rows, cells),) = calls["rows"]
    # two questions, each kept whole by the current row: its Kept whole column says so
    current = next(i for i, r in enumerate(rows) if r.current)
    assert cells[current][0] == "2 of 2" and all(len(c) == 7 for c in cells)
    by_size = [r for r in damage_by_size_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    panel.show(replace(view, by_size=by_size))
    assert len(calls["found"]) == 1 and len(calls["rows"]) == 1
    ((sizes, kept),) = calls["sizes"]
    assert sizes is by_size and set(kept) == {r.settings.chunk_size for r in by_size}
    assert all(total == 2 for _whole, total in kept.values())
    panel.questions.pop()
    panel.refresh()
    assert len(calls["found"]) == len(calls["rows"]) == len(calls["sizes"]) == 2
    assert by_id("evidence-questions").textContent == "1 of 1"
    panel.show(evidence.EvidenceView())
    assert calls["found"][-1] is None
    assert by_id("evidence-questions").textContent == "—"


PHRASES = [f"Sentence number {i} of" for i in range(0, 180, 20)]  # 9: two slices of 8


def add_question(panel: Any, phrase: str) -> None:
    """Add selection as evidence, then Add question, as the panel's buttons do."""
    at = TEXT.index(phrase)
    panel.draft = [Excerpt(phrase, at, at + len(phrase))]
    by_id("evidence-question").value = f"Where is {phrase!r}?"
    panel._add_question()


def steps_of(work: Any) -> int:
    return sum(1 for _step in work)


def test_a_question_added_while_the_figures_are_worked_out_drops_the_older_work() -> None:
    """Heavy work after the paint is dropped when stale: a question added (or removed)
    while the step after the paint is still finding this result's figures, a few questions
    a step, has the panel find them again for the new list; the older work stops there,
    never draws, and never reads the list that changed under it. Tried after each step."""
    result = analyse(TEXT, CHOSEN)
    calls: dict[str, list[Any]] = {"found": [], "rows": [], "sizes": []}
    panel = new_panel(calls)
    panel.questions = [question(TEXT, phrase) for phrase in PHRASES]
    total = steps_of(panel.work(evidence.EvidenceView(result)))
    assert total >= 3  # the retrieval index, then two slices of questions
    for change in ("add", "remove"):
        for after in range(1, total + 1):  # after `total` steps: all found, not drawn yet
            calls = {"found": [], "rows": [], "sizes": []}
            panel = new_panel(calls)
            panel.questions = [question(TEXT, phrase) for phrase in PHRASES]
            older = panel.work(evidence.EvidenceView(result))  # the step after the paint
            for _step in range(after):
                next(older)
            if change == "add":
                add_question(panel, "Sentence number 179 of")
            else:
                panel._remove(0)
            assert calls["found"] == [result]  # the figures found again, at once
            steps_of(older)  # the page's next tasks: the older work has nothing left to do
            assert calls["found"] == [result], (change, after)  # drawn once, not again
            asked = [q.text for q in panel.questions]
            assert [r.question.text for r in panel.found.results] == asked, (change, after)
            n = len(asked)
            assert by_id("evidence-questions").textContent == f"{n} of {n}"
            assert by_id("evidence-count").textContent == (
                "1 question" if n == 1 else f"{n} questions"
            )


def test_a_question_added_while_the_rows_are_worked_out_drops_the_older_rows() -> None:
    """The same for the comparison rows' evidence cells: rows being worked out when a
    question is added are worked out again for the new list, and the older work never
    hands them over."""
    result = analyse(TEXT, CHOSEN)
    rows = [r for r in compare_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    calls: dict[str, list[Any]] = {"found": [], "rows": [], "sizes": []}
    panel = new_panel(calls)
    panel.show(evidence.EvidenceView(result))
    older = panel.work(evidence.EvidenceView(result, rows=rows))  # the comparison's work
    next(older)
    next(older)
    add_question(panel, "Sentence number 179 of")
    assert len(calls["rows"]) == 1  # the rows' cells again, for the three questions
    steps_of(older)
    assert len(calls["rows"]) == 1
    ((handed, cells),) = calls["rows"]
    assert handed is rows and len(cells) == len(rows)


def test_the_rows_worked_out_meanwhile_leave_the_figures_work_running() -> None:
    """Not stale: the comparison's rows may be worked out while the step after the paint is
    still finding the result's figures; each finishes its own part, once."""
    result = analyse(TEXT, CHOSEN)
    rows = [r for r in compare_row_steps(TEXT, CHOSEN, known=result) if r is not None]
    calls: dict[str, list[Any]] = {"found": [], "rows": [], "sizes": []}
    panel = new_panel(calls)
    panel.questions = [question(TEXT, phrase) for phrase in PHRASES]
    figures = panel.work(evidence.EvidenceView(result))
    next(figures)
    steps_of(panel.work(evidence.EvidenceView(result, rows=rows)))
    assert len(calls["rows"]) == 1 and calls["found"] == []
    steps_of(figures)
    assert calls["found"] == [result] and len(calls["rows"]) == 1
    assert by_id("evidence-questions").textContent == f"{len(PHRASES)} of {len(PHRASES)}"


def test_the_page_gives_the_evidence_check_its_views_as_it_finds_the_rows() -> None:
    """The comparison may give the view its rows before the step that finds the result's
    figures has run (a long text's steps): that step then shows the view as it is by then,
    which keeps the rows' evidence cells in the comparison."""
    page = new_page()
    page.evidence.questions = [question(TEXT, "Sentence number 7 of")]
    result = page.result
    for _step in page._comparison(result, None):
        pass
    assert page.evidence_view.analysis is result and page.evidence_view.rows
    cells = page.comparison_view.evidence  # the comparison's evidence cells
    assert cells is not None and len(cells) == len(page.evidence_view.rows)
    for _step in page.evidence.work(page.evidence_view):  # the figures' step, as _later has it
        pass
    assert page.comparison_view.evidence == cells
    assert by_id("evidence-questions").textContent == "1 of 1"


def test_a_newer_long_edit_says_what_it_does_once_chunk_readiness_says_counting() -> None:
    """The page knows what Chunk readiness says from the panel (``status``), not from
    the panel's element: while it says "Counting tokens…", a newer long edit says what
    it does at once."""
    page = new_page()
    page.outcome = "busy"
    page.doing = "Counting tokens…"
    page._pending_status()
    assert page.readiness.status == "counting"
    assert by_id("readiness-status").textContent == "Counting tokens…"
    markdown = Settings(mode="markdown", chunk_size=40, chunk_overlap=0)
    page._count_first(TEXT, markdown, [], iter(()))
    assert by_id("readiness-status").textContent == "Reading the Markdown structure…"
    page.readiness.bug("ValueError: planted")
    assert page.readiness.status == "bug"


def test_the_question_count_is_worded_as_one_question_or_several() -> None:
    """Not "3 question(s)": the count and the import's message say 1 question, 2 questions."""
    words = [evidence.questions(n) for n in (1, 2, 1234)]
    assert words == ["1 question", "2 questions", "1,234 questions"]

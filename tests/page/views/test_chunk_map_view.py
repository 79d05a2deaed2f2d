"""The chunk map shown from its view (app/chunkmap.py ``MapView``), in CPython with a
stand-in for static/chunkmap.js: the damage and the evidence marks come with the view the
map is shown, as the page finds them after the paint; a view kept while the map was off
screen is drawn with the marks it has by then; an edit's result drops the older marks."""

from __future__ import annotations

import json
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

from chunker_py import Settings, analyse

from .page_stub import Element, import_page

ROOT = Path(__file__).resolve().parents[3]

TEXT = "One sentence here. Another one follows it. And a third one ends it.\n" * 4
FIXED = Settings(mode="fixed", chunk_size=30, chunk_overlap=0)


class MapScript:
    """static/chunkmap.js as app/chunkmap.py calls it: what each chunk element shows."""

    def __init__(self) -> None:
        self.on_screen = True
        self.draws = 0
        self.spans: list[list[int]] = []
        self.names: list[str] = []
        self.damage: dict[int, list[str]] = {}  # start mark, end mark, words
        self.underlined: list[list[int]] = []
        self.evidence: dict[int, str] = {}

    def onScreen(self) -> bool:
        return self.on_screen

    def selectedIn(self) -> str:
        return "map"  # the last selection was in the map (whether it still is: ``last``)

    def selectionOffsets(self, _root: Element) -> list[int]:
        return [0, 5]  # what is selected in the elements drawn

    def chunkMap(self, _root: Element, _text: str, spans_json: str) -> None:
        """Chunks drawn anew; in this stand-in every element is new (no marks yet)."""
        self.draws += 1
        self.spans = json.loads(spans_json)
        self.damage, self.evidence = {}, {}

    def nameChunks(self, _root: Element, names_json: str) -> None:
        sent = json.loads(names_json)
        names = self.names[: sent["count"]]
        names += [""] * (sent["count"] - len(names))
        for index, name in sent["changed"].items():
            names[int(index)] = name
        self.names = names

    def markDamage(self, _root: Element, marks_json: str) -> None:
        marks = json.loads(marks_json)
        self.damage = {i: marks[i] for i in range(len(self.spans)) if i < len(marks)}

    def markEvidence(self, _root: Element, marks_json: str) -> None:
        marks = json.loads(marks_json)
        self.underlined = marks["ranges"]
        self.evidence = {int(i): w for i, w in marks["chunks"].items()}


MAP = MapScript()
ELEMENTS: dict[str, Element] = {}
chunkmap, dom = import_page(
    ("chunkmap", "dom"),
    types.SimpleNamespace(ciChunkMap=MAP),
    lambda name: ELEMENTS.setdefault(name, Element()),
)


def new_map() -> Any:
    MAP.__init__()  # type: ignore[misc]
    for element in ELEMENTS.values():  # app/dom.py's by_id keeps them: the same ones
        element.__init__()  # type: ignore[misc]
    return chunkmap.ChunkMap(lambda _index: None)


def detail(shown: Any, index: int) -> str:
    """The detail line for the pointer over chunk ``index``."""
    node = types.SimpleNamespace(dataset=types.SimpleNamespace(index=str(index)))
    event = types.SimpleNamespace(target=types.SimpleNamespace(closest=lambda _sel: node))
    shown._describe(event)
    return ELEMENTS["chunk-map-detail"].textContent


def plain_name(index: int, start: int, end: int) -> str:
    """A chunk's name before its damage and evidence (no overlap here: size 30, none)."""
    return f"Chunk {index}, code points {start:,} to {end:,}, {end - start:,} long"


def test_the_damage_and_the_evidence_come_with_the_view() -> None:
    result = analyse(TEXT, FIXED)
    found = result.damage
    assert found is not None and any(d.ends_mid_sentence for d in found.chunks)
    shown = new_map()
    view = chunkmap.MapView(result)
    shown.show(view)
    assert MAP.draws == 1
    assert MAP.spans == [[s.start, s.end] for s in result.spans]
    assert MAP.names == [plain_name(i, s.start, s.end) for i, s in enumerate(result.spans)]
    assert MAP.damage == {} and MAP.evidence == {}
    assert " · damage: " not in detail(shown, 0)

    view = replace(view, damage=found)
    shown.show(view)
    assert MAP.draws == 1  # the same chunks: only their marks are drawn
    assert len(MAP.damage) == len(found.chunks)
    for i, d in enumerate(found.chunks):
        start_mark, end_mark, words = MAP.damage[i]
        assert (start_mark == "starts mid-sentence") == d.starts_mid_sentence
        assert (end_mark == "ends mid-sentence") == d.ends_mid_sentence
        assert words == "; ".join(d.describe())
        said = "damage: " + words
        assert (said in MAP.names[i]) == d.damaged
        assert (said in detail(shown, i)) == d.damaged

    question = result.spans[1]
    view = replace(view, evidence=([(question.start + 2, question.end)], {1: "question 1"}))
    shown.show(view)
    assert MAP.draws == 1
    assert MAP.underlined == [[question.start + 2, question.end]]
    assert MAP.evidence == {1: "question 1"}
    assert MAP.names[1].endswith(", holds evidence of question 1")
    assert not any("evidence" in name for i, name in enumerate(MAP.names) if i != 1)
    assert " · evidence of question 1 · " in detail(shown, 1)

    # an edit: the new result's view has no marks yet, and the older ones are gone
    edited = analyse("Intro. " + TEXT, FIXED)
    shown.show(chunkmap.MapView(edited))
    assert MAP.draws == 2
    assert MAP.damage == {} and MAP.evidence == {} and MAP.underlined == []
    assert MAP.names == [plain_name(i, s.start, s.end) for i, s in enumerate(edited.spans)]
    assert "damage" not in detail(shown, 0) and "evidence" not in detail(shown, 1)


def test_a_view_kept_off_screen_is_drawn_with_the_marks_it_has_by_then() -> None:
    result = analyse(TEXT, FIXED)
    found = result.damage
    assert found is not None
    shown = new_map()
    MAP.on_screen = False
    view = chunkmap.MapView(result)
    shown.show(view)
    assert shown.deferred and MAP.draws == 0
    view = replace(view, damage=found, evidence=([(0, 5)], {0: "questions 1, 2"}))
    shown.show(view)
    assert shown.deferred and MAP.draws == 0
    shown.catch_up()
    assert not shown.deferred and MAP.draws == 1
    assert len(MAP.damage) == len(found.chunks)
    assert MAP.evidence == {0: "questions 1, 2"} and MAP.underlined == [[0, 5]]
    assert MAP.names[0].endswith(", holds evidence of questions 1, 2")


def test_a_result_with_the_chunks_drawn_keeps_their_marks_until_its_own() -> None:
    """Only the source name changed (a new result, the same text and spans): nothing is
    drawn again, the marks shown stay (they are the same chunks') until the new
    result's damage and evidence come with its view; an empty view empties the map."""
    result = analyse(TEXT, FIXED)
    shown = new_map()
    first = chunkmap.MapView(result, result.damage, ([(0, 5)], {0: "question 1"}))
    shown.show(first)
    names = list(MAP.names)
    assert "holds evidence of question 1" in names[0]
    renamed = analyse(TEXT, Settings("fixed", 30, 0, source_name="n.txt"))
    assert renamed is not result and renamed.spans == result.spans
    shown.show(chunkmap.MapView(renamed))
    assert MAP.draws == 1 and MAP.names == names and MAP.evidence == {0: "question 1"}
    shown.show(chunkmap.MapView(renamed, renamed.damage, ([], {})))
    assert MAP.draws == 1 and MAP.evidence == {} and MAP.underlined == []
    assert "evidence" not in MAP.names[0]
    shown.show(chunkmap.MapView())
    assert ELEMENTS["chunk-map-panel"].hidden and not shown.deferred
    assert shown.selection() is None


def test_no_selection_is_taken_from_a_drawing_of_an_older_view() -> None:
    """While the view shown waits to be drawn (the map off screen after an edit), the
    text selected in the map lies in the older text's elements: none is taken."""
    shown = new_map()
    shown.show(chunkmap.MapView(analyse(TEXT, FIXED)))
    assert shown.selection() == (0, 5)
    MAP.on_screen = False
    shown.show(chunkmap.MapView(analyse("Intro. " + TEXT, FIXED)))
    assert shown.deferred and shown.selection() is None
    shown.catch_up()
    assert shown.selection() == (0, 5)

"""Evidence check panel: questions, the excerpts that answer them, and whether the chunks
keep that evidence whole and findable (chunker_py.measures.evidence).

Questions are written here (evidence added from a selection in Source text or a pasted
excerpt), imported from a questions file (Chroma's CSV, JSON, JSONL) or the sample's; they
stay in this page only: never in a settings link, never sent. Every figure comes from the
core's ``evidence_of``, so the page's "Download figures (JSONL)" equals
``python -m chunker_py FILE --questions Q --format evidence`` byte for byte. All of it runs
after the paint (app/inspector.py schedules it) and is dropped when a newer edit arrives.
Everything is rendered with ``textContent``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dom import by_id, element, number, on, render
from embeddings import Embeddings, VectorsPending, dense_retrieval, texts_to_embed

from chunker_py import Analysis, ChunkerError, Row
from chunker_py.engine.limits import MAX_EXCERPTS, MAX_QUESTION_LENGTH, MAX_QUESTIONS
from chunker_py.io.questions import (
    Skipped,
    import_questions,
    questions_to_csv,
    questions_to_json,
    questions_to_jsonl,
    read_questions,
)
from chunker_py.io.records import json_line
from chunker_py.measures.evidence import (
    Evidence,
    Excerpt,
    Question,
    QuestionResult,
    anchor,
    edit_between,
    evidence_steps,
    follow_edit,
    kept_whole,
)

_SHOWN = 60  # code points of an excerpt shown in a list
# the figures that rank chunks (pending while Semantic or Hybrid vectors are made)
RANKED_FIGURES = ("evidence-recall", "evidence-precision", "evidence-iou", "evidence-tokens")
# what the panel says of each retrieval choice
METHOD_HELP = {
    "bm25": "Retrieval here is BM25, a lexical (keyword) ranking: a local stand-in for your "
    "own embedding model, not a verdict on it.",
    "dense": "Retrieval here is Semantic: chunks ranked by the cosine of their "
    "all-MiniLM-L6-v2 embeddings with the question's (Chroma's default embedding function), "
    "run in this browser.",
    "hybrid": "Retrieval here is Hybrid: reciprocal rank fusion (k = 60) of the BM25 and "
    "the Semantic (all-MiniLM-L6-v2) rankings, run in this browser.",
}
# how each retrieval choice is named in a question's verdict
METHOD_NAMES = {"bm25": "BM25", "dense": "Semantic", "hybrid": "Hybrid"}


def _short(text: str, limit: int = _SHOWN) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def code_point_offset(value: str, utf16: int) -> int:
    """The code-point offset in ``value`` of a UTF-16 offset (a text area's selection)."""
    units = 0
    for index, char in enumerate(value):
        if units >= utf16:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(value)


def text_offset(text: str, shown: int) -> int:
    """A position in the text area's value (CR LF shown as LF) as a position in ``text``."""
    crlf = [m.start() - i for i, m in enumerate(re.finditer("\r\n", text))]
    return shown + bisect_right(crlf, shown - 1)


def _line_column(text: str, position: int) -> tuple[int, int]:
    before = text[:position]
    line = len(re.findall(r"\r\n|\r|\n", before)) + 1
    start = max(before.rfind("\n"), before.rfind("\r")) + 1
    return line, position - start + 1


def _chunk_links(chunks: Sequence[int]) -> list[Any]:
    """The chunks holding an excerpt, in words, each a button that shows it in the chunk
    map and the records ("chunks #12, #13")."""
    if not chunks:
        return ["in no chunk (trimmed away)"]
    links: list[Any] = ["chunk " if len(chunks) == 1 else "chunks "]
    for i, chunk in enumerate(chunks):
        if i:
            links.append(", ")
        show = element("button", f"#{number(chunk)}", "chunk-link")
        show.type = "button"
        show.setAttribute("aria-label", f"Show chunk #{number(chunk)} in the records")
        show.dataset.chunk = str(chunk)
        links.append(show)
    return links


def evidence_marks(found: Evidence | None) -> tuple[list[tuple[int, int]], dict[int, str]]:
    """The ranges of the matched questions' excerpts (in text order, for the chunk map's
    underline) and, per chunk index, the questions (numbered from 1) whose evidence it
    holds, in words: "question 2", "questions 1, 3"."""
    if found is None:
        return [], {}
    ranges: set[tuple[int, int]] = set()
    holders: dict[int, list[int]] = {}
    for number_, result in enumerate(found.results, 1):
        if not result.matched:
            continue
        for x in result.excerpts:
            ranges.add((x.placed.start, x.placed.end))
            for chunk in x.chunks:
                held = holders.setdefault(chunk, [])
                if not held or held[-1] != number_:
                    held.append(number_)
    words = {
        chunk: ("question " if len(qs) == 1 else "questions ") + ", ".join(map(str, qs))
        for chunk, qs in sorted(holders.items())
    }
    return sorted(ranges), words


def replaces(old: str, new: str) -> bool:
    """Whether ``new`` replaces ``old`` rather than edits it: under a tenth of ``old``
    stays (pasting over everything, Clear text), not a change within it."""
    if not old:
        return False
    start, old_end, _new_end = edit_between(old, new)
    return (start + len(old) - old_end) * 10 < len(old)


def _mean(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def questions(count: int) -> str:
    """The count in words, "1 question" or "3 questions" (the count, the import's message)."""
    return f"{number(count)} question" + ("" if count == 1 else "s")


@dataclass(frozen=True)
class EvidenceView:
    """What the Evidence check shows of one result: the result (each question's figures;
    None: no chunks to check), once the comparison has run its rows (``rows``: their
    figures fill the Splitter comparison's Evidence columns; None until then) and the
    rows of the trade-off chart's sizes (``by_size``: the excerpts kept whole per size;
    None until then). The page makes one per result and gives it the rows as they come;
    the panel works out only what is new since the view it shows."""

    analysis: Analysis | None = None
    rows: Sequence[Row] | None = None
    by_size: Sequence[Row] | None = None


class EvidencePanel:
    """The Evidence check, shown from an ``EvidenceView``. What it changes elsewhere goes
    through the callbacks its owner (app/inspector.py) passes in: ``apply_row`` (a row's
    Use), ``map_selection`` (the chunk map's selection), ``on_found`` (where the evidence
    marks go), ``on_rows`` (the Splitter comparison's evidence cells, per row, with the
    rows they are of), ``on_sizes`` (the excerpts kept whole per trade-off size, with the
    rows of those sizes) and ``show_chunk`` (a chunk chosen: the page's selection)."""

    def __init__(
        self,
        source: Any,
        *,
        apply_row: Callable[[str], Any],
        map_selection: Callable[[], tuple[int, int] | None],
        on_found: Callable[[Analysis | None, Evidence | None], None],
        on_rows: Callable[[Sequence[Row], list[list[str]]], None],
        on_sizes: Callable[[Sequence[Row], dict[int, tuple[int, int]]], None],
        show_chunk: Callable[[int], None],
        embeddings: Embeddings | None = None,
    ) -> None:
        self.source = source
        self.apply_row = apply_row
        self.map_selection = map_selection
        self.on_found = on_found
        self.on_rows = on_rows
        self.on_sizes = on_sizes
        self.show_chunk = show_chunk
        # Semantic and Hybrid retrieval: the model's vectors (app/embeddings.py); the ranked
        # figures of a result whose vectors are not all made yet are pending
        self.embeddings = embeddings
        self.semantic_pending = False
        self.questions: list[Question] = []
        self.anchored_to = ""  # the text the questions' offsets refer to
        self.sample_questions: set[str] = set()  # leave with the sample document
        self.imports_seen = 0  # the documents imported (Browse, drop) when last anchored
        self.missing: list[Question] = []  # the user's questions a replacement left unheld
        self.cleared: list[Question] = []  # Clear questions' questions, for its undo
        self.cleared_text = ""  # the text they were anchored to
        self.draft: list[Excerpt] = []
        self.matches: list[int] = []  # starts of a pasted excerpt's occurrences
        self.view: EvidenceView | None = None  # None: nothing shown yet
        self.found: Evidence | None = None  # the view's result's figures, once found
        # how many times each part of a view was started: the result's figures and the
        # rows' table (a run whose part was started again since is stale, and dropped)
        self.started = {"figures": 0, "rows": 0}

    # -- wiring
    def wire(self) -> None:
        on(by_id("evidence-add-selection"), "click", lambda _e: self._add_selection())
        on(by_id("evidence-find"), "click", lambda _e: self._find_excerpt())
        on(by_id("evidence-use-match"), "click", lambda _e: self._use_match())
        on(by_id("evidence-add-question"), "click", lambda _e: self._add_question())
        on(by_id("evidence-discard"), "click", lambda _e: self._discard())
        on(by_id("evidence-clear"), "click", lambda _e: self._clear())
        on(by_id("evidence-undo-clear"), "click", lambda _e: self._undo_clear())
        on(by_id("evidence-keep-missing"), "click", lambda _e: self._keep_missing())
        on(by_id("evidence-discard-missing"), "click", lambda _e: self._discard_missing())
        on(by_id("evidence-import"), "change", self._import)
        for kind in ("csv", "json", "jsonl"):
            on(by_id(f"evidence-export-{kind}"), "click", lambda _e, k=kind: self._export(k))
        on(by_id("evidence-download"), "click", lambda _e: self._download_figures())
        # one handler per list (its buttons are rebuilt with every result)
        on(by_id("evidence-list"), "click", self._list_clicked)
        self._load_sample()

    def _list_clicked(self, event: Any) -> None:
        data = event.target.dataset  # a missing key raises in Pyodide: getattr's default
        index = getattr(data, "remove", None)
        if index:
            self._remove(int(index))
        chunk = getattr(data, "chunk", None)
        if chunk:
            self.show_chunk(int(chunk))

    def _load_sample(self) -> None:
        """The sample text's example questions (static/sample-questions.csv, inlined)."""
        self.anchored_to = self.source.text
        if self.source.text != self.source.sample:  # replaced while the page started
            return
        sample = str(by_id("evidence-sample").value)
        self.questions = read_questions(sample, name="The sample questions")
        self.sample_questions = {q.text for q in self.questions}

    # -- what the user does
    def _say(self, message: str, *, problem: bool = False) -> None:
        status = by_id("evidence-status")
        status.textContent = message
        status.classList.toggle("problem", problem)

    def _add_selection(self) -> None:
        """The text last selected in the chunk map, or else Source text's selection."""
        in_map = self.map_selection()
        if in_map is not None:
            start, end = in_map
            text = self.source.text
            self._add_excerpt(Excerpt(text[start:end], start, end))
            return
        area = self.source.area
        value = str(area.value)
        start = code_point_offset(value, int(area.selectionStart))
        end = code_point_offset(value, int(area.selectionEnd))
        if start >= end:
            self._say(
                "Select the passage in Source text or the chunk map first, then choose Add "
                "selection as evidence.",
                problem=True,
            )
            return
        text = self.source.text
        if value != text:  # CR LF shown as LF: map back to the text's own offsets
            start, end = text_offset(text, start), text_offset(text, end)
        self._add_excerpt(Excerpt(text[start:end], start, end))

    def _find_excerpt(self) -> None:
        content = str(by_id("evidence-excerpt").value)
        text = self.source.text
        if not content.strip():
            self._say(
                "Paste the passage into Excerpt first, then choose Find excerpt.", problem=True
            )
            return
        starts: list[int] = []
        at = text.find(content)
        while at >= 0 and len(starts) <= 50:
            starts.append(at)
            at = text.find(content, at + 1)
        if not starts:
            self._say(
                f'"{_short(content, 40)}" is not in the text (matched exactly, spaces and line '
                "breaks included); copy it from Source text.",
                problem=True,
            )
            return
        if len(starts) == 1:
            self._add_excerpt(Excerpt(content, starts[0], starts[0] + len(content)))
            by_id("evidence-excerpt").value = ""
            return
        self.matches = starts
        chooser = by_id("evidence-matches")
        options = []
        for i, start in enumerate(starts):
            line, column = _line_column(text, start)
            context = _short(text[max(0, start - 20) : start + len(content) + 20], 70)
            option = element("option", f"line {line}, column {column}: …{context}…")
            option.value = str(i)
            options.append(option)
        chooser.replaceChildren(*options)
        by_id("evidence-choose").hidden = False
        self._say(f"The excerpt occurs {len(starts)} times; choose one under Matches.")

    def _use_match(self) -> None:
        if not self.matches:
            return
        start = self.matches[int(by_id("evidence-matches").value or 0)]
        content = str(by_id("evidence-excerpt").value)
        self._add_excerpt(Excerpt(content, start, start + len(content)))
        self.matches = []
        by_id("evidence-choose").hidden = True
        by_id("evidence-excerpt").value = ""

    def _add_excerpt(self, excerpt: Excerpt) -> None:
        if len(self.draft) >= MAX_EXCERPTS:
            self._say(f"A question has at most {MAX_EXCERPTS} excerpts.", problem=True)
            return
        self.draft.append(excerpt)
        self._show_draft()
        line, _column = _line_column(self.source.text, excerpt.start)
        self._say(
            f"Evidence {len(self.draft)} added (line {line}, {number(excerpt.end - excerpt.start)}"
            " code points). Add more, or choose Add question."
        )

    def _show_draft(self) -> None:
        items = []
        for i, e in enumerate(self.draft, 1):
            items.append(element("li", f"{i}. “{_short(e.content)}” at {e.start:,} to {e.end:,}"))
        by_id("evidence-draft").replaceChildren(*items)
        by_id("evidence-draft-box").hidden = not self.draft

    def _discard(self) -> None:
        self.draft = []
        self.matches = []
        by_id("evidence-choose").hidden = True
        self._show_draft()
        self._say("The new question's evidence was discarded.")

    def _add_question(self) -> None:
        text = str(by_id("evidence-question").value)
        if not text.strip():
            self._say("Write the question first.", problem=True)
            return
        if len(text) > MAX_QUESTION_LENGTH:
            self._say(
                f"The question has {number(len(text))} code points; the limit is "
                f"{number(MAX_QUESTION_LENGTH)}.",
                problem=True,
            )
            return
        if not self.draft:
            self._say(
                "Add the passage that answers it first: select it in Source text and choose "
                "Add selection as evidence, or paste it into Excerpt and choose Find excerpt.",
                problem=True,
            )
            return
        if len(self.questions) >= MAX_QUESTIONS:
            self._say(f"The panel holds at most {MAX_QUESTIONS} questions.", problem=True)
            return
        self._rebase()
        self.questions.append(Question(text, tuple(self.draft)))
        self.draft = []
        self._show_draft()
        by_id("evidence-question").value = ""
        self._say(f"Question {len(self.questions)} added.")
        self.refresh()

    def _remove(self, index: int) -> None:
        self._rebase()
        del self.questions[index]
        self._say(f"Question {index + 1} removed.")
        self.refresh()

    def _clear(self) -> None:
        self._rebase()
        self.cleared, self.cleared_text = self.questions, self.source.text
        self.questions = []
        self.draft = []
        self._show_draft()
        by_id("evidence-undo-clear").hidden = False
        self._say("All questions cleared (Undo Clear questions brings them back).")
        self.refresh()

    def _undo_clear(self) -> None:
        self._rebase()
        back = follow_edit(self.cleared_text, self.source.text, self.cleared)
        self.questions = back + self.questions  # questions added since stay too
        by_id("evidence-undo-clear").hidden = True
        self._say(f"{questions(len(self.cleared))} brought back.")
        self.cleared = []
        self.refresh()

    async def _import(self, event: Any) -> None:
        """Import every question of the file that can be anchored in the text; list each
        one skipped with its line and reason (Bad input 25-26)."""
        files = event.target.files
        if not files.length:
            return
        file = files.item(0)
        name = str(file.name)
        event.target.value = ""
        self._rebase()
        try:
            data = (await file.arrayBuffer()).to_bytes()
            done = import_questions(
                data,
                name=name,
                text=self.source.text,
                documents=self.source.names() or None,
                present=len(self.questions),
                part=self.source.part_span(),
                elsewhere=self.source.other_names(),
            )
        except ChunkerError as error:
            self._show_skipped([])
            self._say(f"{error.message} The questions already here were kept.", problem=True)
            return
        self.questions += done.questions
        self._show_skipped(done.skipped)
        imported = f"Imported {questions(len(done.questions))} from {name}"
        if done.skipped:
            imported += f"; {len(done.skipped)} skipped (listed below)"
        self._say(f"{imported}. " + " ".join(done.notes[:3]), problem=not done.questions)
        self.refresh()

    def _show_skipped(self, skipped: Sequence[Skipped]) -> None:
        """The questions the last import skipped, each with its line and reason."""
        by_id("evidence-skipped").hidden = not skipped
        by_id(
            "evidence-skipped-count"
        ).textContent = f"{len(skipped)} question{'s' if len(skipped) != 1 else ''} skipped"
        box = by_id("evidence-skipped-list")
        box.replaceChildren(*(element("li", s.message) for s in skipped))

    def _export(self, kind: str) -> None:
        self._rebase()
        if not self.questions:
            self._say("There are no questions to export.", problem=True)
            return
        writer = {"csv": questions_to_csv, "json": questions_to_json, "jsonl": questions_to_jsonl}
        types = {"csv": "text/csv", "json": "application/json", "jsonl": "application/jsonl"}
        render().download(
            writer[kind](self.questions), f"questions.{kind}", f"{types[kind]};charset=utf-8"
        )
        self._say(f"Saved questions.{kind}.")

    def figures_jsonl(self) -> str:
        """The figures as ``python -m chunker_py --questions --format evidence`` prints them."""
        result = self.view.analysis if self.view is not None else None
        if self.found is None or result is None or self.semantic_pending:
            return ""
        source = result.settings.source_name or None
        return "".join(json_line(r.as_json(source)) + "\n" for r in self.found.results)

    def pending(self) -> None:
        """A new result is shown and its figures are not found yet: the previous text's
        figures are never offered for download as this one's (the button comes back when
        ``work`` has found them)."""
        self.found = None
        by_id("evidence-download").disabled = True
        by_id("app").dataset.semantic = "pending"  # the new result's figures follow

    def _download_figures(self) -> None:
        if self.found is None or self.semantic_pending:
            self._say("There are no figures to download.", problem=True)
            return
        render().download(self.figures_jsonl(), "evidence.jsonl", "application/jsonl;charset=utf-8")
        self._say("Saved evidence.jsonl.")

    # -- after the paint
    def _rebase(self) -> None:
        """Carry the questions' offsets to the current text (evidence follows its text).
        A replaced document (Bad input 31) takes the sample's questions with it and asks
        about the user's questions whose evidence the new text does not hold."""
        text = self.source.text
        if text != self.anchored_to:
            replaced = self.source.imports != self.imports_seen or replaces(self.anchored_to, text)
            self.imports_seen = self.source.imports
            self.questions = follow_edit(self.anchored_to, text, self.questions)
            self.anchored_to = text
            if replaced:
                self._replaced(text)

    def _replaced(self, text: str) -> None:
        self.questions = [q for q in self.questions if q.text not in self.sample_questions]
        self.sample_questions = set()
        self.missing = [q for q in self.questions if not all(p.found for p in anchor(text, q))]
        box = by_id("evidence-replaced")
        box.hidden = not self.missing
        if self.missing:
            count = len(self.missing)
            by_id("evidence-replaced-text").textContent = (
                f"The new document does not hold the evidence of {questions(count)} of yours "
                f"({', '.join(f'“{_short(q.text, 30)}”' for q in self.missing[:3])}"
                f"{', …' if count > 3 else ''}). Keep {'them' if count > 1 else 'it'} "
                "(flagged “not in the text”, left out of the figures) or discard "
                f"{'them' if count > 1 else 'it'}?"
            )

    def _keep_missing(self) -> None:
        self.missing = []
        by_id("evidence-replaced").hidden = True
        self._say("Your questions were kept; those not in the text are flagged.")

    def _discard_missing(self) -> None:
        gone = {id(q) for q in self.missing}
        self.questions = [q for q in self.questions if id(q) not in gone]
        self._say(f"{questions(len(self.missing))} not in the new document discarded.")
        self.missing = []
        by_id("evidence-replaced").hidden = True
        self.refresh()

    def again(self) -> Iterator[None]:
        """``work`` for the view shown, from the start (its vectors have arrived)."""
        view, self.view = self.view, None
        return self.work(view if view is not None else EvidenceView())

    def _evidence(self, result: Analysis) -> Generator[None, None, tuple[Evidence | None, bool]]:
        """The figures of ``result``, in steps, and whether its ranked figures are pending.
        With Semantic or Hybrid retrieval they need the vectors of its chunks and questions:
        until the worker has made them all (it is asked here; app/inspector.py then runs
        ``again``), the figures that do not rank are found with BM25 and the ranked ones are
        shown as pending."""
        if self.embeddings is None or not dense_retrieval(result):
            return (yield from evidence_steps(result, self.questions)), False
        missing = self.embeddings.without_vectors(texts_to_embed(result, self.questions))
        if not missing:
            try:
                embedder = self.embeddings.embedder()
                return (yield from evidence_steps(result, self.questions, embedder=embedder)), False
            except VectorsPending as pending:
                missing = pending.texts
        self.embeddings.request(missing)
        lexical = replace(result, settings=result.settings.replace(retrieval="bm25"))
        return (yield from evidence_steps(lexical, self.questions)), True

    def refresh(self) -> None:
        """Figures again for the view shown (questions added, removed or imported)."""
        view, self.view = self.view, None
        self.show(view if view is not None else EvidenceView())

    def show(self, view: EvidenceView) -> None:
        """Show ``view``, at once."""
        for _ in self.work(view):
            pass

    def work(self, view: EvidenceView) -> Iterator[None]:
        """Show ``view`` in small steps (a few questions each; the page runs one step per
        task, so a key is never kept waiting long): what is new since the view shown, of
        the result's figures, the comparison rows' and the sizes' (each drawn when found;
        without a result, the panel says so at once)."""
        shown, self.view = self.view, view
        result = view.analysis
        if shown is None or result is None or result is not shown.analysis:
            current = yield from self._latest("figures", self._result_work(result))
            if not current:
                return
        if result is None:
            self._start("rows")
            self._rows_drawn(None)
        elif view.rows is not None and (shown is None or view.rows is not shown.rows):
            current = yield from self._latest("rows", self._rows_work(view.rows))
            if not current:
                return
        if view.by_size is not None and (shown is None or view.by_size is not shown.by_size):
            self._sizes(view.by_size)

    def _start(self, part: str) -> int:
        self.started[part] += 1
        return self.started[part]

    def _latest(self, part: str, steps: Iterator[None]) -> Generator[None, None, bool]:
        """Run ``steps`` (``part`` of a view) while no newer run of that part has started:
        a question added, removed or imported meanwhile (``refresh``) starts it again for
        the new list, and this run then stops where it is, draws nothing and reads no more
        of the list that changed under it. Returns whether it ran to the end; a stale
        run's whole ``work`` is dropped with it."""
        mine = self._start(part)
        for _step in steps:
            yield
            if self.started[part] != mine:
                return False
        return True

    def _result_work(self, result: Analysis | None) -> Iterator[None]:
        """The figures of ``result``, in steps, then the panel."""
        root = by_id("app")
        if result is not None and result.text == self.source.text:
            self._rebase()
        found, self.semantic_pending = None, False
        if result is not None:
            found, self.semantic_pending = yield from self._evidence(result)
        self.found = found
        by_id("evidence-download").disabled = found is None or self.semantic_pending
        root.dataset.semantic = self._semantic_state()
        self.on_found(result, found)
        by_id("evidence-count").textContent = (
            questions(len(self.questions)) if self.questions else "No questions yet"
        )
        by_id("evidence-clear").disabled = not self.questions
        self._figures(result)
        self._list(result)
        root.dataset.evidence = "ready"

    def _semantic_state(self) -> str:
        """#app[data-semantic]: "ready" (figures complete), "pending" (vectors on their way)
        or "unavailable" (the model failed or cannot run here)."""
        if not self.semantic_pending:
            return "ready"
        waiting = self.embeddings is None or self.embeddings.available()
        return "pending" if waiting else "unavailable"

    def _figures(self, result: Analysis | None) -> None:
        s = self.found.summary() if self.found is not None and self.questions else None
        r = s["retrieval"] if s else None
        values = {
            "evidence-questions": "—" if s is None else (
                f"{number(s['questions'] - s['unmatched'])} of {number(s['questions'])}"
            ),
            "evidence-whole": "—" if s is None else (
                f"{number(s['kept_whole'])} of {number(s['excerpts'])}"
            ),
            "evidence-one": "—" if s is None else (
                f"{number(s['one_chunk'])} of {number(s['questions'] - s['unmatched'])}"
            ),
            "evidence-read": "—" if s is None else _mean(s["chunks_to_read"], 1)
            + (f" ({s['not_covered']} not covered)" if s["not_covered"] else ""),
            "evidence-omega": "—" if s is None else _mean(s["precision_omega"], 3),
            "evidence-recall": "—" if r is None else _mean(r["recall"], 3),
            "evidence-precision": "—" if r is None else _mean(r["precision"], 3),
            "evidence-iou": "—" if r is None else _mean(r["iou"], 3),
            "evidence-tokens": "—" if r is None else _mean(r["tokens"], 1),
        }  # fmt: skip
        if self.semantic_pending and s is not None:
            waiting = self.embeddings is None or self.embeddings.available()
            for element_id in RANKED_FIGURES:
                values[element_id] = "pending…" if waiting else "unavailable"
        for element_id, text in values.items():
            by_id(element_id).textContent = text
        settings = result.settings if result is not None else None
        k = settings.top_k if settings is not None else 5
        budget = settings.budget if settings is not None else None
        shown = str(k) if budget is None else f"up to {budget:,} tokens"
        by_id("evidence-k").textContent = shown
        method = getattr(result.settings, "retrieval", "bm25") if result is not None else "bm25"
        by_id("evidence-method").textContent = METHOD_HELP.get(method, METHOD_HELP["bm25"])
        retrieved = retrieved_words(method, k, budget)
        unit = "in code points (0\N{EN DASH}1)"
        by_id(
            "evidence-recall-def"
        ).textContent = f"mean share of the evidence inside {retrieved}, {unit}"
        by_id(
            "evidence-precision-def"
        ).textContent = f"mean share of {retrieved} that is evidence, {unit}"
        by_id(
            "evidence-iou-def"
        ).textContent = f"mean overlap of evidence and {retrieved} over their union, {unit}"
        by_id("compare-retrieval").textContent = f"at k: {retrieved}"
        tokenizer = settings.tokenizer if settings is not None else "cl100k_base"
        by_id("evidence-tokens-def").textContent = (
            "mean total tokens of the chunks retrieved, per question, counted with "
            f"{tokenizer.removeprefix('file:')} (Tokenizer)"
        )

    def _list(self, result: Analysis | None) -> None:
        items = []
        results = self.found.results if self.found is not None else ()
        placed = [anchor(self.source.text, q) for q in self.questions] if self.found is None else []
        for i, q in enumerate(self.questions):
            item = element("li", cls="evidence-question")
            item.dataset.index = str(i)
            item.append(element("p", q.text, "question-text"))
            found = results[i] if i < len(results) else None
            item.append(self._excerpts(q, found, placed[i] if placed else None))
            item.append(element("p", self._verdict(found, result, self.semantic_pending), "hint"))
            remove = element("button", "Remove")
            remove.type = "button"
            remove.setAttribute("aria-label", f"Remove question {i + 1}")
            remove.dataset.remove = str(i)
            item.append(remove)
            items.append(item)
        by_id("evidence-list").replaceChildren(*items)

    def _excerpts(self, q: Question, found: QuestionResult | None, placed: Any) -> Any:
        listing = element("ul", cls="excerpts")
        for n, e in enumerate(q.excerpts):
            shown = f"“{_short(e.content)}” — "
            li = element("li")
            if found is None:
                ok = placed is not None and placed[n].found
                li.textContent = shown + ("no result to check" if ok else "not in the text")
            else:
                x = found.excerpts[n]
                if not x.placed.found:
                    li.textContent = (
                        shown + "not in the text (edited away?); left out of the figures"
                    )
                    li.classList.add("problem")
                else:
                    if not x.kept_whole:
                        li.classList.add("cut")
                    verdict = "kept whole in " if x.kept_whole else "cut: spread over "
                    li.append(shown + verdict, *_chunk_links(x.chunks))
                li.dataset.chunks = " ".join(str(c) for c in x.chunks)
                li.dataset.kept = "whole" if x.kept_whole else "cut"
            listing.append(li)
        return listing

    @staticmethod
    def _verdict(found: QuestionResult | None, result: Analysis | None, pending: bool) -> str:
        if found is None or result is None:
            return "No chunks to check (see Chunk readiness)."
        if not found.matched:
            return "Not checked: some of its evidence is not in the text."
        parts = []
        if found.one_chunk:
            parts.append("one chunk answers it")
        elif found.chunks_to_read is None:
            parts.append("its evidence is not all in chunks")
        else:
            parts.append(f"{found.chunks_to_read} chunks to read")
        parts.append(f"Precision Ω {found.precision_omega:.3f}")
        r = found.retrieval
        method = METHOD_NAMES.get(getattr(result.settings, "retrieval", "bm25"), "BM25")
        if r is not None and pending:
            parts.append(f"{method}: ranking pending (see the embedding model's note above)")
        elif r is not None:
            if r.first_hit_rank is None:
                parts.append(f"{method}: no evidence among the {r.k} chunks retrieved")
            else:
                parts.append(
                    f"{method}: first chunk with evidence at rank {r.first_hit_rank} of {r.k}"
                )
        if r is not None and not pending:
            parts.append(
                f"recall {r.recall:.2f}, {number(r.tokens)} tokens for {len(r.chunks)} chunks"
            )
        return "; ".join(parts) + "."

    def _sizes(self, rows: Sequence[Row]) -> None:
        """Excerpts kept whole at each of the Size trade-offs chart's sizes (placement only,
        no retrieval: cheap enough for one step)."""
        text = self.source.text
        kept = {}
        for row in rows if self.questions else ():
            if row.analysis is None or row.analysis.text != text:
                continue  # another text's sizes: its own comparison follows
            self._rebase()
            counts = kept_whole(row.analysis, self.questions)
            if counts is not None:
                kept[row.settings.chunk_size] = counts
        self.on_sizes(rows, kept)

    def _rows_work(self, rows: Sequence[Row]) -> Iterator[None]:
        """The evidence figures of every comparison row (each row's own chunks), in small
        steps (see ``work``), then the table."""
        if not self.questions:
            self._rows_drawn(rows)
            return
        summaries = []
        for row in rows:
            found, pending = None, False
            if row.analysis is not None:
                found, pending = yield from self._evidence(row.analysis)
            summary = found.summary() if found is not None else None
            if summary is not None and pending:  # ranked figures follow ("—" until then)
                summary["retrieval"] = dict.fromkeys(summary["retrieval"])
            summaries.append(summary)
            yield
        self._draw_rows(rows, summaries)

    def _rows_drawn(self, rows: Sequence[Row] | None) -> None:
        """No figures for the rows (no questions), or no rows (no comparison)."""
        if rows is not None:
            self.on_rows(rows, [comparison_cells(None) for _row in rows])
        by_id("app").dataset.evidenceComparison = "ready"

    def _draw_rows(self, rows: Sequence[Row], summaries: Sequence[dict[str, Any] | None]) -> None:
        """The rows' figures, to the Splitter comparison's Evidence columns."""
        self.on_rows(rows, [comparison_cells(s) for s in summaries])
        by_id("app").dataset.evidenceComparison = "ready"


def retrieved_words(method: str, k: int, budget: int | None) -> str:
    """The chunks the figures "at k" are of, in words: the retrieval named, and k or the
    context budget ("the 5 chunks Semantic retrieval ranks first")."""
    name = METHOD_NAMES.get(method, "BM25")
    if budget is not None:
        return f"the chunks {name} ranks first while their tokens stay within {budget:,}"
    if method == "bm25":
        return f"the {k:,} chunks BM25 retrieves"
    return f"the {k:,} chunks {name} retrieval ranks first"


def comparison_cells(s: dict[str, Any] | None) -> list[str]:
    """The Splitter comparison's Evidence columns for a row's evidence summary: Kept whole,
    One chunk, Chunks to read, Precision Ω, Recall at k, IoU at k, Tokens at k ("—"
    without)."""
    if s is None:
        return ["—"] * 7
    r = s["retrieval"]
    return [
        f"{s['kept_whole']} of {s['excerpts']}",
        f"{s['one_chunk']} of {s['questions'] - s['unmatched']}",
        _mean(s["chunks_to_read"], 1),
        _mean(s["precision_omega"], 3),
        _mean(r["recall"], 3),
        _mean(r["iou"], 3),
        _mean(r["tokens"], 1),
    ]

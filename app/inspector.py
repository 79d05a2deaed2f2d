"""Chunk Inspector's UI: wires the panels to chunker_py and recomputes on every edit.

Runs on the page's main thread under PyScript; app/main.py (PyScript's script) calls
start(). Importing this module touches no page element, so build.py imports it, with the
panel modules, into the start-up snapshot (their `window` and `document` come from
Pyodide's `js` module, which the snapshot can hold; `pyscript.window` is the same object
on the main thread, but the `pyscript` package only exists in a running page).

An edit recomputes at once, in its input event, so its result is painted in the next
frame; edits arriving before that frame are coalesced into one recompute just before it.
Each recompute reads the controls when it runs, so only the latest input's result is ever
shown. #app[data-state] is "busy" from an edit until the panels show its result, then
"ready"; work left for after the paint is marked by #app[data-chart], [data-damage] and
[data-comparison] ("pending" until done).
"""

from __future__ import annotations

import gc
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import theme
from chart import TradeoffChart, TradeoffView
from chunkmap import ChunkMap, MapView
from copycode import CopyCode
from damage import Comparison, ComparisonView, DamageGroup, damaged_indices
from dom import (
    ListView,
    after_paint,
    before_next_frame,
    by_id,
    number,
    on,
    share_whitespace_symbols,
)
from embeddings import Embeddings, dense_retrieval
from evidence import EvidencePanel, EvidenceView, evidence_marks
from export import Export
from histogram import SizesChart
from js import document, window
from preview import Preview
from pyodide.ffi import create_once_callable
from readiness import Readiness, Verdict
from records import Records
from semantic import WaitingEmbedder
from semantic_curve import DistanceCurve
from set_compare import SetComparison
from settings import Controls, ControlsView
from source import Source
from summary import Figures, TokenFigures
from sweep import SweepPanel
from tokenizer_file import TokenizerFile

import chunker_py
from chunker_py import ChunkerError, Row, Settings, analyse, parse_settings
from chunker_py.config.links import settings_from_fragment
from chunker_py.embedding.supply import EmbeddingsPending, use_embedder
from chunker_py.measures.evidence import Evidence
from chunker_py.pipeline.analysis import tradeoffs
from chunker_py.pipeline.units import size_unit_name, sizer_for
from chunker_py.stepwise import compare_row_steps, damage_by_size_row_steps, prepare_steps
from chunker_py.tokenizers import tokenizer_loaded
from chunker_py.tokenizers.base import MERGE_STEP, paced

COMPARE_DELAY_MS = 250  # the comparison waits for a pause in typing
TYPING_GAP_MS = 250  # an update this soon after the previous one is taken for typing
TYPING_PAUSE_MS = 100  # while typing, the after-paint work waits this long for a pause
MAX_UNCOLLECTED = 200  # updates without a pause before the cycle collector runs anyway
IDLE_COLLECT_MS = 5_000  # a full cycle collection once the page has been idle this long
# an edit whose work runs in steps says so ("Counting tokens…", the results dimmed) only if
# its result is not shown this long after the edit: a count that ends sooner (a keystroke
# in a long emoji text) shows no flash
PENDING_STATUS_DELAY_MS = 200
# what the trade-off chart needs: the text, the settings and the chunk count at its size
ChartJob = tuple[str, Settings, int]


class Page:
    def __init__(self) -> None:
        self.root = by_id("app")
        self.readiness = Readiness()
        self.figures = Figures()
        self.tokens = TokenFigures()
        self.tradeoff = TradeoffChart()
        self.sizes = SizesChart()
        self.damage_group = DamageGroup()
        self.source = Source(self.changed, self._settings_shown)
        self.controls = Controls(self.changed)
        self.preview = Preview()
        self.export = Export(self.source.documents)
        self.set_comparison = SetComparison()
        self.records = Records()
        # chunk map and copy as code
        self.chunk_map = ChunkMap(self._choose_chunk)
        self.copy_code = CopyCode()
        self.semantic_curve = DistanceCurve()  # Semantic mode's distances
        self.pending = False  # a recompute is scheduled for the next frame
        self.computed_this_frame = False
        self.last_update = float("-inf")  # performance.now() of the last update shown
        self.uncollected = 0  # updates since the cycle collector last ran
        # the text and raw settings of the last update, and how it ended
        self.computed: tuple[str, dict[str, object]] | None = None
        self.outcome = "ready"
        self.link_notes: list[str] = []
        # Every update gets a number; work scheduled after the paint runs only if no
        # newer update has started since (stale work is dropped, never shown).
        self.generation = 0
        # long tasks: the timer that says "Counting tokens…" once the edit's work
        # in steps has lasted PENDING_STATUS_DELAY_MS, and what it says
        self.status_timer: object | None = None
        self.doing = ""
        self.compare_timer: list[object] = []
        self.idle_timer: object | None = None  # the full collection once the page is idle
        self.applied: str | None = None  # the comparison row whose Use was just chosen
        self.result: chunker_py.Analysis | None = None
        self.view = ListView()  # what the preview and the records list, for this result
        self.map_view = MapView()  # what the chunk map shows of this result
        self.chart_view = TradeoffView()  # what the trade-off chart shows of this result
        self.comparison_view = ComparisonView()  # what the comparison shows of this result
        self.evidence_view = EvidenceView()  # what the Evidence check shows of this result
        self.comparison = Comparison(self._apply_row)
        # Semantic and Hybrid retrieval: the model in a worker, its vectors kept by text
        self.embeddings = Embeddings(self._vectors_arrived)
        self.sweep = SweepPanel(self._apply_row, self.embeddings)
        # Semantic mode's vectors are the model's, kept by text (app/semantic.py)
        use_embedder(WaitingEmbedder(self.embeddings.vectors))
        self.semantic_waits = False
        # the result whose comparison's Semantic row waits for these windows' vectors
        self.semantic_row: tuple[chunker_py.Analysis, list[str]] | None = None
        self.evidence = EvidencePanel(  # Evidence check
            self.source,
            apply_row=self._apply_row,
            map_selection=self._map_selection,
            on_found=self._evidence_found,
            on_rows=self._evidence_rows,
            on_sizes=self._evidence_sizes,
            show_chunk=self._choose_chunk,
            embeddings=self.embeddings,
        )

    def start(self) -> None:
        share_whitespace_symbols()
        self._read_link()
        self.source.wire()
        TokenizerFile(self.changed).wire()
        self.controls.wire()
        self.preview.wire()
        self.records.wire()
        self.export.wire()
        on(by_id("damaged-only"), "change", lambda _event: self._filter_damaged())
        # chunk map, copy as code, charts follow the colour scheme
        self.chunk_map.wire()
        self.copy_code.wire()
        self.comparison.wire()
        self.evidence.wire()
        self.embeddings.wire()
        self.sweep.wire()
        theme.on_change(self._redraw_charts)
        on(window, "hashchange", lambda _event: self._link_changed())
        by_id("core-version").textContent = f"chunker_py {chunker_py.__version__}"
        on(by_id("result-bar"), "click", lambda _event: by_id("readiness").scrollIntoView())
        if window.matchMedia("(max-width: 60rem)").matches:
            # one column: the setting groups start folded, so the results come sooner
            for group in document.querySelectorAll("details.group[open]"):
                group.open = False
        self.update()
        # Everything alive now (the runtime, the modules, the page) lives as long as the
        # page: frozen, no collection walks it again. Reference counting frees almost
        # everything else at once; the cycle collector, which would otherwise pause a
        # keystroke now and then (several ms at 2,000 chunks), runs after the paint.
        gc.freeze()
        gc.disable()

    def _settings_shown(self) -> Settings:
        """The settings the controls hold (the defaults while they are invalid)."""
        try:
            return parse_settings(self.controls.read())
        except ChunkerError:
            return Settings()

    def _read_link(self) -> None:
        fragment = str(window.location.hash)
        if fragment:
            chosen, notes = settings_from_fragment(fragment)
            self.controls.apply(chosen)
            self.link_notes = [f"From the settings link: {n}" for n in notes]
        else:
            self.controls.follow()

    def _link_changed(self) -> None:
        self._read_link()
        self.changed()

    def changed(self) -> None:
        """Any edit: recompute at once, so the result is painted in the frame after the
        key; edits arriving before that frame (a burst of key events) are coalesced into
        one recompute just before it, so the page never computes twice per frame."""
        self.root.dataset.state = "busy"
        self.root.setAttribute("aria-busy", "true")
        if self.pending:
            return
        if self.computed_this_frame:
            self.pending = True
            before_next_frame(self._run)
            return
        self._run()

    def _run(self) -> None:
        self.pending = False
        if not self.computed_this_frame:
            self.computed_this_frame = True
            before_next_frame(self._frame_drawn)
        self._guarded(self.update)

    def _frame_drawn(self) -> None:
        self.computed_this_frame = False

    def _guarded(self, work: Callable[[], None], *, after_paint: bool = False) -> bool:
        """Run ``work``; a bug in it is shown (and False returned), the page keeps working.
        When app.zip could not be loaded, that is what is shown instead (not a bug); work
        after the paint then leaves the result shown as it is."""
        try:
            work()
        except Exception as exc:  # a bug, not a user error: show it, keep the page working
            traceback.print_exc()
            missing = app_code_missing()
            if missing is not None and after_paint:
                self.readiness.unavailable(missing)
                return False
            self._clear_after_bug()
            if missing is not None:  # not a bug: a file of the page did not arrive
                self.readiness.unavailable(missing)
            else:
                self.readiness.bug(f"{type(exc).__name__}: {exc}")
            self.outcome = self.root.dataset.state = "error"  # until the input changes
            self.root.removeAttribute("aria-busy")
            return False
        return True

    # -- after the paint: the chunk map if it was off screen, the trade-off chart, the sizes
    # histogram, token counts and damage, one task each (while the user types, after a short
    # pause); then (after a longer pause in typing) the comparison. Every step is dropped
    # once a newer edit has started.
    def _later(self, result: chunker_py.Analysis | None, chart_job: ChartJob | None) -> None:
        self.generation += 1
        generation = self.generation
        now = float(window.performance.now())
        typing = now - self.last_update < TYPING_GAP_MS
        self.last_update = now
        for timer in self.compare_timer:
            window.clearTimeout(timer)
        if self.idle_timer is not None:
            window.clearTimeout(self.idle_timer)
        self.idle_timer = window.setTimeout(
            create_once_callable(self._collect_all), IDLE_COLLECT_MS
        )
        steps: list[Callable[[], None]] = []
        if self.chunk_map.deferred:
            steps.append(self.chunk_map.catch_up)
        steps.append(lambda: self._chart(chart_job))
        self.root.dataset.chart = "pending"
        self.chart_view = TradeoffView()  # this result's: filled in after the paint
        if result is None:
            self.result = None
            self.semantic_curve.show(None)
            self.sizes.show(None)
            self.damage_group.show(None)
            self.comparison_view = ComparisonView()
            self.comparison.show(self.comparison_view)
            self._set_only(None)
            self.evidence.show(self.evidence_view)
        else:
            self.result = result
            if chart_job is not None:  # the other documents' chunk counts, these settings
                settings = chart_job[1]
                counts = self.source.documents.count_others(settings)
                steps.append(lambda: self._drive(generation, counts))
            # Plotly redraws (~15 ms) and tables loading are never on the keystroke's frame
            steps.append(lambda: self.sizes.show(result))
            steps.append(lambda: self.semantic_curve.show(result))
            steps.append(lambda: self._drive(generation, self._tokens(result)))
            # damage's text facts (Markdown parse, sentences) one task each, then damage
            facts = result.damage_steps()
            steps.extend([lambda: next(facts, None)] * 4)
            steps.append(lambda: self._damage(result))
            # Evidence check: a few questions per task, after the other steps' first task; the
            # view as it is by then (the comparison may have given it its rows already)
            steps.append(lambda: self._drive(generation, self.evidence.work(self.evidence_view)))
            applied, self.applied = self.applied, None
            self.sweep.pending()
            self.compare_timer = after_paint(
                lambda: self._drive(generation, self._comparison(result, applied)),
                COMPARE_DELAY_MS,
            )
        self.uncollected += 1
        if self.uncollected > MAX_UNCOLLECTED:  # typing without a pause for a long while
            self._collect()
        # While keys follow each other closely, this work (~40 ms at 2,000 chunks: two
        # Plotly redraws, damage) would delay the next key: it waits for a pause instead.
        after_paint(lambda: self._steps(generation, steps), TYPING_PAUSE_MS if typing else 0)

    def _collect(self) -> None:
        """The cycle collector's turn (see start()), after each step of the work after the
        paint: the young generation only, i.e. what that step allocated, so each turn costs
        a fraction of the step before it. One full collection after the steps walked every
        survivor since boot, the Markdown tokens of every text still cached among them
        (~130 ms in one task on the hostile documents' 40-level nested list, on a busy machine)."""
        gc.collect(0)
        self.uncollected = 0

    def _collect_all(self) -> None:
        """A full collection once the page has been idle for IDLE_COLLECT_MS: the cyclic
        garbage that the young collections promoted (a cached text's objects once it
        leaves the cache) is freed then, and never more than once per pause. What start()
        froze (the runtime, the modules, the page) is not walked."""
        self.idle_timer = None
        gc.collect()

    def _steps(self, generation: int, steps: list[Callable[[], None]]) -> None:
        """The first step now and the rest in later tasks: a key pressed meanwhile is
        handled at once, and the steps left for the older result are dropped."""
        if generation != self.generation or not steps:
            return  # a newer edit is on its way
        if _after_app_code(lambda: self._steps(generation, steps)):
            return
        done = self._guarded(steps[0], after_paint=True)
        self._collect()
        if done and len(steps) > 1:
            window.setTimeout(create_once_callable(lambda: self._steps(generation, steps[1:])), 0)

    def _drive(self, generation: int, work: Iterator[None]) -> None:
        """Run ``work`` one step per task until it ends, a step fails, or a newer edit
        starts: a long job never holds the main thread for more than one step."""
        if generation != self.generation:
            return
        if _after_app_code(lambda: self._drive(generation, work)):
            return
        done: list[bool] = []

        def step() -> None:
            if next(work, StopIteration) is StopIteration:
                done.append(True)

        ok = self._guarded(step, after_paint=True)
        self._collect()
        if ok and not done:
            window.setTimeout(create_once_callable(lambda: self._drive(generation, work)), 0)

    def _chart(self, job: ChartJob | None) -> None:
        """Size trade-offs: the counts at the comparison sizes (several splits)."""
        if job is None:
            self.chart_view = TradeoffView()
        else:
            text, chosen, count = job
            bars = tradeoffs(text, chosen, known=count)
            self.chart_view = replace(
                self.chart_view,
                tradeoffs=bars,
                current=chosen.chunk_size,
                unit=size_unit_name(chosen),
            )
        self.tradeoff.show(self.chart_view)
        self.root.dataset.chart = "ready"

    def _show_chart(self, view: TradeoffView) -> None:
        """The trade-off chart's view filled in further for this result: shown once its
        bars are (until then ``_chart`` shows it with them)."""
        self.chart_view = view
        if view.tradeoffs:
            self.tradeoff.show(view)

    def _tokens(self, result: chunker_py.Analysis) -> Iterator[None]:
        """Token figures (the tokenizer's tables loaded if new; then every chunk counted,
        long pieces' merges in paced steps, so no task runs long), and the records' counts."""
        missing = app_code_missing()
        if missing is not None and not tokenizer_loaded(result.settings.tokenizer):
            self.tokens.unavailable(missing)
            return
        yield from paced(result.token_steps(), MERGE_STEP)
        if result is not self.view.analysis:
            return  # the result was dropped (a bug)
        self.view = replace(self.view, tokens_ready=True, counted=True)
        self.records.show(self.view)
        self.tokens.show(self.view)

    def _damage(self, result: chunker_py.Analysis) -> None:
        found = result.damage
        self.damage_group.show(result)
        if by_id("damaged-only").checked and found is not None:
            self._set_only(damaged_indices(found))
        else:  # the lists' damage words
            self._set_only(self.view.only)
        if result is self.map_view.analysis:  # the damage marks in the chunk map
            self.map_view = replace(self.map_view, damage=found)
            self.chunk_map.show(self.map_view)
        self.root.dataset.damage = "ready"

    def _comparison(self, result: chunker_py.Analysis, applied: str | None) -> Iterator[None]:
        """The splitter comparison, then each trade-off size's damage: one split and
        damage pass per step (see ``_drive``), the long pieces' token merges before it in
        steps of their own (so no task runs long: a None from the ``_row_steps``)."""
        rows: list[Row] = []
        for row in compare_row_steps(result.text, result.settings, known=result):
            if row is not None:
                rows.append(row)
            yield
        self.comparison_view = ComparisonView(rows, applied)
        self.comparison.show(self.comparison_view)
        yield
        self._semantic_row_vectors(result, rows)
        if result is self.evidence_view.analysis:  # Evidence check: one row per step too
            self.evidence_view = replace(self.evidence_view, rows=rows)
            yield from self.evidence.work(self.evidence_view)
        by_size: list[Row] = []
        for row in damage_by_size_row_steps(result.text, result.settings, known=result):
            if row is not None:
                by_size.append(row)
            yield
        self._show_chart(replace(self.chart_view, damage=by_size))
        yield
        if result is self.evidence_view.analysis:  # Evidence check: evidence kept whole per size
            self.evidence_view = replace(self.evidence_view, by_size=by_size)
            self.evidence.show(self.evidence_view)
        self.root.dataset.comparison = "ready"
        yield from self.sweep.work(result, self.evidence.questions)
        yield from self.set_comparison.work(self.source.documents.items, result, rows)

    def _semantic_row_vectors(self, result: chunker_py.Analysis, rows: Sequence[Row]) -> None:
        """The comparison's Semantic row waits for the model's vectors of its sentence
        windows. Once the model has been chosen in this page (Semantic mode, or Semantic or
        Hybrid retrieval: it is never downloaded for this row alone), they are asked for,
        and the comparison runs again when they have arrived (``_vectors_arrived``).
        #app[data-semantic-row="waiting"] says so meanwhile."""
        self.semantic_row = None
        self.root.removeAttribute("data-semantic-row")
        if self.embeddings.state not in ("loading", "ready"):
            return
        for row in rows:
            if row.key == "semantic" and row.damage is None and row.error is not None:
                try:
                    analyse(result.text, row.settings, with_tradeoffs=False)
                except EmbeddingsPending as waiting:
                    self.semantic_row = (result, list(waiting.texts))
                    self.root.dataset.semanticRow = "waiting"
                    self.embeddings.request(waiting.texts)

    def _other_modes(self, text: str, chosen: Settings) -> Iterator[None]:
        """Semantic mode waits for the model's vectors: the comparison shows the other
        modes' rows meanwhile (its Semantic row says that it waits), one row per step."""
        rows: list[Row] = []
        for row in compare_row_steps(text, chosen):
            if row is not None:
                rows.append(row)
            yield
        self.comparison_view = ComparisonView(rows)
        self.comparison.show(self.comparison_view)
        self.root.dataset.comparison = "ready"

    def _map_selection(self) -> tuple[int, int] | None:
        """Text selected in the chunk map, when the map's view is of the current text."""
        shown = self.map_view.analysis
        if shown is None or shown.text != self.source.text:
            return None
        return self.chunk_map.selection()

    def _choose_chunk(self, index: int) -> None:
        """Chunk ``index`` chosen in the chunk map or the Evidence check: the selection of
        this result's views (the map, the preview and the records mark it), its preview
        item and record row brought into view, the row focused."""
        self.view = replace(self.view, selected=index)
        self.map_view = replace(self.map_view, selected=index)
        self.preview.show(self.view)
        self.records.show(self.view)
        self.chunk_map.show(self.map_view)
        self.preview.bring_to(index)
        self.chunk_map.chosen(index, self.records.bring_to(index))

    def _evidence_found(self, result: chunker_py.Analysis | None, found: Evidence | None) -> None:
        """Evidence check: the evidence underlined in the chunk map and named in the records, both
        shown from this result's views with its evidence marks (a stale result's found
        evidence is not these views')."""
        if result is None:
            return
        ranges, words = evidence_marks(found)
        if result is self.map_view.analysis:
            self.map_view = replace(self.map_view, evidence=(ranges, words))
            self.chunk_map.show(self.map_view)
        if result is self.view.analysis:
            self.view = replace(self.view, evidence=words)
            self.records.show(self.view)

    def _evidence_rows(self, rows: Sequence[Row], cells: list[list[str]]) -> None:
        """Evidence check: the comparison's evidence cells, when they are of the rows it shows."""
        if rows is self.comparison_view.rows:
            self.comparison_view = replace(self.comparison_view, evidence=cells)
            self.comparison.show(self.comparison_view)

    def _evidence_sizes(self, rows: Sequence[Row], kept: dict[int, tuple[int, int]]) -> None:
        """Evidence check: the excerpts kept whole per trade-off size, when they are of this
        result's sizes (the rows whose damage the chart's view has)."""
        if rows is self.chart_view.damage:
            self._show_chart(replace(self.chart_view, evidence=kept))

    def _apply_row(self, fragment: str) -> None:
        """Use: the row's settings go into the controls; the comparison's status says so
        once it is computed for them (the row is then marked current)."""
        chosen, _notes = settings_from_fragment(str(fragment))
        self.controls.apply(chosen)
        self.applied = self.comparison.applying(str(fragment))
        self.changed()

    def _set_only(self, indices: Sequence[int] | None) -> None:
        """The preview and the records list ``indices`` (None: every chunk), with their
        damage words."""
        only = tuple(indices) if indices is not None else None
        found = self.result.damage if self.result is not None else None
        # the evidence words found stay while the result does
        evidence = self.view.evidence if self.result is self.view.analysis else None
        self.view = replace(
            self.view, analysis=self.result, only=only, damage=found, evidence=evidence
        )
        self.preview.show(self.view)
        self.records.show(self.view)

    def _redraw_charts(self) -> None:
        """The colour scheme changed: the charts in its colours."""
        self.tradeoff.redraw()
        self.sizes.redraw()
        self.sweep.redraw()

    def _filter_damaged(self) -> None:
        found = self.result.damage if self.result is not None else None
        wanted = found if by_id("damaged-only").checked else None
        self._guarded(lambda: self._set_only(None if wanted is None else damaged_indices(wanted)))

    def _clear_after_bug(self) -> None:
        """No panel may keep showing (or offer to download) an earlier text's result, nor
        draw it again later (evidence found for it, "Show damaged chunks only", its
        comparison still to come): the result, its views and its work left are dropped."""
        self._cancel_pending_status()
        self.generation += 1  # the result's steps after the paint are dropped
        for timer in self.compare_timer:
            window.clearTimeout(timer)
        self.export.show(None)
        self.result, self.view, self.map_view = None, ListView(), MapView()
        self.chart_view, self.comparison_view = TradeoffView(), ComparisonView()
        self.evidence_view = EvidenceView()
        clears: tuple[Callable[[], None], ...] = (
            lambda: self.figures.show(None), lambda: self.tokens.show(self.view),
            lambda: self.damage_group.show(None), lambda: self.preview.show(self.view),
            lambda: self.records.show(self.view), lambda: self.tradeoff.show(self.chart_view),
            lambda: self.comparison.show(self.comparison_view),
            lambda: self.chunk_map.show(self.map_view), lambda: self.sizes.show(None),
            lambda: self.evidence.show(self.evidence_view),
        )  # fmt: skip
        for clear in clears:
            try:
                clear()
            except Exception:  # the bug may sit in a panel: clear the others anyway
                traceback.print_exc()

    def update(self) -> None:
        text = self.source.current()
        raw = self.controls.read()
        if (text, raw) == self.computed and not self.link_notes:
            # Nothing changed since the last update (an editor inserting a multi-line text
            # fires one input event per line, all after the text is in): keep its outcome,
            # or let its token counting go on (``_count_first``).
            self.root.dataset.state = self.outcome
            if self.outcome != "busy":
                self.root.removeAttribute("aria-busy")
            return
        self.computed, self.outcome = (text, raw), "error"  # "ready" once shown
        self.source.show_count()
        notes, self.link_notes = self.link_notes, []
        try:
            chosen = parse_settings(raw)
        except ChunkerError as error:
            self.controls.show(ControlsView(invalid=error.field))
            self.export.show_link(error.message)
            self._show(None, error.message, notes=notes)
            return
        self.controls.show(ControlsView(chosen))
        self.export.show_link(None)
        # the tables of a tokenizer not loaded yet load in the analysis (as before)
        ready = tokenizer_loaded(chosen.tokenizer) or chosen.mode_info.parses_markdown
        counting = prepare_steps(text, chosen) if ready else None
        if counting is not None and next(counting, StopIteration) is not StopIteration:
            self._count_first(text, chosen, notes, counting)
            return
        self._analyse(text, chosen, notes)

    def _count_first(
        self, text: str, chosen: Settings, notes: list[str], counting: Iterator[None]
    ) -> None:
        """Long tasks: the edit's work takes longer than a step (a 20,000-letter
        run or a line of ZWJ emoji in tokens: 250-970 ms in one task before; a 2,000-row
        table's Markdown parse). It runs one step per task after the paint
        (``prepare_steps`` through ``_drive``; a newer edit drops it); meanwhile the
        previous text's results are not offered for download, and if it lasts over
        PENDING_STATUS_DELAY_MS, Chunk readiness says so and those results are dimmed;
        the last step analyses and shows the result, from the caches filled."""
        self.generation += 1  # the previous result's work after the paint is dropped
        generation = self.generation
        self.outcome = "busy"
        doing = (
            "Counting tokens…"
            if not chosen.mode_info.parses_markdown
            else "Reading the Markdown structure…"
            if sizer_for(chosen).per_code_point
            else "Reading the Markdown structure and counting tokens…"
        )
        self.doing = doing
        # Nothing of the previous text can be downloaded or copied as this one's result,
        # at once (the buttons go disabled: no flash); the code snippets follow the new
        # settings. What is being done is said (and the results dimmed) only once the
        # page has been busy for PENDING_STATUS_DELAY_MS since the first edit still not
        # shown: a newer edit keeps that timer, the result shown cancels it.
        self.export.show(None)
        self.evidence.pending()
        self.copy_code.show(chosen)
        if self.readiness.status == "counting":
            self._pending_status()  # already said: say what the newer edit does
        elif self.status_timer is None:
            self.status_timer = window.setTimeout(
                create_once_callable(self._pending_status), PENDING_STATUS_DELAY_MS
            )

        def counted() -> Iterator[None]:
            yield from counting
            self._analyse(text, chosen, notes)

        after_paint(lambda: self._drive(generation, counted()))

    def _pending_status(self) -> None:
        """Chunk readiness and the result bar say what the edit's steps are doing; the
        previous text's results are dimmed (static/style.css) until its result replaces
        this. Nothing once that result (or a message, or a bug) is shown."""
        self.status_timer = None
        if self.outcome != "busy":
            return
        self.readiness.counting(self.doing)
        bar = by_id("result-bar")
        bar.hidden = False
        bar.textContent = f"{self.doing} · Show the status ↓"

    def _cancel_pending_status(self) -> None:
        if self.status_timer is not None:
            window.clearTimeout(self.status_timer)
            self.status_timer = None

    def _analyse(self, text: str, chosen: Settings, notes: list[str]) -> None:
        # the trade-off counts (several more splits) are computed after the paint
        self._split_waits(False)
        try:
            result = analyse(text, chosen, with_tradeoffs=False)
        except EmbeddingsPending as waiting:  # Semantic mode before the model's vectors
            self._show(None, waiting.message, chosen, notes=notes)
            self._split_waits(True)  # split again when the vectors arrive
            self.embeddings.request(waiting.texts)
            generation = self.generation
            self.compare_timer = after_paint(
                lambda: self._drive(generation, self._other_modes(text, chosen)),
                COMPARE_DELAY_MS,
            )
            return
        chart_job = (text, chosen, result.count)
        if result.error is not None:
            self.controls.show(ControlsView(chosen, result.error.field))
            self._show(None, result.error.message, chosen, chart_job, notes=notes)
            return
        self._show(result, None, chosen, chart_job, warnings=result.warnings, notes=notes)

    def _show(
        self,
        result: chunker_py.Analysis | None,
        problem: str | None,
        chosen: Settings | None = None,
        chart_job: ChartJob | None = None,
        warnings: tuple[str, ...] = (),
        notes: list[str] | None = None,
    ) -> None:
        self._cancel_pending_status()
        self.readiness.show(Verdict(problem, warnings, notes or ()))
        bar = by_id("result-bar")
        bar.hidden = False
        bar.textContent = (
            f"Ready · {number(result.count)} chunks · Show the results ↓"
            if result is not None
            else "Check inputs · Show the message ↓"
        )
        self.figures.show(result.summary if result is not None else None)
        if result is not None and chosen is not None:
            self.source.documents.counted(result.text, chosen, result.count)
        loaded = chosen is not None and tokenizer_loaded(chosen.tokenizer)
        # Show damaged chunks only: none listed until this result's damage is computed
        only = () if by_id("damaged-only").checked else None
        # the chunk chosen stays chosen while the chunks are the same (a new source name)
        selected = self.view.selected if same_chunks(self.view.analysis, result) else None
        self.view = ListView(result, only, loaded, selected=selected)
        if result is None or not result.spans or not loaded:
            self.tokens.show(self.view)  # else counted after the paint
        self.preview.show(self.view)
        self.records.show(self.view)
        shown = self.source.documents.shown
        part = None if result is None or shown is None else shown.part_shown(result.text)
        self.export.show(result, part)
        # chunk map (now if on screen, else after the paint) and copy as code
        self.map_view = MapView(result, selected=selected)
        self.evidence_view = EvidenceView(result)
        self.chunk_map.show(self.map_view)
        self.copy_code.show(chosen)
        self.root.dataset.damage = "pending" if result is not None else "none"
        self.root.dataset.comparison = "pending"
        self.evidence.pending()
        self.embeddings.drop_stale()  # the vectors made stay; jobs for older texts stop
        if result is None or not dense_retrieval(result):
            self.embeddings.hide()
        else:
            self.embeddings.reveal()
        self.root.dataset.evidence = "pending"
        self.root.dataset.evidenceComparison = "pending"
        self._later(result, chart_job)
        self.outcome = "ready"
        self.root.dataset.state = "ready"
        self.root.removeAttribute("aria-busy")

    def _vectors_arrived(self) -> None:
        """The vectors the Evidence check waited for are made: its figures again, in steps
        (for the result shown; a newer edit's own run asks for its own)."""
        generation = self.generation
        after_paint(lambda: self._drive(generation, self.evidence.again()))
        after_paint(lambda: self._drive(generation, self.sweep.resume()))
        waited = self.semantic_row  # the Semantic row's figures, once all its windows are in
        if (
            waited is not None
            and waited[0] is self.result
            and not self.embeddings.without_vectors(waited[1])
        ):
            self.semantic_row = None
            self.root.removeAttribute("data-semantic-row")
            self.root.dataset.comparison = "pending"  # computed again, with the row's figures
            after_paint(lambda: self._drive(generation, self._comparison(waited[0], None)))
        if self.semantic_waits:  # Semantic mode's windows are embedded: split again
            self._split_waits(False)
            self.computed = None
            self.changed()

    def _split_waits(self, waits: bool) -> None:
        """Semantic mode: whether the split shown waits for its windows' vectors, and is
        done again (an update of its own) when they arrive; #app[data-split="waiting"]
        says so meanwhile."""
        self.semantic_waits = waits
        if waits:
            self.root.dataset.split = "waiting"
        else:
            self.root.removeAttribute("data-split")


def same_chunks(old: chunker_py.Analysis | None, new: chunker_py.Analysis | None) -> bool:
    """Whether ``new`` has the text and the spans of ``old`` (the same chunks)."""
    if old is None or new is None:
        return False
    return old is new or (old.spans == new.spans and old.text == new.text)


def app_code_missing() -> str | None:
    """Why app.zip (the tokenizers' code and data) could not be loaded, or None: set by
    static/interpreter.js when its download after the first result failed."""
    missing = getattr(window, "chunkInspectorAppMissing", None)
    return None if missing is None else str(missing)


def _after_app_code(then: Callable[[], None]) -> bool:
    """While app.zip (the tokenizers' code and data, downloaded after the first result:
    static/interpreter.js) is on its way, run ``then`` once it has arrived and say True:
    the work after the paint (token counts, the comparison) waits for it instead of
    fetching it synchronously."""
    pending = getattr(window, "chunkInspectorAppPending", None)
    if pending is None:
        return False
    pending.then(create_once_callable(lambda *_: then()))
    return True


def start() -> None:
    """Show the first result and start listening to the page."""
    Page().start()

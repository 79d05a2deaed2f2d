"""The sweep panel ("Which splitter, which size?"): every comparison row at five sizes and
two overlaps on the current text and the Evidence check's questions, ranked, the top three
in a sentence each, a chart of recall within the budget against tokens embedded with its
Pareto front, and "Download sweep" (the CLI's ``--format sweep``, byte for byte).

It runs after the comparison, one step per task (app/inspector.py's ``_drive``), so a
newer edit drops it; a finished sweep is kept per text, settings and questions, so going
back to them shows it at once. #app[data-sweep] is "pending" until it is shown, then
"ready"; #sweep-panel[data-top] names the top configuration and [data-pareto] the front.

With Semantic or Hybrid retrieval the sweep ranks every configuration's chunks with the
model: it first lists the texts it will embed (``sweep_texts``), has the model's worker
embed those it has no vector for (app/embeddings.py: the Evidence check's own texts were
asked for before, so its figures come first), says that it waits (#app[data-sweep] is
"waiting"), and runs once they have all arrived (``resume``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

import theme
from dom import by_id, element, number, on, render, set_text
from embeddings import dense_retrieval
from js import window
from pyodide.ffi import create_proxy

from chunker_py import Analysis
from chunker_py.embedding.supply import EmbeddingsPending
from chunker_py.measures.evidence import Question
from chunker_py.pipeline.sweep import (
    DEFAULT_OBJECTIVE,
    OBJECTIVES,
    Document,
    Sweep,
    rank,
    sweep_steps,
    sweep_texts,
)

CACHED = 4  # sweeps kept (text, settings and questions each)
# "Rank by": each objective of the command line's --objective, in words
RANK_BY = {
    "recall": "Recall within the budget",
    "precision": "Precision within the budget",
    "iou": "IoU within the budget",
    "precision-omega": "Precision \N{GREEK CAPITAL LETTER OMEGA}",
    "kept-whole": "Excerpts kept whole",
    "damage": "Fewest damaged chunks",
    "tokens": "Fewest tokens embedded",
}


def sweep_key(result: Analysis, questions: Sequence[Question]) -> tuple[Any, ...]:
    return (result.text, result.settings, tuple(questions))


class SweepPanel:
    """The sweep panel; ``apply_link`` applies a configuration's settings link."""

    def __init__(self, apply_link: Callable[[str], None], embeddings: Any = None) -> None:
        self.apply_link = apply_link
        self.embeddings = embeddings  # the model's vectors (app/embeddings.py), or None
        # the result and questions whose sweep waits for the model's vectors
        self.waiting: tuple[Analysis, tuple[Question, ...]] | None = None
        self.cache: dict[tuple[Any, ...], Sweep] = {}
        self.shown: Sweep | None = None
        self.objective = DEFAULT_OBJECTIVE  # Rank by
        self.source_name = ""
        self._click = create_proxy(self._picked)

    def wire(self) -> None:
        """The Rank by choices (the ranking follows at once, no sweep again), Download
        sweep, and the Pareto front's Use buttons."""
        chooser = by_id("sweep-rank-by")
        for name in OBJECTIVES:
            option = element("option", RANK_BY[name])
            option.value = name
            option.selected = name == DEFAULT_OBJECTIVE
            chooser.append(option)
        on(chooser, "change", lambda _e: self._rank_by(str(chooser.value)))
        on(by_id("sweep-download"), "click", lambda _e: self._download())
        on(by_id("sweep-front"), "click", self._use)

    def pending(self) -> None:
        """A new result: the sweep shown is of an older one until this one's is done (and
        an older one waiting for vectors waits no more)."""
        self.waiting = None
        by_id("app").dataset.sweep = "pending"
        by_id("sweep-panel").dataset.state = "pending"
        set_text("sweep-status", "Waiting for the comparison…")

    def work(self, result: Analysis, questions: Sequence[Question]) -> Iterator[None]:
        """The sweep of ``result``'s text and settings over ``questions``, in steps (from
        the cache at once when it was run for them), then shown."""
        key = sweep_key(result, questions)
        found = self.cache.get(key)
        self.waiting = None
        if found is None:
            document = Document(result.settings.source_name or None, result.text,
                                tuple(questions))  # fmt: skip
            if self.embeddings is not None:
                ready = yield from self._vectors(result, document)
                if not ready:
                    return
            steps = sweep_steps([document], result.settings)
            progress = by_id("sweep-progress")
            while True:
                try:
                    done, total = next(steps)
                except StopIteration as end:
                    found = end.value
                    break
                except EmbeddingsPending as pending:  # vectors dropped meanwhile: ask again
                    self._wait(result, document.questions, pending.texts)
                    return
                progress.max = total
                progress.value = done
                set_text("sweep-status", f"Sweeping: {number(done)} of {number(total)} "
                         "configurations…")  # fmt: skip
                yield
            assert found is not None
            self.cache[key] = found
            while len(self.cache) > CACHED:
                del self.cache[next(iter(self.cache))]
        self.source_name = result.settings.source_name
        self.show(self._ranked(found))

    def _ranked(self, found: Sweep) -> Sweep:
        """``found`` ranked by the objective chosen (the cache keeps the default's)."""
        if self.objective == DEFAULT_OBJECTIVE:
            return found
        return rank(found.lines, self.objective, found.objective["budget"])

    def _rank_by(self, objective: str) -> None:
        """Rank by changed: the sweep shown ranked again, as ``--objective`` ranks it."""
        self.objective = objective
        if self.shown is not None:
            self.show(rank(self.shown.lines, objective, self.shown.objective["budget"]))

    def _vectors(self, result: Analysis, document: Document) -> Generator[None, None, bool]:
        """Whether every text the sweep embeds has its vector (none needed with BM25);
        if not, the model's worker is asked for those missing and the panel says it waits
        (or that the model is unavailable)."""
        if not dense_retrieval(result):
            return True
        set_text("sweep-status", "Listing the chunks the model will embed…")
        wanted = yield from sweep_texts([document], result.settings)
        missing = self.embeddings.without_vectors(wanted)
        if not missing:
            return True
        by_id("app").dataset.sweep = "waiting"
        if not self.embeddings.available():
            set_text("sweep-status", "The sweep ranks with the embedding model, which is "
                     "unavailable: choose Lexical retrieval, or Retry the model.")  # fmt: skip
            return False
        self._wait(result, document.questions, missing)
        return False

    def _wait(
        self, result: Analysis, questions: tuple[Question, ...], texts: Sequence[str]
    ) -> None:
        by_id("app").dataset.sweep = "waiting"
        self.waiting = (result, questions)
        self.embeddings.request(texts)
        set_text("sweep-status", f"Waiting for the embedding model: {number(len(texts))} "
                 "texts of the sweep to embed…")  # fmt: skip

    def resume(self) -> Iterator[None]:
        """The model's vectors have arrived: the sweep that waited for them, if any."""
        if self.waiting is None:
            return iter(())
        result, questions = self.waiting
        return self.work(result, questions)

    def show(self, found: Sweep) -> None:
        self.shown = found
        panel = by_id("sweep-panel")
        by_key = {line["configuration"]: line for line in found.lines}
        progress = by_id("sweep-progress")
        progress.max = progress.value = 1
        questions = bool(found.objective["questions"])
        set_text(
            "sweep-status",
            f"{number(len(found.lines))} configurations swept."
            + ("" if questions else " The verdict needs questions (Evidence check): ranked by "
               "damage only."),
        )  # fmt: skip
        set_text("sweep-objective", f"Ranked by {found.objective['label']}.")
        verdicts = [element("li", sentence) for sentence in found.verdicts]
        by_id("sweep-verdicts").replaceChildren(*verdicts)
        front = []
        for key in found.pareto:
            line = by_key[key]
            item = element("li", _point_words(line, questions) + " ")
            use = element("button", "Use")
            use.type = "button"
            use.dataset.link = line["link"]
            use.setAttribute("aria-label", f"Use {line['name']}")
            item.append(use)
            front.append(item)
        by_id("sweep-front").replaceChildren(*front)
        self._chart(found, by_key, questions)
        panel.dataset.top = found.ranking[0] if found.ranking else ""
        panel.dataset.pareto = " ".join(found.pareto)
        panel.dataset.state = "ready"
        by_id("sweep-download").disabled = False
        by_id("app").dataset.sweep = "ready"

    def redraw(self) -> None:
        """The colour scheme changed."""
        if self.shown is not None:
            self.show(self.shown)

    def _chart(self, found: Sweep, by_key: dict[str, Any], questions: bool) -> None:
        c = theme.colours()
        lines = [line for line in found.lines if line["error"] is None]
        figure = "recall" if questions else "damaged_chunks"
        title = (
            f"Recall within {number(found.objective['budget'])} tokens"
            if questions
            else "Damaged chunks"
        )
        front = [by_key[k] for k in found.pareto]
        data = [
            {
                "type": "scatter",
                "mode": "markers",
                "x": [line["tokens_embedded"] for line in lines],
                "y": [line[figure] for line in lines],
                "customdata": [line["link"] for line in lines],
                "text": [line["name"] for line in lines],
                "hovertemplate": "%{text}<br>%{x:,} tokens embedded<br>%{y}<extra></extra>",
                "marker": {"color": c["bar"], "size": 8},
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "x": [line["tokens_embedded"] for line in front],
                "y": [line[figure] for line in front],
                "customdata": [line["link"] for line in front],
                "text": [line["name"] for line in front],
                "hovertemplate": "%{text} (Pareto front)<br>%{x:,} tokens embedded<br>%{y}"
                "<extra></extra>",
                "line": {"color": c["current"], "shape": "hv"},
                "marker": {"color": c["current"], "size": 10},
            },
        ]
        layout = theme.layout(
            c,
            left=56,
            xaxis={"title": {"text": "Tokens embedded"}},
            yaxis={"title": {"text": title}, "rangemode": "tozero"},
        )
        config = {"displayModeBar": False, "responsive": True}
        window.ciSweep.draw(
            by_id("sweep-chart"),
            window.JSON.parse(json.dumps(data, ensure_ascii=False)),
            window.JSON.parse(json.dumps(layout)),
            window.JSON.parse(json.dumps(config)),
            self._click,
        )
        words = "; ".join(_point_words(line, questions) for line in front)
        set_text("sweep-chart-text", f"Pareto front, fewest tokens first: {words}.")

    def _picked(self, link: object) -> None:
        """A point of the chart clicked: its settings applied."""
        if isinstance(link, str) and link.startswith("#"):
            self.apply_link(link)

    def _use(self, event: Any) -> None:
        link = event.target.dataset.link
        if link:
            self.apply_link(str(link))

    def _download(self) -> None:
        if self.shown is None:
            return
        name = f"{self.source_name or 'document'}-sweep.jsonl"
        render().download(self.shown.jsonl(), name, "application/x-ndjson;charset=utf-8")


def _point_words(line: dict[str, Any], questions: bool) -> str:
    tokens = f"{number(line['tokens_embedded'])} tokens embedded"
    if questions:
        return f"{line['name']}: recall {line['recall']:.3f}, {tokens}"
    return f"{line['name']}: {number(line['damaged_chunks'])} damaged chunks, {tokens}"

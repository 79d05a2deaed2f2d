"""The sweep (docs/decisions.md "Context budget"): which splitter, which size, over the
user's own documents and questions, and a verdict.

Every comparison row (``pipeline/compare.py``'s ``row_settings``) but Semantic mode's, which
needs the embedding model, is run at a ladder of
sizes, 1/2, 1, 3/2, 2 and 3 times the current size in the current unit (clamped to
1 … 10 000), with overlap 0 and the row's own overlap (where its mode uses one; an overlap
not below the size is skipped; configurations with the same effective settings are run
once, under the first row naming them). Each configuration is cut, assessed for damage and
given the Evidence check, its retrieval within the context budget (the settings' Budget,
else ``DEFAULT_BUDGET`` tokens), over every document; the figures are pooled: counts
summed, means over every matched question of every document.

The ranking follows an objective: by default evidence recall within the budget (higher
first), ties to fewer damaged chunks, then fewer tokens embedded, then the configuration's
order. ``--objective`` picks the first key; the default keys follow it. Without questions
the ranking is by damage only (damaged chunks, then tokens embedded) and says so. The top
three get a sentence each.

``sweep_steps`` does it in small steps (a ``(done, total)`` pair at each pause) for the
page; ``sweep`` runs them at once (the CLI); both give the same result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from ..config.links import settings_to_fragment
from ..config.settings import Settings
from ..engine.errors import SettingError
from ..engine.limits import DEFAULT_BUDGET, MAX_CHUNK_SIZE, MAX_CHUNKS, MAX_CODE_POINTS
from ..engine.steps import finish, relay
from ..measures.damage import SUMMARY_KEYS
from ..measures.evidence import Question, evidence_steps
from ..measures.ranking import needs_model
from .compare import Row, row_settings, settings_row_steps

# the size ladder: multiples of the current size, as (numerator, denominator)
LADDER = ((1, 2), (1, 1), (3, 2), (2, 1), (3, 1))


@dataclass(frozen=True)
class Document:
    """A document of the sweep: its name (a source name, or None), text and questions."""

    name: str | None
    text: str
    questions: tuple[Question, ...] = ()


@dataclass(frozen=True)
class Configuration:
    """One point of the sweep: a comparison row at one size and overlap."""

    key: str  # "<row key>/<size>/<overlap>", unique in a sweep
    row: str  # the comparison row's key
    label: str  # the comparison row's label
    settings: Settings

    @property
    def name(self) -> str:
        """The configuration in words: "Recursive (generic), 600 code points, overlap 50"."""
        s = self.settings
        unit = "tokens" if s.size_unit == "tokens" or s.mode_info.tokens_only else "code points"
        overlap = f", overlap {s.overlap:,}" if s.mode_info.uses_overlap else ""
        return f"{self.label}, {s.chunk_size:,} {unit}{overlap}"


def ladder_sizes(size: int) -> list[int]:
    """1/2, 1, 3/2, 2 and 3 times ``size``, rounded down, clamped to 1 … 10 000, duplicates
    merged, ascending."""
    return sorted({min(max(size * n // d, 1), MAX_CHUNK_SIZE) for n, d in LADDER})


# Rows whose mode needs the embedding model are left out of the sweep: every size of the
# ladder would embed the whole text again, and the page could not finish the sweep before
# the model has loaded; the comparison shows their row at the current size.
MODEL_ROWS = frozenset({"semantic"})


def configurations(settings: Settings) -> list[Configuration]:
    """Every configuration of the sweep for ``settings``, rows in the comparison's order,
    then sizes ascending, then overlap 0 before the row's own."""
    out: list[Configuration] = []
    seen: set[str] = set()
    for key, label, row in row_settings(settings):
        if key in MODEL_ROWS:
            continue
        overlaps = (0, row.chunk_overlap) if row.mode_info.uses_overlap else (0,)
        for size in ladder_sizes(settings.chunk_size):
            for overlap in dict.fromkeys(overlaps):
                if overlap >= size and row.mode_info.uses_overlap:
                    continue
                if not row.mode_info.uses_overlap:
                    overlap = min(row.chunk_overlap, MAX_CHUNK_SIZE - 1)
                config = row.replace(chunk_size=size, chunk_overlap=overlap)
                same = json.dumps(config.record_settings(), sort_keys=True, ensure_ascii=False)
                if same in seen:
                    continue
                seen.add(same)
                effective = config.overlap
                out.append(Configuration(f"{key}/{size}/{effective}", key, label, config))
    return out


@dataclass
class Figures:
    """A configuration's figures pooled over the documents."""

    configuration: Configuration
    budget: int
    documents: int = 0
    chunks: int = 0
    tokens_embedded: int = 0
    over_limit: bool = False
    error: str | None = None
    questions: int = 0
    unmatched: int = 0
    excerpts: int = 0
    kept_whole: int = 0
    damaged_chunks: int = 0
    code_blocks: int = 0
    tables: int = 0
    _damage: dict[str, int] | None = None
    _omega: float = 0.0
    _recall: float = 0.0
    _precision: float = 0.0
    _iou: float = 0.0
    _taken: int = 0
    _tokens_taken: int = 0
    _scored: int = 0  # matched questions with a retrieval

    def add(self, row: Row, questions: Sequence[Question]) -> Generator[None, None, None]:
        """Add one document's row (and its Evidence check, in steps)."""
        self.documents += 1
        self.chunks += row.count
        self.over_limit = self.over_limit or row.over_limit
        if row.error is not None or row.analysis is None or row.damage is None:
            self.error = self.error or row.error or "No chunks."
            self.questions += len(questions)
            self.unmatched += len(questions)
            return
        analysis = row.analysis
        self.tokens_embedded += sum(analysis.tokens)
        damage = row.damage
        self.damaged_chunks += damage.damaged
        self.code_blocks += damage.code_blocks
        self.tables += damage.tables
        figures = damage.figures()
        if self._damage is None:
            self._damage = dict.fromkeys(SUMMARY_KEYS, 0)
        for key in SUMMARY_KEYS:
            self._damage[key] += figures[key]
        found = None
        if questions:
            found = yield from evidence_steps(analysis, questions, budget=self.budget)
        self.questions += len(questions)
        if found is None:
            self.unmatched += len(questions)
            return
        matched = found.matched
        self.unmatched += len(questions) - len(matched)
        for result in matched:
            self.excerpts += len(result.excerpts)
            self.kept_whole += sum(1 for e in result.excerpts if e.kept_whole)
            self._omega += result.precision_omega or 0.0
            r = result.retrieval
            if r is not None:
                self._scored += 1
                self._recall += r.recall
                self._precision += r.precision
                self._iou += r.iou
                self._taken += len(r.chunks)
                self._tokens_taken += r.tokens

    @property
    def matched(self) -> int:
        return self.questions - self.unmatched

    def _mean(self, total: float, count: int) -> float | None:
        return total / count if count and self.error is None else None

    @property
    def recall(self) -> float | None:
        return self._mean(self._recall, self._scored)

    def as_json(self) -> dict[str, Any]:
        """The configuration's ``--format sweep`` line."""
        c = self.configuration
        ok = self.error is None
        return {
            "configuration": c.key,
            "row": c.label,
            "row_key": c.row,
            "name": c.name,
            "chunk_size": c.settings.chunk_size,
            "chunk_overlap": c.settings.overlap,
            "settings": c.settings.record_settings(),
            "link": settings_to_fragment(c.settings),
            "documents": self.documents,
            "chunks": self.chunks,
            "over_limit": self.over_limit,
            "error": self.error,
            "tokens_embedded": self.tokens_embedded if ok else None,
            "questions": self.questions,
            "unmatched": self.unmatched,
            "excerpts": self.excerpts if ok else None,
            "kept_whole": self.kept_whole if ok else None,
            "precision_omega": self._mean(self._omega, self.matched),
            "budget": self.budget,
            "recall": self.recall,
            "precision": self._mean(self._precision, self._scored),
            "iou": self._mean(self._iou, self._scored),
            "chunks_retrieved": self._mean(self._taken, self._scored),
            "tokens_retrieved": self._mean(self._tokens_taken, self._scored),
            "damaged_chunks": self.damaged_chunks if ok else None,
            "damage": self._damage if ok else None,
        }


# -- the ranking

# objective key -> (the line's figure, True when higher is better, words)
OBJECTIVES: dict[str, tuple[str, bool, str]] = {
    "recall": ("recall", True, "evidence recall within {budget} tokens"),
    "precision": ("precision", True, "evidence precision within {budget} tokens"),
    "iou": ("iou", True, "IoU within {budget} tokens"),
    "precision-omega": ("precision_omega", True, "Precision Ω"),
    "kept-whole": ("kept_whole", True, "excerpts kept whole"),
    "damage": ("damaged_chunks", False, "fewer damaged chunks"),
    "tokens": ("tokens_embedded", False, "fewer tokens embedded"),
}
DEFAULT_OBJECTIVE = "recall"
_TIES = ("recall", "damage", "tokens")
_WITHOUT_QUESTIONS = ("damage", "tokens")


def check_objective(name: str) -> str:
    if name not in OBJECTIVES:
        raise SettingError(
            f"Objective must be one of {', '.join(OBJECTIVES)} (got {name[:40]!r}).",
            field="objective",
        )
    return name


def objective_keys(objective: str, with_questions: bool) -> list[str]:
    """The ranking's keys: ``objective`` first, then the default ones (the evidence keys
    dropped without questions)."""
    check_objective(objective)
    defaults = _TIES if with_questions else _WITHOUT_QUESTIONS
    keys = [objective, *(k for k in defaults if k != objective)]
    if not with_questions:
        keys = [k for k in keys if OBJECTIVES[k][0] in ("damaged_chunks", "tokens_embedded")]
    return keys


def _sort_key(line: dict[str, Any], keys: Sequence[str], position: int) -> tuple[Any, ...]:
    out: list[Any] = [line["error"] is not None]  # configurations without figures last
    for key in keys:
        figure, higher, _words = OBJECTIVES[key]
        value = line[figure]
        out += [value is None, 0 if value is None else (-value if higher else value)]
    return (*out, position)


@dataclass(frozen=True)
class Sweep:
    """Every configuration's figures, the ranking and the verdict."""

    lines: tuple[dict[str, Any], ...]
    ranking: tuple[str, ...]  # configuration keys, best first
    objective: dict[str, Any]
    verdicts: tuple[str, ...]
    pareto: tuple[str, ...] = ()  # the front, fewest tokens embedded first

    def ranking_line(self) -> dict[str, Any]:
        return {"ranking": list(self.ranking), "objective": self.objective,
                "verdicts": list(self.verdicts), "pareto": list(self.pareto)}  # fmt: skip

    def jsonl(self) -> str:
        """``--format sweep``: one line per configuration, then the ranking line (the
        page's "Download sweep" is this text)."""
        rows = [*self.lines, self.ranking_line()]
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def rank(lines: Sequence[dict[str, Any]], objective: str, budget: int) -> Sweep:
    with_questions = any(line["questions"] - line["unmatched"] > 0 for line in lines)
    keys = objective_keys(objective, with_questions)
    order = sorted(range(len(lines)), key=lambda i: _sort_key(lines[i], keys, i))
    shown = f"{budget:,}"
    words = [OBJECTIVES[k][2].format(budget=shown) for k in keys]
    label = ", then ".join(words)
    if not with_questions:
        label = f"damage only (the verdict needs questions): {label}"
    ranked = [lines[i] for i in order]
    described = {
        "keys": keys,
        "label": label,
        "budget": budget,
        "questions": with_questions,
    }
    verdicts = tuple(verdict(line, with_questions) for line in ranked[:3] if line["error"] is None)
    front = pareto_front(lines, with_questions)
    ranking = tuple(r["configuration"] for r in ranked)
    return Sweep(tuple(lines), ranking, described, verdicts, front)


def pareto_front(lines: Sequence[dict[str, Any]], with_questions: bool) -> tuple[str, ...]:
    """The configurations no other beats on both axes of the sweep's chart: fewer (or as
    few) tokens embedded and a better (or as good) value, strictly better on one; the value
    is recall within the budget (higher is better), or without questions damaged chunks
    (fewer is better). Fewest tokens first."""
    figure = "recall" if with_questions else "damaged_chunks"
    sign = -1 if with_questions else 1
    points = [
        (line["tokens_embedded"], sign * line[figure], line["configuration"])
        for line in lines
        if line["error"] is None and line[figure] is not None
    ]
    front: list[str] = []
    best: float | None = None
    # by tokens, then value: a point is on the front when its value beats every point
    # with fewer tokens (the first of equal points only)
    for _tokens, value, key in sorted(points, key=lambda p: (p[0], p[1])):
        if best is None or value < best:
            front.append(key)
            best = value
    return tuple(front)


def _plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def verdict(line: dict[str, Any], with_questions: bool) -> str:
    """A configuration in one sentence: "Recursive (generic), 600 code points, overlap 50:
    keeps 38 of 39 excerpts whole, finds 92 % of the evidence within 1,000 tokens, cuts no
    code block, damages 3 of 40 chunks."""
    parts = []
    if with_questions:
        parts.append(f"keeps {line['kept_whole']:,} of {line['excerpts']:,} excerpts whole")
        recall = line["recall"] if line["recall"] is not None else 0.0
        parts.append(
            f"finds {round(100 * recall)} % of the evidence within {line['budget']:,} tokens"
        )
    damage = line["damage"]
    if damage["code_blocks"]:
        cut = damage["code_blocks_cut"]
        parts.append(
            "cuts no code block" if not cut else f"cuts {_plural(cut, 'code block', 'code blocks')}"
        )
    if damage["tables"]:
        cut = damage["tables_cut"]
        parts.append("cuts no table" if not cut else f"cuts {_plural(cut, 'table', 'tables')}")
    parts.append(
        f"damages {line['damaged_chunks']:,} of {_plural(line['chunks'], 'chunk', 'chunks')}"
    )
    parts.append(f"embeds {line['tokens_embedded']:,} tokens")
    return f"{line['name']}: {', '.join(parts)}."


# -- running it


def _pause(done: int, total: int) -> Callable[[object], tuple[int, int]]:
    return lambda _item: (done, total)


def sweep_steps(
    documents: Sequence[Document],
    settings: Settings,
    *,
    objective: str = DEFAULT_OBJECTIVE,
    max_chunks: int | None = MAX_CHUNKS,
    max_code_points: int | None = MAX_CODE_POINTS,
) -> Generator[tuple[int, int], None, Sweep]:
    """The sweep in small steps, yielding (configurations done, configurations) at each
    pause; its return value is the ``Sweep``. Each configuration's figures depend on it
    alone: they equal running it by itself."""
    check_objective(objective)
    budget = settings.budget or DEFAULT_BUDGET
    configs = configurations(settings)
    total = len(configs) * max(1, len(documents))
    figures = {c.key: Figures(c, budget) for c in configs}
    wanted = [(c.key, c.label, c.settings, False) for c in configs]
    done = 0
    for document in documents:
        steps = settings_row_steps(
            document.text, wanted, max_chunks=max_chunks, max_code_points=max_code_points
        )
        for row in steps:
            if row is None:
                yield (done, total)
                continue
            yield from relay(figures[row.key].add(row, document.questions), _pause(done, total))
            done += 1
            yield (done, total)
    lines = [figures[c.key].as_json() for c in configs]
    return rank(lines, objective, budget)


def sweep_texts(
    documents: Sequence[Document],
    settings: Settings,
    *,
    max_chunks: int | None = MAX_CHUNKS,
    max_code_points: int | None = MAX_CODE_POINTS,
) -> Generator[None, None, list[str]]:
    """What the sweep has embedded with semantic or hybrid retrieval (nothing with BM25, or
    without questions): each document's questions and every non-empty chunk text of every
    configuration, once each, in the order met; in steps, one configuration each. The page
    has these embedded by its worker before it sweeps."""
    if not needs_model(settings.retrieval):
        return []
    found: dict[str, None] = {}
    wanted = [(c.key, c.label, c.settings, False) for c in configurations(settings)]
    for document in documents:
        if not document.questions:
            continue
        found.update(dict.fromkeys(q.text for q in document.questions))
        steps = settings_row_steps(
            document.text, wanted, max_chunks=max_chunks, max_code_points=max_code_points
        )
        for row in steps:
            if row is not None and row.analysis is not None:
                text, spans = row.analysis.text, row.analysis.spans
                found.update(dict.fromkeys(text[s[0] : s[1]] for s in spans if s[1] > s[0]))
            yield
    return list(found)


def sweep(documents: Sequence[Document], settings: Settings, **options: Any) -> Sweep:
    """``sweep_steps`` at once."""
    return finish(sweep_steps(documents, settings, **options))

"""The Evidence check (docs/decisions.md "Evidence check"): does the answer survive the cut?

A question comes with the excerpts of the document that answer it. Given a result's spans,
this module says, per question and as means over the matched questions:

- **kept whole**: excerpts lying inside at least one chunk;
- **one chunk answers**: every excerpt inside one single chunk;
- **chunks to read**: the fewest chunks covering every code point of the excerpts (None,
  "not covered", when some evidence lies in no chunk: trimmed edge whitespace);
- **Precision Ω** (Chroma's ``chunking_evaluation``, ``_full_precision_score``): evidence
  code points over the code points of the chunks holding evidence, plus the evidence in no
  chunk: |∪(E ∩ H)| / |∪H ∪ (E outside every chunk)|;
- **lexical retrieval at k**: the chunks ranked for the question by BM25 Okapi
  (``bm25.py``), the top k (R) scored as ``_scores_from_dataset_and_retrievals`` scores
  them: recall = |∪(E ∩ R)| / Σ|E|, precision = |∪(E ∩ R)| / Σ|R|, IoU = |∪(E ∩ R)| /
  (Σ|R| + Σ|e outside R|); the 1-based rank of the first of them holding evidence, and the
  tokens the k chunks cost;
- **retrieval within a context budget** (docs/decisions.md "Context budget"): instead of the top k,
  the chunks taken from the ranking in rank order while the running sum of their tokens
  stays within the budget, the first-ranked always (``within_budget``, a function over an
  already-ranked list, so it composes with any ranking); the same scores over them.

E are the excerpt ranges, H the chunks *holding* evidence: sharing at least one code point
with an excerpt (Chroma's code also counts a chunk that only touches one, ending where it
starts; here it does not). Σ sums lengths (a range counted as often as it appears, as
reading it costs); ∪ is the union of ranges; everything is in code points, end-exclusive.

Anchoring: an excerpt whose ``content`` equals ``text[start:end]`` is used as is; otherwise
it is located by its content, the occurrence nearest its ``start`` (``moved``); found
nowhere, the question is *unmatched* and left out of the figures, never dropped. After an
edit (``follow_edit``) the old start is first carried through the edit, so an excerpt
before or after the edited range keeps its place even when its text occurs elsewhere too.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from ..embedding import DIMENSIONS, Embedder, Vector
from ..engine.steps import finish
from .bm25 import BM25, bm25_tokens
from .ranking import chunk_vectors, current_embedder, needs_model, ranking

DEFAULT_TOP_K = 5

Range = tuple[int, int]


@dataclass(frozen=True)
class Excerpt:
    """A passage answering a question: ``content`` and where it was last seen."""

    content: str
    start: int
    end: int


@dataclass(frozen=True)
class Question:
    """A question and its excerpts. ``line`` is where a file held it (0: typed)."""

    text: str
    excerpts: tuple[Excerpt, ...]
    corpus_id: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Placed:
    """An excerpt located in the current text: ``found`` at ``[start, end)`` (``moved`` when
    not at the offsets it came with), or not found (``start``/``end`` its last offsets)."""

    content: str
    start: int
    end: int
    found: bool
    moved: bool = False


def locate(text: str, content: str, near: int) -> int | None:
    """Where ``content`` starts in ``text``: the occurrence nearest ``near`` (the earlier
    of two as near), or None."""
    if not content:
        return None
    near = max(0, min(near, len(text)))
    after = text.find(content, near)
    before = text.rfind(content, 0, near - 1 + len(content)) if near > 0 else -1
    if before < 0:
        return None if after < 0 else after
    if after < 0 or near - before <= after - near:
        return before
    return after


def place(text: str, excerpt: Excerpt) -> Placed:
    """``excerpt`` in ``text``: as is when its offsets still hold its content, else the
    occurrence nearest its start."""
    start, end, content = excerpt.start, excerpt.end, excerpt.content
    # a shortcut: where the offsets still hold the content, ``locate`` nearest ``start``
    # finds it there too (at distance 0, so unmoved)
    # mutation: equivalent <= -> < — start == 0 or end == len(text) then goes to locate,
    # which finds the same place
    if 0 <= start < end <= len(text) and text[start:end] == content:
        return Placed(content, start, end, True)
    found = locate(text, content, start)
    if found is None:
        return Placed(content, start, end, False)
    return Placed(content, found, found + len(content), True, found != start)


def anchor(text: str, question: Question) -> tuple[Placed, ...]:
    """Every excerpt of ``question`` placed in ``text``."""
    return tuple(place(text, e) for e in question.excerpts)


def edit_between(old: str, new: str) -> tuple[int, int, int]:
    """The edit turning ``old`` into ``new`` as (start, old end, new end): the common
    prefix and suffix are unchanged."""
    limit = min(len(old), len(new))
    lo, hi = 0, limit  # longest common prefix, by bisection over slice comparisons
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, limit - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid :] == new[len(new) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return prefix, len(old) - lo, len(new) - lo


def follow_edit(old: str, new: str, questions: Sequence[Question]) -> list[Question]:
    """``questions`` with every excerpt re-anchored after ``old`` became ``new``. An excerpt
    after the edit moves with the text; one the edit touched is located again by content
    nearest its old start; one found nowhere keeps its last offsets and content (it is
    shown as not in the text, and found again if its text comes back)."""
    if old == new:
        return list(questions)
    start, old_end, new_end = edit_between(old, new)
    shift = new_end - old_end
    out = []
    for q in questions:
        excerpts = []
        for e in q.excerpts:
            if e.end <= start:
                near = e.start
            elif e.start >= old_end:
                near = e.start + shift
            else:
                near = min(e.start, new_end)
            moved = Excerpt(e.content, near, near + len(e.content))
            placed = place(new, moved)
            excerpts.append(Excerpt(e.content, placed.start, placed.end) if placed.found else e)
        out.append(Question(q.text, tuple(excerpts), q.corpus_id, q.line))
    return out


# -- figures


def within_budget(
    ranked: Sequence[int], tokens: Callable[[int], int], budget: int
) -> tuple[int, ...]:
    """The chunks a context budget takes from ``ranked`` (chunk indexes, best first): in
    rank order while the running sum of ``tokens(i)`` stays at most ``budget``; the first
    at which it would pass ends the reading. The first-ranked chunk is always taken, so a
    budget smaller than it still reads one chunk."""
    taken: list[int] = []
    total = 0
    for i in ranked:
        total += tokens(i)
        if taken and total > budget:
            break
        taken.append(i)
    return tuple(taken)


@dataclass(frozen=True)
class Retrieval:
    k: int  # with a budget: the number of chunks taken
    chunks: tuple[int, ...]  # indexes, in rank order
    recall: float
    precision: float
    iou: float
    first_hit_rank: int | None
    tokens: int
    budget: int | None = None
    method: str = "bm25"

    def as_json(self) -> dict[str, Any]:
        budget = {} if self.budget is None else {"budget": self.budget}
        return {
            "method": self.method,
            **budget,
            "k": self.k,
            "chunks": list(self.chunks),
            "recall": self.recall,
            "precision": self.precision,
            "iou": self.iou,
            "first_hit_rank": self.first_hit_rank,
            "tokens": self.tokens,
        }


@dataclass(frozen=True)
class ExcerptResult:
    placed: Placed
    kept_whole: bool | None  # None when the question is unmatched
    chunks: tuple[int, ...]  # indexes of the chunks holding it

    def as_json(self) -> dict[str, Any]:
        p = self.placed
        return {
            "start": p.start,
            "end": p.end,
            "found": p.found,
            "moved": p.moved,
            "kept_whole": self.kept_whole,
            "chunks": list(self.chunks),
        }


@dataclass(frozen=True)
class QuestionResult:
    question: Question
    excerpts: tuple[ExcerptResult, ...]
    matched: bool
    one_chunk: bool | None
    chunks_to_read: int | None
    precision_omega: float | None
    retrieval: Retrieval | None

    @property
    def cut(self) -> tuple[int, ...]:
        """Positions (in ``excerpts``) of the excerpts no single chunk holds whole."""
        return tuple(i for i, e in enumerate(self.excerpts) if e.kept_whole is False)

    def as_json(self, source: str | None = None) -> dict[str, Any]:
        """The question's ``--format evidence`` line."""
        return {
            "source": source,
            "question": self.question.text,
            "corpus_id": self.question.corpus_id,
            "matched": self.matched,
            "excerpts": [e.as_json() for e in self.excerpts],
            "one_chunk": self.one_chunk,
            "chunks_to_read": self.chunks_to_read,
            "precision_omega": self.precision_omega,
            "retrieval": self.retrieval.as_json() if self.retrieval else None,
        }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class Evidence:
    """The Evidence check of one result: per question, and the means (``summary``)."""

    k: int
    results: tuple[QuestionResult, ...]
    budget: int | None = None
    method: str = "bm25"

    @property
    def matched(self) -> tuple[QuestionResult, ...]:
        return tuple(r for r in self.results if r.matched)

    def summary(self) -> dict[str, Any]:
        """The ``evidence`` object of ``--format summary`` and of every compare row: counts
        as integers, means over the matched questions (None when there are none)."""
        matched = self.matched
        excerpts = [e for r in matched for e in r.excerpts]
        covered = [r.chunks_to_read for r in matched if r.chunks_to_read is not None]
        found = [r.retrieval for r in matched if r.retrieval is not None]
        hits = [x.first_hit_rank for x in found if x.first_hit_rank is not None]
        depth: dict[str, Any] = {"k": self.k}
        if self.budget is not None:  # k varies per question: its mean, beside the budget
            depth = {"budget": self.budget, "k": _mean([len(x.chunks) for x in found])}
        return {
            "questions": len(self.results),
            "unmatched": len(self.results) - len(matched),
            "excerpts": len(excerpts),
            "kept_whole": sum(1 for e in excerpts if e.kept_whole),
            "one_chunk": sum(1 for r in matched if r.one_chunk),
            "chunks_to_read": _mean(covered),
            "not_covered": len(matched) - len(covered),
            "precision_omega": _mean([r.precision_omega or 0.0 for r in matched]),
            "retrieval": {
                "method": self.method,
                **depth,
                "recall": _mean([x.recall for x in found]),
                "precision": _mean([x.precision for x in found]),
                "iou": _mean([x.iou for x in found]),
                "first_hit_rank": _mean(hits),
                "hits": len(hits),
                "tokens": _mean([x.tokens for x in found]),
            },
        }


def _union(ranges: Sequence[Range]) -> list[Range]:
    """The union of ``ranges`` as sorted, disjoint, non-touching ranges."""
    out: list[Range] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            if end > out[-1][1]:
                out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def _size(ranges: Sequence[Range]) -> int:
    return sum(end - start for start, end in ranges)


def _intersection(a: Sequence[Range], b: Sequence[Range]) -> list[Range]:
    """The intersection of two unions (sorted, disjoint)."""
    out: list[Range] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < end:
            out.append((start, end))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


class ChunkRanges:
    """A result's chunk ranges (starts nondecreasing), with what the figures look up."""

    __slots__ = ("_bm25", "_cover_ends", "_vectors", "cover", "ends", "reach", "spans", "starts")

    def __init__(self, spans: Sequence[Range]) -> None:
        self.spans = [(s[0], s[1]) for s in spans]
        self.starts = [s for s, _e in self.spans]
        self.ends = [e for _s, e in self.spans]
        self.reach = list(accumulate(self.ends, max))  # furthest end among chunks 0..i
        self.cover = _union(self.spans)
        self._cover_ends = [e for _s, e in self.cover]
        self._bm25: BM25 | None = None
        self._vectors: tuple[Embedder, list[Vector | None]] | None = None

    def covered(self, target: Sequence[Range]) -> list[Range]:
        """The parts of ``target`` (a union) that some chunk covers."""
        out: list[Range] = []
        cover = self.cover
        for start, end in target:
            i = bisect_right(self._cover_ends, start)
            while i < len(cover) and cover[i][0] < end:
                lo, hi = max(start, cover[i][0]), min(end, cover[i][1])
                if lo < hi:
                    out.append((lo, hi))
                i += 1
        return out

    def holding(self, start: int, end: int) -> list[int]:
        """Indexes of the chunks sharing at least one code point with ``[start, end)``."""
        lo = bisect_right(self.reach, start)
        hi = bisect_left(self.starts, end)
        return [i for i in range(lo, hi) if self.ends[i] > start]

    def inside_one(self, start: int, end: int) -> bool:
        """Whether one chunk's range holds all of ``[start, end)``."""
        j = bisect_right(self.starts, start)
        return j > 0 and self.reach[j - 1] >= end

    def fewest_covering(self, target: Sequence[Range]) -> int | None:
        """The fewest chunks covering every code point of ``target`` (a union), by the
        greedy rule (from the first uncovered point, take the chunk starting at or before
        it that reaches furthest), or None when some point lies in no chunk."""
        count = 0
        t = 0
        point = target[0][0] if target else 0
        while True:
            while t < len(target) and target[t][1] <= point:
                t += 1
            if t == len(target):
                return count
            point = max(point, target[t][0])
            j = bisect_right(self.starts, point)
            reach = self.reach[j - 1] if j else point
            if reach <= point:
                return None
            count += 1
            point = reach

    def bm25(self, text: str) -> BM25:
        """The BM25 index of the chunks' texts, built once."""
        for _ in self.bm25_steps(text):
            pass
        assert self._bm25 is not None
        return self._bm25

    def bm25_steps(self, text: str, per_step: int = 250) -> Iterator[None]:
        """Build the BM25 index (if not built yet), tokenizing ``per_step`` chunks a step."""
        if self._bm25 is not None:
            return
        documents: list[list[str]] = []
        for first in range(0, len(self.spans), per_step):
            if first:
                yield
            documents += [bm25_tokens(text[s:e]) for s, e in self.spans[first : first + per_step]]
        self._bm25 = BM25(documents)

    def vectors(self, text: str, embedder: Embedder) -> list[Vector | None]:
        """The chunks' embeddings (None for an empty chunk), computed once per embedder:
        another embedder (the page hands a new one when more vectors have arrived, its
        earlier answers having been stand-ins) asks again."""
        if self._vectors is None or self._vectors[0] is not embedder:
            vectors = chunk_vectors([text[s:e] for s, e in self.spans], embedder)
            self._vectors = (embedder, vectors)
        return self._vectors[1]


def check_evidence(
    text: str,
    spans: Sequence[Range] | ChunkRanges,
    questions: Sequence[Question],
    *,
    k: int = DEFAULT_TOP_K,
    tokens: Callable[[int], int] | None = None,
    budget: int | None = None,
    method: str = "bm25",
    embedder: Embedder | None = None,
) -> Evidence:
    """The Evidence check of the chunks ``spans`` of ``text`` for ``questions``.

    ``tokens(i)`` is chunk i's token count in the chosen tokenizer (0 without it). With a
    ``budget`` (tokens), retrieval takes chunks within it instead of the top ``k``.
    ``method`` ranks the chunks (``ranking.py``); dense and hybrid embed the chunks and the
    questions with ``embedder`` (default: the one ``ranking.use_embedder`` set)."""
    if budget is not None and tokens is None:
        raise ValueError("a context budget needs the chunks' token counts")
    chunks = spans if isinstance(spans, ChunkRanges) else ChunkRanges(spans)
    ranker = _Ranker(text, chunks, method, embedder, questions)
    results = tuple(_question(text, chunks, q, k, tokens, budget, ranker) for q in questions)
    return Evidence(k, results, budget, method)


class _Ranker:
    """A question's full ranking under ``method``; for dense and hybrid, the chunks' and
    the questions' vectors, embedded in one call each."""

    def __init__(
        self,
        text: str,
        chunks: ChunkRanges,
        method: str,
        embedder: Embedder | None,
        questions: Sequence[Question],
    ) -> None:
        self.text, self.chunks, self.method = text, chunks, method
        self.chunk_vectors: list[Vector | None] | None = None
        self.question_vectors: dict[str, Vector] = {}
        if needs_model(method) and chunks.spans:
            model = embedder if embedder is not None else current_embedder()
            self.chunk_vectors = chunks.vectors(text, model)
            asked = list(dict.fromkeys(q.text for q in questions if q.text))
            self.question_vectors = dict(zip(asked, model.embed(asked), strict=True))

    def ranked(self, question: str, depth: int | None) -> list[int]:
        vector = self.question_vectors.get(question)
        if needs_model(self.method) and vector is None:  # an empty question: no vector
            vector = (0.0,) * DIMENSIONS
        return ranking(
            self.method, question, self.chunks.bm25(self.text), self.chunk_vectors, vector, depth
        )


def _question(
    text: str,
    chunks: ChunkRanges,
    question: Question,
    k: int,
    tokens: Callable[[int], int] | None,
    budget: int | None,
    ranker: _Ranker,
) -> QuestionResult:
    placed = anchor(text, question)
    if not placed or not all(p.found for p in placed) or not chunks.spans:
        excerpts = tuple(ExcerptResult(p, None, ()) for p in placed)
        return QuestionResult(question, excerpts, False, None, None, None, None)
    ranges = [(p.start, p.end) for p in placed]
    holding = [chunks.holding(s, e) for s, e in ranges]
    excerpts = tuple(
        ExcerptResult(p, chunks.inside_one(p.start, p.end), tuple(h))
        for p, h in zip(placed, holding, strict=True)
    )
    evidence = _union(ranges)
    covered = chunks.covered(evidence)
    outside = _size(evidence) - _size(covered)
    held = _union([chunks.spans[i] for i in sorted({i for h in holding for i in h})])
    omega = _size(covered) / (_size(held) + outside)
    one = chunks.inside_one(min(s for s, _e in ranges), max(e for _s, e in ranges))
    return QuestionResult(
        question,
        excerpts,
        True,
        one,
        chunks.fewest_covering(evidence) if outside == 0 else None,
        omega,
        _retrieval(chunks, question, ranges, evidence, k, tokens, budget, ranker),
    )


def _retrieval(
    chunks: ChunkRanges,
    question: Question,
    ranges: Sequence[Range],
    evidence: Sequence[Range],
    k: int,
    tokens: Callable[[int], int] | None,
    budget: int | None,
    ranker: _Ranker,
) -> Retrieval:
    # the ranking first, then what the question takes of it: the top k or a budget
    ranked = ranker.ranked(question.text, k if budget is None else None)
    if budget is not None:
        assert tokens is not None
        ranked = list(within_budget(ranked, tokens, budget))
    found = score_retrieval(chunks, ranges, evidence, ranked, k, tokens, budget)
    return replace(found, method=ranker.method)


def score_retrieval(
    chunks: ChunkRanges,
    ranges: Sequence[Range],
    evidence: Sequence[Range],
    taken: Sequence[int],
    k: int,
    tokens: Callable[[int], int] | None,
    budget: int | None = None,
) -> Retrieval:
    """Chroma's scores of the chunks ``taken`` (indexes in rank order) for a question's
    excerpt ``ranges`` (``evidence``: their union), whatever ranked them."""
    retrieved = _union([chunks.spans[i] for i in taken])
    found = _size(_intersection(evidence, retrieved))
    retrieved_size = sum(chunks.ends[i] - chunks.starts[i] for i in taken)
    missed = sum(e - s - _size(_intersection([(s, e)], retrieved)) for s, e in ranges)
    first = next(
        (
            rank
            for rank, i in enumerate(taken, 1)
            if any(chunks.starts[i] < e and chunks.ends[i] > s for s, e in evidence)
        ),
        None,
    )
    return Retrieval(
        k=k if budget is None else len(taken),
        chunks=tuple(taken),
        recall=found / sum(e - s for s, e in ranges),
        precision=found / retrieved_size,
        iou=found / (retrieved_size + missed),
        first_hit_rank=first,
        tokens=sum(tokens(i) for i in taken) if tokens is not None else 0,
        budget=budget,
    )


def chunk_ranges(analysis: Any) -> ChunkRanges | None:
    """An ``Analysis``'s chunk ranges, kept on it (its BM25 index then serves every question
    set); None when the result has no chunks."""
    if analysis.error is not None or not analysis.spans:
        return None
    chunks = analysis.__dict__.get("_evidence_chunks")
    if chunks is None:
        chunks = ChunkRanges(analysis.spans)
        analysis.__dict__["_evidence_chunks"] = chunks
    return chunks  # type: ignore[no-any-return]


def kept_whole(analysis: Any, questions: Sequence[Question]) -> tuple[int, int] | None:
    """(excerpts kept whole, excerpts) over the matched questions of ``analysis``: the
    summary's ``kept_whole`` and ``excerpts`` without the rest of the figures (no BM25), for
    the Size trade-offs chart; None when the result has no chunks."""
    chunks = chunk_ranges(analysis)
    if chunks is None:
        return None
    kept = total = 0
    for question in questions:
        placed = anchor(analysis.text, question)
        if not placed or not all(p.found for p in placed):
            continue
        total += len(placed)
        kept += sum(1 for p in placed if chunks.inside_one(p.start, p.end))
    return kept, total


def evidence_of(
    analysis: Any,
    questions: Sequence[Question],
    *,
    k: int | None = None,
    budget: int | None = None,
    embedder: Embedder | None = None,
) -> Evidence | None:
    """The Evidence check of an ``Analysis`` (its spans, its tokenizer's counts, its
    ``retrieval``, and its ``top_k`` and ``budget`` unless ``k`` or ``budget`` is given);
    None when the result has no chunks."""
    return finish(evidence_steps(analysis, questions, k=k, budget=budget, embedder=embedder))


SLICE = 8  # questions per step


def evidence_steps(
    analysis: Any,
    questions: Sequence[Question],
    *,
    k: int | None = None,
    budget: int | None = None,
    embedder: Embedder | None = None,
) -> Generator[None, None, Evidence | None]:
    """``evidence_of`` in small steps (the chunk ranges, the BM25 index, then ``SLICE``
    questions a step), for a page that runs one step per task; the generator's return
    value is the Evidence. Each question's figures depend on it alone, so the slices give
    exactly ``evidence_of``'s result."""
    chunks = chunk_ranges(analysis)
    if chunks is None:
        return None
    if k is None:  # the settings' depth: their budget, else their top k
        k = analysis.settings.top_k
        budget = analysis.settings.budget if budget is None else budget
    method = analysis.settings.retrieval
    text = analysis.text
    if any(all(p.found for p in anchor(text, q)) for q in questions):  # retrieval needed
        yield
        yield from chunks.bm25_steps(text)
        if needs_model(method):
            yield
            chunks.vectors(text, embedder if embedder is not None else current_embedder())
    results: list[QuestionResult] = []
    for first in range(0, len(questions), SLICE):
        yield
        part = questions[first : first + SLICE]
        found = check_evidence(
            analysis.text,
            chunks,
            part,
            k=k,
            tokens=analysis.chunk_tokens,
            budget=budget,
            method=method,
            embedder=embedder,
        )
        results += found.results
    return Evidence(k, tuple(results), budget, method)

"""From settings and text to everything the page shows: chunks, summary, warnings, trade-offs.

All figures are computed from spans; text is sliced only when a chunk record is built. The
parts live beside this module: the records (``results.py``), their location
(``location.py``), the text cache (``cache.py``), the sizer choice (``units.py``), the
result checks (``checks.py``) and the over-size warning (``size_warnings.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..config.settings import Settings
from ..engine.errors import ResultError
from ..engine.index import TextIndex
from ..engine.limits import MAX_CHUNK_SIZE, MAX_CHUNKS, MAX_CODE_POINTS
from ..engine.merge import Job, Sink
from ..engine.spans import Span
from ..measures.damage import Damage, assess, text_facts
from ..sizing.tokens import token_sizer
from ..text.documents import check_length
from ..tokenizers import get_tokenizer
from .cache import text_index
from .checks import budget_error, result_error
from .location import build_chunks
from .results import Chunk, Summary, TokenSummary, Tradeoff
from .size_warnings import over_size_warnings, tiny_chunk_warnings, tiny_chunks
from .units import sizer_for


@dataclass(frozen=True)
class Analysis:
    """The full result for one text and one set of settings.

    ``error`` is set when the result is unusable (too many chunks, nothing retained); then
    ``spans`` is empty and ``summary`` is None, but ``count`` and ``tradeoffs`` still hold.
    """

    text: str
    settings: Settings
    count: int
    spans: tuple[Span, ...]
    summary: Summary | None
    warnings: tuple[str, ...]
    tradeoffs: tuple[Tradeoff, ...]
    error: ResultError | None = field(default=None)

    @cached_property
    def chunks(self) -> tuple[Chunk, ...]:
        """The chunk records, built on first use."""
        return build_chunks(self.text, self.spans)

    @cached_property
    def damage(self) -> Damage | None:
        """The damage figures (docs/decisions.md "Damage"), computed on first use, never by
        ``analyse``; None when ``error`` is set."""
        if self.error is not None or not self.spans:
            return None
        return damage_of(self.text, self.spans, self.settings)

    @cached_property
    def tiny(self) -> frozenset[int]:
        """The indices of the chunks far below the size (under a twentieth of it, in its
        unit): the readiness warning names them, the page's records say so beside each."""
        return frozenset(i for i, _n in tiny_chunks(self.text, self.spans, self.settings))

    def damage_steps(self) -> Iterator[None]:
        """Compute ``damage`` in a few steps (the text's facts first, then the figures),
        for a caller that runs one step per task; reading ``damage`` afterwards is free."""
        if self.error is None and self.spans:
            yield from text_facts(text_index(self.text), self.settings)
        _ = self.damage
        yield

    @cached_property
    def tokens(self) -> tuple[int, ...]:
        """Each chunk's token count with the settings' tokenizer, computed on first use
        (never by ``analyse``: the first result does not wait for a rank file)."""
        sizer = token_sizer(self.settings.tokenizer)  # its span counts, if any
        return tuple(sizer.length(self.text, s.start, s.end) for s in self.spans)

    def token_steps(self) -> Iterator[int]:
        """Each chunk's tokens counted in steps (the work done, as ``count_steps`` yields
        it); ``tokens`` then reads them from the tokenizer's cache (so no task runs long)."""
        if self.error is not None or "tokens" in self.__dict__:
            return
        count_steps = get_tokenizer(self.settings.tokenizer).count_steps
        for span in self.spans:
            yield from count_steps(self.text[span.start : span.end])

    def known_tokens(self, index: int) -> int | None:
        """Chunk ``index``'s token count if it costs no counting (all counted, or its text
        in the tokenizer's cache), else None: what an edit's own task may show."""
        if "tokens" in self.__dict__:
            return self.tokens[index]
        span = self.spans[index]
        return get_tokenizer(self.settings.tokenizer).known(self.text[span.start : span.end])

    def chunk_tokens(self, index: int) -> int:
        """Chunk ``index``'s token count, without counting every chunk (a view showing a
        few records reads this; ``tokens`` counts them all)."""
        if "tokens" in self.__dict__:
            return self.tokens[index]
        span = self.spans[index]
        return get_tokenizer(self.settings.tokenizer).count(self.text[span.start : span.end])

    @cached_property
    def token_summary(self) -> TokenSummary | None:
        """Smallest, average, largest and total tokens; None when there are no chunks."""
        if not self.spans:
            return None
        tokens = self.tokens
        total = sum(tokens)
        return TokenSummary(min(tokens), total / len(tokens), max(tokens), total)

    def chunk_window(self, first: int, stop: int) -> tuple[Chunk, ...]:
        """Records ``first`` to ``stop - 1`` only: what a view shows, without building all.

        Views start at the first record, so the longest prefix built so far is kept and
        shared (the preview and the records table ask for overlapping windows). A window
        that starts past that prefix (the rows an edit changed, one chunk of the map) is
        built alone and not kept.
        """
        if "chunks" in self.__dict__:
            return self.chunks[first:stop]
        prefix: tuple[Chunk, ...] = self.__dict__.get("_prefix", ())
        if first > len(prefix):
            return build_chunks(self.text, self.spans, first, stop)
        if stop > len(prefix) and len(prefix) < len(self.spans):
            prefix += build_chunks(self.text, self.spans, len(prefix), stop)
            self.__dict__["_prefix"] = prefix
        return prefix[first:stop]


def damage_of(text: str, spans: Sequence[Span], settings: Settings) -> Damage:
    """The damage of any nonempty ``spans`` (in source order) over ``text``, measured with
    ``settings``' size, size unit and sentence abbreviations."""
    return assess(text, spans, settings, sizer_for(settings), text_index(text))


def _run(
    text: str,
    settings: Settings,
    index: TextIndex,
    *,
    size: int | None = None,
    keep: int | None = None,
) -> Sink:
    sink = Sink(index, trim=settings.trim, keep=keep)
    job = Job(
        text=text,
        index=index,
        sink=sink,
        sizer=sizer_for(settings),
        size=settings.chunk_size if size is None else size,
        overlap=settings.overlap,
    )
    settings.mode_info.feed(job, settings.options())
    return sink


def split_spans(text: str, settings: Settings) -> list[Span]:
    """The chunk spans of ``text`` under ``settings``, in source order (no limit)."""
    spans = _run(text, settings, text_index(text)).spans
    assert spans is not None
    return spans


def count_chunks(text: str, settings: Settings, *, size: int | None = None) -> int:
    """The number of chunks, without building them (exact at any count)."""
    return _run(text, settings, text_index(text), size=size, keep=0).count


def comparison_sizes(size: int, overlap: int) -> list[int]:
    """Half, the same, one and a half and twice the size, rounded down, clamped to
    ``[overlap + 1, 10 000]``, duplicates merged, ascending."""
    raw = (size // 2, size, size * 3 // 2, size * 2)  # overlap: the one the mode uses
    return sorted({min(max(s, overlap + 1), MAX_CHUNK_SIZE) for s in raw})


def tradeoffs(
    text: str, settings: Settings, index: TextIndex | None = None, known: int | None = None
) -> tuple[Tradeoff, ...]:
    """Chunk counts at the comparison sizes; ``known`` is the count at the current size.

    Counts come from the sink's counter only (no chunk text or span list is built), so
    they stay exact and cheap above the chunk limit.
    """
    if index is None:
        index = text_index(text)
    out = []
    for size in comparison_sizes(settings.chunk_size, settings.overlap):
        if size == settings.chunk_size and known is not None:
            count = known
        else:
            count = _run(text, settings, index, size=size, keep=0).count
        out.append(Tradeoff(size, count))
    return tuple(out)


def analyse(
    text: str,
    settings: Settings,
    *,
    max_chunks: int | None = MAX_CHUNKS,
    max_code_points: int | None = MAX_CODE_POINTS,
    with_tradeoffs: bool = True,
) -> Analysis:
    """Split ``text`` and compute every figure. Raises ``DocumentError`` when the text is
    over the limit; returns an ``Analysis`` whose ``error`` is set when the result is
    unusable. Any ``str`` is split exactly, lone surrogates included.

    Chunk records (with their text) are built only when ``Analysis.chunks`` is read.
    """
    check_length(text, max_code_points)
    index = text_index(text)
    sink = _run(text, settings, index, keep=max_chunks)
    count = sink.count
    trade = tradeoffs(text, settings, index, known=count) if with_tradeoffs else ()
    error = result_error(text, count, max_chunks)
    if error is None and sink.spans is not None and "prefix" in settings.mode_info.record_keys:
        error = budget_error(len(text), sink.spans)
    if error is not None or sink.spans is None:
        return Analysis(text, settings, count, (), None, (), trade, error)
    spans = sink.spans
    summary = summarise(len(text), spans)
    return Analysis(
        text,
        settings,
        count,
        tuple(spans),
        summary,
        over_size_warnings(text, spans, settings) + tiny_chunk_warnings(text, spans, settings),
        trade,
    )


def summarise(length: int, spans: Sequence[Span]) -> Summary:
    """The summary figures of nonempty ``spans`` over a source of ``length`` code points."""
    repeated = covered = 0
    reach = 0  # end of the union of the spans seen so far; starts are nondecreasing
    prev_start = prev_end = 0
    lengths = [end - start for start, end, _whole, _meta in spans]
    for start, end, _whole, _meta in spans:
        # overlap with the previous span (0 for the first: prev_end is 0 <= its start)
        shared = (end if end < prev_end else prev_end) - (
            start if start > prev_start else prev_start
        )
        if shared > 0:
            repeated += shared
        fresh = end - (start if start > reach else reach)
        if fresh > 0:
            covered += fresh
            reach = end
        prev_start, prev_end = start, end
    return Summary(
        chunks=len(spans),
        repeated=repeated,
        omitted=length - covered,
        smallest=min(lengths),
        average=sum(lengths) / len(lengths),
        largest=max(lengths),
    )

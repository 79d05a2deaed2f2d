"""From settings and text to everything the page shows: chunks, summary, warnings, trade-offs.

All figures are computed from spans; text is sliced only when a chunk record is built.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..config.settings import Settings
from ..engine.errors import ResultError
from ..engine.index import TextIndex
from ..engine.limits import MAX_CHUNK_SIZE, MAX_CHUNKS, MAX_CODE_POINTS
from ..engine.merge import Job, Sink
from ..engine.sizer import CODE_POINTS, Sizer
from ..engine.spans import Span
from ..measures.damage import Damage, assess, text_facts
from ..sizing.tokens import token_sizer
from ..text.documents import check_length
from ..tokenizers import get_tokenizer

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Chunk:
    """One retained chunk. Offsets are zero-based and end-exclusive; lines and columns are
    1-based, with ``end_line``/``end_column`` locating the chunk's last code point."""

    index: int
    start: int
    end: int
    start_utf16: int
    end_utf16: int
    length: int
    overlap: int
    start_line: int
    start_column: int
    end_line: int
    end_column: int
    text: str
    whole: bool
    heading_path: str = ""
    prefix: str = ""
    note: str = ""


@dataclass(frozen=True)
class Summary:
    chunks: int
    repeated: int
    omitted: int
    smallest: int
    average: float
    largest: int

    @property
    def average_display(self) -> str:
        """The average rounded for display, to one decimal place."""
        return f"{self.average:.1f}"


@dataclass(frozen=True)
class TokenSummary:
    """Token counts of the chunks (the settings' tokenizer), beside the code-point summary."""

    smallest: int
    average: float
    largest: int
    total: int

    def as_json(self) -> dict[str, int | float]:
        return {
            "smallest": self.smallest,
            "average": self.average,
            "largest": self.largest,
            "total": self.total,
        }


@dataclass(frozen=True)
class Tradeoff:
    size: int
    count: int


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
        """The damage figures (SPEC.md "Damage"), computed on first use, never by
        ``analyse``; None when ``error`` is set."""
        if self.error is not None or not self.spans:
            return None
        return damage_of(self.text, self.spans, self.settings)

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
        count = get_tokenizer(self.settings.tokenizer).count
        return tuple(count(self.text[s.start : s.end]) for s in self.spans)

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
        shared (the preview and the records table ask for overlapping windows).
        """
        if "chunks" in self.__dict__:
            return self.chunks[first:stop]
        prefix: tuple[Chunk, ...] = self.__dict__.get("_prefix", ())
        if stop > len(prefix) and len(prefix) < len(self.spans):
            prefix += build_chunks(self.text, self.spans, len(prefix), stop)
            self.__dict__["_prefix"] = prefix
        return prefix[first:stop]


def damage_of(text: str, spans: Sequence[Span], settings: Settings) -> Damage:
    """The damage of any nonempty ``spans`` (in source order) over ``text``, measured with
    ``settings``' size, size unit and sentence abbreviations."""
    return assess(text, spans, settings, sizer_for(settings), text_index(text))


_recent: list[TextIndex] = []


def text_index(text: str) -> TextIndex:
    """The facts kept about ``text`` (piece bounds, a Markdown parse, sentences), reused
    while the same text is analysed again (a settings change on the page re-parses
    nothing). A few texts are kept: the page's, and a comparison's."""
    for index in _recent:
        if index.text is text or index.text == text:
            return index
    index = TextIndex(text)
    _recent.insert(0, index)
    del _recent[3:]
    return index


def sizer_for(settings: Settings) -> Sizer:
    """How the settings measure size: code points, or tokens of the chosen tokenizer
    (Token window cuts in tokens whatever the size unit)."""
    tokens = settings.size_unit == "tokens" and settings.relevant("size_unit")
    if tokens or settings.mode_info.tokens_only:
        return token_sizer(settings.tokenizer)
    return CODE_POINTS


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
    error = _result_error(text, count, max_chunks)
    if error is None and sink.spans is not None and "prefix" in settings.mode_info.record_keys:
        error = _budget_error(len(text), sink.spans)
    if error is not None or sink.spans is None:
        return Analysis(text, settings, count, (), None, (), trade, error)
    spans = sink.spans
    summary = summarise(len(text), spans)
    return Analysis(
        text, settings, count, tuple(spans), summary, _warnings(text, spans, settings), trade
    )


def _result_error(text: str, count: int, max_chunks: int | None) -> ResultError | None:
    if not text:
        return ResultError(
            "The source text is empty; paste or import a document.", count=0, field="text"
        )
    if count == 0:
        return ResultError(
            "No text remains after trimming edge whitespace; choose Preserve edge whitespace "
            "or add non-whitespace content.",
            count=0,
            field="edges",
        )
    if max_chunks is not None and count > max_chunks:
        return ResultError(
            f"These settings would produce {count:,} chunks, more than the {max_chunks:,} "
            "limit; raise the chunk size or lower the overlap.",
            count=count,
            field="chunk_size",
        )
    return None


def output_budget(length: int) -> int:
    """Most code points the chunks may hold with their prefixes (seed 000)."""
    return max(65_536, 32 * length)


def _budget_error(length: int, spans: Sequence[Span]) -> ResultError | None:
    total = sum(s.end - s.start + (len(s.meta.prefix) if s.meta else 0) for s in spans)
    budget = output_budget(length)
    if total <= budget:
        return None
    return ResultError(
        f"The chunks with their context prefixes would hold {total:,} code points, more "
        f"than the output budget of {budget:,} (32 times the text, at least 65,536); raise "
        "the chunk size, lower Split at heading level or turn off the heading breadcrumb.",
        count=len(spans),
        field="chunk_size",
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


class _Locator:
    """Maps code-point positions to UTF-16 offsets and 1-based lines and columns."""

    def __init__(self, text: str) -> None:
        self._astral = [m.start() for m in _ASTRAL.finditer(text)]
        self._line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]

    def utf16(self, position: int) -> int:
        return position + bisect_right(self._astral, position - 1)

    def line_column(self, position: int) -> tuple[int, int]:
        line = bisect_right(self._line_starts, position)
        return line, position - self._line_starts[line - 1] + 1


def build_chunks(
    text: str, spans: Sequence[Span], first: int = 0, stop: int | None = None
) -> tuple[Chunk, ...]:
    """Chunk records for ``spans[first:stop]`` (indices stay those of the whole list);
    the only place chunk text is sliced from the source."""
    locate = _Locator(text)
    chunks = []
    stop = len(spans) if stop is None else min(stop, len(spans))
    if first >= stop:
        return ()
    prev_start, prev_end = spans[first - 1][:2] if first > 0 else (0, 0)
    for index in range(first, stop):
        start, end, whole, meta = spans[index]
        overlap = max(0, min(end, prev_end) - max(start, prev_start)) if index else 0
        start_line, start_column = locate.line_column(start)
        end_line, end_column = locate.line_column(end - 1)
        chunks.append(
            Chunk(
                index=index,
                start=start,
                end=end,
                start_utf16=locate.utf16(start),
                end_utf16=locate.utf16(end),
                length=end - start,
                overlap=overlap,
                start_line=start_line,
                start_column=start_column,
                end_line=end_line,
                end_column=end_column,
                text=text[start:end],
                whole=whole,
                heading_path=meta.heading_path if meta else "",
                prefix=meta.prefix if meta else "",
                note=meta.note if meta else "",
            )
        )
        prev_start, prev_end = start, end
    return tuple(chunks)


def size_unit_name(settings: Settings) -> str:
    """The unit chunk size counts in, in words: "code points" or "<tokenizer> tokens"."""
    return "code points" if sizer_for(settings).per_code_point else f"{settings.tokenizer} tokens"


def _warnings(text: str, spans: Sequence[Span], settings: Settings) -> tuple[str, ...]:
    """Chunks over the chunk size, measured in its unit (code points or tokens)."""
    size = settings.chunk_size
    sizer = sizer_for(settings)
    if sizer.per_code_point:
        long = [(i, s.end - s.start) for i, s in enumerate(spans) if s.end - s.start > size]
    else:
        # a token holds at least one UTF-8 byte, so a span of n code points has at most
        # 4n tokens: only longer spans are counted
        long = [
            (i, n)
            for i, s in enumerate(spans)
            if 4 * (s.end - s.start) > size and (n := sizer.length(text, s.start, s.end)) > size
        ]
    return _long_warnings(long, spans, settings)


def _long_warnings(
    long: list[tuple[int, int]], spans: Sequence[Span], settings: Settings
) -> tuple[str, ...]:
    if not long:
        return ()
    size = settings.chunk_size
    unit = size_unit_name(settings)
    shown = ", ".join(str(i) for i, _n in long[:5]) + (", ..." if len(long) > 5 else "")
    head = (
        f"{len(long):,} chunk(s) exceed the chunk size of {size:,} {unit} (index {shown}; "
        f"the longest has {max(n for _i, n in long):,} {unit})"
    )
    explain = settings.mode_info.over_size
    if explain is not None:  # the mode says why (its chunks carry no note)
        notes = [explain(settings.options())]
    else:
        notes = sorted({s.meta.note for s in spans if s.meta and s.meta.note})
    return (head + (": " + "; ".join(notes) + "." if notes else "."),)

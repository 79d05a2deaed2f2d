"""Semantic mode: cuts where the meaning of neighbouring sentences shifts, as LangChain's
``SemanticChunker`` (langchain-experimental) does, with exact offsets and a hard maximum.

1. Sentences come from ``text.sentences`` (Sentence mode's sentences and settings). The
   window of sentence ``i`` is the verbatim range from sentence ``i - w`` to ``i + w``
   (``w`` = Sentence window, clipped at the ends of the text).
2. The windows are embedded through ``embedding.supply.embed`` (the embedder the door in
   use installed; none installed, or vectors missing: ``EmbeddingsPending``, which the
   page shows as waiting for the model). ``d[i]`` = ``scores.distance`` of windows ``i``
   and ``i + 1``: 1 - cosine on the four-decimal grid, so both doors decide alike.
3. Breakpoints: ``embedding.thresholds``, LangChain's thresholds in numpy's arithmetic; a
   breakpoint after sentence ``i`` when its value is above the threshold. Fewer than 2
   sentences (3 for gradient) give none, as LangChain's guards do, and need no vectors.
   ``Minimum size`` (0: none) skips a breakpoint while the group before it is smaller than
   it (in the size unit), as LangChain's ``min_chunk_size`` does; the last group is kept
   whatever its size.
4. The hard maximum, which LangChain lacks: a group longer than the chunk size is cut at
   its largest internal distance (ties: the earlier), again and again until every piece
   fits; a sentence alone over the size is cut into fixed windows without overlap and
   flagged, as in Sentence mode.

A chunk is the verbatim range from its first sentence's start to its last sentence's end.
Chunks never overlap. ``profile`` gives the curve the page draws (distances, the values
compared, the threshold, the breakpoints).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..embedding import scores, supply
from ..embedding.thresholds import (
    BREAKPOINT_TYPES,
    DEFAULT_AMOUNTS,
    MIN_SENTENCES,
    breakpoints,
    threshold,
)
from ..engine.errors import SettingError
from ..engine.fields import Field, choice_reader, shown, whole_reader
from ..engine.index import TextIndex
from ..engine.limits import MAX_CHUNK_SIZE
from ..engine.merge import Job
from ..engine.spans import SpanMeta
from ..text.sentences import sentences

FALLBACK = SpanMeta(note="sentence longer than the chunk size, cut into fixed windows")
MAX_WINDOW = 5
MAX_AMOUNT = 100.0
AMOUNT_DECIMALS = 6  # what links and commands write, so an amount reads back the same
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


@dataclass(frozen=True)
class Options:
    breakpoint: str = "percentile"
    breakpoint_amount: float | None = None  # None: the breakpoint type's default
    sentence_window: int = 1
    min_size: int = 0  # 0: no minimum
    abbreviations: tuple[str, ...] = ()
    sentence_language: str = "auto"

    @property
    def amount(self) -> float:
        """The breakpoint amount in use (the type's default when none is given)."""
        if self.breakpoint_amount is None:
            return DEFAULT_AMOUNTS[self.breakpoint]
        return self.breakpoint_amount


def read_amount(raw: object) -> float | None:
    """A decimal number from 0 to 100 (``95``, ``1.5``; kept to six decimals), or nothing:
    the type's default."""
    key = "breakpoint_amount"
    message = (
        "Breakpoint amount must be a number from 0 to 100, e.g. 95 or 1.5, or empty for the "
        f"breakpoint type's default (got {shown(raw)})."
    )
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        raise SettingError(message, field=key)
    if isinstance(raw, int | float):
        value = float(raw)
    elif isinstance(raw, str) and _DECIMAL.fullmatch(raw.strip()):
        value = float(raw.strip())
    else:
        raise SettingError(message, field=key)
    if not 0.0 <= value <= MAX_AMOUNT:
        raise SettingError(message, field=key)
    return round(value, AMOUNT_DECIMALS)


class AmountField(Field):
    """The breakpoint amount: empty while it is the type's default, else the number."""

    def text(self, value: object) -> str:
        if value is None:
            return ""
        assert isinstance(value, float)
        return f"{value:.{AMOUNT_DECIMALS}f}".rstrip("0").rstrip(".")


FIELDS = (
    Field(
        "breakpoint",
        "Breakpoint",
        "choice",
        "percentile",
        choice_reader("breakpoint", "Breakpoint", BREAKPOINT_TYPES),
        help=(
            "How the distances between neighbouring sentence windows become cuts, as "
            "LangChain's SemanticChunker: above a percentile of the distances, above mean + "
            "amount * standard deviation, above mean + amount * interquartile range, or "
            "where the gradient of the distances is above its percentile."
        ),
        link="bp",
        cli_help="percentile (default), standard-deviation, interquartile or gradient",
        choices=BREAKPOINT_TYPES,
        widget="select",
    ),
    AmountField(
        "breakpoint_amount",
        "Breakpoint amount",
        "text",
        None,
        read_amount,
        help=(
            "The percentile (default 95), the number of standard deviations (default 3) or "
            "of interquartile ranges (default 1.5); empty: the default of the breakpoint "
            "type."
        ),
        link="bpa",
        cli_help="0-100; default: 95, 3, 1.5 or 95 by breakpoint type",
    ),
    Field(
        "sentence_window",
        "Sentence window",
        "whole",
        1,
        whole_reader("sentence_window", "Sentence window", 0, MAX_WINDOW),
        help="Sentences embedded on each side of a sentence (LangChain's buffer_size).",
        link="sw",
        cli_help=f"sentences on each side of a sentence's window (0-{MAX_WINDOW}, default 1)",
        low=0,
        high=MAX_WINDOW,
        widget="number",
    ),
    Field(
        "min_size",
        "Minimum size",
        "whole",
        0,
        whole_reader("min_size", "Minimum size", 0, MAX_CHUNK_SIZE),
        help=(
            "A breakpoint is skipped while the chunk before it is smaller than this, in the "
            "size unit (LangChain's min_chunk_size); 0: no minimum."
        ),
        link="min",
        cli_help="skip breakpoints before chunks smaller than N (size unit; default 0: none)",
        low=0,
        high=MAX_CHUNK_SIZE,
        widget="number",
    ),
)


@dataclass(frozen=True)
class Profile:
    """What the breakpoints are decided from: the sentences, the distance after each
    sentence but the last, the values compared (the distances, or their gradient), the
    threshold and the breakpoints (the sentence each one follows). ``threshold`` is None
    when there are too few sentences to compare anything."""

    sentences: tuple[tuple[int, int], ...]
    distances: tuple[float, ...]
    values: tuple[float, ...]
    threshold: float | None
    breakpoints: tuple[int, ...]


def windows(units: Sequence[tuple[int, int]], width: int) -> list[tuple[int, int]]:
    """Each sentence's window: from sentence ``i - width`` to ``i + width``, clipped."""
    last = len(units) - 1
    return [
        (units[max(0, i - width)][0], units[min(last, i + width)][1]) for i in range(len(units))
    ]


_recent: list[tuple[tuple[object, ...], tuple[float, ...]]] = []


def distances(text: str, units: Sequence[tuple[int, int]], width: int) -> tuple[float, ...]:
    """The distance between each window and the next (vectors from the installed embedder;
    the last few texts' distances are kept per embedder)."""
    embedder = supply.current_embedder()
    key = (text, tuple(units), width)
    for known_key, known in _recent:
        if known_key[0] is embedder and known_key[1:] == key:
            return known
    spans = windows(units, width)
    vectors = supply.embed([text[a:b] for a, b in spans])
    found = tuple(scores.distance(vectors[i], vectors[i + 1]) for i in range(len(spans) - 1))
    _recent.insert(0, ((embedder, *key), found))
    del _recent[4:]
    return found


def profile(index: TextIndex, options: Options) -> Profile:
    """The sentences, distances, threshold and breakpoints of ``index``'s text."""
    units = tuple(sentences(index, options.abbreviations, options.sentence_language))
    if len(units) < MIN_SENTENCES[options.breakpoint]:
        return Profile(units, (), (), None, ())
    found = distances(index.text, units, options.sentence_window)
    limit, values = threshold(found, options.breakpoint, options.amount)
    return Profile(units, found, tuple(values), limit, tuple(breakpoints(values, limit)))


def groups(
    count: int, cuts: Sequence[int], min_size: int, measure: Callable[[int, int], int]
) -> list[tuple[int, int]]:
    """Sentence ranges ``[first, stop)`` between breakpoints, LangChain's way: a breakpoint
    is skipped while the group before it measures less than ``min_size``."""
    out = []
    first = 0
    for cut in cuts:
        if min_size and measure(first, cut + 1) < min_size:
            continue
        out.append((first, cut + 1))
        first = cut + 1
    if first < count:
        out.append((first, count))
    return out


class _RangeMax:
    """The first position of the largest distance in a range, in O(1) after an
    O(n log n) table (a group is cut at most once per sentence)."""

    def __init__(self, values: Sequence[float]) -> None:
        self._values = values
        level = list(range(len(values)))
        self._levels = [level]
        width = 1
        while 2 * width <= len(values):
            level = [self._better(level[i], level[i + width]) for i in range(len(level) - width)]
            self._levels.append(level)
            width *= 2

    def _better(self, i: int, j: int) -> int:
        return j if self._values[j] > self._values[i] else i

    def first_max(self, lo: int, hi: int) -> int:
        """The first ``i`` in ``[lo, hi)`` with the largest value."""
        k = (hi - lo).bit_length() - 1
        level = self._levels[k]
        return self._better(level[lo], level[hi - (1 << k)])


def feed(job: Job, options: Options) -> None:
    found = profile(job.index, options)
    units = found.sentences
    if not units:
        return
    text, size, sizer = job.text, job.size, job.sizer

    def measure(first: int, stop: int) -> int:
        return sizer.length(text, units[first][0], units[stop - 1][1])

    # too few sentences to compare: no distances, and a two-sentence group over the size
    # has one place to cut
    gaps = found.distances or (0.0,) * (len(units) - 1)
    largest = _RangeMax(gaps) if gaps else None
    sink = job.sink
    for first, stop in groups(len(units), found.breakpoints, options.min_size, measure):
        pending = [(first, stop)]
        while pending:
            lo, hi = pending.pop()
            if measure(lo, hi) <= size:
                sink.finished(units[lo][0], units[hi - 1][1])
            elif hi - lo == 1:
                sink.windows(units[lo][0], units[lo][1], size, 0, FALLBACK)
            else:
                assert largest is not None
                cut = largest.first_max(lo, hi - 1)
                pending.append((cut + 1, hi))
                pending.append((lo, cut + 1))

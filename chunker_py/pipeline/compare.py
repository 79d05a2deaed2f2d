"""The splitter comparison (docs/decisions.md "Comparison", after the chunk-damage
study's side-by-side table).

One row per splitter on the same text, sized by the current settings: every field the row
does not name (size, overlap, heading level, abbreviations, separators ...) is the current
one, so choosing a row changes only its mode, preset or overlap. The current overlap is
kept where a mode uses it; when it is not below the size (possible while Markdown structure
mode ignores it) the rows use ⌊size/5⌋ instead. Rows reuse the text's cached pieces, parse
and sentences (``text_index``), so a comparison costs about six splits and six damage
passes, and a row over the chunk limit costs a count only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..config.settings import Settings
from ..embedding.supply import EmbeddingsPending
from ..engine.index import computed
from ..engine.limits import MAX_CHUNKS, MAX_CODE_POINTS
from ..measures.damage import Damage, text_facts
from ..modes.registry import comparison_rows
from ..sizing.tokens import index_token_ends, window_bounds
from ..text.blocks import markdown_blocks, markdown_tokens
from ..tokenizers import get_tokenizer
from ..tokenizers.base import MERGE_STEP, paced
from .analysis import Analysis, analyse, comparison_sizes
from .cache import text_index
from .units import sizer_for


@dataclass(frozen=True)
class Row:
    """One splitter's figures. ``error`` says why the figures are missing: the row is over
    the chunk limit (``over_limit``; ``count`` is still exact) or the result is unusable."""

    key: str
    label: str
    settings: Settings
    current: bool
    count: int
    over_limit: bool
    error: str | None
    median_size: float | None
    max_size: int | None
    damage: Damage | None
    max_tokens: int | None = None  # in the settings' tokenizer, whatever the size unit
    # the row's result, for figures computed later (the Evidence check)
    analysis: Analysis | None = field(default=None, compare=False, repr=False)

    @property
    def ends_mid_sentence_pct(self) -> float | None:
        """Chunks ending mid-sentence, in % of the chunks, to one decimal place."""
        if self.damage is None or not self.count:
            return None
        return round(100 * self.damage.ends_mid_sentence / self.count, 1)

    def as_json(self) -> dict[str, Any]:
        """The row as ``--format compare`` prints it."""
        d = self.damage
        return {
            "row": self.label,
            "key": self.key,
            "current": self.current,
            "chunks": self.count,
            "over_limit": self.over_limit,
            "median_size": self.median_size,
            "max_size": self.max_size,
            "max_tokens": self.max_tokens,
            "code_blocks_cut": d.code_blocks_cut if d else None,
            "tables_cut": d.tables_cut if d else None,
            "ends_mid_sentence": d.ends_mid_sentence if d else None,
            "ends_mid_sentence_pct": self.ends_mid_sentence_pct,
            "mid_word_edges": d.mid_word_edges if d else None,
            "split_grapheme_edges": d.split_grapheme_edges if d else None,
            "over_size": d.over_size if d else None,
            "error": self.error,
            "settings": self.settings.record_settings(),
        }


def row_settings(settings: Settings) -> list[tuple[str, str, Settings]]:
    """(key, label, settings) of every comparison row (the modes' ``compare_rows``), in the
    table's order."""
    size = settings.chunk_size
    overlap = settings.chunk_overlap if settings.chunk_overlap < size else size // 5
    base = settings.replace(chunk_overlap=overlap)
    overlaps = {"current": overlap, "none": 0, "some": overlap or size // 5}
    return [
        (
            row.key,
            row.label,
            base.replace(mode=mode.name, chunk_overlap=overlaps[row.overlap], **dict(row.options)),
        )
        for mode, row in comparison_rows()
    ]


def compare(text: str, settings: Settings, **options: Any) -> list[Row]:
    """The comparison rows for ``text`` (``compare_rows``' options: ``known``, an analysis
    of ``text`` already at hand, reused for the row with the same settings, and the
    limits)."""
    return list(compare_rows(text, settings, **options))


def compare_rows(text: str, settings: Settings, **options: Any) -> Iterator[Row]:
    """``compare``'s rows one at a time, each split and assessed only when it is asked
    for: the page computes one row per task, so no task holds seven splits."""
    return _rows(compare_row_steps(text, settings, **options))


def compare_row_steps(text: str, settings: Settings, **options: Any) -> Iterator[Row | None]:
    """``compare_rows``' rows with a None at each pause of their token counting (see
    ``_row_steps``): the page runs one item per task."""
    mine = settings.record_settings()
    wanted = [(k, label, row, row.record_settings() == mine) for k, label, row in
              row_settings(settings)]  # fmt: skip
    return _row_steps(text, wanted, **options)


def settings_row_steps(
    text: str, wanted: list[tuple[str, str, Settings, bool]], **options: Any
) -> Iterator[Row | None]:
    """Rows for any list of (key, label, settings, current), as the comparison's are made
    (a None at each pause): the sweep's configurations."""
    return _row_steps(text, wanted, **options)


def _rows(steps: Iterator[Row | None]) -> Iterator[Row]:
    """The rows of ``_row_steps``, without its pauses."""
    return (row for row in steps if row is not None)


def _row_steps(
    text: str,
    wanted: list[tuple[str, str, Settings, bool]],
    *,
    known: Analysis | None = None,
    max_chunks: int | None = MAX_CHUNKS,
    max_code_points: int | None = MAX_CODE_POINTS,
) -> Iterator[Row | None]:
    """The rows of ``wanted`` (key, label, settings, current), one analysis per row;
    ``known`` is an analysis of ``text`` already at hand, reused where it fits.

    Long tasks: the byte-pair merges of long pieces (a 20,000-letter run, a line of
    emoji: ~90 ms CPU in CPython for the Token window row) are made first, cut into steps
    of ``MERGE_STEP`` heap entries, each followed by a None: the text's pieces, the token
    windows' pieces, then each chunk's. They only fill the tokenizer's caches, so the row's
    analysis then finds them counted: a row is the same with or without them.

    The text's facts for the damage figures (its Markdown parse: ~100 ms CPU in CPython on
    a 2,000-row table; its sentences) are found first too, a step each: the first row
    does not parse in the step that also splits and assesses. They are kept per text, so
    only the first comparison of a text pays for them, and the rows are the same."""
    if wanted and (max_code_points is None or len(text) <= max_code_points):
        for _fact in text_facts(text_index(text), wanted[0][2]):
            yield None
    for key, label, row, current in wanted:
        analysis = _reuse(known, text, row)
        if analysis is None:
            yield from paced(_count_steps(text, row, max_code_points), MERGE_STEP)
            try:
                analysis = _analysed(None, text, row, max_chunks, max_code_points)
            except EmbeddingsPending as waiting:  # Semantic mode before the model is ready
                yield Row(key, label, row, current, 0, False, waiting.message, None, None, None)
                continue
        yield from paced(analysis.token_steps(), MERGE_STEP)
        yield _row(key, label, row, current, analysis, max_chunks)


PARSE_APART_LINES = 1_000  # a Markdown text this long (~30+30 ms CPU in CPython) parses apart


def prepare_steps(text: str, settings: Settings) -> Iterator[None]:
    """What ``analyse(text, settings)`` does at length, done first in steps (a None at
    each pause, as ``compare_row_steps``' rows), for a caller that runs one step per task:
    the analysis then finds it in the caches and is the same with or without it (before,
    the page's edit merged a 20,000-letter run or a line of ZWJ emoji in tokens,
    or parsed a 2,000-row table, in one task).

    - In Markdown structure mode, a text of ``PARSE_APART_LINES`` lines or more not parsed
      yet: a pause first (the caller's own step ends there), then the block tokens and the
      blocks, a step each.
    - In tokens: the text's pieces and, for windows of tokens, each window's, counted in
      paced steps.

    Nothing (no pause) otherwise: the caller analyses at once."""
    if len(text) > MAX_CODE_POINTS:
        return  # the analysis reports the error
    index = text_index(text)
    if (
        settings.mode_info.parses_markdown
        and text.count("\n") >= PARSE_APART_LINES
        and not computed(index, markdown_blocks)
    ):
        yield None
        markdown_tokens(index)
        yield None
        markdown_blocks(index)
        yield None
    if not sizer_for(settings).per_code_point:
        yield from paced(_count_steps(text, settings, MAX_CODE_POINTS), MERGE_STEP)


def _count_steps(text: str, settings: Settings, max_code_points: int | None) -> Iterator[int]:
    """The text's tokens counted in steps (its pieces cached for ``token_ends``), and, for
    windows of tokens (Token window, Fixed size in tokens), each window's."""
    if max_code_points is not None and len(text) > max_code_points:
        return  # the analysis reports the error
    tokenizer = get_tokenizer(settings.tokenizer)
    merged = 0
    for work in tokenizer.count_steps(text):
        merged += work
        yield work
    if sizer_for(settings).per_code_point or not settings.mode_info.token_windows:
        return  # not cut into token windows (sizing/tokens.py)
    if merged:  # long pieces: the token ends (~25 ms CPU on 20,000 cp of emoji) a step alone
        yield MERGE_STEP
    ends = index_token_ends(text_index(text), settings.tokenizer)  # pieces counted now
    if merged:
        yield MERGE_STEP
    size, overlap = settings.chunk_size, settings.overlap
    for start, end in window_bounds(ends, size, overlap):
        yield from tokenizer.count_steps(text[start:end])


def _analysed(
    known: Analysis | None,
    text: str,
    settings: Settings,
    max_chunks: int | None,
    max_code_points: int | None,
) -> Analysis:
    """``known`` when it is the result wanted, else a fresh analysis without trade-offs."""
    return _reuse(known, text, settings) or analyse(
        text, settings, max_chunks=max_chunks, max_code_points=max_code_points,
        with_tradeoffs=False,
    )  # fmt: skip


def _reuse(known: Analysis | None, text: str, settings: Settings) -> Analysis | None:
    """``known`` when it is the result of ``settings`` on ``text`` (the fields the mode
    uses, and the sentence settings, which the damage figures use in every mode)."""
    if known is None or known.text != text:
        return None
    for key in ("abbreviations", "sentence_language"):
        if known.settings.get(key) != settings.get(key):
            return None
    return known if known.settings.record_settings() == settings.record_settings() else None


def damage_by_size(text: str, settings: Settings, **options: Any) -> list[Row]:
    """The current splitter at each trade-off size (``comparison_sizes``): the damage a
    size choice costs, for the trade-off chart. Rows are keyed by size; the options are
    ``damage_by_size_rows``'."""
    return list(damage_by_size_rows(text, settings, **options))


def damage_by_size_rows(text: str, settings: Settings, **options: Any) -> Iterator[Row]:
    """``damage_by_size``'s rows one at a time (one split and damage pass each)."""
    return _rows(damage_by_size_row_steps(text, settings, **options))


def damage_by_size_row_steps(text: str, settings: Settings, **options: Any) -> Iterator[Row | None]:
    """``damage_by_size_rows``' rows with a None at each pause of their token counting."""
    current = settings.chunk_size
    wanted = [
        (str(size), f"size {size:,}", settings.replace(chunk_size=size), size == current)
        for size in comparison_sizes(settings.chunk_size, settings.overlap)
    ]
    return _row_steps(text, wanted, **options)


def _row(
    key: str,
    label: str,
    settings: Settings,
    current: bool,
    analysis: Analysis,
    max_chunks: int | None,
) -> Row:
    count = analysis.count
    over = max_chunks is not None and count > max_chunks
    if analysis.error is not None or not analysis.spans:
        message = analysis.error.message if analysis.error is not None else None
        return Row(key, label, settings, current, count, over, message, None, None, None)
    sizer = sizer_for(settings)
    lengths = [sizer.length(analysis.text, s.start, s.end) for s in analysis.spans]
    from statistics import median  # here: its import (fractions, decimal) waits for a row

    middle = median(lengths)
    return Row(
        key,
        label,
        settings,
        current,
        count,
        over,
        None,
        int(middle) if float(middle).is_integer() else float(middle),
        max(lengths),
        analysis.damage,
        max(analysis.tokens),
        analysis,
    )

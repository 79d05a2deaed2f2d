"""One file's output, rendered whole: JSONL records, CSV, a summary line, comparison
lines or Evidence check lines, and the ``FileFigures`` a corpus line adds up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..config.settings import Settings
from ..measures.model_window import KEY, PIECES_KEY, unseen_per_chunk, window_figures
from ..measures.ranking import chunk_vectors, current_embedder, needs_model
from ..pipeline.analysis import Analysis, analyse
from ..pipeline.compare import Row, compare
from .records import json_line, to_csv, to_jsonl, to_jsonl_with_model

if TYPE_CHECKING:
    from ..measures.damage import Damage
    from ..measures.evidence import Evidence, Question
    from .corpus import Output


@dataclass(frozen=True)
class FileFigures:
    """What a corpus line adds up, for one file (and one comparison row)."""

    key: str
    label: str
    chunks: int
    over_limit: bool
    max_tokens: int | None
    damage: Mapping[str, int] | None
    evidence: Evidence | None = None


def _render(
    text: str,
    settings: Settings,
    output: Output,
    metadata: Mapping[str, Any] | None,
    questions: tuple[Question, ...] | None,
) -> tuple[str, tuple[FileFigures, ...]]:
    if output.format == "compare":
        return _compare_lines(text, settings, output, questions)
    if questions is not None or output.format == "evidence":
        from ..measures.evidence import evidence_of
    analysis = analyse(
        text,
        settings,
        max_chunks=output.max_chunks,
        max_code_points=output.max_code_points,
        with_tradeoffs=output.format == "summary",
    )
    if analysis.error is not None:
        raise analysis.error
    if output.format == "csv":
        return to_csv(analysis, spreadsheet_safe=output.spreadsheet_safe), ()
    if output.format == "evidence":
        found = evidence_of(analysis, questions or ())
        assert found is not None
        source = settings.source_name or None
        return "".join(json_line(r.as_json(source)) + "\n" for r in found.results), ()
    if output.format == "summary":
        summary = summary_record(analysis)
        found = None if questions is None else evidence_of(analysis, questions)
        if questions is not None:
            summary["evidence"] = found.summary() if found else None
        if metadata is not None:
            summary["metadata"] = metadata
        return json_line(summary) + "\n", (_figures("", "", analysis, found),)
    model = needs_model(settings.retrieval)
    if model or output.embeddings:
        vectors = None
        if output.embeddings:
            texts = [analysis.text[span.start : span.end] for span in analysis.spans]
            vectors = chunk_vectors(texts, current_embedder())
        unseen = unseen_per_chunk(analysis) if model else None
        return to_jsonl_with_model(analysis, metadata, unseen, vectors), ()
    return to_jsonl(analysis, metadata), ()


def _damage_figures(analysis: Analysis | None, damage: Damage | None) -> dict[str, int] | None:
    """A result's damage figures; with dense or hybrid retrieval, the model's window too."""
    figures = damage.figures() if damage else None
    if figures is not None and analysis is not None and needs_model(analysis.settings.retrieval):
        figures = {**figures, **window_figures(analysis)}
    return figures


def summary_record(analysis: Analysis) -> dict[str, Any]:
    """The ``--format summary`` object of one document."""
    s = analysis.summary
    assert s is not None
    return {
        "source": analysis.settings.source_name or None,
        "chunks": s.chunks,
        "repeated": s.repeated,
        "omitted": s.omitted,
        "smallest": s.smallest,
        "average": s.average,
        "average_display": s.average_display,
        "largest": s.largest,
        "tokens": analysis.token_summary.as_json() if analysis.token_summary else None,
        "warnings": list(analysis.warnings),
        "tradeoffs": [{"size": t.size, "count": t.count} for t in analysis.tradeoffs],
        "damage": _damage_figures(analysis, analysis.damage),
        "settings": analysis.settings.record_settings(),
    }


def _figures(key: str, label: str, analysis: Analysis, found: Evidence | None) -> FileFigures:
    damage = analysis.damage
    tokens = analysis.token_summary
    return FileFigures(
        key,
        label,
        analysis.count,
        False,
        tokens.largest if tokens else None,
        _damage_figures(analysis, damage),
        found,
    )


def _compare_lines(
    text: str, settings: Settings, output: Output, questions: tuple[Question, ...] | None
) -> tuple[str, tuple[FileFigures, ...]]:
    """One JSON line per comparison row; a row's own errors (over the chunk limit, nothing
    retained) are reported in the row, not raised."""
    rows = compare(
        text, settings, max_chunks=output.max_chunks, max_code_points=output.max_code_points
    )
    if questions is not None:
        from ..measures.evidence import evidence_of

    source = settings.source_name or None
    lines = []
    figures = []
    for row in rows:
        out = {"source": source, **row.as_json()}
        damage = _damage_figures(row.analysis, row.damage)
        if damage is not None and KEY in damage:
            out[KEY], out[PIECES_KEY] = damage[KEY], damage[PIECES_KEY]
        found = None
        if questions is not None:
            found = evidence_of(row.analysis, questions) if row.analysis else None
            out["evidence"] = found.summary() if found else None
        lines.append(json_line(out) + "\n")
        figures.append(row_figures(row, found))
    return "".join(lines), tuple(figures)


def row_figures(row: Row, found: Evidence | None = None) -> FileFigures:
    """What a comparison row of one file adds to the corpus lines."""
    damage = _damage_figures(row.analysis, row.damage)
    return FileFigures(row.key, row.label, row.count, row.over_limit, row.max_tokens, damage, found)

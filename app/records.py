"""Chunk records: index, start, end, length, actual overlap and text (code-point offsets)."""

from __future__ import annotations

from dom import by_id, render, to_json

from chunker_py import Analysis


def show(analysis: Analysis | None) -> None:
    rows = []
    if analysis is not None:
        rows = [[c.index, c.start, c.end, c.length, c.overlap, c.text] for c in analysis.chunks]
    render().rows(by_id("records-body"), to_json(rows))
    by_id("records-caption").textContent = (
        f"{len(rows):,} records; offsets in code points, end-exclusive."
        if rows
        else "No records: see Chunk readiness."
    )

"""Summary figures with the guide's names: Chunks, Repeated, Edge characters omitted,
Smallest, Average, Largest."""

from __future__ import annotations

from dom import by_id, number

from chunker_py import Summary

FIGURES = ("chunks", "repeated", "omitted", "smallest", "average", "largest")


def show(summary: Summary | None) -> None:
    if summary is None:
        for key in FIGURES:
            by_id(f"figure-{key}").textContent = "—"
        return
    values = {
        "chunks": number(summary.chunks),
        "repeated": number(summary.repeated),
        "omitted": number(summary.omitted),
        "smallest": number(summary.smallest),
        "average": summary.average_display,
        "largest": number(summary.largest),
    }
    for key, value in values.items():
        by_id(f"figure-{key}").textContent = value

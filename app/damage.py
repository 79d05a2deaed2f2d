"""Damage: the summary's Damage group, damage words per chunk, and the splitter comparison.

All of it runs after the result is painted (app/main.py schedules it) and is dropped when
a newer edit has arrived: the Markdown parse, sentence scan and grapheme checks it needs
cost a few milliseconds per new text, the comparison several splits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dom import by_id, number, render, to_json

from chunker_py import MAX_CHUNKS, Analysis, Damage, Row, settings_to_fragment

GROUP = {
    "damage-code": ("code_blocks_cut", "code_blocks"),
    "damage-tables": ("tables_cut", "tables"),
    "damage-rows": ("table_rows_without_header", None),
    "damage-ends": ("ends_mid_sentence", "%"),
    "damage-starts": ("starts_mid_sentence", "%"),
    "damage-words": ("mid_word_edges", None),
    "damage-graphemes": ("split_grapheme_edges", None),
    "damage-over": ("over_size", None),
}


def show_group(damage: Damage | None, chunks: int = 0) -> None:
    """The Damage figures: "cut of all" for blocks, counts and % of chunks for sentences."""
    for element_id, (key, whole) in GROUP.items():
        if damage is None:
            text = "—"
        else:
            value = getattr(damage, key)
            if whole == "%":
                share = 100 * value / chunks if chunks else 0.0
                text = f"{number(value)} ({share:.1f}%)"
            elif whole is not None:
                text = f"{number(value)} of {number(getattr(damage, whole))}"
            else:
                text = number(value)
        by_id(element_id).textContent = text


def words(damage: Damage, indices: Sequence[int]) -> str:
    """JSON {index: damage in words} for the chunks shown."""
    out = {}
    for i in indices:
        described = damage.chunks[i].describe()
        if described:
            out[str(i)] = "; ".join(described)
    return to_json(out)


def damaged_indices(damage: Damage) -> list[int]:
    return [i for i, c in enumerate(damage.chunks) if c.damaged]


def _cells(row: Row) -> list[str]:
    if row.error is not None or row.damage is None:
        limit = f" — over the {number(MAX_CHUNKS)}-chunk limit" if row.over_limit else ""
        return [number(row.count) + limit, *["—"] * 9]
    d = row.damage
    pct = row.ends_mid_sentence_pct
    return [
        number(row.count),
        str(row.median_size),
        number(row.max_size or 0),
        number(row.max_tokens) if row.max_tokens is not None else "—",
        number(d.code_blocks_cut),
        number(d.tables_cut),
        f"{pct:.1f}%" if pct is not None else "—",
        number(d.mid_word_edges),
        number(d.split_grapheme_edges),
        number(d.over_size),
    ]


def show_comparison(rows: Sequence[Row] | None, apply: Callable[[str], Any] | None) -> None:
    status = by_id("compare-status")
    body = by_id("compare-body")
    if rows is None:
        body.replaceChildren()
        status.textContent = "No comparison: see Chunk readiness."
        return
    data = [
        {
            "label": row.label,
            "current": row.current,
            "cells": _cells(row),
            "fragment": settings_to_fragment(row.settings),
        }
        for row in rows
    ]
    render().compare(body, to_json(data), apply)
    over = [r.label for r in rows if r.over_limit]
    status.textContent = (
        f"{', '.join(over)} would exceed the {number(MAX_CHUNKS)}-chunk limit at this size."
        if over
        else ""
    )


def pending(flag: bool) -> None:
    """Dim the damage words shown while this result's damage is being computed."""
    for element_id in ("preview-list", "records-body"):
        element = by_id(element_id)
        if flag:
            element.dataset.damage = "pending"
        else:
            element.removeAttribute("data-damage")


def mark(analysis: Analysis | None, damage: Damage | None) -> None:
    """Damage words in the preview and the records table, for the chunks they show."""
    if analysis is None or damage is None:
        render().damage(by_id("preview-list"), by_id("records-body"), "{}")
        return
    shown = {int(x) for x in _shown_indices()}
    render().damage(by_id("preview-list"), by_id("records-body"), words(damage, sorted(shown)))


def _shown_indices() -> list[str]:
    nodes = [
        *by_id("preview-list").querySelectorAll(":scope > li[data-index]"),
        *by_id("records-body").querySelectorAll(":scope > tr[data-index]"),
    ]
    return [str(n.dataset.index) for n in nodes]

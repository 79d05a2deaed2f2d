"""Damage: the summary's Damage group, damage words per chunk, and the splitter comparison.

All of it runs after the result is painted (app/inspector.py schedules it) and is dropped
when a newer edit has arrived: the Markdown parse, sentence scan and grapheme checks it
needs cost a few milliseconds per new text, the comparison several splits. The damage
words are drawn by the preview and the records themselves, from their view
(``show_words``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Any

from dom import ListView, by_id, decimal, found, number, on, render, to_json
from js import document, window
from pyodide.ffi import create_proxy

from chunker_py import Analysis, Row
from chunker_py.config.links import settings_to_fragment
from chunker_py.engine.limits import MAX_CHUNKS
from chunker_py.measures.damage import Damage
from chunker_py.pipeline.units import size_unit_name

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


class DamageGroup:
    """The summary's Damage figures of one result, once its damage is computed (None, or
    a result without damage: a dash each)."""

    def show(self, view: Analysis | None) -> None:
        """Blocks as "cut of all", sentences as counts and % of chunks."""
        damage = view.damage if view is not None else None
        chunks = len(view.spans) if view is not None else 0
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


TINY_WORDS = "far below the size"


def words(damage: Damage, indices: Sequence[int], tiny: Container[int] = ()) -> str:
    """JSON {index: damage in words} for the chunks shown, a chunk in ``tiny`` (far below
    the size: the readiness warning) saying so too."""
    out = {}
    for i in indices:
        described = damage.chunks[i].describe() + ([TINY_WORDS] if i in tiny else [])
        if described:
            out[str(i)] = "; ".join(described)
    return to_json(out)


def show_words(listing: Any, view: ListView, listed: Sequence[int]) -> None:
    """The damage words of the chunks ``listing`` (the preview's list or the records'
    body) shows, ``listed``, from its ``view``: none without a result; while the result's
    damage is being computed, the words shown stay as they are (dimmed by
    #app[data-damage="pending"]) until the view brings the damage."""
    if view.analysis is None:
        render().damage(listing, "{}")
    elif view.damage is not None:
        render().damage(listing, words(view.damage, listed, view.analysis.tiny))


def damaged_indices(damage: Damage) -> list[int]:
    return [i for i, c in enumerate(damage.chunks) if c.damaged]


# the comparison's damage columns (fewer is better), as positions in ``_cells``
DAMAGE_COLUMNS = range(5, 11)
# then the evidence columns, "…" until app/evidence.py fills them in after the paint
EVIDENCE_AT = 11
EVIDENCE_COLUMNS = 7


def _cells(row: Row) -> list[str]:
    """The row's cells after its label; sizes in the row's own unit (its Size unit cell)."""
    unit = size_unit_name(row.settings)
    if row.error is not None or row.damage is None:
        limit = f" — over the {number(MAX_CHUNKS)}-chunk limit" if row.over_limit else ""
        return [number(row.count) + limit, unit, *["—"] * 9, *["…"] * EVIDENCE_COLUMNS]
    d = row.damage
    pct = row.ends_mid_sentence_pct
    median = row.median_size
    return [
        number(row.count),
        unit,
        decimal(median) if isinstance(median, float) else number(median or 0),
        number(row.max_size or 0),
        number(row.max_tokens) if row.max_tokens is not None else "—",
        number(d.code_blocks_cut),
        number(d.tables_cut),
        f"{pct:.1f}%" if pct is not None else "—",
        number(d.mid_word_edges),
        number(d.split_grapheme_edges),
        number(d.over_size),
        *["…"] * EVIDENCE_COLUMNS,
    ]


def _damage_values(row: Row) -> list[float] | None:
    """The row's damage columns as numbers (None for a row without figures)."""
    d = row.damage
    if row.error is not None or d is None:
        return None
    pct = row.ends_mid_sentence_pct
    return [
        d.code_blocks_cut,
        d.tables_cut,
        pct if pct is not None else 0.0,
        d.mid_word_edges,
        d.split_grapheme_edges,
        d.over_size,
    ]


def best_cells(rows: Sequence[Row]) -> list[list[int]]:
    """Per row, the damage columns (positions in ``_cells``) where it has the fewest; a
    column where every row has the same value marks nothing."""
    values = [_damage_values(row) for row in rows]
    known = [v for v in values if v is not None]
    best: list[list[int]] = [[] for _row in rows]
    for column, position in enumerate(DAMAGE_COLUMNS):
        column_values = {v[column] for v in known}
        if len(column_values) < 2:
            continue
        low = min(column_values)
        for i, v in enumerate(values):
            if v is not None and v[column] == low:
                best[i].append(position)
    return best


@dataclass(frozen=True)
class ComparisonView:
    """What the Splitter comparison shows of one result: its rows (None: no comparison,
    the inputs need checking), the label of the row whose Use was just chosen and, once
    the Evidence check has found them, each row's evidence cells (app/evidence.py's
    ``comparison_cells``, in row order; None until then: "…")."""

    rows: Sequence[Row] | None = None
    applied: str | None = None
    evidence: Sequence[Sequence[str]] | None = None


class Comparison:
    """The Splitter comparison table, shown from a ``ComparisonView``. A row's Use calls
    ``apply`` with its settings (a share-link fragment)."""

    def __init__(self, apply: Callable[[str], Any]) -> None:
        self._apply = create_proxy(apply)  # the rows' buttons call it
        self.labels: dict[str, str] = {}  # the rows shown: fragment -> label
        self.view = ComparisonView()

    def wire(self) -> None:
        # the table shows its Damage or its Evidence columns
        for radio in document.querySelectorAll('input[name="compare-columns"]'):
            on(radio, "change", self._columns)

    @staticmethod
    def _columns(event: Any) -> None:
        if event.target.checked:
            by_id("compare-table").dataset.columns = str(event.target.value)

    def applying(self, fragment: str) -> str:
        """Say that a row's settings (``fragment``) are being applied; return its label."""
        label = self.labels.get(fragment, "its settings")
        by_id("compare-status").textContent = f"Applying {label}…"
        return label

    def show(self, view: ComparisonView) -> None:
        """The rows drawn anew when they are new; then their evidence cells, if any."""
        drawn, self.view = self.view, view
        rows, applied = view.rows, view.applied
        if rows is not None and rows is drawn.rows and applied == drawn.applied:
            if view.evidence is not None and view.evidence is not drawn.evidence:
                self._evidence(view.evidence)
            return
        self._rows(rows, applied)
        if view.evidence is not None:
            self._evidence(view.evidence)

    def _rows(self, rows: Sequence[Row] | None, applied: str | None) -> None:
        status = by_id("compare-status")
        body = by_id("compare-body")
        if rows is None:
            body.replaceChildren()
            status.textContent = "No comparison: see Chunk readiness."
            return
        self.labels = {settings_to_fragment(row.settings): row.label for row in rows}
        best = best_cells(rows)
        data = [
            {
                "label": row.label,
                "current": row.current,
                "cells": _cells(row),
                "best": best[i],
                "damageAt": list(DAMAGE_COLUMNS),
                "evidenceAt": EVIDENCE_AT,
                "fragment": settings_to_fragment(row.settings),
            }
            for i, row in enumerate(rows)
        ]
        render().compare(body, to_json(data), self._apply)
        over = [r.label for r in rows if r.over_limit]
        said = []
        if applied is not None:
            said.append(f"Now using {applied}: its settings are in the controls and every panel.")
        if over:
            said.append(
                f"{', '.join(over)} would exceed the {number(MAX_CHUNKS)}-chunk limit at this size."
            )
        status.textContent = " ".join(said)
        if applied is not None:
            # the Use button pressed is gone with the old rows: focus moves to the row now
            # current, whose name says so, instead of falling back to the page
            current = found(body.querySelector("tr.current th"))
            if current is not None:
                current.tabIndex = -1
                current.focus(window.JSON.parse('{"preventScroll": true}'))

    @staticmethod
    def _evidence(cells: Sequence[Sequence[str]]) -> None:
        """The evidence columns of the rows drawn, in row order, each column's best value
        marked (``evidence_best``)."""
        trs = by_id("compare-body").querySelectorAll(":scope > tr")
        best = evidence_best(cells)
        for tr, row, marks in zip(trs, cells, best, strict=False):
            for i, (td, text) in enumerate(zip(tr.querySelectorAll("td.ev-col"), row,
                                               strict=False)):  # fmt: skip
                td.textContent = text
                # the word "best" comes from the style sheet: the cell's text stays the figure
                td.classList.toggle("best", i in marks)


# The Evidence columns' directions: +1 higher is better (kept whole, one chunk, Precision
# Omega, recall, IoU), -1 lower (chunks to read, tokens at k).
EVIDENCE_DIRECTIONS = (1, 1, -1, 1, 1, 1, -1)


def _leading_number(text: str) -> float | None:
    head = text.split(" ", 1)[0].replace(",", "")
    try:
        return float(head)
    except ValueError:
        return None


def evidence_best(cells: Sequence[Sequence[str]]) -> list[set[int]]:
    """Per row, the Evidence columns where it holds the best value of its column (ties all
    marked; none when fewer than two rows have a value)."""
    marks: list[set[int]] = [set() for _ in cells]
    for column, sign in enumerate(EVIDENCE_DIRECTIONS):
        values = [_leading_number(row[column]) if column < len(row) else None for row in cells]
        known = [v for v in values if v is not None]
        if len(known) < 2:
            continue
        best = max(sign * v for v in known)
        for i, v in enumerate(values):
            if v is not None and sign * v == best:
                marks[i].add(column)
    return marks

"""Size trade-offs: a Plotly bar chart of chunk counts at the comparison sizes; after the
comparison, each size's damage and (with Evidence check questions) its excerpts kept whole.

The chart is shown from a ``TradeoffView``, one per result, which the page (app/inspector.py)
makes when the counts are computed and replaces once the comparison's damage and the
Evidence check's excerpts kept whole are found for that same result; no other panel adds
to it. Redrawn only when its bars change (Plotly.react costs ~15 ms); the notes alone are
put on the drawn bars (Plotly.update).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import theme
from dom import by_id, number, plot, set_text
from js import window

from chunker_py import Row
from chunker_py.engine.limits import MAX_CHUNKS
from chunker_py.pipeline.results import Tradeoff


@dataclass(frozen=True)
class TradeoffView:
    """What the trade-off chart shows of one result: the counts at the comparison sizes
    (none: no comparison), the current size and the size unit; once the comparison has
    run, its rows at those sizes (``damage``: each size's damage) and, per size, the
    Evidence check's excerpts kept whole of the matched questions' (``evidence``).

    None (not found yet): a chart drawn anew for this view shows no such notes; a chart
    already showing the same bars keeps the notes it has until the new ones come."""

    tradeoffs: Sequence[Tradeoff] = ()
    current: int | None = None
    unit: str = "code points"
    damage: Sequence[Row] | None = None
    evidence: Mapping[int, tuple[int, int]] | None = None


def damage_notes(rows: Sequence[Row]) -> dict[int, str]:
    """Per size, its damage in words (code blocks cut, % ending mid-sentence)."""
    notes = {}
    for row in rows:
        d = row.damage
        pct = row.ends_mid_sentence_pct
        if d is not None and pct is not None:
            notes[row.settings.chunk_size] = (
                f"{number(d.code_blocks_cut)} code block(s) cut, {pct:.1f}% ending mid-sentence"
            )
    return notes


def evidence_notes(kept: Mapping[int, tuple[int, int]]) -> dict[int, str]:
    """Per size, the excerpts kept whole ("4 of 5"); no note for a size without any."""
    return {size: f"{number(w)} of {number(total)}" for size, (w, total) in kept.items() if total}


def notes(view: TradeoffView) -> tuple[dict[int, str], dict[int, str]]:
    """The view's notes per size: its damage and its excerpts kept whole, in words."""
    return damage_notes(view.damage or ()), evidence_notes(view.evidence or {})


class TradeoffChart:
    """The size trade-offs chart, shown from a ``TradeoffView``: the bars, and each size's
    damage and excerpts kept whole in its hover text, under its count and in words."""

    def __init__(self) -> None:
        self.last: str | None = None  # the bars drawn (their sizes, counts, current, unit)
        self.scheme = ""  # the colour scheme it was drawn in
        # what it shows: the view last given, with the notes of an earlier view of the
        # same bars until its own are found (the notes are worded from it when drawn)
        self.view = TradeoffView()

    def redraw(self) -> None:
        """The colour scheme changed: draw again with the new colours (and the notes)."""
        self.scheme = ""
        self.show(self.view)

    def show(self, view: TradeoffView) -> None:
        shown = self.view
        tradeoffs, current = view.tradeoffs, view.current
        c = theme.colours()
        key = json.dumps([[t.size, t.count] for t in tradeoffs] + [current, view.unit])
        same_bars = key == self.last
        if same_bars:  # notes not found yet for this view: the ones shown stay until then
            view = replace(
                view,
                damage=shown.damage if view.damage is None else view.damage,
                evidence=shown.evidence if view.evidence is None else view.evidence,
            )
        self.view = view
        if same_bars and c["name"] == self.scheme:
            if notes(view) != notes(shown):
                self._annotate()
            return
        self.last, self.scheme = key, c["name"]
        set_text("tradeoff-text", described(view))
        chart = by_id("tradeoff-chart")
        chart.hidden = not tradeoffs
        if not tradeoffs:
            window.Plotly.purge(chart)
            return
        labels = [f"{number(t.size)} (current)" if t.size == current else number(t.size)
                  for t in tradeoffs]  # fmt: skip
        counts = [t.count for t in tradeoffs]
        colours = [
            c["over"] if t.count > MAX_CHUNKS else c["current"] if t.size == current else c["bar"]
            for t in tradeoffs
        ]
        top = max(counts) if counts else 0
        show_limit = top >= MAX_CHUNKS / 2
        data = [
            {
                "type": "bar",
                "x": labels,
                "y": counts,
                "marker": {"color": colours},
                "text": [number(c) + (" (over limit)" if c > MAX_CHUNKS else "") for c in counts],
                "textposition": "outside",
                # never shrunk to the bar's width (it made the evidence line about 6 px)
                "constraintext": "none",
                "textfont": {"size": 12},
                "cliponaxis": False,
                "hovertemplate": "size %{x}<br>%{y} chunks<extra></extra>",
            }
        ]
        layout = theme.layout(
            c,
            left=56,
            xaxis={"title": {"text": f"Chunk size ({view.unit})"}, "type": "category"},
            yaxis={
                "title": {"text": "Chunks"},
                "rangemode": "tozero",
                "range": [0, max(top, MAX_CHUNKS if show_limit else top, 1) * 1.18],
            },
        )
        if show_limit:
            layout["shapes"] = [
                {
                    "type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": MAX_CHUNKS,
                    "y1": MAX_CHUNKS, "line": {"color": c["over"], "dash": "dash", "width": 1.5},
                }
            ]  # fmt: skip
            layout["annotations"] = [
                {
                    "xref": "paper", "x": 0, "y": MAX_CHUNKS, "xanchor": "left",
                    "yanchor": "bottom", "text": f"{number(MAX_CHUNKS)}-chunk limit",
                    "showarrow": False,
                    "font": {"color": c["over"]}, "bgcolor": c["label_bg"],
                }
            ]  # fmt: skip
        plot(chart, data, layout)
        if any(notes(view)):
            self._annotate()

    def _annotate(self) -> None:
        """The damage and evidence notes on the drawn bars (Plotly.restyle) and in words."""
        chart = by_id("tradeoff-chart")
        view = self.view
        tradeoffs = view.tradeoffs
        if self.last is None or chart.hidden or not tradeoffs:
            return
        damage, evidence = notes(view)
        hover = []
        texts = []
        for t in tradeoffs:
            lines = [damage.get(t.size, "")]
            count = number(t.count) + (" (over limit)" if t.count > MAX_CHUNKS else "")
            if t.size in evidence:
                lines.append(f"evidence kept whole: {evidence[t.size]}")
                count += f"<br>{evidence[t.size].replace(' of ', '/')} ✓"  # kept whole
            hover.append("<br>".join(line for line in lines if line))
            texts.append(count)
        top = max(t.count for t in tradeoffs)
        limit = MAX_CHUNKS if top >= MAX_CHUNKS / 2 else top
        window.Plotly.update(
            chart,
            window.JSON.parse(
                json.dumps(
                    {
                        "customdata": [hover],
                        "text": [texts],
                        "hovertemplate": "size %{x}<br>%{y} chunks<br>%{customdata}<extra></extra>",
                    }
                )
            ),
            # room above the bars for a second line of text
            window.JSON.parse(
                json.dumps({"yaxis.range": [0, max(top, limit, 1) * (1.32 if evidence else 1.18)]})
            ),
        )
        said = described(view)
        if damage:
            said += (
                " Damage: "
                + "; ".join(
                    f"size {number(t.size)}: {damage[t.size]}"
                    for t in tradeoffs
                    if t.size in damage
                )
                + "."
            )
        if evidence:
            said += (
                " Evidence kept whole: "
                + "; ".join(
                    f"size {number(t.size)}: {evidence[t.size]}"
                    for t in tradeoffs
                    if t.size in evidence
                )
                + "."
            )
        set_text("tradeoff-text", said)


def described(view: TradeoffView) -> str:
    """The bars' figures as text, for screen readers and tests (and the limit when
    off-scale), before any note is added to them."""
    if not view.tradeoffs:
        return "No comparison: see Chunk readiness."
    parts = [
        f"size {number(t.size)}{' (current)' if t.size == view.current else ''}: "
        f"{number(t.count)} chunks{' (over the limit)' if t.count > MAX_CHUNKS else ''}"
        for t in view.tradeoffs
    ]
    return f"Sizes in {view.unit}: " + "; ".join(parts) + f". Limit: {number(MAX_CHUNKS)} chunks."

"""Chart colours for the page's colour scheme (prefers-color-scheme), light or dark.

The CSS follows the scheme by itself; Plotly draws with colours given in its layout, so
the charts ask here and are redrawn when the scheme changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dom import on
from js import window

_QUERY = "(prefers-color-scheme: dark)"

LIGHT = {
    "name": "light",
    "ink": "#1d2330",
    "grid": "#d9dde5",
    "bar": "#8fb3da",
    "current": "#1f5fa8",
    "over": "#b3261e",
    "label_bg": "rgba(255,255,255,0.9)",
}
DARK = {
    "name": "dark",
    "ink": "#e4e8f0",
    "grid": "#3a4252",
    "bar": "#5d86b8",
    "current": "#9cc3f5",
    "over": "#ff8a80",
    "label_bg": "rgba(24,28,36,0.9)",
}


def colours() -> dict[str, str]:
    return DARK if window.matchMedia(_QUERY).matches else LIGHT


def _axis(colours: dict[str, str]) -> dict[str, Any]:
    """What every axis shares: ink for text and lines, a faint grid."""
    return {
        "color": colours["ink"],
        "gridcolor": colours["grid"],
        "linecolor": colours["grid"],
        "zerolinecolor": colours["grid"],
    }


def layout(
    colours: dict[str, str],
    *,
    left: int,
    xaxis: dict[str, Any],
    yaxis: dict[str, Any],
    **extra: Any,
) -> dict[str, Any]:
    """A chart's Plotly layout: what the charts share (260 px tall, transparent ground, the
    page's font in the scheme's ink, axes in ink on a faint grid, no legend), the left
    margin its tick labels need, its own axis settings and anything else it draws."""
    return {
        "margin": {"l": left, "r": 16, "t": 28, "b": 48},
        "height": 260,
        "xaxis": {**_axis(colours), **xaxis},
        "yaxis": {**_axis(colours), **yaxis},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "font": {"family": "system-ui, sans-serif", "size": 12, "color": colours["ink"]},
        "showlegend": False,
        **extra,
    }


def on_change(redraw: Callable[[], Any]) -> None:
    """Call ``redraw`` when the system switches between light and dark."""
    on(window.matchMedia(_QUERY), "change", lambda _event: redraw())

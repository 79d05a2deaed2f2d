"""The distance curve under the chunk map, in Semantic mode (data: app/semantic.py).

Shown from the result alone: a Semantic result's sentences, distances, threshold and
breakpoints (``chunker_py.modes.semantic.profile``, from the distances the result was cut
with, so nothing is embedded here); hidden for every other mode and without a result.
Redrawn only when the curve changes (Plotly.react costs ~15 ms).
"""

from __future__ import annotations

from dom import by_id, plot
from semantic import Curve, curve, figure

import chunker_py
from chunker_py.modes.semantic import profile
from chunker_py.pipeline.cache import text_index


class DistanceCurve:
    def __init__(self) -> None:
        self.last: Curve | None = None

    def show(self, result: chunker_py.Analysis | None) -> None:
        box = by_id("semantic-curve")
        if result is None or result.settings.mode != "semantic" or not result.spans:
            box.hidden = True
            return
        settings = result.settings
        found = profile(text_index(result.text), settings.options())
        data = curve(result.text, found, settings.get("breakpoint"))
        box.hidden = False
        if data == self.last:
            return
        self.last = data
        drawn = figure(data)
        plot(by_id("semantic-curve-plot"), drawn["data"], drawn["layout"])

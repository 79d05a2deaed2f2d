"""``bench_page.py --profile``: timers around the page's update phases.

bench_page.py inserts this file's source into the *copy* of app/main.py it serves (never
the repository's), just before ``inspector.start()``, followed by
``install_profile(inspector, performance)``; main.py supplies both names (the app's
inspector module and the page's ``performance`` object). So the file has no
``from __future__`` import and no top-level code besides definitions. Each target is looked
up by name and skipped when the app no longer has it, so a change of the app shortens the
profile instead of breaking the page. One JSON record per update goes to
``window.ciPhases`` (created by bench_page.py's JS_TIMERS).
"""

import importlib
import json
import time
from collections.abc import Callable
from typing import Any

# (module, attribute path) of each timed step: the panels' show methods and chunker_py's
# internal steps
PROFILED = [
    ("source", "Source.current"),
    ("source", "Source.show_count"),
    ("settings", "Controls.read"),
    ("settings", "Controls.show"),
    ("readiness", "Readiness.show"),
    ("summary", "Figures.show"),
    ("preview", "Preview.show"),
    ("preview", "to_json"),
    ("records", "Records.show"),
    ("records", "to_json"),
    ("chart", "TradeoffChart.show"),
    ("histogram", "SizesChart.show"),
    ("chunkmap", "ChunkMap.show"),
    ("export", "Export.show"),
    ("chunker_py.pipeline.cache", "TextIndex"),
    ("chunker_py.pipeline.analysis", "tradeoffs"),
    ("chunker_py.pipeline.analysis", "summarise"),
    ("chunker_py.pipeline.analysis", "over_size_warnings"),
    ("chunker_py.pipeline.analysis", "build_chunks"),
]


def install_profile(inspector: Any, performance: Any) -> None:
    """Wrap the update phases with timers; push one JSON record per Page.update."""
    import js  # Pyodide's bridge to the page

    phase: dict[str, float] = {}

    def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                phase[name] = phase.get(name, 0.0) + (time.perf_counter() - t0) * 1000

        return wrapper

    for module_name, path in PROFILED:
        try:
            owner = importlib.import_module(module_name)
            *parents, attr = path.split(".")
            for parent in parents:
                owner = getattr(owner, parent)
            setattr(owner, attr, timed(f"{module_name}.{path}", getattr(owner, attr)))
        except (ImportError, AttributeError):
            pass
    # inspector's own names (imported with `from chunker_py import ...`)
    for name in ("parse_settings", "analyse"):
        if hasattr(inspector, name):
            setattr(inspector, name, timed(name, getattr(inspector, name)))
    update = inspector.Page.update

    def update_timed(self: Any) -> Any:
        phase.clear()
        t0 = time.perf_counter()
        try:
            return update(self)
        finally:
            phase["Page.update total"] = (time.perf_counter() - t0) * 1000
            phase["_start"] = performance.now()
            js.ciPhases.push(json.dumps(phase))

    inspector.Page.update = update_timed

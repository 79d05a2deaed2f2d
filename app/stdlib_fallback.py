"""The page's standard library is a zip limited to what the page imports (sitebuild/stdlib.py
records it at build time); this finder brings the whole one when Python imports a module
outside it.

Pyodide mounts the page's trimmed zip as its standard library, at the same path as the
full one (``/lib/python3XY.zip``, on ``sys.path``). This finder sits at the end of
``sys.meta_path``: it is asked only after the usual finders found nothing, and acts only
for a module of the full standard library that the trimmed zip left out (``names``, written
by the build), so an optional import that fails anyway (``try: import x``) costs nothing.
Then it asks the page for the full zip, once: static/interpreter.js's
``chunkInspectorFullStdlib`` fetches it (synchronously: an import cannot wait), writes it
beside the trimmed one and returns its path, and the usual path finder looks there — for
a package of the trimmed zip, in the same folder of the full one. The trimmed zip stays
mounted as it is: the start-up snapshot holds zipimport's listing of it.

Imported in the snapshot (an app module) and installed there by
sitebuild/snapshot_imports.py; on a normal boot interpreter.js installs it after unpacking
lib.zip, before PyScript runs any Python.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType


def _from_page() -> str:
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to the page

    return str(js.chunkInspectorFullStdlib())


class FullStdlibOnDemand:
    """Finds ``names`` (modules only in the full standard library) in the full zip, which
    ``fetch_full`` (called once) makes available and returns the path of."""

    def __init__(
        self, trimmed: str, names: Iterable[str], fetch_full: Callable[[], str] = _from_page
    ) -> None:
        self.trimmed = trimmed
        self.names = frozenset(names)
        self.fetch_full = fetch_full
        self.full: str | None = None
        self.misses: list[str] = []  # the modules it was asked for (the tests read them)

    def _where(self, path: Sequence[str] | None, full: str) -> list[str]:
        if path is None:
            return [full]
        inside = [p for p in path if p == self.trimmed or p.startswith(self.trimmed + "/")]
        return [full + p[len(self.trimmed) :] for p in inside]

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        if path is not None and not self._where(path, ""):
            return None  # a package of another place (the bundle) has no such submodule here
        self.misses.append(fullname)
        if self.full is None:
            self.full = self.fetch_full()
        return PathFinder.find_spec(fullname, self._where(path, self.full), target)


def trimmed_zip() -> str:
    """The standard library's zip on sys.path (``/lib/python3XY.zip``)."""
    return next(p for p in sys.path if p.startswith("/lib/python") and p.endswith(".zip"))


def install(names: Iterable[str]) -> FullStdlibOnDemand:
    """Append the finder to sys.meta_path (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, FullStdlibOnDemand):
            return finder
    finder = FullStdlibOnDemand(trimmed_zip(), names)
    sys.meta_path.append(finder)
    return finder

"""The page's import hooks: app.zip unpacked at the first import of one of its modules
(UnpackOnDemand), and the whole standard library for a module outside the page's own
(FullStdlibOnDemand). Both boots install them with ``install``: the snapshot has them in
its heap (sitebuild/snapshot_imports.py), a normal boot installs them from lib.zip
(static/interpreter.js), before PyScript runs any Python.

The page's standard library is a zip limited to what the page imports (recorded at build
time by sitebuild/snapshot_imports.py, record_stdlib); FullStdlibOnDemand brings the whole
one when Python imports a module outside it.

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
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType


class UnpackOnDemand:
    """A meta path finder that, at the first import of one of ``names``, asks the page to
    unpack app.zip (static/interpreter.js's ``chunkInspectorUnpack``) and then lets the
    usual finders look. It removes itself first, so it acts once."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        sys.meta_path.remove(self)
        import js  # Pyodide's bridge to the page

        unpack = getattr(js, "chunkInspectorUnpack", None)
        if unpack is not None:
            unpack()
        return None


def _from_page() -> str:
    import js  # Pyodide's bridge to the page

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


def install(lazy: Iterable[str], stdlib_rest: Iterable[str]) -> None:
    """Put UnpackOnDemand for ``lazy`` first on sys.meta_path and FullStdlibOnDemand for
    ``stdlib_rest`` last."""
    sys.meta_path.insert(0, UnpackOnDemand(lazy))
    sys.meta_path.append(FullStdlibOnDemand(trimmed_zip(), stdlib_rest))

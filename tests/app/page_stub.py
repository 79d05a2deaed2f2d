"""Import the page's modules (app/, flat) in CPython over stand-ins for Pyodide's ``js``
and ``pyodide.ffi``: the test's ``window`` and a ``document`` whose ``getElementById``
is ``element``. The modules are imported afresh and dropped from ``sys.modules`` after,
so each test file gets its own, bound to its own stand-ins."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

APP = Path(__file__).resolve().parents[2] / "app"


class Element:
    """A page element as the panels set it: its text, hidden or not, its attributes."""

    def __init__(self) -> None:
        self.textContent = ""
        self.hidden = False
        self.attributes: dict[str, str] = {}

    def setAttribute(self, name: str, value: str) -> None:
        self.attributes[name] = value

    def replaceChildren(self) -> None:
        self.textContent = ""


def import_page(names: tuple[str, ...], window: Any, element: Callable[[str], Any]) -> list[Any]:
    js = types.ModuleType("js")
    js.document = types.SimpleNamespace(getElementById=element)  # type: ignore[attr-defined]
    js.window = window  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = ffi.create_once_callable = lambda f: f  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    saved = {name: sys.modules.get(name) for name in ("js", "pyodide", "pyodide.ffi")}
    sys.modules.update({"js": js, "pyodide": pyodide, "pyodide.ffi": ffi})
    page = [p.stem for p in APP.glob("*.py")]
    for name in page:
        sys.modules.pop(name, None)
    sys.path.insert(0, str(APP))
    try:
        return [__import__(name) for name in names]
    finally:
        sys.path.remove(str(APP))
        for name in page:
            sys.modules.pop(name, None)
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module

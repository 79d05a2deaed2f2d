"""Import the page's modules (app/, flat) in CPython over stand-ins for Pyodide's ``js``
and ``pyodide.ffi``: the test's ``window`` and a ``document`` whose ``getElementById``
is ``element``. The modules are imported afresh and dropped from ``sys.modules`` after,
so each test file gets its own, bound to its own stand-ins."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

APP = Path(__file__).resolve().parents[3] / "app"


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


class Quiet:
    """A stand-in for a page script (render.js, chunkmap.js, Plotly): the calls it does
    not define do nothing."""

    def __getattr__(self, _name: str) -> Callable[..., None]:
        return lambda *_args: None


def import_page(
    names: tuple[str, ...], window: Any, element: Callable[[str], Any], document: Any = None
) -> list[Any]:
    js = types.ModuleType("js")
    js.document = document or types.SimpleNamespace(getElementById=element)  # type: ignore[attr-defined]
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


class Node(Element):
    """A page element with children, classes, data attributes and the few selectors the
    panels use (``:scope > tr[data-index="3"]``, ``.map-chunk.selected``, ``:scope >
    .selected``): enough of a DOM to read what a panel marked, as a user would see it."""

    def __init__(self, tag: str = "div") -> None:
        super().__init__()
        self.tag = tag
        self.children: list[Node] = []
        self.classes: set[str] = set()
        self.dataset = types.SimpleNamespace()
        self.value = ""
        self.checked = self.disabled = False
        self.focused = False

    @property
    def classList(self) -> Any:
        classes = self.classes
        return types.SimpleNamespace(
            add=classes.add,
            remove=classes.discard,
            contains=classes.__contains__,
            toggle=lambda name, on=None: (classes.add if on else classes.discard)(name),
        )

    def replaceChildren(self, *nodes: Any) -> None:
        super().replaceChildren()
        self.children = list(nodes)

    def append(self, *nodes: Any) -> None:
        self.children += [n for n in nodes if isinstance(n, Node)]

    def addEventListener(self, *_args: Any) -> None:
        pass

    def removeAttribute(self, name: str) -> None:
        self.attributes.pop(name, None)

    def scrollIntoView(self, *_args: Any) -> None:
        pass

    def focus(self, *_args: Any) -> None:
        self.focused = True

    def querySelectorAll(self, selector: str) -> list[Node]:
        direct = selector.startswith(":scope > ")
        match = re.fullmatch(
            r'(\w*)((?:\.[\w-]+)*)(?:\[data-index="(\d+)"\])?', selector[9 * direct :]
        )
        assert match is not None, selector
        tag, classes, index = match.groups()
        wanted = set(classes.split(".")) - {""}
        nodes = self.children if direct else self._descendants()
        return [
            n
            for n in nodes
            if (not tag or n.tag == tag)
            and wanted <= n.classes
            and (index is None or getattr(n.dataset, "index", None) == index)
        ]

    def querySelector(self, selector: str) -> Node | None:
        nodes = self.querySelectorAll(selector)
        return nodes[0] if nodes else None

    def _descendants(self) -> list[Node]:
        return [d for c in self.children for d in (c, *c._descendants())]


def item(tag: str, index: int, *classes: str) -> Node:
    """A drawn item of chunk ``index`` (what static/render.js or chunkmap.js makes)."""
    node = Node(tag)
    node.dataset.index = str(index)
    node.classes.update(classes)
    return node

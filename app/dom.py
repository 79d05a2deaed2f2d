"""The page's small DOM vocabulary, shared by the panel modules.

Only app/ touches the DOM. Text is always set with ``textContent``; bulk rendering goes
through static/render.js, which builds elements from JSON with ``textContent`` too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_once_callable, create_proxy
from pyscript import document, window

_proxies: list[Any] = []  # event handlers must outlive the call that registered them


def by_id(element_id: str) -> Any:
    element = document.getElementById(element_id)
    if element is None:
        raise LookupError(f"#{element_id} is missing from index.html")
    return element


def on(element: Any, event: str, handler: Callable[..., Any]) -> None:
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    element.addEventListener(event, proxy)


def set_text(element_id: str, text: str) -> None:
    by_id(element_id).textContent = text


def render() -> Any:
    """static/render.js's builders (rows, preview, download)."""
    return window.ciRender


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def before_next_frame(handler: Callable[[], Any]) -> None:
    """Run ``handler`` just before the browser next renders: all events of a burst (a
    multi-line fill, fast typing) are handled first, and a keystroke costs one frame."""
    window.requestAnimationFrame(create_once_callable(lambda _time: handler()))


def after_paint(handler: Callable[[], Any], delay_ms: int = 0) -> Any:
    """Run ``handler`` in a task after the next frame has been painted (plus ``delay_ms``);
    returns the timer id (for clearTimeout) through a holder list."""
    timer: list[Any] = []

    def later(_time: Any) -> None:
        timer.append(window.setTimeout(create_once_callable(handler), delay_ms))

    window.requestAnimationFrame(create_once_callable(later))
    return timer


async def copy_text(text: str, what: str, status_id: str) -> None:
    """Put ``text`` on the clipboard and say so (or that the browser refused) in the
    status line ``status_id``."""
    from pyodide.ffi import JsException

    try:
        await window.navigator.clipboard.writeText(text)
    except JsException:  # the browser may refuse clipboard access: say so
        set_text(status_id, f"{what} could not be copied: the browser refused clipboard access.")
        return
    set_text(status_id, f"{what} copied to the clipboard.")


def number(value: int) -> str:
    return f"{value:,}"


class Windowed:
    """A panel listing the first ``first`` chunks, and all of them on request.

    Laying out 2,000 long items on every keystroke would make typing lag; downloads always
    hold every record.
    """

    first = 100
    more_id = ""
    noun = "chunks"

    def __init__(self) -> None:
        self.show_all = False
        self.analysis: Any = None
        # "Show damaged chunks only": the indices to show, or None for every chunk
        self.only: list[int] | None = None

    def wire(self) -> None:
        on(by_id(self.more_id), "click", self._toggle)

    def _toggle(self, _event: Any) -> None:
        self.show_all = not self.show_all
        self.show(self.analysis)

    def show(self, analysis: Any) -> None:
        raise NotImplementedError

    def window(self, analysis: Any) -> tuple[int, tuple[Any, ...]]:
        """The total number of chunks and the records to show now."""
        self.analysis = analysis
        if analysis is None:
            return 0, ()
        if self.only is not None:
            picked = self.only if self.show_all else self.only[: self.first]
            built = analysis.chunk_window(0, picked[-1] + 1) if picked else ()
            return len(self.only), tuple(built[i] for i in picked)
        total = len(analysis.spans)
        return total, analysis.chunk_window(0, total if self.show_all else self.first)

    def offer_more(self, total: int) -> None:
        more = by_id(self.more_id)
        more.hidden = total <= self.first
        more.textContent = (
            f"Show the first {self.first} {self.noun} only"
            if self.show_all
            else f"Show all {number(total)} {self.noun}"
        )

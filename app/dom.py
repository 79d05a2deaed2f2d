"""The page's small DOM vocabulary, shared by the panel modules.

Only app/ touches the DOM. Text is always set with ``textContent``; bulk rendering goes
through static/render.js, which builds elements from JSON with ``textContent`` too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from js import document, window
from pyodide.ffi import create_once_callable, create_proxy

# The symbol shown for each whitespace character (the preview's Show whitespace, the
# chunk map's omitted characters): decided here, drawn by static/render.js and chunkmap.js.
WHITESPACE = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽"}

_proxies: list[Any] = []  # event handlers must outlive the call that registered them


_elements: dict[str, Any] = {}


def found(node: Any) -> Any:
    """``node``, or None where JavaScript gave null: Pyodide converts null to its own
    ``jsnull`` (not None), so ``closest``/``querySelector`` results go through here."""
    return None if node is None or type(node).__name__ == "JsNull" else node


def by_id(element_id: str) -> Any:
    """The element with ``element_id``; index.html's elements stay for the page's life, so
    each is looked up once (a call into JavaScript costs more than the dict)."""
    element = _elements.get(element_id)
    if element is None:
        element = found(document.getElementById(element_id))
        if element is None:
            raise LookupError(f"#{element_id} is missing from index.html")
        _elements[element_id] = element
    return element


def on(element: Any, event: str, handler: Callable[..., Any]) -> None:
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    element.addEventListener(event, proxy)


def share_whitespace_symbols() -> None:
    """Hand WHITESPACE to the page's drawing scripts (once, before anything is drawn)."""
    window.ciWhitespace = window.JSON.parse(to_json(WHITESPACE))


def element(tag: str, text: str = "", cls: str = "") -> Any:
    """A new ``tag`` element with ``text`` as its textContent and ``cls`` as its class (the
    Python side's element maker; static/render.js's ``make`` is the script side's)."""
    node = document.createElement(tag)
    if text:
        node.textContent = text
    if cls:
        node.className = cls
    return node


def set_text(element_id: str, text: str) -> None:
    by_id(element_id).textContent = text


def render() -> Any:
    """static/render.js's builders (rows, preview, download)."""
    return window.ciRender


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def plot(element: Any, data: Any, layout: Any) -> None:
    """Draw (or redraw in place) a Plotly chart from plain Python data."""
    config = {"displayModeBar": False, "responsive": True}
    data, layout, config = (window.JSON.parse(to_json(x)) for x in (data, layout, config))
    window.Plotly.react(element, data, layout, config)


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


def decimal(value: float) -> str:
    """One decimal place, thousands grouped (1,431.2), rounded as the core's displays."""
    return f"{value:,.1f}"


@dataclass(frozen=True)
class ListView:
    """What a list panel shows of one result: the result, the chunks to list (their
    indices while "Show damaged chunks only" is on, None for all), whether the token
    counts are in (the tokenizer's tables loaded), whether every chunk's tokens are
    counted (after the paint), the result's damage once computed after the paint (None
    until then: the damage words shown stay, dimmed) and, once the Evidence check has
    found it, per chunk index the questions whose evidence the chunk holds, in words (None
    until then: no evidence words are shown, an earlier text's would be stale), and the
    chunk chosen in the chunk map or the Evidence check (``selected``: its item is marked;
    the page keeps it while the text and the spans stay the same). The page makes one per
    result; panels never set each other's."""

    analysis: Any = None
    only: tuple[int, ...] | None = None
    tokens_ready: bool = False
    counted: bool = False
    damage: Any = None
    evidence: Mapping[int, str] | None = None
    selected: int | None = None


class Windowed:
    """A panel listing the first ``first`` chunks, and all of them on request.

    Laying out 2,000 long items on every keystroke would make typing lag; downloads always
    hold every record. A subclass's ``draw`` builds the items; ``show`` skips it when the
    list already shows exactly what the new result would draw.
    """

    first = 100
    more_id = ""
    noun = "chunks"
    keeps_items = False  # whether ``draw`` gets only the items after the ``kept`` first
    list_id = ""  # the element holding the items, and each item's tag
    item_tag = "li"
    scroll_to = "nearest"  # where a chosen item is scrolled to in its box
    focus_chosen = False  # whether a chosen item takes the focus

    def __init__(self) -> None:
        self.show_all = False
        self.view = ListView()
        self.drawn: tuple[Any, ...] | None = None  # what the list was last drawn from
        self.listed: tuple[int, ...] = ()  # the chunk indices the list shows
        # how many of the first items the next ``draw`` keeps as they are (a subclass
        # that sets ``keeps_items`` builds only the rest, see ``_unchanged``)
        self.kept = 0
        self.marked: int | None = None  # the chunk whose item is marked as the selection

    def wire(self) -> None:
        on(by_id(self.more_id), "click", self._toggle)

    @property
    def analysis(self) -> Any:
        return self.view.analysis

    @property
    def only(self) -> tuple[int, ...] | None:
        return self.view.only

    def _toggle(self, _event: Any) -> None:
        self.show_all = not self.show_all
        self.show(self.view)

    def reveal(self, index: int) -> None:
        """List chunk ``index`` too when it is listable but past the first ``first``."""
        only = self.view.only
        position = index if only is None else (only.index(index) if index in only else None)
        if position is not None and position >= self.first and not self.show_all:
            self.show_all = True
            self.show(self.view)

    def bring_to(self, index: int) -> bool:
        """Chunk ``index`` chosen: listed (``reveal``), its item scrolled into view (and
        focused, if ``focus_chosen``); False when it is not listed ("Show damaged chunks
        only")."""
        self.reveal(index)
        item = self.item(index)
        if item is None:
            return False
        if self.focus_chosen:
            item.tabIndex = -1
        item.scrollIntoView(window.JSON.parse(to_json({"block": self.scroll_to})))
        if self.focus_chosen:
            item.focus(window.JSON.parse('{"preventScroll": true}'))
        return True

    def item(self, index: int) -> Any:
        """The item of chunk ``index``, or None when it is not listed."""
        listing = by_id(self.list_id)
        return found(listing.querySelector(f':scope > {self.item_tag}[data-index="{index}"]'))

    def _mark(self, selected: int | None) -> None:
        """Mark the selection's item (items drawn again come without the mark)."""
        if selected is None and self.marked is None:
            return
        for node in by_id(self.list_id).querySelectorAll(":scope > .selected"):
            node.classList.remove("selected")
        item = self.item(selected) if selected is not None else None
        if item is not None:
            item.classList.add("selected")
        self.marked = selected

    def extra(self, analysis: Any) -> Any:
        """What else than the chunks' spans and text the items show (a subclass's)."""
        return None

    def draw(self, analysis: Any, total: int, chunks: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def caption(self, total: int, shown: int) -> None:
        """Texts that depend on the counts only (set on every result)."""

    def show(self, view: ListView) -> None:
        self.view = view
        analysis = view.analysis
        total, picked = self._pick(analysis)
        # Typing after the shown chunks (e.g. at the end of a long text) changes none of
        # them: the same chunks, spans and text up to the last one's end draw the same.
        drawn = None
        if analysis is not None:
            spans = analysis.spans[: picked[-1] + 1] if picked else ()
            reach = spans[-1].end if spans else 0  # span ends never decrease
            drawn = (analysis.text[:reach], spans, picked, self.extra(analysis))
        if drawn is None or drawn != self.drawn:
            self.kept = self._unchanged(drawn, picked) if self.keeps_items else 0
            self.draw(analysis, total, self._chunks(analysis, picked[self.kept :]))
        self.drawn = drawn
        self.listed = picked
        self._mark(view.selected)
        self.caption(total, len(picked))
        self.offer_more(total)

    def forget(self) -> None:
        """Draw again on the next show (how the items look has changed)."""
        self.drawn = None

    def _unchanged(self, drawn: tuple[Any, ...] | None, picked: tuple[int, ...]) -> int:
        """How many of the first items listed now were drawn, the same, last time.

        An item is drawn from its chunk's span, the spans before it (overlap, gap) and the
        text up to its end (heading path, context prefix), besides ``extra``: where all of
        those are as they were, so is the item. An edit changes the items from the chunk
        it falls in on (offsets after it move), so the ones before it are kept.
        """
        old = self.drawn
        if old is None or drawn is None or old[3] != drawn[3]:
            return 0
        old_text, old_spans, old_picked = old[0], old[1], old[2]
        text, spans = drawn[0], drawn[1]
        same = 0  # spans[:same] are the old ones
        limit = min(len(old_spans), len(spans))
        while same < limit and spans[same] == old_spans[same]:
            same += 1
        # the longest of those whose text is unchanged up to its end: binary search (a
        # prefix that differs stays different when longer)
        low, high = 0, same
        while low < high:
            middle = (low + high + 1) // 2
            reach = spans[middle - 1].end
            if text[:reach] == old_text[:reach]:
                low = middle
            else:
                high = middle - 1
        kept = 0
        limit = min(len(old_picked), len(picked))
        while kept < limit and picked[kept] == old_picked[kept] and picked[kept] < low:
            kept += 1
        return kept

    def _pick(self, analysis: Any) -> tuple[int, tuple[int, ...]]:
        """The number of chunks listable and the indices of those to show now."""
        if analysis is None:
            return 0, ()
        if self.only is not None:
            wanted = self.only if self.show_all else self.only[: self.first]
            return len(self.only), tuple(wanted)
        total = len(analysis.spans)
        return total, tuple(range(total if self.show_all else min(total, self.first)))

    @staticmethod
    def _chunks(analysis: Any, picked: tuple[int, ...]) -> tuple[Any, ...]:
        if not picked:
            return ()
        first = picked[0]
        built = analysis.chunk_window(first, picked[-1] + 1)
        if len(picked) == len(built):  # first..last: every chunk between
            return tuple(built)
        return tuple(built[i - first] for i in picked)

    def offer_more(self, total: int) -> None:
        more = by_id(self.more_id)
        more.hidden = total <= self.first
        more.textContent = (
            f"Show the first {self.first} {self.noun} only"
            if self.show_all
            else f"Show all {number(total)} {self.noun}"
        )

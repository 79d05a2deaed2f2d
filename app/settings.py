"""Settings panel: mode, chunk size, overlap, edges and (Advanced) separators and source name.

Controls hold raw text; ``chunker_py.parse_settings`` decides what is valid, so the page
shows exactly the messages the CLI and share links use.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from dom import by_id, on
from pyscript import document, window

from chunker_py import DEFAULT_SEPARATORS, MAX_CHUNK_SIZE, Settings, settings_to_fragment

FIELD_INPUTS = {
    "chunk_size": "chunk-size",
    "chunk_overlap": "chunk-overlap",
    "separators": "separators",
    "source_name": "source-name",
    "mode": "mode-recursive",
    "edges": "edges-trim",
}


def separators_text(separators: tuple[str, ...]) -> str:
    """The separator list as the JSON the field shows, escapes such as \\n visible."""
    return json.dumps(list(separators), ensure_ascii=False)


def _checked(name: str) -> str:
    return str(document.querySelector(f'input[name="{name}"]:checked').value)


def read_raw() -> dict[str, object]:
    """The controls' current values, unparsed."""
    return {
        "mode": _checked("mode"),
        "chunk_size": by_id("chunk-size").value,
        "chunk_overlap": by_id("chunk-overlap").value,
        "edges": _checked("edges"),
        "separators": by_id("separators").value,
        "source_name": by_id("source-name").value,
    }


def apply(settings: Settings) -> None:
    """Show ``settings`` in the controls (used for share links)."""
    by_id(f"mode-{settings.mode}").checked = True
    by_id(f"edges-{settings.edges}").checked = True
    by_id("chunk-size").value = str(settings.chunk_size)
    by_id("chunk-overlap").value = str(settings.chunk_overlap)
    by_id("separators").value = separators_text(settings.separators)
    by_id("source-name").value = settings.source_name
    sync_sliders()


def _whole(value: str) -> int | None:
    value = value.strip()
    return int(value) if value.isascii() and value.isdigit() else None


def sync_sliders(source: str | None = None) -> None:
    """Keep each slider and its number field showing the same value."""
    size_field, size_slider = by_id("chunk-size"), by_id("chunk-size-slider")
    overlap_field, overlap_slider = by_id("chunk-overlap"), by_id("chunk-overlap-slider")
    if source == "chunk-size-slider":
        size_field.value = size_slider.value
    if source == "chunk-overlap-slider":
        overlap_field.value = overlap_slider.value
    size = _whole(str(size_field.value))
    if size is not None and 1 <= size <= MAX_CHUNK_SIZE:
        size_slider.value = str(size)
        overlap_slider.max = str(max(size - 1, 0))
    overlap = _whole(str(overlap_field.value))
    if overlap is not None:
        overlap_slider.value = str(overlap)


def mark_invalid(field: str | None) -> None:
    """Flag the control a message concerns (aria-invalid), and only that one."""
    for key, element_id in FIELD_INPUTS.items():
        element = by_id(element_id)
        if key == field:
            element.setAttribute("aria-invalid", "true")
        else:
            element.removeAttribute("aria-invalid")


def show_separator_summary(settings: Settings | None) -> None:
    """Beneath the field: the list in words, so an empty or space separator is visible."""
    names = {"\n\n": "two line feeds", "\n": "line feed", " ": "space", "": "single code points"}
    if settings is None:
        return
    parts = [names.get(s, json.dumps(s, ensure_ascii=False)) for s in settings.separators]
    by_id("separators-summary").textContent = "Order: " + " → ".join(parts)


def update_link(settings: Settings) -> None:
    """Keep the page's address equal to the share link (fragment only, no navigation)."""
    fragment = settings_to_fragment(settings)
    if window.location.hash != fragment:
        window.history.replaceState(None, "", fragment)


def wire(changed: Callable[[], Any]) -> None:
    """Call ``changed`` after any edit of a setting."""
    for element_id in ("chunk-size", "chunk-overlap", "separators", "source-name"):
        on(by_id(element_id), "input", lambda _event: _edited(changed))
    for element_id in ("chunk-size-slider", "chunk-overlap-slider"):
        on(by_id(element_id), "input", lambda event: _edited(changed, str(event.target.id)))
    for element_id in ("mode-recursive", "mode-fixed", "edges-trim", "edges-preserve"):
        on(by_id(element_id), "change", lambda _event: changed())

    def reset(_event: Any) -> None:
        by_id("separators").value = separators_text(DEFAULT_SEPARATORS)
        changed()

    on(by_id("separators-reset"), "click", reset)


def _edited(changed: Callable[[], Any], source: str | None = None) -> None:
    sync_sliders(source)
    changed()

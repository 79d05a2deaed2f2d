"""Settings panel: the controls that build.py generated from chunker_py's FIELDS.

Controls hold raw text; ``chunker_py.parse_settings`` decides what is valid, so the page
shows exactly the messages the CLI and share links use. Which controls show follows the
mode registry: a field used by other modes only is hidden, the overlap is disabled where
chunks never overlap, and Separators is disabled while a language preset is chosen.
``Controls`` is the panel; after each update it shows a ``ControlsView``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dom import by_id, on
from js import document, window

from chunker_py import FIELDS, MODES, ChunkerError, Settings
from chunker_py.config.links import settings_to_fragment
from chunker_py.config.settings import DEFAULT_SEPARATORS, DEPENDS
from chunker_py.engine.fields import Field as FieldInfo
from chunker_py.engine.fields import read_whole
from chunker_py.pipeline.units import size_unit_name

MAX_CHUNK_SIZE = FIELDS["chunk_size"].high


def separators_text(separators: tuple[str, ...]) -> str:
    """The separator list as the JSON the field shows, escapes such as \\n visible."""
    return json.dumps(list(separators), ensure_ascii=False)


def _checked(name: str) -> str:
    return str(document.querySelector(f'input[name="{name}"]:checked').value)


def _read(field: FieldInfo) -> object:
    if field.widget == "radio":
        return _checked(field.element_id)
    element = by_id(field.element_id)
    if field.widget == "checkbox":
        return field.text(bool(element.checked))
    return str(element.value)


def _whole(value: str) -> int | None:
    """The field's whole number as the core reads it (None while it is not one)."""
    try:
        return read_whole(value, "", "", 0, MAX_CHUNK_SIZE)
    except ChunkerError:
        return None


@dataclass(frozen=True)
class ControlsView:
    """What the controls show of one update besides their values: the settings they
    parsed to (None when they did not parse) and the field a message concerns."""

    settings: Settings | None = None
    invalid: str | None = None


class Controls:
    """The settings controls; ``changed`` is called after any edit of a setting."""

    def __init__(self, changed: Callable[[], Any]) -> None:
        self.changed = changed

    def read(self) -> dict[str, object]:
        """The controls' current values, unparsed."""
        return {key: _read(field) for key, field in FIELDS.items()}

    def apply(self, settings: Settings) -> None:
        """Put ``settings`` in the controls (a share link, a comparison row's Use)."""
        for key, field in FIELDS.items():
            value = settings.get(key)
            if field.widget == "radio":
                by_id(f"{field.element_id}-{value}").checked = True
            elif field.widget == "checkbox":
                by_id(field.element_id).checked = bool(value)
            elif field.kind == "list":
                by_id(field.element_id).value = separators_text(tuple(value)) if value else ""
            else:
                by_id(field.element_id).value = field.text(value)
        self.follow(settings.mode)

    def follow(self, mode: str | None = None) -> None:
        """Make the sliders and the mode's controls follow the values in the controls."""
        self._sync_sliders()
        self._show_mode(mode)

    def show(self, view: ControlsView) -> None:
        self._mark_invalid(view.invalid)
        if view.settings is not None:
            self._show_unit(view.settings)
            self._show_separator_summary(view.settings)
            self._update_link(view.settings)
        else:  # the address never claims settings the controls do not show
            window.history.replaceState(None, "", window.location.pathname)

    def _show_mode(self, mode: str | None = None) -> None:
        """Show the controls the chosen mode uses (and its help); disable what it ignores."""
        mode = mode or _checked("mode")
        if mode not in MODES:
            return
        by_id("mode-help").textContent = MODES[mode].help
        for element in document.querySelectorAll("[data-modes]"):
            used = mode in str(element.dataset.modes).split()
            if element.dataset.field == "chunk_overlap":
                for control in element.querySelectorAll("input"):
                    control.disabled = not used
            else:
                element.hidden = not used
        for key, (other, value) in DEPENDS.items():
            wanted = _read(FIELDS[other]) == value
            by_id(FIELDS[key].element_id).disabled = not wanted
        by_id("numbers-overlap").textContent = (
            "Overlap must be smaller than chunk size."
            if MODES[mode].uses_overlap
            else "This mode never overlaps chunks: Requested overlap is not used."
        )
        # a group of mode options with none for this mode folds away
        group = document.querySelector('[data-group="options"]')
        group.hidden = all(bool(f.hidden) for f in group.querySelectorAll("[data-modes]"))

    @staticmethod
    def _show_unit(settings: Settings) -> None:
        """Beneath Chunk size and Requested overlap: the unit they count in."""
        by_id("numbers-unit").textContent = f"In {size_unit_name(settings)}."

    @staticmethod
    def _sync_sliders(source: str | None = None) -> None:
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

    @staticmethod
    def _mark_invalid(field: str | None) -> None:
        """Flag the control a message concerns (aria-invalid), and only that one."""
        for key, info in FIELDS.items():
            element_id = f"{info.element_id}-{info.default}" if info.widget == "radio" else None
            element = by_id(element_id or info.element_id)
            if key == field:
                element.setAttribute("aria-invalid", "true")
            else:
                element.removeAttribute("aria-invalid")

    @staticmethod
    def _show_separator_summary(settings: Settings) -> None:
        """Beneath the field: the list in words, so an empty or space separator is visible."""
        names = {
            "\n\n": "two line feeds",
            "\n": "line feed",
            " ": "space",
            "": "single code points",
        }
        parts = [names.get(s, json.dumps(s, ensure_ascii=False)) for s in settings.separators]
        summary = by_id("separators-summary")
        if settings.preset != "generic":
            label = FIELDS["preset"].choices[settings.preset]
            summary.textContent = f"Not used: the {label} preset chooses the separators."
        else:
            summary.textContent = "Order: " + " → ".join(parts)

    @staticmethod
    def _update_link(settings: Settings) -> None:
        """Keep the page's address equal to the share link (fragment only, no navigation)."""
        fragment = settings_to_fragment(settings)
        if window.location.hash != fragment:
            window.history.replaceState(None, "", fragment)

    def wire(self) -> None:
        for field in FIELDS.values():
            if field.widget == "radio":
                for value in field.choices:
                    on(by_id(f"{field.element_id}-{value}"), "change", lambda _e: self._chosen())
            elif field.widget in ("select", "checkbox"):
                on(by_id(field.element_id), "change", lambda _e: self._chosen())
            else:
                on(by_id(field.element_id), "input", lambda _event: self._edited())
        for element_id in ("chunk-size-slider", "chunk-overlap-slider"):
            on(by_id(element_id), "input", lambda event: self._edited(str(event.target.id)))
        on(by_id("separators-reset"), "click", self._reset_separators)

    def _reset_separators(self, _event: Any) -> None:
        by_id("separators").value = separators_text(DEFAULT_SEPARATORS)
        self.changed()

    def _chosen(self) -> None:
        self._show_mode()
        self.changed()

    def _edited(self, source: str | None = None) -> None:
        self._sync_sliders(source)
        self.changed()

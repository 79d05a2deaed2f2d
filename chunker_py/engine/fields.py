"""Field definitions: one description per setting, from which every front end is built.

A ``Field`` says how a setting is named, shown, bounded, defaulted and read. The page's
controls (built into index.html by build.py), the CLI's flags and help, the share link and
the property-test strategies all iterate over these definitions and the mode registry, so
a new mode with new options is a new module and a registry entry, nothing else.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import SettingError

Kind = Literal["whole", "choice", "flag", "list", "text"]
Widget = Literal["number", "radio", "select", "checkbox", "text"]
Reader = Callable[[object], Any]

_WHOLE_NUMBER = re.compile(r"[0-9]+")
LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True)
class Field:
    """One setting as users see it, everywhere.

    ``modes`` lists the modes that use it (None: every mode). ``read`` turns a raw value
    (text typed in the page, a link or a CLI argument, or an already typed value) into the
    checked value or raises ``SettingError`` naming this field.
    """

    key: str
    label: str
    kind: Kind
    default: Any
    read: Reader
    help: str = ""
    link: str = ""
    cli: str = ""
    cli_help: str = ""
    low: int = 0
    high: int = 0
    choices: Mapping[str, str] = field(default_factory=dict)
    modes: tuple[str, ...] | None = None
    group: Literal["main", "advanced"] = "main"
    widget: Widget = "text"
    slider: bool = False
    # In the records' settings object (where the mode uses it); False: never (top_k).
    recorded: bool = True
    # Written even at its default in share links, commands and code, so they state the
    # guide's settings and mean the same if a default ever changes.
    always_written: bool = False

    @property
    def link_key(self) -> str:
        return self.link or self.key

    @property
    def flag(self) -> str:
        """The CLI flag; a flag field on by default is turned off with ``--no-…``."""
        if self.cli:
            return self.cli
        name = self.key.replace("_", "-")
        return f"--no-{name}" if self.kind == "flag" and self.default else f"--{name}"

    @property
    def element_id(self) -> str:
        """The page control's id (radios: ``<id>-<value>``)."""
        return self.key.replace("_", "-")

    def used_by(self, mode: str) -> bool:
        return self.modes is None or mode in self.modes

    def text(self, value: Any) -> str:
        """``value`` as a link, a form field or a CLI argument holds it."""
        if value is None:  # an optional setting left empty (Budget)
            return ""
        if self.kind == "flag":
            return "1" if value else "0"
        if self.kind == "list":
            return json.dumps(list(value), ensure_ascii=False)
        return str(value)


def shown(value: object) -> str:
    """A raw value quoted for a message, shortened, with empty fields named as such."""
    if isinstance(value, str) and not value.strip():
        return "an empty field"
    text = value if isinstance(value, str) else repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return repr(text) if isinstance(value, str) else text


def range_message(label: str, low: int, high: int, got: object, extra: str = "") -> str:
    return f"{label} must be a whole number from {low:,} to {high:,}{extra} (got {shown(got)})."


def read_whole(raw: object, key: str, label: str, low: int, high: int, extra: str = "") -> int:
    """A whole number typed by a user: ASCII digits only, within ``[low, high]``."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str) and _WHOLE_NUMBER.fullmatch(raw.strip()):
        value = int(raw.strip())
    else:
        raise SettingError(range_message(label, low, high, raw, extra), field=key)
    if not low <= value <= high:
        raise SettingError(range_message(label, low, high, raw, extra), field=key)
    return value


def whole_reader(key: str, label: str, low: int, high: int) -> Reader:
    return lambda raw: read_whole(raw, key, label, low, high)


def optional_whole_reader(key: str, label: str, low: int, high: int) -> Reader:
    """A whole number within ``[low, high]``, or None when left empty (None or blank)."""

    def read(raw: object) -> int | None:
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None
        return read_whole(raw, key, label, low, high)

    return read


def choice_reader(key: str, label: str, choices: Mapping[str, str]) -> Reader:
    def read(raw: object) -> str:
        if not isinstance(raw, str) or raw not in choices:
            names = " or ".join(choices) if len(choices) <= 4 else ", ".join(choices)
            got = raw[:40] if isinstance(raw, str) else raw
            raise SettingError(f"{label} must be {names} (got {got!r}).", field=key)
        return raw

    return read


def flag_reader(key: str, label: str) -> Reader:
    def read(raw: object) -> bool:
        if isinstance(raw, bool):
            return raw
        if raw in ("1", "true", "on", "yes"):
            return True
        if raw in ("0", "false", "off", "no"):
            return False
        raise SettingError(f"{label} must be on or off (got {shown(raw)}).", field=key)

    return read


def json_list(raw: object, key: str, message: str) -> list[Any]:
    """A list given as JSON text (or already a sequence of values)."""
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            raise SettingError(message, field=key) from None
    elif isinstance(raw, list | tuple):
        value = list(raw)
    else:
        raise SettingError(message, field=key)
    if not isinstance(value, list):
        raise SettingError(message, field=key)
    return value

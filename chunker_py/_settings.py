"""Settings: one frozen, validated object, and the field definitions every front end uses.

The page, the CLI and share links all parse raw values through ``parse_settings``, so a
value is accepted or refused with the same message everywhere.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._errors import SettingError
from ._modes import MODES

MAX_CHUNK_SIZE = 10_000
MAX_SEPARATORS = 16
MAX_SEPARATOR_LENGTH = 64
MAX_SOURCE_NAME = 200
DEFAULT_SEPARATORS: tuple[str, ...] = ("\n\n", "\n", " ", "")

EDGES = {"trim": "Trim edge whitespace", "preserve": "Preserve edge whitespace"}

_WHOLE_NUMBER = re.compile(r"[0-9]+")
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True)
class FieldInfo:
    """One setting as users see it: its key, visible label and default."""

    key: str
    label: str
    default: Any


FIELDS: dict[str, FieldInfo] = {
    "mode": FieldInfo("mode", "Mode", "recursive"),
    "chunk_size": FieldInfo("chunk_size", "Chunk size", 300),
    "chunk_overlap": FieldInfo("chunk_overlap", "Requested overlap", 50),
    "edges": FieldInfo("edges", "Chunk edges", "trim"),
    "separators": FieldInfo("separators", "Separators", DEFAULT_SEPARATORS),
    "source_name": FieldInfo("source_name", "Source name", ""),
}


@dataclass(frozen=True)
class Settings:
    """Validated splitting settings. Construction raises ``SettingError`` on a bad value."""

    mode: str = FIELDS["mode"].default
    chunk_size: int = FIELDS["chunk_size"].default
    chunk_overlap: int = FIELDS["chunk_overlap"].default
    edges: str = FIELDS["edges"].default
    separators: tuple[str, ...] = field(default=FIELDS["separators"].default)
    source_name: str = FIELDS["source_name"].default

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            names = " or ".join(MODES)
            raise SettingError(f"Mode must be {names} (got {self.mode!r}).", field="mode")
        _check_whole(self.chunk_size, "chunk_size", 1, MAX_CHUNK_SIZE)
        _check_whole(self.chunk_overlap, "chunk_overlap", 0, self.chunk_size - 1)
        if self.edges not in EDGES:
            raise SettingError(
                f"Chunk edges must be trim or preserve (got {self.edges!r}).", field="edges"
            )
        object.__setattr__(self, "separators", check_separators(self.separators))
        check_source_name(self.source_name)

    @property
    def trim(self) -> bool:
        return self.edges == "trim"

    def record_settings(self) -> dict[str, Any]:
        """The settings stored in every JSONL record."""
        out: dict[str, Any] = {
            "mode": self.mode,
            "chunk_size": self.chunk_size,
            "chunk_overlap": self.chunk_overlap,
            "edges": self.edges,
        }
        if MODES[self.mode].uses_separators:
            out["separators"] = list(self.separators)
        return out


def _range_message(key: str, low: int, high: int, got: object) -> str:
    label = FIELDS[key].label
    if key == "chunk_overlap":
        return (
            f"{label} must be a whole number from {low:,} to {high:,}, smaller than "
            f"Chunk size (got {_shown(got)})."
        )
    return f"{label} must be a whole number from {low:,} to {high:,} (got {_shown(got)})."


def _shown(value: object) -> str:
    if isinstance(value, str) and not value.strip():
        return "an empty field"
    text = value if isinstance(value, str) else repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return repr(text) if isinstance(value, str) else text


def _check_whole(value: object, key: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SettingError(_range_message(key, low, high, value), field=key)


def parse_whole(raw: object, key: str, low: int, high: int) -> int:
    """Read a whole number typed by a user: ASCII digits only, within ``[low, high]``."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = raw
    elif isinstance(raw, str) and _WHOLE_NUMBER.fullmatch(raw.strip()):
        value = int(raw.strip())
    else:
        raise SettingError(_range_message(key, low, high, raw), field=key)
    _check_whole(value, key, low, high)
    return value


def check_separators(value: object) -> tuple[str, ...]:
    """Validate an ordered separator list and return it as a tuple."""
    key = "separators"
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise SettingError("Separators must be a list of strings.", field=key)
    seps = tuple(value)
    if not seps:
        raise SettingError(
            'Separators must list at least one separator, e.g. ["\\n\\n", "\\n", " ", ""].',
            field=key,
        )
    if len(seps) > MAX_SEPARATORS:
        raise SettingError(
            f"Separators can list at most {MAX_SEPARATORS} entries (got {len(seps)}).",
            field=key,
        )
    seen: set[str] = set()
    for number, sep in enumerate(seps, 1):
        if not isinstance(sep, str):
            raise SettingError(f"Separator {number} must be a string.", field=key)
        if len(sep) > MAX_SEPARATOR_LENGTH:
            raise SettingError(
                f"Separator {number} has {len(sep)} code points; the limit is "
                f"{MAX_SEPARATOR_LENGTH}.",
                field=key,
            )
        if _LONE_SURROGATE.search(sep):
            raise SettingError(f"Separator {number} contains a lone surrogate.", field=key)
        if sep in seen:
            raise SettingError(
                f"Separator {number} ({json.dumps(sep)}) is listed twice; remove the duplicate.",
                field=key,
            )
        if sep == "" and number != len(seps):
            raise SettingError(
                'Separators: the empty separator "" (split into single code points) must be '
                "the last entry.",
                field=key,
            )
        seen.add(sep)
    return seps


def parse_separators(raw: object) -> tuple[str, ...]:
    """Read separators given as a JSON list such as ``["\\n\\n", "\\n", " ", ""]``."""
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError:
            raise SettingError(
                'Separators must be a JSON list of strings, e.g. ["\\n\\n", "\\n", " ", ""].',
                field="separators",
            ) from None
        if not isinstance(value, list):
            raise SettingError(
                'Separators must be a JSON list of strings, e.g. ["\\n\\n", "\\n", " ", ""].',
                field="separators",
            )
        return check_separators(value)
    return check_separators(raw)


def check_source_name(value: object) -> str:
    """A source name: at most 200 code points, no control characters or lone surrogates."""
    key = "source_name"
    if not isinstance(value, str):
        raise SettingError("Source name must be text.", field=key)
    if len(value) > MAX_SOURCE_NAME:
        raise SettingError(
            f"Source name has {len(value):,} code points; the limit is {MAX_SOURCE_NAME}.",
            field=key,
        )
    for position, char in enumerate(value):
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise SettingError(
                f"Source name contains U+{ord(char):04X} at position {position}; "
                "remove control characters and line breaks.",
                field=key,
            )
    return value


def parse_settings(raw: Mapping[str, object]) -> Settings:
    """Build ``Settings`` from raw values (strings from a form, link or command line).

    Missing keys take their defaults; the first invalid value raises ``SettingError``.
    """

    def given(key: str) -> object:
        return raw.get(key, FIELDS[key].default)

    mode = given("mode")
    size = parse_whole(given("chunk_size"), "chunk_size", 1, MAX_CHUNK_SIZE)
    overlap = parse_whole(given("chunk_overlap"), "chunk_overlap", 0, size - 1)
    edges = given("edges")
    separators = parse_separators(given("separators"))
    source_name = check_source_name(given("source_name"))
    if not isinstance(mode, str):
        raise SettingError("Mode must be recursive or fixed.", field="mode")
    if not isinstance(edges, str):
        raise SettingError("Chunk edges must be trim or preserve.", field="edges")
    return Settings(mode, size, overlap, edges, separators, source_name)

"""Share links: settings to a URL fragment and back, as pure functions.

The fragment never holds document text. Keys come from the field definitions
(``Field.link_key``), so every mode's options travel without changes here. Reading is
forgiving per value: a value that cannot be read is replaced by its default and named in
the returned notes; reading never raises.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote_to_bytes

from ..engine.errors import SettingError
from ..engine.limits import MAX_FRAGMENT_BYTES
from .settings import FIELDS, Settings, read_overlap

LINK_VERSION = "1"
# link key -> settings field, in the order links are written
LINK_KEYS = {field.link_key: key for key, field in FIELDS.items()}
_PERCENT_OK = re.compile(r"(?:[^%]|%[0-9A-Fa-f]{2})*")


def settings_to_fragment(settings: Settings) -> str:
    """``#v=1&mode=…&size=…&overlap=…&edges=…`` then every other value that differs from
    its default, percent-encoded UTF-8."""
    pairs = [("v", LINK_VERSION)]
    for key, field in FIELDS.items():
        value = settings.get(key)
        if field.always_written or value != field.default:
            pairs.append((field.link_key, field.text(value)))
    return "#" + "&".join(f"{k}={quote(v, safe='')}" for k, v in pairs)


def _decode(part: str) -> str | None:
    """Strict percent-decoding of UTF-8; None when the escapes or the bytes are malformed."""
    if not _PERCENT_OK.fullmatch(part):
        return None
    try:
        return unquote_to_bytes(part.encode("utf-8")).decode("utf-8")
    except UnicodeError:
        return None


def settings_from_fragment(fragment: str) -> tuple[Settings, list[str]]:
    """Read settings from a fragment (with or without ``#``).

    Returns the settings and a list of notes, one per value that was ignored.
    """
    fragment = fragment.removeprefix("#")
    notes: list[str] = []
    if not fragment:
        return Settings(), notes
    if len(fragment.encode("utf-8", "surrogatepass")) > MAX_FRAGMENT_BYTES:
        notes.append("The settings link is longer than 8 KB; all its values were ignored.")
        return Settings(), notes
    values: dict[str, str] = {}
    repeated: set[str] = set()
    for part in fragment.split("&"):
        if not part:
            continue
        raw_key, _, raw_value = part.partition("=")
        key = _decode(raw_key)
        value = _decode(raw_value)
        if key is None or key not in (*LINK_KEYS, "v"):
            notes.append(f"Ignored the unknown link value {_shown(key, raw_key)}.")
            continue
        if key in values or key in repeated:
            repeated.add(key)
            values.pop(key, None)
            continue
        if value is None:
            notes.append(f"Ignored {key}: its value is not valid percent-encoded UTF-8.")
            continue
        values[key] = value
    for key in ("v", *LINK_KEYS):
        if key in repeated:
            notes.append(f"Ignored {key}: it appears more than once in the link.")
    if values.pop("v", LINK_VERSION) != LINK_VERSION:
        notes.append("The link is from another version; its values were read as version 1.")
    return _settings_from_values(values, notes), notes


def _shown(key: str | None, raw: str) -> str:
    text = key if key is not None else raw
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def _settings_from_values(values: dict[str, str], notes: list[str]) -> Settings:
    chosen: dict[str, Any] = {}
    for link_key, key in LINK_KEYS.items():
        if link_key not in values:
            continue
        raw = values[link_key]
        if key == "chunk_overlap":
            continue  # read below: its bound depends on the size and the mode
        try:
            chosen[key] = FIELDS[key].read(raw)
        except SettingError as exc:
            if key == "tokenizer" and raw.startswith("file:"):
                # a tokenizer.json never travels in a link, only its name does
                default = FIELDS["tokenizer"].default
                notes.append(
                    f"The link counts tokens with the file {raw[5:][:80]!r}, which is not "
                    f"loaded here: load it again under Tokenizer (--tokenizer-file in the "
                    f"command line). Counting with {default} meanwhile."
                )
                continue
            notes.append(
                f"Ignored {link_key} from the link: {exc.message} Using the default instead."
            )
    mode = chosen.get("mode", FIELDS["mode"].default)
    size = chosen.get("chunk_size", FIELDS["chunk_size"].default)
    overlap_key = FIELDS["chunk_overlap"].link_key
    if overlap_key in values:
        try:
            chosen["chunk_overlap"] = read_overlap(values[overlap_key], size, mode)
        except SettingError as exc:
            notes.append(
                f"Ignored {overlap_key} from the link: {exc.message} Using the default instead."
            )
    if "chunk_overlap" not in chosen and FIELDS["chunk_overlap"].default >= size:
        chosen["chunk_overlap"] = size - 1 if size > 1 else 0
        notes.append(f"Requested overlap set to {chosen['chunk_overlap']} to fit Chunk size.")
    return Settings(**chosen)

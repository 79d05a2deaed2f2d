"""Share links: settings to a URL fragment and back, as pure functions.

The fragment never holds document text. Reading is forgiving per value: a value that cannot
be read is replaced by its default and named in the returned notes; reading never raises.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote, unquote_to_bytes

from ._errors import SettingError
from ._modes import MODES
from ._settings import (
    DEFAULT_SEPARATORS,
    EDGES,
    FIELDS,
    MAX_CHUNK_SIZE,
    Settings,
    check_source_name,
    parse_separators,
    parse_whole,
)

MAX_FRAGMENT_BYTES = 8 * 1024
LINK_VERSION = "1"
# link key -> settings field, in the order links are written
LINK_KEYS = {
    "mode": "mode",
    "size": "chunk_size",
    "overlap": "chunk_overlap",
    "edges": "edges",
    "sep": "separators",
    "name": "source_name",
}
_PERCENT_OK = re.compile(r"(?:[^%]|%[0-9A-Fa-f]{2})*")


def settings_to_fragment(settings: Settings) -> str:
    """``#v=1&mode=…&size=…&overlap=…&edges=…[&sep=…][&name=…]``, percent-encoded UTF-8."""
    pairs = [
        ("v", LINK_VERSION),
        ("mode", settings.mode),
        ("size", str(settings.chunk_size)),
        ("overlap", str(settings.chunk_overlap)),
        ("edges", settings.edges),
    ]
    if settings.separators != DEFAULT_SEPARATORS:
        pairs.append(("sep", json.dumps(list(settings.separators), ensure_ascii=False)))
    if settings.source_name:
        pairs.append(("name", settings.source_name))
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
    chosen: dict[str, object] = {}

    def take(key: str, read: object) -> None:
        field = LINK_KEYS[key]
        if key not in values:
            return
        try:
            chosen[field] = read(values[key])  # type: ignore[operator]
        except SettingError as exc:
            notes.append(f"Ignored {key} from the link: {exc.message} Using the default instead.")

    def choice(options: dict[str, object], label: str):  # type: ignore[no-untyped-def]
        def read(value: str) -> str:
            if value not in options:
                names = " or ".join(options)
                raise SettingError(f"{label} must be {names} (got {value[:40]!r}).")
            return value

        return read

    take("mode", choice(dict(MODES), "Mode"))
    take("size", lambda v: parse_whole(v, "chunk_size", 1, MAX_CHUNK_SIZE))
    size = chosen.get("chunk_size", FIELDS["chunk_size"].default)
    assert isinstance(size, int)
    take("overlap", lambda v: parse_whole(v, "chunk_overlap", 0, size - 1))
    if "chunk_overlap" not in chosen and FIELDS["chunk_overlap"].default >= size:
        chosen["chunk_overlap"] = size - 1 if size > 1 else 0
        notes.append(f"Requested overlap set to {chosen['chunk_overlap']} to fit Chunk size.")
    take("edges", choice(dict(EDGES), "Chunk edges"))
    take("sep", parse_separators)
    take("name", check_source_name)
    return Settings(**chosen)  # type: ignore[arg-type]

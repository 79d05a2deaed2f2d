"""``json.loads`` in steps: a 17 MB tokenizer.json parsed in slices that give way.

``parse_in_steps(text)`` is a generator: it yields the fraction of the text read so far
every ``EVERY`` elements and returns what ``json.loads(text, parse_float=serde_float)``
returns, or raises the same kind of error (``ValueError``). The page runs it in slices
between frames, so typing is not frozen while a large vocabulary is read; the command
line simply drains it. Containers down to ``DESCEND`` levels (the file, its model, the
model's vocabulary and merges) are walked here element by element; everything deeper,
and every scalar, is read by the json module's own scanner.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Generator
from typing import Any

from ...engine.steps import finish
from .tables import serde_float

DESCEND = 3
EVERY = 2000  # elements between progress reports
DECODE_SLICE = 1 << 20  # bytes decoded between progress reports
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder(parse_float=serde_float)
scanstring = json.decoder.scanstring  # type: ignore[attr-defined]  # json's key reader

Steps = Generator[float, None, Any]


def json_text(data: bytes | str) -> str:
    """The text ``json.loads(data)`` would parse (its encoding detection, a str's BOM
    refused as json refuses it)."""
    return finish(json_text_in_steps(data))


def json_text_in_steps(
    data: bytes | str, slice_bytes: int = DECODE_SLICE
) -> Generator[float, None, str]:
    """``json_text`` as a generator: the bytes are decoded ``slice_bytes`` at a time (an
    incremental decoder carries a character cut at a slice's end), yielding 0.0 between
    slices, so an 18 MB file's decoding is not one long step in the page."""
    if isinstance(data, str):
        if data.startswith("\ufeff"):
            raise ValueError("Unexpected UTF-8 BOM")
        return data
    decoder = codecs.getincrementaldecoder(json.detect_encoding(data))("surrogatepass")
    parts = []
    for start in range(0, len(data), slice_bytes):
        final = start + slice_bytes >= len(data)
        parts.append(decoder.decode(data[start : start + slice_bytes], final))
        if not final:
            yield 0.0
    parts.append(decoder.decode(b"", True))
    return "".join(parts)


def parse_in_steps(text: str) -> Steps:
    """Yield fractions read, return ``json.loads(text, parse_float=serde_float)``."""
    position = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    value, position = yield from _value(text, position, 0)
    if _SPACE.match(text, position).end() != len(text):  # type: ignore[union-attr]
        raise ValueError(f"Extra data at {position}")
    return value


def _value(text: str, position: int, depth: int) -> Generator[float, None, tuple[Any, int]]:
    opening = text[position : position + 1]
    if depth < DESCEND and opening == "{":
        return (yield from _object(text, position + 1, depth + 1))
    if depth < DESCEND and opening == "[":
        return (yield from _array(text, position + 1, depth + 1))
    return _DECODER.raw_decode(text, position)


def _space(text: str, position: int) -> int:
    return _SPACE.match(text, position).end()  # type: ignore[union-attr]


def _object(text: str, position: int, depth: int) -> Generator[float, None, tuple[Any, int]]:
    result: dict[str, Any] = {}
    position = _space(text, position)
    if text[position : position + 1] == "}":
        return result, position + 1
    count = 0
    while True:
        if text[position : position + 1] != '"':
            raise ValueError(f"Expecting property name at {position}")
        key, position = scanstring(text, position + 1, True)
        position = _space(text, position)
        if text[position : position + 1] != ":":
            raise ValueError(f"Expecting ':' at {position}")
        position = _space(text, position + 1)
        result[key], position = yield from _value(text, position, depth)
        position = _space(text, position)
        delimiter = text[position : position + 1]
        if delimiter == "}":
            return result, position + 1
        if delimiter != ",":
            raise ValueError(f"Expecting ',' delimiter at {position}")
        position = _space(text, position + 1)
        count += 1
        if count % EVERY == 0:
            yield position / len(text)


def _array(text: str, position: int, depth: int) -> Generator[float, None, tuple[Any, int]]:
    result: list[Any] = []
    position = _space(text, position)
    if text[position : position + 1] == "]":
        return result, position + 1
    while True:
        value, position = yield from _value(text, position, depth)
        result.append(value)
        position = _space(text, position)
        delimiter = text[position : position + 1]
        if delimiter == "]":
            return result, position + 1
        if delimiter != ",":
            raise ValueError(f"Expecting ',' delimiter at {position}")
        position = _space(text, position + 1)
        if len(result) % EVERY == 0:
            yield position / len(text)


__all__ = ["json_text", "json_text_in_steps", "parse_in_steps"]

"""YAML front matter of a Markdown file, read as flat ``key: value`` pairs (FluentChunker's
document-level metadata).

Only the simple front matter that documentation sites write is read: a first line ``---``,
then ``key: value`` lines, then a line ``---`` or ``...``. Values are strings, except
``true``/``false``, whole numbers and ``[a, b]`` flow lists of plain values; quotes
around a value are removed. Nested mappings, block lists and multi-line values are
skipped (their keys are left out), never guessed; nothing is ever executed or
constructed, so this is safe on any file. Text without front matter gives ``{}``.
"""

from __future__ import annotations

import re

Value = str | int | bool | list[str]

_OPEN = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_PAIR = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.\- ]*?)[ \t]*:(?:[ \t]+(.*))?$")
_WHOLE = re.compile(r"[+-]?[0-9]+")
_MAX_LINES = 200  # front matter is a header; a file whose "---" is never closed is text


def front_matter(text: str) -> dict[str, Value]:
    """The keys of ``text``'s front matter, in their order (a repeated key: the last)."""
    opening = _OPEN.match(text)
    if opening is None:
        return {}
    lines = text[opening.end() :].splitlines()[:_MAX_LINES]
    out: dict[str, Value] = {}
    for number, line in enumerate(lines):
        if _CLOSE.match(line):
            return out
        pair = _PAIR.match(line)
        if pair is None or line[:1] in " \t":
            continue  # a comment, a nested or continued value: not a flat key
        value = _value(pair.group(2) or "")
        if value is not None and not _continues(lines, number):
            out[pair.group(1)] = value
    return {}  # never closed: not front matter


def _continues(lines: list[str], number: int) -> bool:
    """Whether the next line belongs to this key (indented or a block list item)."""
    following = lines[number + 1] if number + 1 < len(lines) else ""
    return following[:1] in (" ", "\t") or following.startswith("- ")


def _value(raw: str) -> Value | None:
    raw = _without_comment(raw.strip())
    if raw == "" or raw[0] in "|>&*!{%@`":
        return None  # a block scalar, anchor, alias, tag or mapping: not a flat value
    if raw[0] in "'\"":
        return _quoted(raw)
    if raw[0] == "[":
        return _flow_list(raw)
    if raw in ("true", "false"):
        return raw == "true"
    if _WHOLE.fullmatch(raw):
        return int(raw)
    return raw


def _without_comment(raw: str) -> str:
    if raw[:1] in "'\"":
        return raw
    cut = re.search(r"[ \t]#", raw)
    return raw[: cut.start()].rstrip() if cut else raw


def _quoted(raw: str) -> str | None:
    quote = raw[0]
    if len(raw) < 2 or not raw.endswith(quote):
        return None
    inner = raw[1:-1]
    if quote == "'":
        return inner.replace("''", "'")
    if "\\" in inner:
        return None  # escape sequences: not read rather than read wrong
    return inner


def _flow_list(raw: str) -> list[str] | None:
    if not raw.endswith("]"):
        return None
    items = [item.strip() for item in raw[1:-1].split(",")]
    if items == [""]:
        return []
    out = []
    for item in items:
        value = _quoted(item) if item[:1] in "'\"" else item
        if not value or value[:1] in "[{":
            return None
        out.append(value)
    return out

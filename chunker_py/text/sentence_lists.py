"""Sentences that list items start: a line break before a list marker, an inline list
(``1) … 2) …``, ``a. … b. …``, ``• … • …``), and the space between Thai letters."""

# ruff: noqa: RUF001  (the rules name punctuation of many scripts)

from __future__ import annotations

import re
from bisect import bisect_left

from .sentence_marks import _BULLETS, _CLOSERS, _DIGITS, _LATIN, _UNCONDITIONAL, _present

# A list marker: a bullet or dash, or a number, letter or roman numeral with . or ).
_MARKER = (
    rf"(?:[{_BULLETS}*\-–]|\(?(?:[0-9]{{1,3}}|[a-zA-Z]|[ivxlcdm]{{1,6}}|[IVXLCDM]{{1,6}})"
    r"(?:\.\)|[.)]))"
)
_MARKER_ONLY = re.compile(rf"(?:[{_BULLETS}]\s*)?{_MARKER}\Z")
# (Patterns that start with one class are found fast: "\r\n" is found at its "\n". The
# indentation is possessive and a marker's first character tested alone first: a line of
# prose fails there, not after each choice of ``_MARKER``.)
_MARKER_FIRST = rf"[{_BULLETS}*\-–(0-9a-zA-Z]"
_LINE_ITEM = re.compile(rf"[\r\n][^\S\r\n]*+(?={_MARKER_FIRST})(?={_MARKER}[^\S\r\n])")
# the same for a text without "\r": a literal first, which ``re`` finds faster than a class
_LINE_ITEM_LF = re.compile(rf"\n[^\S\r\n]*+(?={_MARKER_FIRST})(?={_MARKER}[^\S\r\n])")
_MARKER_LAST = frozenset("0123456789ivx")
_MARKER_VALUE = re.compile(r"(?:(?<=\s)|^)([0-9]{1,2}|[a-z]|[ivx]{1,4})\Z")
_LIST_REACH = 2000  # how far an inline list's items may stand from its second one
_THAI_SPACE = re.compile(r"[\u0e01-\u0e5b][^\S\r\n]+(?=[\u0e01-\u0e5b])")


_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9,
          "x": 10, "xi": 11, "xii": 12}  # fmt: skip


def _forced_starts(text: str, start: int, end: int, ascii_only: bool, thai: bool) -> list[int]:
    """Positions where a sentence starts whatever precedes: list items and Thai spaces.
    (Each scan is skipped when a character it needs is absent: ``in`` is far faster.)"""
    found: list[int] = []
    if _present(text, "\n") or _present(text, "\r"):
        items = _LINE_ITEM if _present(text, "\r") else _LINE_ITEM_LF
        found += [m.end() for m in items.finditer(text, start, end)]
    if not ascii_only:
        found += _inline_bullets(text, start, end)
    if _present(text, ". ") or _present(text, ") "):
        tails = _value_tails(text, start, end)
        for first, last in _inline_list_windows(text, start, end, tails):
            markers = _inline_markers(text, start, first, last, tails)
            if len(markers) > 1:
                found += _inline_list_starts(text, start, markers)
    if thai:
        found += [m.end() for m in _THAI_SPACE.finditer(text, start, end)]
    if len(found) > 1:
        found = sorted(set(found))
    return found


def _inline_bullets(text: str, start: int, end: int) -> list[int]:
    """Bullets after white space and before white space or a digit, mid-line or not
    (found with ``str.find``, far faster than a pattern on text beyond Latin-1)."""
    found: list[int] = []
    for bullet in _BULLETS:
        at = text.find(bullet, start, end)
        while at >= 0:
            if (
                at > start
                and text[at - 1].isspace()
                and (at + 1 == end or text[at + 1].isspace() or text[at + 1] in _DIGITS)
            ):
                found.append(at)
            at = text.find(bullet, at + 1, end)
    return found


def _inline_list_windows(
    text: str, start: int, end: int, tails: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Stretches of the range that may hold an inline list: around each second list
    marker ("2.", "b)", "ii.)") after a space within a line (items at line starts are
    line items). A cheap scan, so the full one runs only there (``tails``: the range's
    ``_value_tails``)."""
    windows: list[tuple[int, int]] = []
    for at in _second_markers(text, start, tails):
        first, last = max(start, at - _LIST_REACH), min(end, at + _LIST_REACH)
        if windows and first <= windows[-1][1]:
            windows[-1] = (windows[-1][0], last)
        else:
            windows.append((first, last))
    return windows


Marker = tuple[int, str, str]  # position, value ("3", "b", "iv"), style (".", ")", ".)")

# An inline list marker's end (". ", ") ", ".) ", ")) ") after a digit or a roman
# numeral's letter, or after a letter that white space or the text's start precedes (a
# value of two or more characters is digits or roman), found first, the value before it
# then checked, since a scan that starts at every word would cost a millisecond a page.
# Each pattern starts with its literal, which ``re`` jumps to as ``str.find`` does; the
# look-behinds are tried there alone (a class first, "[.)]", is tested at every
# character: ~6x slower).
_VALUE_TAILS = tuple(
    re.compile(rf"\{tail}(?:(?<=[0-9ivx]\{tail})|(?<=\s[a-z]\{tail})|(?<=^[a-z]\{tail}))\)?(?=\s)")
    for tail in ".)"
)


def _value_tails(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the range's ``_VALUE_TAILS``, in order: the ends of its possible
    list markers, found once for the second markers and each window's markers."""
    tails = [m.span() for pattern in _VALUE_TAILS for m in pattern.finditer(text, start, end)]
    tails.sort()
    return tails


def _second_markers(text: str, start: int, tails: list[tuple[int, int]]) -> list[int]:
    """Where each second list marker's value ("2", "b", "ii") starts, in order: at a
    ``tails`` end, a space or tab before it inside the range."""
    hits: list[int] = []
    for dot, _stop in tails:
        value = text[dot - 1]
        if value == "2" or value == "b":
            at = dot - 1
        elif value == "i" and dot >= 2 and text[dot - 2] == "i":
            at = dot - 2
        else:
            continue
        if at > start and text[at - 1] in " \t":
            hits.append(at)
    return hits


def _inline_markers(
    text: str, start: int, first: int, last: int, tails: list[tuple[int, int]]
) -> list[Marker]:
    """The list markers whose dot or bracket stands in ``[first, last)`` of the range
    that begins at ``start``, the white space after it too (``tails``: the range's
    ``_value_tails``)."""
    found: list[Marker] = []
    for at, stop in tails[bisect_left(tails, (first, 0)) :]:
        if at >= last:
            break
        if stop >= last:
            continue  # the white space after it lies beyond the window
        if at - 2 >= start and text[at - 1] not in _MARKER_LAST and not text[at - 2].isspace():
            continue  # "word." : a value of two or more characters is digits or roman
        value = _MARKER_VALUE.search(text, max(start, at - 4), at)
        if value:
            found.append((value.start(1), value.group(1), text[at:stop]))
    return found


def _marker_value(value: str) -> tuple[str, int]:
    if value[0] in "0123456789":
        return ("number", int(value))
    if value in _ROMAN and value != "v" and value != "x":
        return ("roman", _ROMAN[value])
    if len(value) > 1:  # "xxii", "iiii": beyond the table, numbering no list
        return ("other", 0)
    return ("letter", ord(value) - ord("a") + 1)


def _inline_list_starts(text: str, start: int, markers: list[Marker]) -> list[int]:
    """Items of an inline list: markers numbered 1, 2, 3… (or a, b, c… or i, ii, iii…) in
    the same style, the first at the paragraph's start or after a sentence end."""
    found: list[int] = []
    run: list[Marker] = []

    def close() -> None:
        if len(run) > 1:
            found.extend(position for position, _value, _style in run)
        run.clear()

    for marker in markers:
        position, name, style = marker
        kind, value = _marker_value(name)
        if run:
            last_kind, last_value = _marker_value(run[-1][1])
            if kind == "roman" and last_kind == "letter" and name == "ii":
                last_kind = "roman"  # "i." was roman after all
            if (kind, value) == (last_kind, last_value + 1) and style == run[-1][2]:
                run.append(marker)
                continue
            close()
        if value == 1 and _starts_here(text, start, position):
            run.append(marker)
    close()
    return found


def _starts_here(text: str, start: int, position: int) -> bool:
    before = text[max(start, position - 3) : position].rstrip()
    return not before or before[-1] in _LATIN + _UNCONDITIONAL + _CLOSERS + ":"

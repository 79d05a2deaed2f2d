"""Blank lines and quotation or bracket pairs: where a paragraph ends, and the spans
inside which a terminator ends no sentence unless the pair's closer follows it."""

# ruff: noqa: RUF001  (the rules name punctuation of many scripts)

from __future__ import annotations

import re

from .sentence_marks import _present

_LINE_BREAK = r"(?:\r\n|\r|\n)"
_PARAGRAPH_BREAK = re.compile(rf"{_LINE_BREAK}(?:[^\S\r\n]*{_LINE_BREAK})+")
# Quotations and brackets: a terminator inside one ends no sentence unless the closer
# follows it ("(See above.) Next", 'He said "Stop." Then'); "How many? I don't know."
# inside quotes stays one sentence. Unpaired or very long ones protect nothing.
_PAIR_LIMIT = 400
_PAIR_TYPES = (
    ("“", "”"), ("„", "“"), ("«", "»"), ("»", "«"), ("‹", "›"), ("(", ")"), ("[", "]"),
    ("（", "）"), ("「", "」"), ("『", "』"), ("《", "》"), ("【", "】"),
)  # fmt: skip
# One pattern per pair (each starts with its opener, so ``re`` skips ahead fast); only
# the openers present in a text are scanned for.
_PAIRS = (
    # a straight double quote between two Hebrew letters is a gershayim (ד"ר), not a quote
    ('"', re.compile(f'"(?<![\u05d0-\u05ea]")[^"]{{1,{_PAIR_LIMIT}}}"(?![\u05d0-\u05ea])')),
    *(
        (a, re.compile(f"{re.escape(a)}[^{re.escape(a + b)}]{{1,{_PAIR_LIMIT}}}{re.escape(b)}"))
        for a, b in _PAIR_TYPES
    ),
)


_NO_PAIR = (1 << 62, 1 << 62)
# Two line breaks with only spaces between: where a blank line may be (found fast, then
# checked with the exact pattern, for which "\r\n" is one line break).
_MAYBE_BLANK = re.compile(r"[\r\n][^\S\r\n]*[\r\n]")
_PARAGRAPH_BREAK_LF = re.compile(r"\n(?:[^\S\r\n]*\n)+")  # ``_PARAGRAPH_BREAK`` without "\r"


def _paragraph_breaks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The blank-line runs of the range, as ``_PARAGRAPH_BREAK`` finds them."""
    found: list[tuple[int, int]] = []
    if not _present(text, "\r"):
        if not _present(text, "\n"):
            return found
        # without "\r" the exact pattern starts with a literal: one scan finds them all
        return [m.span() for m in _PARAGRAPH_BREAK_LF.finditer(text, start, end)]
    maybe_blank = _MAYBE_BLANK
    position = start
    while True:
        hit = maybe_blank.search(text, position, end)
        if hit is None:
            return found
        exact = _PARAGRAPH_BREAK.match(text, hit.start(), end)
        if exact is None and hit.start() > start and text[hit.start() - 1] == "\r":
            exact = None  # the "\n" of a "\r\n" never starts a blank line
        if exact is None:
            position = hit.start() + 1
            continue
        found.append(exact.span())
        position = exact.end()


def _pairs(text: str, start: int, end: int, breaks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Quotations and bracketed passages of the range that hold no blank line, outermost
    only, in order (``breaks``: the range's blank-line runs, ``_paragraph_breaks``)."""
    found: list[tuple[int, int]] = []
    for opener, pattern in _PAIRS:
        if not _present(text, opener):
            continue
        # every match starts at an opener: ``str.find`` jumps to each (``re`` scans for a
        # literal one character at a time) and the pattern is tried there, as finditer
        # would (the next try after a match, or after the opener when none); an opener
        # met often (Chinese quotes) leaves the rest to finditer, cheaper per match
        match = pattern.match
        find = text.find
        at = find(opener, start, end)
        tries = 0
        while at >= 0:
            tries += 1
            if tries > 8:
                found += [m.span() for m in pattern.finditer(text, at, end)]
                break
            hit = match(text, at, end)
            if hit is None:
                at = find(opener, at + 1, end)
            else:
                found.append(hit.span())
                at = find(opener, hit.end(), end)
    if not found:
        return []
    found.sort()
    out: list[tuple[int, int]] = []
    # A pair holds a blank line when a blank-line run of the range starts inside it: a
    # pair starts and ends with a character that is not white space, so a blank line
    # inside it lies in a run of white space inside it too, and ``_paragraph_breaks``
    # finds a blank line in each run that has one (one bisection, not a search a pair).
    # (the pairs come in order: the next run's start is walked to, not searched for)
    starts = [first for first, _last in breaks]
    starts.append(_NO_PAIR[0])
    i = 0
    reach = 0  # where the last pair kept ends
    for pair in found:
        opened, closed = pair
        if opened < reach:
            continue  # inside (or across) the one before
        while starts[i] < opened:
            i += 1
        if starts[i] >= closed:
            out.append(pair)
            reach = closed
    return out

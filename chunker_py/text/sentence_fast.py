"""The fast path of paragraphs whose only terminators end a sentence wherever they stand
(Chinese, Japanese, Hindi…): one pattern that states ``_paragraph``'s rules for them."""

# ruff: noqa: RUF001  (the rules name punctuation of many scripts)

from __future__ import annotations

import re
from bisect import bisect_right

from .sentence_marks import (
    _CLOSERS,
    _LATIN,
    _QUOTATIVE,
    _UNCONDITIONAL,
    Spans,
    _add_trimmed,
    _present,
)
from .sentence_pairs import _PAIR_LIMIT, _PAIR_TYPES

# ------------------------------------------------------------------ fast path
# A paragraph whose only terminators are those that end a sentence wherever they stand
# (Chinese, Japanese, Hindi…) gets its sentences from one pattern that states the rules of
# ``_paragraph`` for it: a terminator run and its closers end the sentence unless closers
# are followed by a quotative particle or the run is a decimal point between digits
# (``_unconditional_end``); inside a quotation or brackets (the first ``_PAIRS`` match of
# an opener outside any other, as ``_pairs`` keeps them) a run ends the sentence only when
# its closers reach the pair's closer. Every piece is possessive and the pieces exclude
# each other, so the first parse is the only one (no backtracking into another). Where the
# pattern would not say the same, the paragraph takes ``_paragraph``: a Latin terminator,
# a straight quote (its pairs are found differently), a list item or inline list, a
# closer run that takes in an opener ("。“", the quotation then starts inside the run), a
# decimal point before closers, a paragraph that starts with a dot.
_DIGIT_CLASS = "0-9０-９"
Fast = tuple[re.Pattern[str], re.Pattern[str] | None]
# where the fast path is tried (elsewhere a Latin terminator in most paragraphs leaves it
# at once, and the tries would cost more than they save)
_FAST_LANGUAGES = frozenset({"zh", "ja", "hi", "mr", "ar", "fa", "ur", "am", "my"})
_FAST: dict[str, Fast | None] = {}
_OPENERS_IN_CLOSERS = "“«»‹"
_NOT_FAST = (-1, -1)  # the span of a group that took no part


def _fast_sentences(text: str) -> Fast | None:
    """The sentence pattern and the Latin-terminator search for the terminators and
    openers present in ``text`` (None: no fast path)."""
    unconditional = "".join(char for char in _UNCONDITIONAL if _present(text, char))
    if not unconditional:
        return None
    openers = "".join(a for a, _b in _PAIR_TYPES if _present(text, a))
    latin = "".join(char for char in _LATIN if _present(text, char))
    key = f"{unconditional}|{openers}|{latin}"
    if key in _FAST:
        return _FAST[key]
    coded = re.escape

    t = coded(unconditional)
    c = coded(_CLOSERS)
    # closers that take no opener in (a run that takes one in leaves the fast pattern)
    c_ = coded("".join(char for char in _CLOSERS if char not in _OPENERS_IN_CLOSERS))
    o_ = coded(_OPENERS_IN_CLOSERS)
    dot = coded("．.")
    d = _DIGIT_CLASS
    q = "".join(_QUOTATIVE)
    not_decimal = rf"(?!(?<=[{d}])[{dot}][{t}]*+[{c}]*+[{d}])"
    top_cut = rf"{not_decimal}[{t}]++(?:[{c_}]++(?![{o_}{q}])|(?![{c}]))"
    # the content: runs that end no sentence, each piece excluding the cuts
    atoms = [rf"[^{t}{coded(openers)}]++", rf"[{t}]++[{c_}]++(?=[{q}])",
             rf"[{dot}](?<=[{d}][{dot}])[{t}]*+(?=[{d}])"]  # fmt: skip
    cuts = [top_cut]
    for opener, closer in _PAIR_TYPES:
        if opener not in openers:
            continue
        a, b, ab = coded(opener), coded(closer), coded(opener + closer)
        pair = rf"{a}(?=[^{ab}]{{1,{_PAIR_LIMIT}}}+{b})"
        reach = rf"[{coded(''.join(x for x in _CLOSERS if x not in opener + closer))}]*+{b}"
        inner = rf"(?:[^{ab}{t}]++|[{t}]++(?:(?!{reach})|(?={reach}[{c}]*+[{q}])))*+"
        atoms.append(f"{pair}{inner}{b}")
        atoms.append(rf"{a}(?![^{ab}]{{1,{_PAIR_LIMIT}}}+{b})")
        cuts.append(rf"{pair}{inner}{not_decimal}[{t}]++{reach}[{c_}]*+(?![{o_}{q}])")
    body = f"(?:{'|'.join(atoms)})*+"
    # group 1 is the sentence; where no piece applies (see above) the second choice
    # matches instead, without group 1: the paragraph then takes ``_paragraph``
    # the usual sentence first: a run with no terminator or opener, then a terminator run
    # that is no decimal point and has no closer after it (what the body and the top cut
    # match there too, in fewer steps)
    plain = rf"[^{t}{coded(openers)}]++{not_decimal}[{t}]++(?![{c}])"
    sentence = rf"\s*+(?:((?:{plain}|{body}(?:{'|'.join(cuts)}|\Z)))|{body})"
    found = (
        re.compile(sentence),
        re.compile(f"[{re.escape(latin)}]") if latin else None,
    )
    if len(_FAST) > 64:
        _FAST.clear()
    _FAST[key] = found
    return found


def _fast_paragraph(
    text: str, start: int, end: int, fast: Fast, forced: list[int], out: Spans
) -> bool:
    """Append the paragraph's sentences by the fast pattern, if it says what
    ``_paragraph`` would (False: nothing appended, take ``_paragraph``)."""
    sentence, latin = fast
    if start >= end:
        return True
    f = bisect_right(forced, start)
    if (
        (f < len(forced) and forced[f] < end)
        or text[start] in "．."
        or (_present(text, '"') and text.find('"', start, end) >= 0)
        or (latin is not None and latin.search(text, start, end))
    ):
        return False
    spans = [m.span(1) for m in sentence.finditer(text, start, end)]
    if _NOT_FAST in spans:
        return False
    if spans and spans[-1][0] == spans[-1][1]:
        spans.pop()  # the empty match at the end
    if spans and spans[-1][1] == end:
        last = spans.pop()  # the text after the last end (white space trimmed)
        _add_trimmed(text, last[0], last[1], spans)
    out += spans
    return True

"""Sentence boundaries: where a sentence ends, in every script the page accepts.

One detector serves Sentence mode, Markdown structure's descent into sentences and the
damage figures. It returns sentences as ``(start, end)`` code-point ranges without edge
whitespace, in order, disjoint, inside the requested range. Its rules (README "Sentence,
in detail" lists them with examples):

- A blank line always ends a sentence; so does a line break before a list item (``•``,
  ``-``, ``*``, ``1.``, ``a)``, ``iii.``), and an inline list (``1) … 2) …``, ``a. … b. …``,
  ``• … • …``) starts a sentence at each item.
- ``。！？｡`` (Chinese, Japanese), ``।॥`` (Hindi, Marathi, Bengali), ``؟۔`` (Arabic, Persian,
  Urdu), ``։`` (Armenian), ``።፧`` (Amharic), ``။`` (Burmese), ``។៕`` (Khmer) and ``᠃``
  (Mongolian) end a sentence wherever they stand, except between digits (``３．２９``) and
  inside an open ``《》「」『』（）`` pair; closing quotes and brackets stay with the sentence.
- ``. ! ?`` (and runs such as ``?!``, ``!!``, ``...``, ``. . .``, ``…``; ``;`` after a Greek
  letter is the Greek question mark) end a sentence when whitespace follows and then a
  capital, a letter of a caseless script, a digit or an opener (``¿ ¡ « „ " ' ( [``), or
  the end of the text; also with no space before a capitalised word (``world.Today``).
  Closing quotes, brackets and footnote marks (``[1]``) right after them stay with the
  sentence. A lower-case word after them continues the sentence.
- A single ``.`` does not end a sentence after a number before a digit or a day before a
  month name (``am 3. Oktober``), after a German (Danish, Polish, …) ordinal before a noun
  (``der 2. Weltkrieg``), after a title (``Dr.``, ``Mrs.``, ``St.`` before a name, the
  user's own abbreviations), after a number abbreviation before a number (``No. 5``,
  ``p. 55``), or after any other abbreviation or initial (``etc.``, ``Co.``, ``U.S.``,
  ``E.``) unless the next word is a typical sentence starter (``The``, ``It``, ``How``…).
- Thai: a space between Thai letters ends a sentence.

Abbreviations, starters and month names come per language (``sentence_words``); the
language is given or chosen from the text's script and, for Latin script, its function
words. Letter classes come from frozen tables (``sentence_chars``), never from
``unicodedata``, so CPython and Pyodide find the same sentences.
"""

# ruff: noqa: RUF001, RUF002, RUF003  (the rules name punctuation of many scripts)

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable

from .sentence_fast import _FAST_LANGUAGES, _fast_paragraph, _fast_sentences
from .sentence_language import detect_language
from .sentence_latin import _TRAILER_LEADS, Rules, _latin_end, _skip_space
from .sentence_lists import _MARKER_ONLY, _THAI_SPACE, _forced_starts
from .sentence_marks import (
    _ASCII_LETTER_STRING,
    _ASCII_UPPER,
    _BULLETS,
    _CLOSER_RUN,
    _DIGIT_CHAR,
    _DIGITS,
    _GREEK_OR_ARMENIAN,
    _GREEK_OR_ARMENIAN_BYTES,
    _LATIN,
    _NO_END_AFTER_DOT,
    _OPENERS,
    _QUOTATIVE,
    _QUOTATIVE_OR_DIGIT,
    _STARTS,
    _TERMINATOR_SET,
    _TERMINATORS,
    _THAI_BYTES,
    _TOKEN_LIMIT,
    _UNCONDITIONAL,
    _UNCONDITIONAL_SET,
    Spans,
    _add_trimmed,
    _colon_is_a_stop,
    _colon_stops,
    _first_of_block,
    _note_blocks,
    _present,
)
from .sentence_pairs import _NO_PAIR, _pairs, _paragraph_breaks

# A terminator run (one pattern that starts with one class: ``re`` then skips ahead fast).
# ";" and ":" join it only in texts with Greek or Armenian letters (the Greek question
# mark, the colon typed for the Armenian full stop); the run's first character tells its
# kind.
# joined across single spaces: ". . .", "! ! !", "Happy! ...", but not "raak. ...en"
_RUN = "[{0}{1}]+(?:[ ](?:[{1}](?![{1}])|(?:\\.{{3,}}|…)(?=\\s|\\Z)))*"
_NONE_FOUND = re.compile("(?!)()")
_CANDIDATES: dict[tuple[str, bool, bool], re.Pattern[str]] = {}


def _candidates(text: str, colons: bool, start: int = 0) -> re.Pattern[str]:
    """The terminator-run pattern for the terminators present in ``text``: a class of
    one or a few characters is searched for many times faster than the full one (a lone
    "." with ``str.find`` speed), and a character absent from the text changes no match.
    (The range that starts at ``start``: one with a terminator in the two characters
    before it takes the plain pattern, whose runs start at the range's start whatever
    precedes it.)"""
    if text.isascii():
        present = "".join(char for char in ".!?" if char in text)
    else:
        present = "".join(char for char in _TERMINATORS if _present(text, char))
    # (the guarded pattern's look-behinds reach two characters before a run)
    guarded = _SHORTCUTS and not _TERMINATOR_SET.intersection(text[max(0, start - 2) : start])
    key = (present, colons, guarded)
    found = _CANDIDATES.get(key)
    if found is None:
        unconditional = re.escape("".join(c for c in present if c in _UNCONDITIONAL))
        latin = re.escape("".join(c for c in present if c in _LATIN))
        if latin and not colons and guarded:
            found = _CANDIDATES[key] = _guarded_candidates(unconditional, latin, len(present) == 1)
            return found
        run = ""
        if present:
            run = f"[{unconditional}{latin}]+"
            if latin:
                run = _RUN.format(unconditional, latin)
            if len(present) == 1 and not colons:
                # one terminator ("." in most prose): a literal first, which ``re`` finds
                # several times faster than a class ("[.]+" is ".[.]*")
                run = re.escape(present) + run.replace("]+", "]*", 1)
            elif not colons:
                # a class first, not a repeat: ``re`` then skips ahead by the class
                # ("[.!?]+" is "[.!?][.!?]*"); a repeat first is tried at every position
                first = f"[{unconditional}{latin}]"
                run = first + run.replace("]+", "]*", 1)
        if colons and run:
            # (one class first: ``re`` skips ahead only to a class or a literal, not to a
            # choice between classes; a colon is a run on its own)
            run = f"[;;:{unconditional}{latin}](?:(?<=[;;:])|{run.replace('+', '*', 1)})"
        elif colons:
            run = "[;;:]"
        found = re.compile(f"({run}){_CLOSER_RUN}") if run else _NONE_FOUND
        if len(_CANDIDATES) > 64:
            _CANDIDATES.clear()
        _CANDIDATES[key] = found
    return found


def _guarded_candidates(unconditional: str, latin: str, single: bool) -> re.Pattern[str]:
    """``_candidates``'s pattern (no colons; escaped terminator classes) without the runs
    ``_paragraph`` skips first (led by a Latin terminator, before a character of
    ``_NO_END_AFTER_DOT``): a tenth of a page of Markdown's matches, each a step of the
    loop. Group 1 is the run as before; group 2 (empty) is set when an unconditional
    terminator leads a run that the plain pattern would match there.

    The same matches, in order: the runs and closers are possessive (the plain pattern's
    are greedy, and nothing after them can fail), so a try at the start of a plain match
    ends where it does and is kept or left out as ``_paragraph`` would. A try inside a run
    left out starts at a later character of it and ends at the same place, before the
    same character: left out too, unless an unconditional terminator leads it, whose
    group 2 needs what a plain match's start has, no terminator before it, or a Latin one
    that a space and a terminator precede (the single Latin terminator that ends a plain
    run, "? .。"), which a run left out never holds."""
    both = f"{unconditional}{latin}"
    lead = latin if single else f"[{both}]"
    mark = "(?:(?!)())?"  # group 2 never set: ``_paragraph`` knows the pattern by it
    if unconditional:
        mark = f"(?:(?<=[{unconditional}])(?:(?<![{both}].)|(?<=[{both}] [{latin}].))())?"
    run = f"{lead}{mark}[{both}]*+(?:[ ](?:[{latin}](?![{latin}])|(?:\\.{{3,}}|…)(?=\\s|\\Z)))*+"
    # what ends nothing without a space ("chunker_py.text", "3.14")
    no_end = "[" + re.escape("".join(sorted(_NO_END_AFTER_DOT))) + "]"
    guard = f"(?(2)|(?!{no_end}))"
    return re.compile(f"({run}){_CLOSER_RUN}+{guard}")


# ------------------------------------------------------------------ boundaries


def sentence_spans(
    text: str,
    start: int = 0,
    end: int | None = None,
    abbreviations: Iterable[str] = (),
    language: str = "auto",
) -> Spans:
    """The sentences of ``text[start:end]`` as ranges without edge whitespace, in order.

    ``abbreviations`` are the user's own (trailing dot optional, any case), added to the
    language's list; ``language`` is a key of ``LANGUAGES`` ("auto": chosen from the text).
    """
    end = len(text) if end is None else end
    if language == "auto":
        language = detect_language(text)
    rules = _rules(language, tuple(abbreviations))
    ascii_only = text.isascii()  # known to CPython without a scan
    colons = thai = False
    if not ascii_only:
        # the second byte of each code point's UTF-32 form (one per code point)
        seconds = text.encode("utf-32-le", "surrogatepass")[1::4]
        _note_blocks(text, seconds)
        at = _first_of_block(seconds, _GREEK_OR_ARMENIAN_BYTES, start)
        colons = at >= 0 and bool(_GREEK_OR_ARMENIAN.search(text, at, end))
        at = _first_of_block(seconds, _THAI_BYTES, start)
        thai = at >= 0 and bool(_THAI_SPACE.search(text, at, end))
    # the colons that may end a sentence (the fast path is still left on ``colons``)
    colon_stops = colons and _colon_stops(text, start, end)
    forced = _forced_starts(text, start, end, ascii_only, thai)
    breaks = _paragraph_breaks(text, start, end)
    fast = None
    if language in _FAST_LANGUAGES and not (ascii_only or colons or thai):
        fast = _fast_sentences(text)
    out: Spans = []
    # The terminator runs of the whole range, found once: none holds white space other
    # than single spaces, so none crosses a blank line, and each paragraph's are those a
    # search of its own range finds (its look-arounds see a line break or the range's
    # end there, alike for them). A paragraph with none and no forced start inside is
    # one sentence, without a step of ``_paragraph`` (a shortcut: off, it takes one).
    runs: list[re.Match[str]] | None = None
    skip_check = False
    pairs: list[tuple[int, int]] = []
    r = f = 0
    position = start
    for first, last in (*breaks, (end, end)):
        if not fast or not _fast_paragraph(text, position, first, fast, forced, out):
            if runs is None:
                candidates = _candidates(text, colon_stops, start)
                runs = list(candidates.finditer(text, start, end))
                skip_check = _SHORTCUTS and candidates.groups == 1
                if runs:
                    pairs = _pairs(text, start, end, breaks)
            while r < len(runs) and runs[r].start() < position:
                r += 1
            low = r
            while r < len(runs) and runs[r].start() < first:
                r += 1
            while f < len(forced) and forced[f] <= position:
                f += 1
            if low < r or (f < len(forced) and forced[f] < first) or not _SHORTCUTS:
                _paragraph(
                    text, position, first, rules, runs[low:r], skip_check, forced, pairs, out
                )
            else:
                _add_trimmed(text, position, first, out)
        position = last
    return out


_RULES_CACHE: dict[tuple[str, tuple[str, ...]], Rules] = {}


def _rules(language: str, user: tuple[str, ...]) -> Rules:
    key = (language, user)
    found = _RULES_CACHE.get(key)
    if found is None:
        if len(_RULES_CACHE) > 32:
            _RULES_CACHE.clear()
        found = _RULES_CACHE[key] = Rules(language, user)
    return found


def _paragraph(
    text: str,
    start: int,
    end: int,
    rules: Rules,
    runs: list[re.Match[str]],
    skip_check: bool,
    forced: list[int],
    pairs: list[tuple[int, int]],
    out: Spans,
) -> None:
    """Append the sentences of one paragraph (no blank line inside), given its terminator
    runs (``_candidates``'s matches; ``skip_check``: the pattern is the plain one, which
    leaves the first skip to the loop). (The loop runs once a terminator, a thousand
    times a page of Chinese: names are local, pairs unpacked.)"""
    f = bisect_right(forced, start)
    next_forced = forced[f] if f < len(forced) and forced[f] < end else end
    p = bisect_right(pairs, (start, end))
    p = p - 1 if p and pairs[p - 1][1] > start else p
    opened, closed = pairs[p] if p < len(pairs) else _NO_PAIR
    begin = start
    append = out.append
    unconditional = _UNCONDITIONAL_SET
    after_unconditional = _QUOTATIVE_OR_DIGIT
    letters = _ASCII_LETTER_STRING
    special = rules.special
    no_end = _NO_END_AFTER_DOT
    sure_next = _SURE_NEXT
    shortcuts = _SHORTCUTS
    clean = False  # ``begin`` is one space before a non-space (a shortcut's cut): no trim
    for match in runs:
        first, stop = match.span()
        if skip_check and stop < end and text[stop] in no_end and text[first] not in unconditional:
            # "chunker_py.text", "3.14", "(x.y)": no end without a space (what _latin_end
            # returns first); the forced starts and pairs passed are taken by the next run
            continue
        while next_forced <= first:
            _add_trimmed(text, begin, next_forced, out)
            begin = next_forced
            clean = False
            f += 1
            next_forced = forced[f] if f < len(forced) and forced[f] < end else end
        if stop <= begin:
            continue
        while closed <= first:
            p += 1
            opened, closed = pairs[p] if p < len(pairs) else _NO_PAIR
        if opened < first and stop < closed:
            continue  # inside a quotation or brackets, not right before its closer
        lead = text[first]
        if lead in unconditional:
            if stop < end and text[stop] in after_unconditional:
                cut = _unconditional_end(text, match, start, end)
            else:
                cut = stop  # the usual case: nothing to look at
                if not text[begin].isspace():
                    append((begin, cut))
                    begin = cut
                    clean = False
                    continue
        elif lead in ";;:" and not _colon_is_a_stop(text, first, start, lead):
            continue
        elif not shortcuts:
            cut = _latin_end(text, match, begin, end, rules)
        elif (
            lead == "."
            and match.end(1) == first + 1
            # mutation: equivalent >= -> > — a narrower fast path: _latin_end cuts the same
            # mutation: equivalent 12 -> 13 — the same (the branch's comment below)
            and first - begin >= 12
            and stop + 1 < end
            and (text[stop] == " " or text[stop] == "\n")
            and text[stop + 1] in sure_next
        ):
            # the usual case: ". " (or a line break) before a capital after a plain word
            # (or before a digit, a bullet or an opener: ``_SURE_NEXT``)
            # (what _latin_end finds too, in a tenth of the time: with this branch off, or
            # narrowed as the markers above, the cuts are the same, only slower; 20,005
            # texts in auto, en and de, 57,213 times through it, found no difference)
            # closers after the dot ("(See above.) Next"): _latin_end's end too; a plain
            # word or token before it ("chunks). Light", "`chromium`). CI")
            if stop > first + 1 or (
                (word := text[max(begin, first - _TOKEN_LIMIT) : first].rsplit(None, 1)[-1])
                and (
                    (len(word) > 1 and not word.strip(letters) and word.lower() not in special)
                    or (not text[first - 1].isspace() and _plain_token(word, special))
                )
            ):
                # the sentence ends with the dot or a closer and the next one starts one
                # character after it (what _add_trimmed would find)
                if clean:
                    append((begin + 1, stop))
                else:
                    _add_trimmed(text, begin, stop, out)
                begin = stop
                clean = True
                continue
            cut = _latin_end(text, match, begin, end, rules)
        elif (
            first - begin < 12
            and stop < end
            and text[stop] == " "
            and _MARKER_ONLY.match(text, _skip_space(text, begin, end), stop)
        ):
            # "1. Paste": a list marker alone ends nothing (_latin_end's 0; or its cut when
            # only trailers and white space follow in the paragraph, which changes no span)
            continue
        elif stop == end:
            cut = stop  # at the paragraph's end (what _latin_end returns then, without the call)
        else:
            cut = _latin_end(text, match, begin, end, rules)
        if cut:
            _add_trimmed(text, begin, cut, out)
            begin = cut
            clean = False
    while next_forced < end:
        _add_trimmed(text, begin, next_forced, out)
        begin = next_forced
        f += 1
        next_forced = forced[f] if f < len(forced) and forced[f] < end else end
    _add_trimmed(text, begin, end, out)


# Shortcuts of ``_paragraph`` for the usual Latin cases, each what ``_latin_end`` says
# there without the call (off: every Latin run asks it; the sentences are the same).
_SHORTCUTS = True


# What may follow ". " for ``_paragraph``'s shortcut: characters that may start a
# sentence (``_STARTS``) and no trailer (``_TRAILER_LEADS``: a closing quote or a footnote
# mark after the space stays with the sentence), so ``_latin_end`` looks no further.
_SURE_NEXT = frozenset(
    char
    for char in (*_ASCII_UPPER, *"0123456789", *_BULLETS, *"(¿¡«„“‘")
    if _STARTS.has(char) and char not in _TRAILER_LEADS and not char.isspace()
)


def _plain_token(token: str, special: frozenset[str]) -> bool:
    """Whether a lone dot after ``token`` (the text's run of non-space characters right
    before it), before white space and a capital, surely ends a sentence: the word that
    ``_word_before`` takes from it has two or more characters, no dot and no apostrophe,
    does not start with a digit and is none of the words that need a second look
    (``_period_ends`` then says True in every branch)."""
    word = token.lstrip(_OPENERS)
    return (
        len(word) > 1
        and "." not in word
        and "'" not in word
        and "’" not in word
        and not _DIGIT_CHAR.has(word[0])
        and word.lower() not in special
    )


def _unconditional_end(text: str, match: re.Match[str], start: int, end: int) -> int:
    stop = match.end()
    first = match.start()
    if (
        text[first] in "．."
        and first > start
        and text[first - 1] in _DIGITS
        and stop < end
        and text[stop] in _DIGITS
    ):
        return 0  # a decimal point: ３．２９
    if stop > match.end(1) and stop < end and text[stop] in _QUOTATIVE:
        return 0
    return stop

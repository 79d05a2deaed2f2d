"""The segmenter's shortcuts find what the full rules find: each one skips work only
where it can prove the outcome, so switching it off (or doing the work it skips) must
give the same sentences, for any text of the characters it looks at (Hypothesis).

- ``_paragraph``'s Latin shortcuts (". " before a capital, closers after the dot, a
  plain token before it, the paragraph's end, no end without a space) against
  ``_latin_end`` on every run (``_SHORTCUTS`` off);
- the colon check: a text whose ";" and ":" follow no Greek or Armenian letter leaves
  them out of the terminator scan;
- the blank-line test of quotation and bracket pairs by bisection over the blank-line
  runs, against a search for a blank line inside each pair;
- the second list markers found by patterns that start at each dot and bracket, against
  the needles' scans, and the list markers found the same way, against every tail's
  value;
- ". " before a digit, bullet or opener, the sentence start known
  after a shortcut's cut, a list marker alone, against ``_latin_end``; ``_present``'s
  block test against ``in``; the blank lines of a text without "\r" against
  ``_PARAGRAPH_BREAK``; the ASCII letter count against a count per letter;
- the terminator pattern that leaves out the runs ``_paragraph`` skips
  first, against the plain pattern's matches less those runs.
"""

# ruff: noqa: RUF001  (look-alike characters on purpose)

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py.text import segmenter, sentence_language, sentence_marks, sentence_pairs
from chunker_py.text import sentence_lists as lists

# Pieces of Latin sentences: words long enough for the shortcuts (12 characters before
# the run), tokens before a dot that need a second look or not, runs, and what follows.
LATIN = st.sampled_from(
    [
        *["Some words before ", "and then more of it ", "\n", "\n\n", " ", "\t", "\u00a0"],
        *["chunks)", "`code`)", "(see", "**bold**", "x.py", "U.S", "e.g", "Ph.D", "l'Ing", "l’Dr"],
        *["Dr", "No", "St", "Main St", "vs", "etc", "ft", "3", "12", "am 12", "der 2", "a"],
        *[". ", ".\n", "). ", "`). ", ")", ".", "? ", "! ", "...", ". . . ", "… ", "!? "],
        *["I ", "II ", "The ", "Tom ", "Jan ", "Oktober ", "Weltkrieg ", "5 ", "a ", "(", '"'],
        *["'", "’", "«", "“", "- ", "1. ", "a) ", "[1] ", ".Today ", ",", ";", ":", "。", "！x"],
    ]
)
COLONS = st.sampled_from(
    [*"aΣ;;:։Աբ Ω\n.?", "\u2126", "\u1d26", "\uab65", "\ufb13", "Τι", "Բարև", "x:", "y;"]
)
PAIRS = st.sampled_from([*'"“”„«»()[]（）「」『』 a.\n\r\t\u2028\x0b', "\r\n", "\n \n", 'ד"ר'])
MARKERS = st.sampled_from([*" \t\n.)ab2ix", "2.", "2)", "b.", "b)", "ii.", "ii)", "1. ", "a) "])


def cut_range(text: str, cut_start: int, cut_end: int) -> tuple[int, int]:
    """A range of ``text`` without up to ``cut_start`` characters at its start and
    ``cut_end`` at its end (never reversed)."""
    start, end = min(cut_start, len(text)), max(0, len(text) - cut_end)
    return start, max(start, end)


def shortcuts_off(text: str, language: str) -> list[tuple[int, int]]:
    try:
        segmenter._SHORTCUTS = False
        return segmenter.sentence_spans(text, language=language)
    finally:
        segmenter._SHORTCUTS = True


@settings(max_examples=500, deadline=None)
@given(st.lists(LATIN, max_size=50).map("".join), st.sampled_from(["en", "de", "auto"]))
@example("The same\nchunks). Light and more words here.", "en")
@example("Install it with `pip install chromium`). CI runs it.", "en")
@example("Words before l'Ing. Then more text.", "fr")
@example("Some words before x.py. I went", "en")
@example("Some words before am 12. Oktober ", "de")
@example("Some words before Dr. Tom went", "en")
@example("Some words before it。x and more", "en")  # "。" ends one before anything
@example("Some words before l’Dr. Tom went", "fr")
@example("A sentence that ends here (see 12). Next", "en")
@example("Some more words for the test of e.g. This", "en")
def test_latin_shortcuts_cut_where_latin_end_does(text: str, language: str) -> None:
    assert segmenter.sentence_spans(text, language=language) == shortcuts_off(text, language)


@settings(max_examples=500, deadline=None)
@given(st.lists(COLONS, max_size=40).map("".join), st.integers(0, 3), st.integers(0, 3))
@example("α;", 0, 0)
@example("α;", 1, 0)  # the letter before it lies outside the range
@example("Ա:", 0, 0)
@example("\u1fff; \u0530: \u0370;", 0, 0)  # outside the tables, inside the blocks
def test_colon_stops_are_the_letters_before_each_colon(
    text: str, cut_start: int, cut_end: int
) -> None:
    start, end = cut_range(text, cut_start, cut_end)
    expected = any(
        (text[at] == ";" and sentence_marks._GREEK_CHAR.has(text[at - 1]))
        or (text[at] == ":" and sentence_marks._ARMENIAN_CHAR.has(text[at - 1]))
        for at in range(start + 1, end)
    )
    assert segmenter._colon_stops(text, start, end) == expected


def every_colon_looked_at(text: str) -> list[tuple[int, int]]:
    original = segmenter._colon_stops
    try:
        segmenter._colon_stops = lambda *_args: True  # type: ignore[assignment]
        return segmenter.sentence_spans(text)
    finally:
        segmenter._colon_stops = original


@settings(max_examples=500, deadline=None)
@given(st.lists(COLONS, max_size=40).map("".join))
@example("Τι; Ναι")  # the Greek question mark
@example("Բարև: Ինչ")  # the colon typed for the Armenian full stop
@example("\u2126; More, and a Greek letter: α")  # U+2126 is Greek, outside the blocks
@example("\ufb13: Then ։ Armenian")  # so is U+FB13 (Armenian)
def test_colon_check_leaves_out_only_colons_that_end_nothing(text: str) -> None:
    assert segmenter.sentence_spans(text) == every_colon_looked_at(text)


def pairs_by_search(text: str) -> list[tuple[int, int]]:
    """The pairs as the rule states them: every match of the pair patterns, the
    outermost ones kept when no blank line is found inside."""
    found = sorted(
        m.span() for _opener, pattern in sentence_pairs._PAIRS for m in pattern.finditer(text)
    )
    out: list[tuple[int, int]] = []
    for a, b in found:
        if out and a < out[-1][1]:
            continue
        if not sentence_pairs._PARAGRAPH_BREAK.search(text, a, b):
            out.append((a, b))
    return out


@settings(max_examples=500, deadline=None)
@given(st.lists(PAIRS, max_size=60).map("".join))
@example('"a\n\nb" (c)')
@example('( a\r\n\r\n b ) "x"')
@example("(a\n\u2028\nb)")
def test_pairs_hold_no_blank_line(text: str) -> None:
    breaks = sentence_pairs._paragraph_breaks(text, 0, len(text))
    assert sentence_pairs._pairs(text, 0, len(text), breaks) == pairs_by_search(text)


def second_markers_by_needle(text: str, start: int, end: int) -> list[int]:
    """The second list markers as the rule states them: each "2.", "2)", "b.", "b)",
    "ii.", "ii)" in the range after a space or tab inside it, before white space (past
    one more ")")."""
    hits = []
    for needle in (f"{value}{tail}" for value in ("2", "b", "ii") for tail in ".)"):
        at = text.find(needle, start + 1, end)
        while at >= 0:
            after = at + len(needle)
            if after < end and text[after] == ")":
                after += 1
            if after < end and text[after].isspace() and text[at - 1] in " \t":
                hits.append(at)
            at = text.find(needle, at + 1, end)
    return sorted(hits)


@settings(max_examples=500, deadline=None)
@given(st.lists(MARKERS, max_size=60).map("".join), st.integers(0, 5), st.integers(0, 5))
@example("x 2. y", 0, 0)
@example("ii.) b) 2))\t2.\n", 0, 0)
@example(" ii. 2.", 1, 0)
@example(" 2. x", 1, 0)  # the space before it lies outside the range
@example("x\tii. y", 0, 0)  # a tab before it
@example("x b)\u2028", 0, 0)
def test_second_markers_are_the_needles(text: str, cut_start: int, cut_end: int) -> None:
    start, end = cut_range(text, cut_start, cut_end)
    found = lists._second_markers(text, start, lists._value_tails(text, start, end))
    assert found == second_markers_by_needle(text, start, end)


def test_many_dots_still_find_the_second_marker() -> None:
    text = "." * 2000 + ") " * 500 + " 2. x"
    at = text.index("2.")
    assert lists._second_markers(text, 0, lists._value_tails(text, 0, len(text))) == [at]
    tails = lists._value_tails(text, 0, len(text))
    assert lists._inline_list_windows(text, 0, len(text), tails) == [
        (max(0, at - lists._LIST_REACH), len(text))
    ]


TAILS = st.sampled_from(
    [*" \t\n\u00a0\u2028.)a1ivx", ".)", "))", ". ", ") ", ".) ", "ii", "12", "b.", "3)"]
)
MARKER_TAIL = re.compile(r"[.)]\)?(?=\s)")  # a marker's end, value not looked at


def inline_markers_by_tail(text: str, start: int, first: int, last: int) -> list[tuple]:
    """The list markers as the rule states them: at each end of ``MARKER_TAIL`` in
    ``[first, last)``, in order, the value before it (``_MARKER_VALUE``) when a space
    or the range's start precedes the value, and a value of two or more characters is
    digits or a roman numeral."""
    found = []
    for tail in MARKER_TAIL.finditer(text, first, last):
        at, stop = tail.span()
        if at - 2 >= start and text[at - 1] not in "0123456789ivx" and not text[at - 2].isspace():
            continue
        value = lists._MARKER_VALUE.search(text, max(start, at - 4), at)
        if value:
            found.append((value.start(1), value.group(1), text[at:stop]))
    return found


@settings(max_examples=800, deadline=None)
@given(
    st.lists(TAILS, max_size=60).map("".join),
    st.integers(0, 3),
    st.integers(0, 5),
    st.integers(0, 5),
)
@example("a.) b)) c. d)", 0, 0, 0)
@example("x.)", 0, 0, 1)
@example("1.) 2)) 3. ii) iv.) 12. x", 0, 0, 0)
@example(" b. c", 1, 2, 0)  # a tail at the window's start
@example("2.)) 3.) x", 0, 0, 0)
@example("a. b) c", 0, 0, 0)  # a letter at the text's start
@example("xa. b) c", 1, 0, 0)  # at the range's start, a letter before it
def test_inline_markers_are_the_tails_values(
    text: str, cut_start: int, cut_first: int, cut_last: int
) -> None:
    start = min(cut_start, len(text))
    first = min(start + cut_first, len(text))
    last = max(first, len(text) - cut_last)
    expected = inline_markers_by_tail(text, start, first, last)
    for end in {last, len(text)}:  # the tails of the range, which may reach beyond ``last``
        tails = lists._value_tails(text, start, end)
        assert lists._inline_markers(text, start, first, last, tails) == expected


# The Latin shortcuts' second set: what may follow ". " (a digit, a bullet, an opener, besides a
# capital), the sentence start known after such a cut (no trim), a list marker alone
# ("1. Paste"); the block test of ``_present``; the blank lines of a text without "\r";
# the ASCII letter count of the language guess.
AFTER_DOT = st.sampled_from(
    [
        "Some words before it. Tom and then more of it. ",
        *["and then more of it", "x.py", "Dr", "No", "chunks)", "U.S"],
        *[". ", ".\n", ").", ". ", "  ", "\n", "\n\n", " ", "\t", "1. ", "\n2. ", "a) ", "ii. "],
        *["2", "5 ", "• ", "◦", "(", "¿", "¡", "«", "„", "“", "‘", '"', "'", "’", "[1]", "[", "x"],
        *["The ", "Tom ", "I ", "- ", "* ", "\u00a0", "\u2028", "…", "..", "?"],
    ]
)


@settings(max_examples=800, deadline=None)
@given(st.lists(AFTER_DOT, max_size=50).map("".join), st.sampled_from(["en", "de", "auto"]))
@example("Some words before it. 2 and then more of it", "en")
@example("xxii. ii. ", "en")  # found by CI: a roman marker beyond the table raised
@example("Some words before it. • and then more of it", "en")
@example("Some words before it. “Tom and then more", "en")
@example("Some words before it. ” Tom and then more", "en")  # a trailer: not the shortcut
@example("Some words before it. [1] Tom and more", "en")
@example("Some words before it.\n1. Paste it\n2. Then", "en")
@example("and then more of it.  Tom and more of it. Tom", "en")  # two spaces: trimmed
@example("1. ” x", "en")
@example("1. [1] x", "en")
@example("1. ”  ", "en")
@example("Some words before it. Tom and then more of it. The end", "en")  # two in a row
@example('Some words before it. " Tom went on', "en")  # a trailer after the space
@example("Some words before it." + " " * 14 + "1. 'Tom' went home", "en")  # far from begin
def test_shortcuts_after_the_dot_cut_where_latin_end_does(text: str, language: str) -> None:
    assert segmenter.sentence_spans(text, language=language) == shortcuts_off(text, language)


BLOCKS = st.sampled_from(
    [*"a.\n 。！？｡．।॥؟۔։።፧။។៕᠃…‼⁇⁈⁉“„«»‹(（「『《【", *"gbdeщ木杏ĀĠ", "😀", "\U00010300"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(BLOCKS, max_size=40).map("".join), BLOCKS)
@example("木", "፧")  # the same low byte (0x67), another block
@example("Ġ", "।")  # U+0120 and U+0964 share nothing but the look
@example("\U00010300", "̀")  # a code point beyond the BMP whose second byte is 0x03
def test_present_rules_out_only_absent_blocks(text: str, needle: str) -> None:
    seconds = text.encode("utf-32-le", "surrogatepass")[1::4]
    sentence_marks._note_blocks(text, seconds)
    try:
        assert sentence_marks._present(text, needle) == (needle in text)
    finally:
        sentence_marks._note_blocks("", b"")


LINES = st.sampled_from([*"ab \t\n\x0b\x0c\x1c\x85\u2028\u2029\u3000", "\n\n", "\n \n"])


@settings(max_examples=500, deadline=None)
@given(st.lists(LINES, max_size=60).map("".join), st.tuples(st.integers(0, 5), st.integers(0, 5)))
@example("a\n\x0b\nb", (0, 0))
@example("a\n\u2028\n \nb", (0, 0))
@example("\n\nb", (1, 0))
def test_blank_lines_without_cr_are_the_pattern(text: str, cut: tuple[int, int]) -> None:
    start, end = cut_range(text, *cut)  # (without up to cut[0] characters before, cut[1] after)
    expected = [m.span() for m in sentence_pairs._PARAGRAPH_BREAK.finditer(text, start, end)]
    assert sentence_pairs._paragraph_breaks(text, start, end) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from([*"azAZ09 .@[`{~\x7f\x00", "é", "我", "Ω", "😀"]), max_size=60))
def test_ascii_letter_count_counts_each_letter(text: str) -> None:
    expected = sum(map(text.count, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    assert sentence_language._ascii_letter_count(text) == expected


# Terminators of both kinds, their closers, runs that go on after a space, and what may
# follow a run: a character that ends nothing without a space, a space, a capital.
GUARDED = st.sampled_from(
    [
        *[*".!?…‼。！．।", *" \n\t\"”)»」'[-x3A"],
        *["...", " .", " . ", "。.", ".。", "? .。", ". ..", "…”x"],
    ]
)


def plain_candidates(text: str, start: int) -> re.Pattern[str]:
    try:
        segmenter._SHORTCUTS = False
        return segmenter._candidates(text, False, start)
    finally:
        segmenter._SHORTCUTS = True


def after_first_skip(pattern: re.Pattern[str], text: str, start: int, end: int) -> list:
    """The runs ``_paragraph`` looks at: a plain pattern's matches less those its first
    check skips; a guarded pattern's (two groups) as they are."""
    no_end, unconditional = sentence_marks._NO_END_AFTER_DOT, sentence_marks._UNCONDITIONAL_SET
    return [
        (m.start(), m.end(1), m.end())
        for m in pattern.finditer(text, start, end)
        if pattern.groups == 2
        or not (m.end() < end and text[m.end()] in no_end and text[m.start()] not in unconditional)
    ]


@settings(max_examples=1000, deadline=None)
@given(st.lists(GUARDED, max_size=40).map("".join), st.integers(0, 4), st.integers(0, 4))
@example(".。x", 0, 0)  # a run led by "." left out: the "。" inside it starts nothing
@example("? .。x", 0, 0)  # the single "." ends the run: the "。" after it starts one
@example("…”x", 0, 0)  # closers given back would leave "…" before a "”"
@example("a.b", 0, 1)  # before the range's end: kept
@example(".。-", 1, 0)  # a range that starts after a terminator: its "。" starts a run
@example('..".', 1, 0)  # (which takes the plain pattern and the loop's check)
@example(".? .。-", 3, 0)  # two before it: its "." leads the run, not a single "." after "? "
def test_guarded_candidates_are_the_plain_ones_less_the_skipped(
    text: str, cut_start: int, cut_end: int
) -> None:
    start, end = cut_range(text, cut_start, cut_end)
    guarded = segmenter._candidates(text, False, start)
    after_terminator = any(
        char in sentence_marks._TERMINATORS for char in text[max(0, start - 2) : start]
    )
    if any(char in text for char in sentence_marks._LATIN) and not after_terminator:
        assert guarded.groups == 2  # the pattern that leaves them out
    plain = plain_candidates(text, start)
    assert plain.groups == 1
    assert after_first_skip(guarded, text, start, end) == after_first_skip(plain, text, start, end)


LINES = st.sampled_from(
    [*"\n\r \t\u00a0\u2028ab1iIxX(-*–•.)", "\r\n", "  ", "12. ", "(a) ", "iv.) ", "- ", "The "]
)


@settings(max_examples=800, deadline=None)
@given(st.lists(LINES, max_size=50).map("".join))
@example("\n  - item\n\t12. x\n(iv) y\n\u00a0 • z")
@example("\n \n- x")
@example("\r\n  a) b")
def test_line_items_are_the_markers_after_each_line_break(text: str) -> None:
    """The line-item patterns (possessive indentation, a marker's first character tested
    first) find what the rule states: each line break, its indentation, then a marker
    and a space or tab."""
    plain = re.compile(rf"[\r\n][^\S\r\n]*(?={lists._MARKER}[^\S\r\n])")
    expected = [m.end() for m in plain.finditer(text)]
    assert [m.end() for m in lists._LINE_ITEM.finditer(text)] == expected
    if "\r" not in text:
        assert [m.end() for m in lists._LINE_ITEM_LF.finditer(text)] == expected

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
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable

from . import sentence_chars as chars
from . import sentence_words as words

Spans = list[tuple[int, int]]


def _union(*tables: tuple[int, ...]) -> tuple[int, ...]:
    """The flat range table (first, last, first, last, …) of all the tables' code points."""
    runs = sorted((t[i], t[i + 1]) for t in tables for i in range(0, len(t), 2))
    merged: list[list[int]] = []
    for first, last in runs:
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return tuple(v for run in merged for v in run)


class _Chars:
    """Code points of frozen tables, tested one at a time by binary search: ``re`` takes
    up to 25 ms to compile a class of tens of thousands of letters, and the page would pay
    it for every such pattern at start-up."""

    __slots__ = ("extra", "seen", "table")

    def __init__(self, *tables: tuple[int, ...], extra: str = "") -> None:
        self.table = _union(*tables)
        self.extra = frozenset(extra)
        self.seen: dict[str, bool] = {}  # answers so far (at most one per code point)

    def has(self, char: str) -> bool:
        found = self.seen.get(char)
        if found is None:
            found = self.seen[char] = self._lookup(char)
        return found

    def _lookup(self, char: str) -> bool:
        if char in self.extra:
            return True
        code = ord(char)
        index = bisect_right(self.table, code)
        return index % 2 == 1 or (index > 0 and self.table[index - 1] == code)

    def match(self, text: str, position: int = 0) -> bool:
        """Whether ``text[position]`` is one of them (like a one-character pattern)."""
        return position < len(text) and self.has(text[position])


_UPPER_CHAR = _Chars(chars.UPPER)
_LOWER_START = _Chars(chars.LOWER)
_LETTER_CHARS = _Chars(chars.UPPER, chars.LOWER, chars.CASELESS)
_DIGIT_CHAR = _Chars(chars.DIGIT)
_CJK_CHAR = _Chars(chars.HAN, chars.HIRAGANA, chars.KATAKANA)
_GREEK_CHAR = _Chars(chars.GREEK)
_ARMENIAN_CHAR = _Chars(chars.ARMENIAN)

# Closing quotes and brackets. German closes with the English opening quotes (after the
# low ones) or with the guillemets pointing left (after those pointing right).
_CLOSERS = "\"'”’»“‘«)]}」』）】》〉›‹〕〗〙〛｣＂＇］｝`"
_OPENERS = "¿¡«„\"'([{“‘‚‹›»「『（【《〈〔＂＇`"
_BULLETS = "•◦▪‣⁃"
_UNCONDITIONAL = "。！？｡．।॥؟۔։።፧။។៕᠃"
_LATIN = ".!?…‼⁇⁈⁉"
_CLOSER_RUN = f"[{re.escape(_CLOSERS)}]*"  # ("''" too: "'" is a closer)

# A terminator run (one pattern that starts with one class: ``re`` then skips ahead fast).
# ";" and ":" join it only in texts with Greek or Armenian letters (the Greek question
# mark, the colon typed for the Armenian full stop); the run's first character tells its
# kind.
_L = re.escape(_LATIN)
# joined across single spaces: ". . .", "! ! !", "Happy! ...", but not "raak. ...en"
_RUN = "[{0}{1}]+(?:[ ](?:[{1}](?![{1}])|(?:\\.{{3,}}|…)(?=\\s|\\Z)))*"
_TERMINATORS = _UNCONDITIONAL + _LATIN
_TERMINATOR_SET = frozenset(_TERMINATORS)
_NONE_FOUND = re.compile("(?!)()")
_CANDIDATES: dict[tuple[str, bool, bool], re.Pattern[str]] = {}


_ascii_part: tuple[str, str | None] = ("", None)


def _present(text: str, needle: str) -> bool:
    """``needle in text``; for ASCII in a text mostly beyond ASCII (Chinese, Japanese…),
    in the text's ASCII characters alone: ``in`` looks for an ASCII character in such a
    text about ten times slower than that copy costs. A needle of several characters may
    be found there when the text lacks it (never the reverse): only for "may be there"
    checks."""
    global _ascii_part
    if not needle.isascii():
        first = _block_start(text, needle[0])
        return first >= 0 and text.find(needle, first) >= 0
    if text.isascii():
        return needle in text
    if _ascii_part[0] is not text:
        head = text[:1000]
        mostly_ascii = len(head.encode("ascii", "ignore")) * 2 >= len(head)
        part = None if mostly_ascii else text.encode("ascii", "ignore").decode("ascii")
        _ascii_part = (text, part)
    part = _ascii_part[1]
    return needle in (text if part is None else part)


# The text whose UTF-32 second bytes are known (``sentence_spans`` notes them), and where
# the first of each of those bytes stands (found so far: one per block of 256 code points).
_blocks: tuple[str, bytes, dict[int, int]] = ("", b"", {})


def _note_blocks(text: str, seconds: bytes) -> None:
    global _blocks
    _blocks = (text, seconds, {})


def _block_start(text: str, char: str) -> int:
    """Where the first code point of ``char``'s block of 256 stands in ``text``, -1 when
    none does (known only for the text ``_note_blocks`` was given: else 0). One
    ``bytes.find`` (memchr) a block rules out the terminators and openers of other
    scripts, where ``in`` costs up to 14 µs a page beyond Latin-1 (it looks for the low
    byte, common in such text), and a search for one of them starts there."""
    known, seconds, seen = _blocks
    if known is not text:
        return 0
    block = ord(char) >> 8 & 0xFF
    found = seen.get(block)
    if found is None:
        found = seen[block] = seconds.find(block)
    return found


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


# the Greek and Armenian blocks: where ";" and ":" may be full stops (the letter before
# them is then checked exactly)
_GREEK_OR_ARMENIAN = re.compile("[\u0370-\u03ff\u1f00-\u1fff\u0530-\u058f]")
# the second byte of the UTF-32 form of their code points, and of Thai's
_GREEK_OR_ARMENIAN_BYTES = (b"\x03", b"\x05", b"\x1f")
_THAI_BYTES = (b"\x0e",)


def _first_of_block(seconds: bytes, marks: tuple[bytes, ...], start: int) -> int:
    """Where a code point of the blocks whose UTF-32 second byte is one of ``marks`` may
    first stand from ``start`` on (-1: nowhere), given ``seconds``, the second byte of
    each code point of the text: one ``bytes.find`` (memchr) per mark rules a block out,
    where a scan by ``re`` for a class costs about 0.1 ms a page beyond Latin-1."""
    found = [at for mark in marks if (at := seconds.find(mark, start)) >= 0]
    return min(found) if found else -1


def _colon_stops(text: str, start: int, end: int) -> bool:
    """Whether a ";" of the range follows a Greek letter or a ":" an Armenian one, as
    ``_colon_is_a_stop`` checks them (none at ``start``: a paragraph's first character
    ends nothing). Without one, ";" and ":" end no sentence and the terminator scan
    leaves them out (a few dozen matches fewer a page of Markdown that names a Greek or
    Armenian letter; ``str.find`` finds each colon far faster than a class would)."""
    for colon, letters in ((";", _GREEK_CHAR), (":", _ARMENIAN_CHAR)):
        at = text.find(colon, start + 1, end)
        while at >= 0:
            before = text[at - 1]
            if before > "\u036f" and letters.has(before):  # (no letter of theirs before U+0370)
                return True
            at = text.find(colon, at + 1, end)
    return False


_UNCONDITIONAL_SET = frozenset(_UNCONDITIONAL)
_QUESTION_OR_EXCLAMATION = frozenset("!?‼⁇⁈⁉")
_LINE_BREAK = r"(?:\r\n|\r|\n)"
_PARAGRAPH_BREAK = re.compile(rf"{_LINE_BREAK}(?:[^\S\r\n]*{_LINE_BREAK})+")
_SPACE = re.compile(r"\s*")
# Footnote marks ("[1]", "[2][3] [4]") and a closing quote written apart (" '' ", " ' ")
# after a terminator stay with its sentence.
_TRAILERS = re.compile(r"(?:\s*(?:\[[0-9]{1,3}\])+|[^\S\r\n]+(?:''|[\"'”’]))+(?=\s|\Z)")
_TRAILER_LEADS = frozenset("[\"'”’ \t")
_ATTACHED_FOOTNOTES = re.compile(r"(?:\[[0-9]{1,3}\])+(?=\s|\Z)")
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
_PLAIN_OPENERS = "\"'“‘«„(["
_PLAIN_NUMBER = re.compile(r"[0-9][0-9,]*")
_AFTER_PLAIN_WORD = frozenset(" \t\r\n.,;!?")
_ASCII_LETTER_STRING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ASCII_LETTERS = frozenset(_ASCII_LETTER_STRING)
_ASCII_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
# ASCII characters after a terminator with no space that end no sentence: neither a
# capital (a sentence may start with no space), "[" (a footnote mark) nor white space
_NO_END_AFTER_DOT = frozenset(
    chr(code) for code in range(128) if not chr(code).isspace() and chr(code) not in _ASCII_UPPER
) - {"["}
_MARKER_LAST = frozenset("0123456789ivx")
_MARKER_VALUE = re.compile(r"(?:(?<=\s)|^)([0-9]{1,2}|[a-z]|[ivx]{1,4})\Z")
_LIST_REACH = 2000  # how far an inline list's items may stand from its second one
_THAI_SPACE = re.compile(r"[\u0e01-\u0e5b][^\S\r\n]+(?=[\u0e01-\u0e5b])")
_STARTS = _Chars(chars.UPPER, chars.CASELESS, chars.DIGIT, extra=_OPENERS + _BULLETS + "…")
# A word for the word lists: up to white space or punctuation.
_NOT_WORD = r"\s.,;:!?…\"'()\[\]{}«»“”‘’„‚‹›「」『』（）【】《》〈〉。！？、，：；"
_NEXT_WORD = re.compile(rf"[{re.escape(_OPENERS)}]*([^{_NOT_WORD}]+(?:['’][^{_NOT_WORD}]+)?)")
_ROMAN_NUMBER = re.compile(r"[IVXLC]+(?=[\s.,;:!?)\]\"'’”]|\Z)")


def _number(word: str) -> bool:
    """Digits in groups joined by one of ``. , : /``: "5", "1,000", "3.14", "1026.253.553"."""
    if not word or not _DIGIT_CHAR.has(word[0]) or not _DIGIT_CHAR.has(word[-1]):
        return False
    after_separator = False
    for char in word:
        if char in ".,:/":
            if after_separator:
                return False
            after_separator = True
        elif _DIGIT_CHAR.has(char):
            after_separator = False
        else:
            return False
    return True


def _capitalised(text: str, position: int = 0) -> bool:
    """A capital, then a lower-case letter."""
    return _UPPER_CHAR.match(text, position) and _LOWER_START.match(text, position + 1)


def _lone_capital(text: str, position: int) -> bool:
    return _UPPER_CHAR.match(text, position) and text.startswith(" ", position + 1)


def _dot_lower(text: str, position: int) -> bool:
    return text.startswith(".", position) and _LOWER_START.match(text, position + 1)


def _spaced_letter(text: str, position: int = 0) -> bool:
    """A letter and a dot ("R.", "B.")."""
    return _LETTER_CHARS.match(text, position) and text.startswith(".", position + 1)


def _letters(word: str) -> bool:
    return bool(word) and all(_LETTER_CHARS.has(char) for char in word)


def _multi_period(word: str) -> bool:
    """Letters in groups of one to four joined by dots: "U.S.A", "Ph.D", "z.B"."""
    parts = word.split(".")
    return len(parts) > 1 and all(len(part) <= 4 and _letters(part) for part in parts)


_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9,
          "x": 10, "xi": 11, "xii": 12}  # fmt: skip
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
_QUOTATIVE = frozenset("とっ")  # Japanese particles after a quotation: the sentence goes on
_DIGITS = frozenset("0123456789０１２３４５６７８９")
_QUOTATIVE_OR_DIGIT = _QUOTATIVE | _DIGITS
_TOKEN_LIMIT = 40  # how far back a word before a dot is looked for

# Languages whose ordinals are written with a dot ("der 3. Oktober", "2. verdenskrig").
ORDINAL_LANGUAGES = frozenset({"de", "da", "fi", "pl", "sk", "cs", "hu", "no", "sv", "et"})
LANGUAGES: dict[str, str] = {
    "auto": "Automatic (from the text)",
    "en": "English",
    "de": "German",
    "fr": "French",
    "es": "Spanish",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "da": "Danish",
    "pl": "Polish",
    "sk": "Slovak",
    "fi": "Finnish",
    "ru": "Russian",
    "uk": "Ukrainian",
    "bg": "Bulgarian",
    "kk": "Kazakh",
    "el": "Greek",
    "hy": "Armenian",
    "ar": "Arabic",
    "fa": "Persian",
    "ur": "Urdu",
    "hi": "Hindi",
    "mr": "Marathi",
    "am": "Amharic",
    "my": "Burmese",
    "zh": "Chinese",
    "ja": "Japanese",
    "th": "Thai",
}

# Titles of every language: they never end a sentence before a name, whatever the language.
_ALL_PREPOSITIVE = frozenset().union(*words.TITLES.values())
_ALL_MONTHS = frozenset().union(*words.MONTHS.values())
_EXCLAMATION_WORDS = frozenset({"yahoo", "jeopardy", "joomla", "mumbai"})


class Rules:
    """The word lists for one language plus the user's abbreviations."""

    __slots__ = ("abbreviations", "language", "number", "ordinals", "prepositive", "special",
                 "starters", "user")  # fmt: skip

    def __init__(self, language: str, user: Iterable[str] = ()) -> None:
        self.language = language
        self.user = frozenset(normalise_abbreviation(a) for a in user)
        english = language in ("en", "el", "fa")
        base = words.ABBREVIATIONS.get(language, words.ABBREVIATIONS["en"] if english else ())
        self.abbreviations = frozenset(base) | words.ABBREVIATIONS["en"] & _COMMON | self.user
        self.prepositive = words.PREPOSITIVE.get(language, words.PREPOSITIVE["en"]) | self.user
        self.number = words.NUMBER.get(language, words.NUMBER["en"]) | _COMMON_NUMBER
        self.starters = words.STARTERS.get(language, frozenset()) | words.STARTERS["en"]
        self.ordinals = language in ORDINAL_LANGUAGES
        # every word whose dot needs a second look (the rest end a sentence at once)
        self.special = (
            self.abbreviations | self.prepositive | self.number | _ALL_PREPOSITIVE | _UNITS
            | {"st", "ste"}
        )  # fmt: skip


# Abbreviations of English that turn up in technical text of any language.
_COMMON = frozenset(
    [
        "e.g",
        "i.e",
        "etc",
        "vs",
        "cf",
        "fig",
        "no",
        "nr",
        "p",
        "pp",
        "vol",
        "ca",
        "approx",
        "a.m",
        "p.m",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
    ]
)


_COMMON_NUMBER = frozenset(["no", "nr", "n°", "nº", "№", "p", "pp"])
_UNITS = frozenset(
    [
        "ft",
        "in",
        "lb",
        "lbs",
        "oz",
        "yd",
        "yds",
        "mi",
        "sq",
        "cu",
        "hr",
        "hrs",
        "min",
        "sec",
        "km",
        "kg",
        "cm",
        "mm",
    ]
)
# Multi-period abbreviations used before a noun ("the U.S. Government"): like "etc." they
# end a sentence only before a typical starter; other ones ("Ph.D.", "B.C.") before any
# capital.
_ATTRIBUTIVE = frozenset(["u.s", "u.k", "u.n", "e.u", "u.s.a", "a.m", "p.m"])


def normalise_abbreviation(text: str) -> str:
    return text.removesuffix(".").lower()


# ------------------------------------------------------------------ language


def _script_table() -> tuple[list[int], list[str]]:
    """Script letter runs merged into one sorted table: range starts and their script."""
    runs = []
    for name in chars.SCRIPTS:
        table = getattr(chars, name)
        runs += [(table[i], table[i + 1], name) for i in range(0, len(table), 2)]
    runs.sort()
    starts, names = [], []
    for first, last, name in runs:
        starts += [first, last + 1]
        names += [name, ""]
    return starts, names


_SCRIPT_STARTS, _SCRIPT_NAMES = _script_table()
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
_LATIN_WORD = re.compile("[A-Za-zªºÀ-ÖØ-öø-ɏ]+")
_SCRIPT_LANGUAGE = {
    "GREEK": "el", "CYRILLIC": "ru", "ARMENIAN": "hy", "HEBREW": "he", "ARABIC": "ar",
    "DEVANAGARI": "hi", "BENGALI": "bn", "THAI": "th", "ETHIOPIC": "am", "MYANMAR": "my",
    "HAN": "zh", "HIRAGANA": "ja", "KATAKANA": "ja", "HANGUL": "ko", "KHMER": "km",
    "GEORGIAN": "ka", "TAMIL": "ta", "TELUGU": "te", "KANNADA": "kn", "MALAYALAM": "ml",
    "GUJARATI": "gu", "GURMUKHI": "pa",
}  # fmt: skip
_STOPWORD_LANGUAGES: dict[str, list[str]] = {}
for _language, _words in sorted(words.STOPWORDS.items()):
    for _word in _words:
        if len(_word) < 2:
            continue  # "a", "i", "y": too many languages' and too often initials
        for _form in (_word, _word[:1].upper() + _word[1:]):
            _STOPWORD_LANGUAGES.setdefault(_form, []).append(_language)
_PERSIAN_LETTERS = "پچژگکی"
_URDU_LETTERS = "ےںٹڈڑہ"
_SAMPLE = 3000
_NOT_LETTER_BYTES = bytes(code for code in range(128) if chr(code) not in _ASCII_LETTERS)
_detected: tuple[str, str] = ("", "en")


def detect_language(text: str) -> str:
    """The language of ``text`` from its first 3,000 code points: the script with the most
    letters (Hiragana or Katakana make Han Japanese), and for Latin script the language
    with the most function words (English when none is found)."""
    global _detected
    if _detected[0] is text:
        return _detected[1]
    sample = text[:_SAMPLE]
    counts: dict[str, int] = {}
    ascii_only = len(sample.encode("ascii", "ignore"))
    if (len(sample) - ascii_only) * 10 < len(sample):
        counts["LATIN"] = ascii_only  # a text nine tenths ASCII is Latin script
    if not counts:
        head = sample[:1000]
        counts["LATIN"] = _ascii_letter_count(head)
        for run in _NON_ASCII_RUN.findall(sample, 0, 1000):
            # a run's script is its first letter's (a word rarely mixes scripts)
            for char in run[:8]:
                name = _SCRIPT_NAMES[bisect_right(_SCRIPT_STARTS, ord(char)) - 1]
                if name:
                    counts[name] = counts.get(name, 0) + len(run)
                    break
    language = "en"
    if counts:
        if counts.get("HIRAGANA", 0) + counts.get("KATAKANA", 0):
            counts["HAN"] = counts.get("HAN", 0) + counts.pop("HIRAGANA", 0)
            counts["HAN"] += counts.pop("KATAKANA", 0)
            counts["HIRAGANA"] = counts.pop("HAN")
        script = max(counts, key=lambda name: (counts[name], name))
        if script == "LATIN":
            language = _latin_language(sample)
        else:
            language = _SCRIPT_LANGUAGE.get(script, "en")
        if language == "ru":
            language = _cyrillic_language(sample)
        if language == "ar":
            persian = _count(sample, _PERSIAN_LETTERS)
            urdu = _count(sample, _URDU_LETTERS)
            if urdu > persian and urdu:
                language = "ur"
            elif persian:
                language = "fa"
    _detected = (text, language)
    return language


def _ascii_letter_count(text: str) -> int:
    """How many ASCII letters ``text`` holds: its ASCII characters less the others (two C
    calls, where a count per letter is 52 scans of the text)."""
    return len(text.encode("ascii", "ignore").translate(None, _NOT_LETTER_BYTES))


_UKRAINIAN_LETTERS = "ієїґІЄЇҐ"
_KAZAKH_LETTERS = "әғқңөұүһӘҒҚҢӨҰҮҺ"
_RUSSIAN_LETTERS = "ыэЫЭ"


def _count(sample: str, letters: str) -> int:
    return sum(sample.count(letter) for letter in letters)


def _cyrillic_language(sample: str) -> str:
    """Russian, Ukrainian, Kazakh or Bulgarian from letters only some of them use."""
    kazakh = _count(sample, _KAZAKH_LETTERS)
    ukrainian = _count(sample, _UKRAINIAN_LETTERS)
    russian = _count(sample, _RUSSIAN_LETTERS)
    if kazakh and kazakh >= ukrainian:
        return "kk"
    if ukrainian > russian:
        return "uk"
    if not russian and "ъ" in sample:
        return "bg"
    return "ru"


def _latin_language(sample: str) -> str:
    votes: dict[str, int] = {}
    table = _STOPWORD_LANGUAGES
    # the function words counted in C (``filter``, ``Counter``), then each word's languages
    for word, times in Counter(filter(table.__contains__, _LATIN_WORD.findall(sample))).items():
        for language in table[word]:
            votes[language] = votes.get(language, 0) + times
    return max(
        votes, key=lambda language: (votes[language], language == "en", language), default="en"
    )


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


def _colon_is_a_stop(text: str, first: int, start: int, lead: str) -> bool:
    """``;`` after a Greek letter (the question mark), ``:`` after an Armenian one."""
    if first == start:
        return False
    return bool((_ARMENIAN_CHAR if lead == ":" else _GREEK_CHAR).match(text, first - 1))


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


def _latin_end(text: str, match: re.Match[str], begin: int, end: int, rules: Rules) -> int:
    """Where the sentence ends after a ``. ! ? …`` run (0: it does not end there)."""
    stop = match.end()
    run = match.group(1)
    closed = stop > match.end(1)
    if stop < end and not text[stop].isspace():
        if text[stop] in _NO_END_AFTER_DOT:
            return 0  # "chunker_py.text", "3.14", "README.md": no end without a space
        attached = _ATTACHED_FOOTNOTES.match(text, stop, end)
        if not attached:
            return stop if _ends_without_space(text, match, begin, run, closed) else 0
        stop = attached.end()
    if stop + 1 < end and text[stop + 1] in _TRAILER_LEADS:
        trailers = _TRAILERS.match(text, stop, end)
        if trailers:
            stop = trailers.end()
    following = stop + 1
    if following < end and text[following].isspace():
        following = _skip_space(text, following, end)
    if following >= end:
        return stop
    if not (_STARTS.match(text, following) or text.startswith("..", following)):
        return 0
    if match.start() - begin < 12 and _MARKER_ONLY.match(
        text, _skip_space(text, begin, end), match.end()
    ):
        return 0  # "1." or "a)" alone is a list marker, not a sentence
    if run == ".":
        if closed:
            return stop
        return stop if _period_ends(text, match.start(), begin, following, rules) else 0
    if not _QUESTION_OR_EXCLAMATION.isdisjoint(run):
        if run == "!" and not closed:
            word = _word_before(text, match.start(), begin).lower()
            if word in _EXCLAMATION_WORDS and not _starter_follows(text, following, rules):
                return 0
        return stop
    if run in (";", ";", ":"):
        return stop
    if match.start() > begin and text[match.start() - 1] in "[(":
        return 0  # "[...]": an omission, not an end
    # an ellipsis before a capital ends a sentence, except spaced dots before "I"
    if (
        rules.language == "en"
        and run.replace(" ", "") in ("...", "…")
        and _next_word(text, following) == "I"
    ):
        return 0
    return stop


def _skip_space(text: str, position: int, end: int) -> int:
    found = _SPACE.match(text, position, end)
    return found.end() if found else position


def _ends_without_space(
    text: str, match: re.Match[str], begin: int, run: str, closed: bool
) -> bool:
    """``world.Today``, ``world?Today``, ``真的吗?好的``: a sentence end with no space."""
    stop = match.end()
    dot = match.start()
    if dot == begin or closed or len(run) != 1:
        return False
    before = text[dot - 1]
    if _CJK_CHAR.match(before) and _CJK_CHAR.match(text, stop):
        return run in "!?"
    if not (_capitalised(text, stop) or _lone_capital(text, stop)):
        return False
    if not (_LOWER_START.match(before) or before in _DIGITS):
        return False
    # only between plain words: not in "typing.Annotated", "annotated_types.Interval",
    # "jane.Doe@example.com" or "www.Site.com"
    token = _token_before(text, dot, begin).lstrip(_PLAIN_OPENERS)
    if len(token) < 2 or not (_letters(token) or _PLAIN_NUMBER.fullmatch(token)):
        return False
    following_token = _NEXT_WORD.match(text, stop)
    after = following_token.end() if following_token else stop
    if after < len(text) and text[after] not in _AFTER_PLAIN_WORD:
        return False
    return not _dot_lower(text, after)


def _token_before(text: str, position: int, begin: int) -> str:
    """The run of non-space characters ending at ``position`` (at most 40)."""
    window = text[max(begin, position - _TOKEN_LIMIT) : position]
    if not window or window[-1].isspace():
        return ""
    return window.rsplit(None, 1)[-1]  # split() cuts where str.isspace() is true


def _word_before(text: str, dot: int, begin: int) -> str:
    """The word a dot follows, openers stripped; across one space ("Mr . Robinson")."""
    token = _token_before(text, dot, begin)
    if not token and dot - 1 > begin and text[dot - 1] == " ":
        token = _token_before(text, dot - 1, begin)
    word = token.lstrip(_OPENERS)
    for apostrophe in "'’":
        if apostrophe in word:
            word = word.rsplit(apostrophe, 1)[1]  # elision: "l'Ing." is "Ing."
    return word


def _next_word(text: str, position: int) -> str:
    found = _NEXT_WORD.match(text, position)
    return found.group(1) if found else ""


def _starter_follows(text: str, position: int, rules: Rules) -> bool:
    return _next_word(text, position) in rules.starters


def _period_ends(text: str, dot: int, begin: int, following: int, rules: Rules) -> bool:
    """Whether a lone ``.`` before whitespace and a possible sentence start ends one."""
    word = _word_before(text, dot, begin)
    if not word:
        return True
    lower = word.lower()
    if word[-1] in _ASCII_LETTERS and len(word) > 1 and lower not in rules.special:
        return "." not in word or _ends_after_multi_period(text, word, lower, following, rules)
    nxt = text[following]
    next_is_digit = _DIGIT_CHAR.has(nxt)
    if _number(word):
        return _number_ends(text, dot, begin, following, word, rules)
    if lower in rules.user:
        return False
    if lower in rules.number:
        return not (next_is_digit or _ROMAN_NUMBER.match(text, following))
    if lower == "st" or lower == "ste":
        return _street_ends(text, dot, begin, following, word, rules)
    if lower in rules.prepositive or lower in _ALL_PREPOSITIVE:
        return False
    single = len(word) == 1 and _LETTER_CHARS.has(word)
    if single:
        before = _token_before(text, dot - 2, begin)
        if _spaced_letter(text, following) or (len(before) == 2 and _spaced_letter(before)):
            return False  # "J. R. R. Tolkien", "U. A. E.", "z. B.", "т. б."
        if _LOWER_START.match(word) and lower not in rules.abbreviations:
            return True  # "ends just before b. Splitting": a variable, not an initial
        return not next_is_digit and _starter_follows(text, following, rules)
    if lower in _UNITS and _number(_token_before(text, dot - len(word) - 1, begin)):
        return not next_is_digit  # "3 ft. Tom measured it", "2 lb. 4 oz."
    if "." in word and lower in rules.abbreviations and _multi_period(word):
        return _ends_after_multi_period(text, word, lower, following, rules)
    if lower in rules.abbreviations:
        if next_is_digit or _ROMAN_NUMBER.match(text, following):
            return False
        return _starter_follows(text, following, rules)
    return "." not in word or _ends_after_multi_period(text, word, lower, following, rules)


def _ends_after_multi_period(
    text: str, word: str, lower: str, following: int, rules: Rules
) -> bool:
    """After ``U.S.``, ``Ph.D.``, ``B.C.`` (not a known abbreviation, not a title): a
    capital ends the sentence ("Ph.D. Tom"); ``U.S.`` and the like only before a starter."""
    if not _multi_period(word):
        return True  # "example.com.", "v1.2."
    if _DIGIT_CHAR.match(text, following) or _ROMAN_NUMBER.match(text, following):
        return False
    if lower not in _ATTRIBUTIVE and _UPPER_CHAR.match(text, following):
        return True
    return _starter_follows(text, following, rules)


def _street_ends(text: str, dot: int, begin: int, following: int, word: str, rules: Rules) -> bool:
    """``St.``: a title before a name ("St. Louis") unless a capitalised word precedes it,
    when it is a street ("Main St.") and ends a sentence before a starter."""
    before = _token_before(text, dot - len(word) - 1, begin)
    if before and _capitalised(before.lstrip(_OPENERS)):
        return _starter_follows(text, following, rules)
    return False


def _number_ends(text: str, dot: int, begin: int, following: int, word: str, rules: Rules) -> bool:
    """After a number: a day before a month name or an ordinal before a noun goes on."""
    nxt = _next_word(text, following)
    if len(word) <= 2 and nxt in _ALL_MONTHS:
        return False
    if (
        rules.ordinals
        and len(word) <= 3
        and nxt
        and nxt not in rules.starters
        and (_capitalised(nxt) or _LOWER_START.match(nxt))
    ):
        previous = _token_before(text, dot - len(word) - 1, begin)
        if previous and _LOWER_START.match(previous):
            return False  # "am 3. Oktober", "der 2. Weltkrieg", "die 3. Klasse"
    return True


def _add_trimmed(text: str, start: int, end: int, out: Spans) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        out.append((start, end))

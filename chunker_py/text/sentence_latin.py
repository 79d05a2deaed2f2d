"""Where ``. ! ?`` end a sentence: the rules of the Latin terminators (what may follow
them, titles, abbreviations, initials, ordinals, numbers and units) over a language's
word lists (``Rules``)."""

# ruff: noqa: RUF001, RUF003  (the rules name punctuation of many scripts)

from __future__ import annotations

import re
from collections.abc import Iterable

from . import sentence_words as words
from .sentence_lists import _MARKER_ONLY
from .sentence_marks import (
    _ASCII_LETTERS,
    _CJK_CHAR,
    _DIGIT_CHAR,
    _DIGITS,
    _LETTER_CHARS,
    _LOWER_START,
    _NO_END_AFTER_DOT,
    _OPENERS,
    _QUESTION_OR_EXCLAMATION,
    _STARTS,
    _TOKEN_LIMIT,
    _UPPER_CHAR,
)

_SPACE = re.compile(r"\s*")
# Footnote marks ("[1]", "[2][3] [4]") and a closing quote written apart (" '' ", " ' ")
# after a terminator stay with its sentence.
_TRAILERS = re.compile(r"(?:\s*(?:\[[0-9]{1,3}\])+|[^\S\r\n]+(?:''|[\"'”’]))+(?=\s|\Z)")
_TRAILER_LEADS = frozenset("[\"'”’ \t")
_ATTACHED_FOOTNOTES = re.compile(r"(?:\[[0-9]{1,3}\])+(?=\s|\Z)")
_PLAIN_OPENERS = "\"'“‘«„(["
_PLAIN_NUMBER = re.compile(r"[0-9][0-9,]*")
_AFTER_PLAIN_WORD = frozenset(" \t\r\n.,;!?")
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


# Languages whose ordinals are written with a dot ("der 3. Oktober", "2. verdenskrig").
ORDINAL_LANGUAGES = frozenset({"de", "da", "fi", "pl", "sk", "cs", "hu", "no", "sv", "et"})

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

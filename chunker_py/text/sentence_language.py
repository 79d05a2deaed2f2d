"""Which language a text is in, for its sentence rules: the script with the most letters,
and for Latin and Cyrillic script the function words and letters that tell languages
apart (``detect_language``)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter

from . import sentence_chars as chars
from . import sentence_words as words
from .sentence_marks import _ASCII_LETTERS

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

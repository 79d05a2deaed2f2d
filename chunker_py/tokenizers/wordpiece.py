"""wordpiece: BERT uncased (all-MiniLM-L6-v2, BGE-small) as HF ``tokenizers`` counts it.

The count is that of ``Tokenizer.encode(text, add_special_tokens=False)`` with the model's
tokenizer.json: [CLS] and [SEP] are not added, but the special tokens' own text in the
document ("[SEP]", "[MASK]", ...) is one token each, as HF matches them before anything
else. The rest follows HF's pipeline:

1. BertNormalizer: drop control characters, NUL and U+FFFD; other whitespace becomes a
   space; CJK ideographs get a space on each side; NFD; drop Mn marks; lowercase.
   Done per code point from frozen tables probed from HF (``_bert_tables``); NFD's
   canonical reordering is the one step across characters, applied when a text holds a
   mark that survives stripping.
2. BertPreTokenizer: split on whitespace, each punctuation character alone.
3. WordPiece: longest vocabulary match first, continuations prefixed "##"; a word that
   cannot be covered, or longer than 100 characters, is one [UNK].
"""

from __future__ import annotations

import re

from . import bert_tables as bt
from .base import Tokenizer
from .data import read_data
from .ranges import contains

SPECIAL_TOKENS = re.compile(r"\[(?:PAD|UNK|CLS|SEP|MASK)\]")
MAX_WORD = 100  # max_input_chars_per_word
PREFIX = "##"
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
WORD_CACHE = 65536


def hangul_nfd(code: int) -> str:
    index = code - HANGUL_FIRST
    lead, vowel, trail = 0x1100 + index // 588, 0x1161 + (index % 588) // 28, index % 28
    return chr(lead) + chr(vowel) + (chr(0x11A7 + trail) if trail else "")


def stage_a(code: int) -> str:
    """Clean text, CJK spacing and NFD decomposition of one code point."""
    if contains(bt.REMOVED, code):
        return ""
    if contains(bt.TO_SPACE, code):
        return " "
    if contains(bt.CJK, code):
        return f" {chr(code)} "
    if HANGUL_FIRST <= code <= HANGUL_LAST:
        return hangul_nfd(code)
    return bt.STAGE_A.get(code, chr(code))


def stage_b(char: str) -> str:
    """Mn stripping and lowercasing of one (already decomposed) character."""
    code = ord(char)
    if contains(bt.STRIPPED, code):
        return ""
    return bt.STAGE_B.get(code, char)


class NormalisedChars(dict[int, str]):
    """``str.translate`` table: each code point to its full normalisation, filled lazily."""

    def __missing__(self, code: int) -> str:
        image = "".join(stage_b(ch) for ch in stage_a(code))
        self[code] = image
        return image


def reorder(chars: list[str], owners: list[int]) -> None:
    """NFD's canonical ordering: stable sort of each run of non-starters by class."""
    ccc = bt.CCC
    i = 0
    while i < len(chars):
        if ord(chars[i]) not in ccc:
            i += 1
            continue
        j = i
        while j < len(chars) and ord(chars[j]) in ccc:
            j += 1
        if j - i > 1:
            run = sorted(zip(chars[i:j], owners[i:j], strict=True), key=lambda p: ccc[ord(p[0])])
            chars[i:j] = [p[0] for p in run]
            owners[i:j] = [p[1] for p in run]
        i = j


# Words are found over codes of the normalised text (whitespace " ", punctuation ".",
# a mark NFD may reorder "~", anything else "a"): `re` classes holding non-BMP ranges are
# slow, and the "~" code says in the same pass whether the reordering path is needed.
WORD = re.compile(r"\.|[a~]+")


class WordCodes(dict[int, str]):
    """``str.translate`` table from a normalised character to its word code."""

    def __missing__(self, code: int) -> str:
        if contains(bt.WHITESPACE, code):
            word_code = " "
        elif contains(bt.PUNCTUATION, code):
            word_code = "."
        elif code in bt.CCC:
            word_code = "~"
        else:
            word_code = "a"
        self[code] = word_code
        return word_code


class WordPieceTokenizer(Tokenizer):
    """BERT uncased WordPiece; the vocabulary loads on first use."""

    def __init__(self, name: str = "wordpiece") -> None:
        super().__init__(name)
        self._vocab: frozenset[str] | None = None
        self._longest = 0
        self._table = NormalisedChars()
        self._word_codes = WordCodes()
        self._words: dict[str, tuple[int, ...]] = {}

    def load(self) -> frozenset[str]:
        if self._vocab is None:
            data = read_data("wordpiece_vocab.txt", self.name).decode("utf-8")
            vocab = frozenset(line for line in data.split("\n") if line)
            self._longest = max(map(len, vocab))
            self._vocab = vocab
        return self._vocab

    # ------------------------------------------------------------ normalisation

    def normalised_words(self, text: str) -> list[str]:
        """The words (BertPreTokenizer) of HF BertNormalizer's output for ``text``."""
        normalised = text.translate(self._table)
        codes = normalised.translate(self._word_codes)
        if "~" in codes:
            # A kept mark of non-zero combining class: NFD's reordering may move it.
            normalised = "".join(self.normalise_with_owners(text)[0])
            codes = normalised.translate(self._word_codes)
        return [normalised[a:b] for a, b in map(re.Match.span, WORD.finditer(codes))]

    def normalise_with_owners(self, text: str) -> tuple[list[str], list[int]]:
        """The normalised characters and, for each, the index of the source character."""
        chars: list[str] = []
        owners: list[int] = []
        for index, char in enumerate(text):
            image = stage_a(ord(char))
            chars.extend(image)
            owners.extend([index] * len(image))
        reorder(chars, owners)
        out_chars: list[str] = []
        out_owners: list[int] = []
        for char, owner in zip(chars, owners, strict=True):
            image = stage_b(char)
            out_chars.extend(image)
            out_owners.extend([owner] * len(image))
        return out_chars, out_owners

    # ------------------------------------------------------------ words

    def word_ends(self, word: str) -> tuple[int, ...]:
        """Character offsets inside ``word`` where its WordPiece tokens end."""
        ends = self._words.get(word)
        if ends is not None:
            return ends
        vocab, longest = self.load(), self._longest
        found: list[int] = []
        start = 0
        if len(word) > MAX_WORD:
            start = len(word)
            found.append(start)  # one [UNK]
        while start < len(word):
            end = min(len(word), start + longest)
            while end > start:
                piece = word[start:end] if start == 0 else PREFIX + word[start:end]
                if piece in vocab:
                    break
                end -= 1
            if end == start:
                found = [len(word)]  # the whole word is one [UNK]
                break
            found.append(end)
            start = end
        ends = tuple(found)
        if len(self._words) >= WORD_CACHE:
            self._words.clear()
        self._words[word] = ends
        return ends

    def segments(self, text: str) -> list[tuple[int, int, bool]]:
        """(start, end, is_special) spans: special-token text and the text between."""
        spans: list[tuple[int, int, bool]] = []
        position = 0
        for match in SPECIAL_TOKENS.finditer(text):
            if match.start() > position:
                spans.append((position, match.start(), False))
            spans.append((match.start(), match.end(), True))
            position = match.end()
        if position < len(text):
            spans.append((position, len(text), False))
        return spans

    def _count(self, text: str) -> int:
        self.load()
        total = 0
        for start, end, special in self.segments(text):
            if special:
                total += 1
                continue
            for word in self.normalised_words(text[start:end]):
                ends = self._words.get(word)
                total += len(ends if ends is not None else self.word_ends(word))
        return total

    def _token_ends(self, text: str) -> list[int]:
        self.load()
        ends: list[int] = []
        for start, end, special in self.segments(text):
            if special:
                ends.append(end)
                continue
            chars, owners = self.normalise_with_owners(text[start:end])
            codes = "".join(chars).translate(self._word_codes)
            for match in WORD.finditer(codes):
                base = match.start()
                for word_end in self.word_ends("".join(chars[match.start() : match.end()])):
                    # The token ends after the source character of its last character.
                    ends.append(start + owners[base + word_end - 1] + 1)
        return ends

"""cl100k_base and o200k_base: tiktoken's byte-pair encodings in pure Python.

Counts equal CPython ``tiktoken``'s ``encode_ordinary``: special-token text such as
``<|endoftext|>`` is ordinary text. Two steps, as in tiktoken:

1. Split the text into pieces with the encoding's pattern. tiktoken's patterns use
   ``\\p{L}``, ``\\p{N}`` ... (Rust regex classes); here each code point is translated to
   a class code from the frozen tables in ``_unicode_classes``, and the same pattern over
   class codes runs in ``re`` (Python 3.11+ has the possessive quantifiers it needs).
   ``$`` becomes ``\\Z``: in Rust it never matches before a final newline, in Python it
   does.
2. Byte-pair-merge each piece's UTF-8 bytes by rank (lowest rank first, leftmost on
   ties), unless the whole piece is one token.

Pieces repeat a lot (words, indentation), so each piece's token lengths are cached. Most
texts are counted word by word: a space that follows a character other than white space
starts a piece, so a text cut at such spaces counts as its first word's count plus each
later word's with its space, each cached (``_count_words_steps``). A text in which no space
follows white space (about 3 chunks in 5) is cut at every space; one beyond ASCII with such
a space, at the other spaces. An ASCII text with such a space, and a word not yet counted,
is split whole: an ASCII one by ``ascii_pattern``, the same pattern over its own
characters, with no translation, counted in C-level passes when its pieces are cached.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left
from collections.abc import Generator, Sequence
from itertools import accumulate, compress, count, islice, pairwise, repeat
from operator import add, is_
from typing import TypeVar, cast

from . import unicode_classes as uc
from .base import MERGE_STEP, Tokenizer, drive
from .data import decode_ranks, read_data
from .ranges import contains

PIECE_CACHE = 65536  # entries of each cache; a full one is emptied
LONG_PIECE = 96  # bytes; longer pieces merge with a heap (O(n log n)) instead of scans
# a space after a whitespace character: the one place a space may be inside a piece
_SPACE_AFTER_SPACE = re.compile(r"\s ")
# a space after any other character: a piece starts there (``_count_words_steps``)
_CUT = re.compile(r"(?<=\S) ")
# each white space character a space follows (the spaces ``_CUT`` leaves)
_WHITE_BEFORE_SPACE = re.compile(r"\s(?= )")


# The split patterns run over class codes, not over the text: each code point is first
# translated (str.translate) to one character naming what the patterns can tell apart.
# Python's `re` checks a class's non-BMP ranges one by one, so the \p{L} of tiktoken's
# patterns written out as ranges made a 20k split take ~100 ms; over codes it is ~2 ms.
# Characters the patterns name literally stand for themselves.
LITERALS = "\r\n '/sSdDmMtTlLvVeErR\u017f"
UPPER_CODE, LOWER_CODE, OTHER_LETTER_CODE = "\x01", "\x02", "\x03"  # Lu Lt | Ll | Lm Lo
MARK_CODE, NUMBER_CODE, SPACE_CODE, OTHER_CODE = "\x04", "\x05", "\x06", "\x07"


def class_code(code: int) -> str:
    char = chr(code)
    if char in LITERALS:
        return char
    for table, class_char in (
        (uc.WHITE_SPACE, SPACE_CODE),
        (uc.LL, LOWER_CODE),
        (uc.LU, UPPER_CODE),
        (uc.LT, UPPER_CODE),
        (uc.LO, OTHER_LETTER_CODE),
        (uc.LM, OTHER_LETTER_CODE),
        (uc.M, MARK_CODE),
        (uc.N, NUMBER_CODE),
    ):
        if contains(table, code):
            return class_char
    return OTHER_CODE


class ClassCodes(dict[int, str]):
    """``str.translate`` table from code point to class code, filled on first sight."""

    def __missing__(self, code: int) -> str:
        self[code] = class_code(code)
        return self[code]


def _classes() -> dict[str, str]:
    """The classes of tiktoken's patterns as `re` classes over class codes."""
    upper_letters, lower_letters = "SDMTLVER", "sdmtlver\u017f"
    return {
        "L": UPPER_CODE + LOWER_CODE + OTHER_LETTER_CODE + upper_letters + lower_letters,
        "N": NUMBER_CODE,
        "S": SPACE_CODE + "\\r\\n ",
        "UP": UPPER_CODE + OTHER_LETTER_CODE + MARK_CODE + upper_letters,
        "LO": LOWER_CODE + OTHER_LETTER_CODE + MARK_CODE + lower_letters,
    }


# (?i:...) in Rust regex uses simple case folding: s also matches U+017F (long s).
CONTRACTIONS = "(?:[sS\u017f]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])"


def cl100k_pattern() -> str:
    # '(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+
    # |\s++$|\s*[\r\n]|\s+(?!\S)|\s
    c = _classes()
    return "|".join(
        [
            "'" + CONTRACTIONS,
            f"[^\\r\\n{c['L']}{c['N']}]?+[{c['L']}]++",
            f"[{c['N']}]{{1,3}}+",
            f" ?[^{c['S']}{c['L']}{c['N']}]++[\\r\\n]*+",
            f"[{c['S']}]++\\Z",
            f"[{c['S']}]*[\\r\\n]",
            f"[{c['S']}]+(?![^{c['S']}])",
            f"[{c['S']}]",
        ]
    )


def o200k_pattern() -> str:
    # [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|...)?
    # |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|...)?
    # |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
    c = _classes()
    suffix = "(?:'" + CONTRACTIONS + ")?"
    lead = f"[^\\r\\n{c['L']}{c['N']}]?"
    return "|".join(
        [
            f"{lead}[{c['UP']}]*[{c['LO']}]+{suffix}",
            f"{lead}[{c['UP']}]+[{c['LO']}]*{suffix}",
            f"[{c['N']}]{{1,3}}",
            f" ?[^{c['S']}{c['L']}{c['N']}]+[\\r\\n/]*",
            f"[{c['S']}]*[\\r\\n]+",
            f"[{c['S']}]+(?![^{c['S']}])",
            f"[{c['S']}]+",
        ]
    )


PATTERNS = {"cl100k_base": cl100k_pattern, "o200k_base": o200k_pattern}
CODES = (UPPER_CODE, LOWER_CODE, OTHER_LETTER_CODE, MARK_CODE, NUMBER_CODE, SPACE_CODE, OTHER_CODE)


def ascii_pattern(pattern: str) -> str:
    """``pattern`` (over class codes) as a pattern over ASCII text itself: each class code
    becomes the ASCII characters ``class_code`` gives it, written as ``\\xNN`` escapes.

    Exact for ASCII text: a character ``c`` is in a rewritten class exactly when
    ``class_code(ord(c))`` is in the original one (``c`` itself if ``c`` is a literal, which
    stands for itself in both; else its code, which the rewrite replaced by ``c`` among
    others), and class codes occur only inside classes (``[...]``) of these patterns. So
    both patterns take the same paths and give the same spans (a count then needs
    no ``str.translate`` and no slicing; tests/core/tokenizers/test_ascii_split.py).
    """
    members: dict[str, str] = {code: "" for code in CODES}
    for code in range(128):
        found = class_code(code)
        if found in members:
            members[found] += f"\\x{code:02x}"
    return "".join(members.get(char, char) for char in pattern)


def merge_short(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """Token byte lengths of ``piece`` by tiktoken's merge loop (scan for the lowest rank)."""
    missing = 1 << 62
    bounds = list(range(len(piece) + 1))  # token boundaries, as byte offsets
    pair_ranks = [ranks.get(piece[i : i + 2], missing) for i in range(len(piece) - 1)]
    while pair_ranks:
        best = min(pair_ranks)
        if best == missing:
            break
        i = pair_ranks.index(best)  # leftmost lowest, as tiktoken
        del bounds[i + 1]
        del pair_ranks[i]
        # The merged token's pairs with its neighbours are new.
        if i < len(pair_ranks):
            pair_ranks[i] = ranks.get(piece[bounds[i] : bounds[i + 2]], missing)
        if i > 0:
            pair_ranks[i - 1] = ranks.get(piece[bounds[i - 1] : bounds[i + 1]], missing)
    return [b - a for a, b in pairwise(bounds)]


def merge_long(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """Same result as ``merge_short`` in O(n log n): ``merge_long_steps`` run to its end."""
    return drive(merge_long_steps(piece, ranks))


def merge_long_steps(piece: bytes, ranks: dict[bytes, int]) -> Generator[int, None, list[int]]:
    """``merge_long`` in steps: yields the work done since the last yield, for ``paced``:
    half the bytes whose pairs were looked up, every ``2 * MERGE_STEP`` bytes, then
    ``MERGE_STEP`` every ``MERGE_STEP`` heap entries, then the entries since. Returns the
    lengths.

    A heap of (rank, start, end) over a list: the leftmost-lowest pair of the scan is the
    heap's smallest (rank, start), since parts are ordered by start. Stale entries (a part
    that has since changed) are skipped. Each entry is one int, rank, start and end packed
    (int comparisons instead of tuples': ~25-35 % less time on a 20,000-letter or
    70,000-byte emoji piece); a part merged into the one before it has ``nxt`` -1. The
    page runs the steps one task each, so no task runs long.
    """
    size = len(piece)
    shift = (size + 1).bit_length()
    mask = (1 << shift) - 1
    high = 2 * shift
    nxt = list(range(1, size + 1))  # start of the next part, per part start
    prv = list(range(-1, size - 1))
    get = ranks.get
    # the pairs looked up are work too (for emoji, most of it: ~35 ms CPU in CPython for
    # 71,425 bytes), cut like the merges: 2 * MERGE_STEP bytes a yield (a look-up costs
    # about half a heap entry)
    heap: list[int] = []
    for first in range(0, size - 1, 2 * MERGE_STEP):
        last = min(first + 2 * MERGE_STEP, size - 1)
        heap += [
            (r << high) | (i << shift) | (i + 2)
            for i in range(first, last)
            if (r := get(piece[i : i + 2])) is not None
        ]
        yield (last - first) // 2
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    left_in_step = MERGE_STEP
    while heap:
        left_in_step -= 1
        if not left_in_step:
            left_in_step = MERGE_STEP
            yield MERGE_STEP
        key = pop(heap)
        start = (key >> shift) & mask
        end = key & mask
        middle = nxt[start]
        if middle < 0 or middle >= size or nxt[middle] != end:
            continue  # stale: one of the two parts has merged since
        nxt[middle] = -1
        nxt[start] = end
        if end < size:
            prv[end] = start
            after = nxt[end]
            right = get(piece[start:after])
            if right is not None:
                push(heap, (right << high) | (start << shift) | after)
        before = prv[start]
        if before >= 0:
            left = get(piece[before:end])
            if left is not None:
                push(heap, (left << high) | (before << shift) | end)
    yield MERGE_STEP - left_in_step
    lengths, start = [], 0
    while start < size:
        lengths.append(nxt[start] - start)
        start = nxt[start]
    return lengths


V = TypeVar("V")


def put_bounded(cache: dict[str, V], key: str, value: V) -> None:
    """Cache ``value``, emptying the cache first when it holds ``PIECE_CACHE`` entries."""
    if len(cache) >= PIECE_CACHE:
        cache.clear()
    cache[key] = value


class BpeTokenizer(Tokenizer):
    """A tiktoken encoding; its pattern and ranks load on first use."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._ranks: dict[bytes, int] | None = None
        self._split: re.Pattern[str] | None = None
        self._ascii_split: re.Pattern[str] | None = None
        self._pieces: dict[str, tuple[int, ...]] = {}
        # counts of a text's first word, and of a space and each later word
        # (``_count_words_steps``)
        self._heads: dict[str, int] = {}
        self._words: dict[str, int] = {}
        self._codes = ClassCodes()

    def load(self) -> tuple[re.Pattern[str], dict[bytes, int]]:
        """The compiled split pattern and the ranks (read from the package once)."""
        if self._split is None or self._ranks is None:
            self._ranks = decode_ranks(read_data(f"{self.name}.ranks", self.name))
            pattern = PATTERNS[self.name]()
            self._split = re.compile(pattern)
            self._ascii_split = re.compile(ascii_pattern(pattern))
        return self._split, self._ranks

    def piece_lengths(self, piece: str) -> tuple[int, ...]:
        """Byte lengths of the tokens of one piece."""
        lengths = self._pieces.get(piece)
        if lengths is None:
            lengths = drive(self._piece_steps(piece))
        return lengths

    def _piece_steps(self, piece: str) -> Generator[int, None, tuple[int, ...]]:
        """``piece_lengths`` of a piece not in the cache, in steps (``merge_long_steps``)."""
        ranks = self.load()[1]
        data = piece.encode("utf-8", "surrogatepass")
        if data in ranks:
            lengths: tuple[int, ...] = (len(data),)
        elif len(data) <= LONG_PIECE:
            lengths = tuple(merge_short(data, ranks))
        else:
            lengths = tuple((yield from merge_long_steps(data, ranks)))
        put_bounded(self._pieces, piece, lengths)
        return lengths

    def _count(self, text: str) -> int:
        return drive(self._count_steps(text))

    def piece_counts(self, text: str, bounds: Sequence[int]) -> list[int]:
        """The pieces' counts; pieces cut at single spaces (the Recursive rule's " "
        separator: each piece after the first is a space and a word without spaces) count
        as their words in the word cache say, in C-level passes (a long passage's words
        are most of the pieces the rule measures)."""
        later = self.spaced_word_counts(text, bounds)
        if later is None:
            return super().piece_counts(text, bounds)
        return [self.count(text[bounds[0] : bounds[1]]), *later]

    def spaced_word_counts(self, text: str, bounds: Sequence[int]) -> list[int] | None:
        """The counts of the pieces after the first if each is a space and a word without
        spaces (from the word cache), else None."""
        pieces = len(bounds) - 1
        if pieces > 2:
            passage = text[bounds[1] : bounds[-1]]
            starts = "".join(map(text.__getitem__, islice(bounds, 1, pieces)))
            if passage.count(" ") == pieces - 1 and starts == " " * (pieces - 1):
                words = passage.split(" ")
                del words[0]  # "": the passage starts with a space
                return drive(self._word_counts_steps(words))
        return None

    def _count_steps(self, text: str) -> Generator[int, None, int]:
        if _SPACE_AFTER_SPACE.search(text) is None:  # every space starts a piece
            return (yield from self._count_words_steps(text.split(" ")))
        if text.isascii():  # the ASCII split is about as fast as cutting
            return (yield from self._count_text_steps(text))
        return (yield from self._count_words_steps(_CUT.split(text)))

    def _count_words_steps(self, words: list[str]) -> Generator[int, None, int]:
        """``_count_text_steps`` of the text ``" ".join(words)``, cut at spaces that each
        follow a character outside the patterns' whitespace class (or at none but such
        spaces): the count of its first word plus, for each later word, the count of a
        space and that word, each cached (no split pattern and no translation per
        chunk once its words are known: a count takes a quarter less time, a text beyond
        ASCII far less).

        Exact, for both patterns (``S``: their whitespace class, ``\\s`` below): a piece
        holds a space other than as its first character only in an ``S`` run (every other
        alternative takes a space only as an optional first character), so every space
        that follows a character outside ``S`` starts a piece. And a piece that ends before
        such a space is the same in the text as in its word alone: where the two differ (a
        space there, the end of the string here), only an ``S`` run reaching the word's end
        could see it, and the word's last character is outside ``S``; the lookahead
        ``(?!\\S)`` and the other classes answer the same for a space as for the end. No
        pattern looks behind. So the pieces, and their merges, are the words' pieces. Every
        ``S`` character is ``str.isspace`` (``re``'s ``\\s``), so where
        ``_SPACE_AFTER_SPACE`` finds nothing every space is such a space, and ``_CUT``
        cuts at such spaces only (tests/core/tokenizers/test_word_counts.py, against the
        piece loop and tiktoken)."""
        first = words[0]
        head = self._heads.get(first)
        if head is None:
            head = yield from self._count_text_steps(first)
            put_bounded(self._heads, first, head)
        later = words[1:]
        counts = list(map(self._words.get, later))
        if None in counts:
            return head + sum((yield from self._fill_word_counts_steps(later, counts)))
        return head + sum(cast("list[int]", counts))

    def _word_counts_steps(self, words: list[str]) -> Generator[int, None, list[int]]:
        """The count of a space and each word, from the word cache or counted."""
        counts = list(map(self._words.get, words))
        if None in counts:
            return (yield from self._fill_word_counts_steps(words, counts))
        return cast("list[int]", counts)

    def _fill_word_counts_steps(
        self, words: list[str], counts: list[int | None]
    ) -> Generator[int, None, list[int]]:
        """``counts`` (the word cache's, None where a word is missing) completed: each
        missing word counted once, in order, and cached. C-level passes but for those."""
        missing = dict.fromkeys(compress(words, map(is_, counts, repeat(None))), 0)
        for word in missing:
            missing[word] = yield from self._count_text_steps(" " + word)
        self._cache_words(missing)
        return list(map(missing.get, words, counts))  # type: ignore[arg-type]

    def _cache_words(self, counts: dict[str, int]) -> None:
        cache = self._words
        if len(cache) + len(counts) > PIECE_CACHE:
            cache.clear()
        cache.update(counts)

    def _count_text_steps(self, text: str) -> Generator[int, None, int]:
        """A text's count from its pieces (the split pattern over the whole text)."""
        if not text.isascii():
            return (yield from self._count_pieces_steps(text))
        # the usual case (~1/3 of a count): an ASCII text is split by the ASCII
        # pattern (the same spans as ``_count_pieces_steps``' split, over the text itself,
        # so no translation and no slicing) and, when its pieces are all cached, counted
        # in C-level passes; a None (a piece not yet cached) makes ``len`` raise, and the
        # pieces missing are then merged in order, as the piece loop would
        self.load()
        assert self._ascii_split is not None
        found = self._ascii_split.findall(text)
        cache = self._pieces
        known = list(map(cache.get, found))
        try:
            return sum(map(len, cast("list[tuple[int, ...]]", known)))
        except TypeError:
            pass
        total = 0
        for piece, lengths in zip(found, known, strict=True):
            if lengths is None:
                lengths = cache.get(piece)  # merged for an earlier piece of this text
                if lengths is None:
                    lengths = yield from self._piece_steps(piece)
            total += len(lengths)
        return total

    def _count_pieces_steps(self, text: str) -> Generator[int, None, int]:
        """``_count_steps`` piece by piece: each piece's lengths from the cache, or merged."""
        split = self.load()[0]
        text = tiktoken_text(text)
        pieces = self._pieces
        total = 0
        for start, end in map(re.Match.span, split.finditer(text.translate(self._codes))):
            piece = text[start:end]
            lengths = pieces.get(piece)
            if lengths is None:
                lengths = yield from self._piece_steps(piece)
            total += len(lengths)
        return total

    def _token_ends(self, text: str) -> list[int]:
        split = self.load()[0]
        text = same_length_text(text)
        ends: list[int] = []
        for start, stop in map(re.Match.span, split.finditer(text.translate(self._codes))):
            piece = text[start:stop]
            lengths = self.piece_lengths(piece)
            if piece.isascii():
                ends.extend(start + end for end in accumulate(lengths))
                continue
            char_ends = list(accumulate(utf8_length(ch) for ch in piece))
            ends.extend(start + bisect_left(char_ends, end) + 1 for end in accumulate(lengths))
        return ends


class SpanCounts:
    """The count of any span of one text in O(log n): the sum ``_count_words_steps`` makes
    for the span's text (its first word's count, then each later word's with the space
    before it), from the whole text's words, looked up or counted once. Words here are
    cut at the spaces that follow a character other than white space (``_CUT``: every
    space, when no space follows white space), which, by ``_count_words_steps``' argument,
    start pieces in any span that holds the character before them too; a span that starts
    at such a space takes it as a first word "" and that space's word, the same count.
    The same counts as ``count`` (tests/core/tokenizers/test_span_counts.py), with no pass
    over a span's words: the Recursive rule measures every piece at every level, then each
    chunk.
    """

    def __init__(self, tokenizer: BpeTokenizer, text: str) -> None:
        self._tokenizer = tokenizer
        self._text = text
        words = text.split(" ")
        # the offset of each cut (a space); word i + 1 follows cut i
        spaces = list(map(add, accumulate(map(len, islice(words, len(words) - 1))), count()))
        if _SPACE_AFTER_SPACE.search(text) is not None:
            # the few spaces after white space are no cuts: the words around them join
            # (what ``_CUT.split`` gives, without its look-behind over the whole text)
            keep = bytearray(b"\x01") * len(spaces)
            for match in _WHITE_BEFORE_SPACE.finditer(text):
                keep[bisect_left(spaces, match.end())] = 0
            spaces = list(compress(spaces, keep))
            starts = [0, *map((1).__add__, spaces)]
            words = list(map(text.__getitem__, map(slice, starts, [*spaces, len(text)])))
        self._spaces = spaces
        # the count of cut i and the word after it, and their sums before cut i
        self._later = drive(tokenizer._word_counts_steps(words[1:]))
        self._sums = list(accumulate(self._later, initial=0))

    def count(self, start: int, end: int) -> int:
        """The count of ``text[start:end]``."""
        spaces = self._spaces
        first = bisect_left(spaces, start)
        last = bisect_left(spaces, end, first) - 1
        if last < first:
            return self._head(self._text[start:end])
        total = self._head(self._text[start : spaces[first]]) + self._sums[last] - self._sums[first]
        return total + self._word(last, end)

    def piece_counts(self, bounds: Sequence[int]) -> list[int]:
        """The counts of the pieces ``bounds[i]..bounds[i + 1]``: where each piece but the
        first is a space and one word (the Recursive rule's " " separator), a slice of
        the words' counts; else span by span."""
        pieces = len(bounds) - 1
        spaces = self._spaces
        if pieces > 2:
            first = bisect_left(spaces, bounds[1])
            after = first + pieces - 1  # the space after the last piece's, if any
            if spaces[first:after] == bounds[1:pieces] and (
                after >= len(spaces) or spaces[after] >= bounds[pieces]
            ):
                return [
                    self.count(bounds[0], bounds[1]),
                    *self._later[first : after - 1],
                    self._word(after - 1, bounds[pieces]),
                ]
        later = self._tokenizer.spaced_word_counts(self._text, bounds)
        if later is not None:  # spaces that are not cuts (they follow white space)
            return [self.count(bounds[0], bounds[1]), *later]
        return [self.count(a, b) for a, b in pairwise(bounds)]

    def _word(self, space: int, end: int) -> int:
        """The count of space ``space`` and what follows it up to ``end`` (no space)."""
        spaces = self._spaces
        word_end = spaces[space + 1] if space + 1 < len(spaces) else len(self._text)
        if end == word_end:
            return self._later[space]
        word = self._text[spaces[space] + 1 : end]
        count = self._tokenizer._words.get(word)
        if count is None:
            count = drive(self._tokenizer._word_counts_steps([word]))[0]
        return count

    def _head(self, word: str) -> int:
        heads = self._tokenizer._heads
        count = heads.get(word)
        if count is None:
            count = drive(self._tokenizer._count_text_steps(word))
            put_bounded(heads, word, count)
        return count


def utf8_length(char: str) -> int:
    code = ord(char)
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


def tiktoken_text(text: str) -> str:
    """What tiktoken encodes: lone surrogates (not UTF-8) become U+FFFD, pairs join."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def same_length_text(text: str) -> str:
    """Like ``tiktoken_text`` but keeping offsets: each surrogate becomes U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return re.sub("[\ud800-\udfff]", "\ufffd", text)
    return text

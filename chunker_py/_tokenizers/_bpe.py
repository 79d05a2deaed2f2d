"""cl100k_base and o200k_base: tiktoken's byte-pair encodings in pure Python.

Counts equal CPython ``tiktoken``'s ``encode_ordinary``: special-token text such as
``<|endoftext|>`` is ordinary text. Two steps, as in tiktoken:

1. Split the text into pieces with the encoding's pattern. tiktoken's patterns use
   ``\\p{L}``, ``\\p{N}`` ... (Rust regex classes); here they are character classes built
   from the frozen tables in ``_unicode_classes`` and run by ``re`` (Python 3.11+ has the
   possessive quantifiers they need). ``$`` becomes ``\\Z``: in Rust it never matches
   before a final newline, in Python it does.
2. Byte-pair-merge each piece's UTF-8 bytes by rank (lowest rank first, leftmost on
   ties), unless the whole piece is one token.

Pieces repeat a lot (words, indentation), so each piece's token lengths are cached.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left
from itertools import accumulate, pairwise

from . import _unicode_classes as uc
from ._base import Tokenizer
from ._data import decode_ranks, read_data
from ._ranges import class_body, union

PIECE_CACHE = 65536
LONG_PIECE = 96  # bytes; longer pieces merge with a heap (O(n log n)) instead of scans


def _classes() -> dict[str, str]:
    letters = union(uc.LU, uc.LL, uc.LT, uc.LM, uc.LO)
    return {
        "L": class_body(letters),
        "N": class_body(uc.N),
        "S": class_body(uc.WHITE_SPACE),
        "UP": class_body(union(uc.LU, uc.LT, uc.LM, uc.LO, uc.M)),
        "LO": class_body(union(uc.LL, uc.LM, uc.LO, uc.M)),
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
    """Same result as ``merge_short`` in O(n log n): a heap of (rank, start) over a list.

    The leftmost-lowest pair of the scan is the heap's smallest (rank, start), since
    parts are ordered by start. Stale entries (a part that has since changed) are skipped.
    """
    size = len(piece)
    nxt = list(range(1, size + 1))  # start of the next part, per part start
    prv = list(range(-1, size - 1))
    alive = [True] * size
    heap = []
    for i in range(size - 1):
        rank = ranks.get(piece[i : i + 2])
        if rank is not None:
            heap.append((rank, i, i + 2))
    heapq.heapify(heap)
    while heap:
        rank, start, end = heapq.heappop(heap)
        middle = nxt[start] if alive[start] else -1
        if middle >= size or not alive[start] or nxt[middle] != end:
            continue  # stale: one of the two parts has merged since
        alive[middle] = False
        nxt[start] = end
        if end < size:
            prv[end] = start
            right = ranks.get(piece[start : nxt[end]])
            if right is not None:
                heapq.heappush(heap, (right, start, nxt[end]))
        before = prv[start]
        if before >= 0:
            left = ranks.get(piece[before:end])
            if left is not None:
                heapq.heappush(heap, (left, before, end))
    lengths, start = [], 0
    while start < size:
        lengths.append(nxt[start] - start)
        start = nxt[start]
    return lengths


class BpeTokenizer(Tokenizer):
    """A tiktoken encoding; its pattern and ranks load on first use."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._ranks: dict[bytes, int] | None = None
        self._split: re.Pattern[str] | None = None
        self._pieces: dict[str, tuple[int, ...]] = {}

    def load(self) -> tuple[re.Pattern[str], dict[bytes, int]]:
        """The compiled split pattern and the ranks (read from the package once)."""
        if self._split is None or self._ranks is None:
            self._ranks = decode_ranks(read_data(f"{self.name}.ranks", self.name))
            self._split = re.compile(PATTERNS[self.name]())
        return self._split, self._ranks

    def piece_lengths(self, piece: str) -> tuple[int, ...]:
        """Byte lengths of the tokens of one piece."""
        lengths = self._pieces.get(piece)
        if lengths is None:
            ranks = self.load()[1]
            data = piece.encode("utf-8", "surrogatepass")
            if data in ranks:
                lengths = (len(data),)
            elif len(data) <= LONG_PIECE:
                lengths = tuple(merge_short(data, ranks))
            else:
                lengths = tuple(merge_long(data, ranks))
            if len(self._pieces) >= PIECE_CACHE:
                self._pieces.clear()
            self._pieces[piece] = lengths
        return lengths

    def _count(self, text: str) -> int:
        split = self.load()[0]
        text = tiktoken_text(text)
        pieces = self._pieces
        total = 0
        for piece in split.findall(text):
            lengths = pieces.get(piece)
            total += len(lengths if lengths is not None else self.piece_lengths(piece))
        return total

    def _token_ends(self, text: str) -> list[int]:
        split = self.load()[0]
        text = same_length_text(text)
        ends: list[int] = []
        for match in split.finditer(text):
            piece, start = match.group(), match.start()
            lengths = self.piece_lengths(piece)
            if piece.isascii():
                ends.extend(start + end for end in accumulate(lengths))
                continue
            char_ends = list(accumulate(utf8_length(ch) for ch in piece))
            for byte_end in accumulate(lengths):
                end = start + bisect_left(char_ends, byte_end) + 1
                if not ends or end > ends[-1]:
                    ends.append(end)
        return ends


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

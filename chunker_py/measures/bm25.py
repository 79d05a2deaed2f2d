"""BM25 Okapi over chunk texts: the Evidence check's lexical retrieval (docs/decisions.md "Evidence
check").

Scores equal ``rank_bm25.BM25Okapi(corpus, k1=1.5, b=0.75, epsilon=0.25).get_scores(query)``
on the same tokens, float for float: the same idf (``log(N - n + 0.5) - log(n + 0.5)``,
negative idfs floored to ``epsilon`` × the mean idf, summed in the same term order) and the
same arithmetic per term, in query order. A term adds nothing to a chunk without it (rank_bm25
adds 0.0), so only the chunks holding a term are visited: a question costs its postings, not
the chunk count. A corpus without any token, which rank_bm25 cannot score (it divides by
zero), scores 0 everywhere.

Tokens (``bm25_tokens``): runs of letters and digits (Unicode 16 ``L*`` and ``N*``, with the
marks ``M*`` that follow them, so decomposed accents and Indic vowel signs stay inside their
word), case-folded with ``str.casefold``; each Han, Hiragana or Katakana character is a token
of its own. The classes are the tokenizers' frozen tables, the same in CPython and Pyodide.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Sequence

from ..tokenizers import unicode_classes as uc
from ..tokenizers.ranges import class_body

K1 = 1.5
B = 0.75
EPSILON = 0.25

# Han, Hiragana and Katakana blocks (each character its own token)
CJK: tuple[int, ...] = (
    0x2E80, 0x2FDF,  # CJK Radicals Supplement, Kangxi Radicals
    0x3005, 0x3007,  # iteration mark, closing mark, number zero
    0x3021, 0x3029,  # Hangzhou numerals
    0x3038, 0x303B,
    0x3040, 0x309F,  # Hiragana
    0x30A0, 0x30FF,  # Katakana
    0x31F0, 0x31FF,  # Katakana Phonetic Extensions
    0x3400, 0x4DBF,  # Extension A
    0x4E00, 0x9FFF,  # CJK Unified Ideographs
    0xF900, 0xFAFF,  # Compatibility Ideographs
    0xFF66, 0xFF9F,  # Halfwidth Katakana
    0x1AFF0, 0x1B16F,  # Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana
    0x20000, 0x3FFFF,  # Extensions B-J, Compatibility Supplement
)  # fmt: skip


def _merged(*tables: Sequence[int]) -> list[tuple[int, int]]:
    pairs = sorted((t[i], t[i + 1]) for t in tables for i in range(0, len(t), 2))
    out: list[tuple[int, int]] = []
    for first, last in pairs:
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _without(pairs: list[tuple[int, int]], holes: list[tuple[int, int]]) -> tuple[int, ...]:
    """``pairs`` minus ``holes``, as a flat table."""
    out: list[int] = []
    for first, last in pairs:
        lo = first
        for h_first, h_last in holes:
            if h_last < lo or h_first > last:
                continue
            if h_first > lo:
                out += [lo, h_first - 1]
            lo = h_last + 1
        if lo <= last:
            out += [lo, last]
    return tuple(out)


_CJK = _merged(CJK)
_START = class_body(_without(_merged(uc.LU, uc.LL, uc.LT, uc.LM, uc.LO, uc.N), _CJK))
_INSIDE = class_body(_without(_merged(uc.LU, uc.LL, uc.LT, uc.LM, uc.LO, uc.N, uc.M), _CJK))
_TOKEN = re.compile(f"[{class_body([v for p in _CJK for v in p])}]|[{_START}][{_INSIDE}]*")
# No token holds an ASCII character other than a letter or digit, so the text is first cut
# at those (a fast class); an all-ASCII piece is then one token, and only pieces with other
# characters go through the large frozen classes above (slow in ``re``: thousands of ranges).
_PIECE = re.compile(r"[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+")


def bm25_tokens(text: str) -> list[str]:
    """The BM25 tokens of ``text``, in order."""
    out: list[str] = []
    for piece in _PIECE.findall(text):
        if piece.isascii():
            out.append(piece.lower())
        else:
            out += [token.casefold() for token in _TOKEN.findall(piece)]
    return out


class BM25:
    """A BM25 Okapi index over tokenized documents (chunks), rank_bm25's formula."""

    __slots__ = ("_k1", "_norm", "_postings", "count", "idf")

    def __init__(
        self,
        documents: Sequence[Sequence[str]],
        *,
        k1: float = K1,
        b: float = B,
        epsilon: float = EPSILON,
    ) -> None:
        self.count = len(documents)
        # term -> [(document, frequency)], terms in order of first appearance (rank_bm25's
        # ``nd``: its idf sum runs in this order)
        postings: dict[str, list[tuple[int, int]]] = {}
        total = 0
        for index, document in enumerate(documents):
            total += len(document)
            # Counter keeps the order of first appearance, as rank_bm25's dict does
            for word, freq in Counter(document).items():
                postings.setdefault(word, []).append((index, freq))
        self._postings = postings
        self.idf: dict[str, float] = {}
        if not postings:  # no token anywhere: every score is 0
            self._norm: list[float] = [0.0] * self.count
            return
        avgdl = total / self.count
        self._norm = [k1 * (1 - b + b * len(d) / avgdl) for d in documents]
        idf_sum = 0.0
        negative = []
        n = self.count
        for word, posting in postings.items():
            idf = math.log(n - len(posting) + 0.5) - math.log(len(posting) + 0.5)
            self.idf[word] = idf
            idf_sum += idf
            if idf < 0:
                negative.append(word)
        eps = epsilon * (idf_sum / len(self.idf))
        for word in negative:
            self.idf[word] = eps
        self._k1 = k1

    def scores(self, query: Sequence[str]) -> list[float]:
        """Each document's score for the query tokens (repeated tokens count again)."""
        out = [0.0] * self.count
        if not self.idf:
            return out
        k1_plus_1 = self._k1 + 1
        norm = self._norm
        for term in query:
            idf = self.idf.get(term)
            if not idf:
                continue
            for index, freq in self._postings[term]:
                out[index] += idf * (freq * k1_plus_1 / (freq + norm[index]))
        return out

    def ranking(self, query: Sequence[str], k: int) -> list[int]:
        """The ``k`` best documents, best first; ties go to the lower index."""
        scores = self.scores(query)
        ahead = [i for i, score in enumerate(scores) if score > 0]
        # every other document scores 0 or less: when k documents score above 0, the
        # ranking's head is among them
        candidates = ahead if len(ahead) >= k else range(self.count)
        return heapq.nsmallest(k, candidates, key=lambda i: (-scores[i], i))

"""The Unigram model of a tokenizer.json, as HF tokenizers encodes: the Viterbi path of
the best-scoring pieces, built in steps, and long words solved in parts
(``Unigram.parts``)."""

from __future__ import annotations

import math
import re
from collections.abc import Generator
from typing import Any

from ...engine.steps import finish
from .model_base import WORD_CACHE, Model, byte_tokens
from .tables import refuse

BUILD_STEP = 5_000  # Unigram pieces between two chances for the page to give way


UNK_PENALTY = 10.0
PART = 96  # code points at least per part of a long word (``Unigram.parts``)
CUT_CANDIDATE = re.compile(r"\W")  # a cut may follow one (the vocabulary decides)
SEPARATOR = "\x00"


class Unigram(Model):
    def __init__(self, spec: dict[str, Any]) -> None:
        finish(self.build(spec))

    def build(self, spec: dict[str, Any]) -> Generator[None, None, None]:
        """``__init__`` in steps of ``BUILD_STEP`` pieces (the page gives way between
        them: a 250 k-piece vocabulary took most of a second in one go)."""
        super().__init__()
        vocab = spec.get("vocab")
        if not isinstance(vocab, list):
            refuse("its Unigram model has no vocabulary of [token, score] pairs")
        self.ids: dict[str, int] = {}
        self.scores: list[float] = []
        longest: dict[str, int] = {}  # first character -> the longest piece's length
        lowest, highest = math.inf, -math.inf
        for begin in range(0, len(vocab), BUILD_STEP):
            part = vocab[begin : begin + BUILD_STEP]
            if not all(
                isinstance(e, list)
                and len(e) == 2
                and isinstance(e[0], str)
                and isinstance(e[1], int | float)
                for e in part
            ):
                refuse("its Unigram model has no vocabulary of [token, score] pairs")
            # later duplicates win
            self.ids.update({token: begin + i for i, (token, _) in enumerate(part)})
            scores = [float(score) for _, score in part]
            self.scores.extend(scores)
            lowest = min(lowest, *scores)
            highest = max(highest, *scores)
            for token, _ in part:
                if token and len(token) > longest.get(token[0], 0):
                    longest[token[0]] = len(token)
            yield
        self.unk_id = spec.get("unk_id")
        if self.unk_id is not None and not (
            isinstance(self.unk_id, int) and 0 <= self.unk_id < len(vocab)
        ):
            refuse("its Unigram unk_id is not in the vocabulary")
        self.byte_fallback = bool(spec.get("byte_fallback", False))
        self.unk_score = lowest - UNK_PENALTY
        self.longest = longest
        self.most = max(abs(self.unk_score), abs(lowest), abs(highest), 1.0)
        self._parts: dict[str, UnigramPart] = {}
        self._followers: dict[str, set[str]] = {}
        self._joined: str | None = None

    def viterbi(self, word: str, base: float = 0.0) -> tuple[list[int], list[int], float]:
        """HF's ``encode_optimized`` lattice from a path score of ``base`` at the word's
        start: (where the best node ending at each position starts, its id), and the
        smallest gap between two candidates compared at a position (``parts``)."""
        size = len(word)
        ids, scores, longest = self.ids, self.scores, self.longest
        best = [base] * (size + 1)
        starts = [-1] * (size + 1)
        node_ids = [0] * (size + 1)
        gap = math.inf
        for i in range(size):
            here = best[i]
            single = False
            for length in range(1, min(longest.get(word[i], 0), size - i) + 1):
                token_id = ids.get(word[i : i + length])
                if token_id is None:
                    continue
                candidate = scores[token_id] + here
                j = i + length
                if starts[j] < 0:
                    best[j], starts[j], node_ids[j] = candidate, i, token_id
                else:
                    step = candidate - best[j]
                    if step > 0:
                        best[j], starts[j], node_ids[j] = candidate, i, token_id
                        gap = min(gap, step)
                    else:
                        gap = min(gap, -step)
                if length == 1:
                    single = True
            if not single:
                if self.unk_id is None:
                    refuse("its Unigram model has no unk_id for a character outside its vocabulary")
                candidate = self.unk_score + here
                j = i + 1
                if starts[j] < 0:
                    best[j], starts[j], node_ids[j] = candidate, i, self.unk_id
                else:
                    step = candidate - best[j]
                    if step > 0:
                        best[j], starts[j], node_ids[j] = candidate, i, self.unk_id
                        gap = min(gap, step)
                    else:
                        gap = min(gap, -step)
        return starts, node_ids, gap

    def spans(self, word: str, base: float = 0.0) -> list[tuple[int, int]]:
        """The best segmentation (Viterbi, as HF's ``encode_optimized``), unknowns fused."""
        return self._spans(word, *self.viterbi(word, base)[:2])[0]

    def _spans(
        self, word: str, starts: list[int], node_ids: list[int]
    ) -> tuple[list[tuple[int, int]], list[float]]:
        """The best path's spans, unknowns fused, and its nodes' scores in order."""
        spans: list[tuple[int, int]] = []
        node_scores: list[float] = []
        unknown_end = -1
        end = len(word)
        while end > 0:
            start = starts[end]
            node = node_ids[end]
            if node == self.unk_id:
                node_scores.append(self.unk_score)
                if unknown_end < 0:
                    unknown_end = end
            else:
                node_scores.append(self.scores[node])
                if unknown_end >= 0:
                    spans.append((end, unknown_end))
                    unknown_end = -1
                spans.append((start, end))
            end = start
        if unknown_end >= 0:
            spans.append((0, unknown_end))
        spans.reverse()
        node_scores.reverse()
        return spans, node_scores

    def _ends(self, word: str, spans: list[tuple[int, int]]) -> tuple[int, ...]:
        ends: list[int] = []
        for start, end in spans:
            piece = word[start:end]
            if piece not in self.ids and self.byte_fallback:
                fallback = byte_tokens(self.ids, piece)
                if fallback is not None:
                    ends.extend([end] * len(fallback))
                    continue
            ends.append(end)
        return tuple(ends)

    def _tokenize(self, word: str) -> tuple[int, ...]:
        if len(word) < 2 * PART:
            return self._ends(word, self.spans(word))
        ends: list[int] = []
        for offset, part in self.parts(word):
            ends.extend(offset + end for end in part.ends)
        return tuple(ends)

    def count(self, word: str) -> int:
        if len(word) < 2 * PART:
            return len(self.tokenize(word))
        return sum(len(part.ends) for _, part in self.parts(word))

    # -------------------------------------------------- long words in parts

    def parts(self, word: str) -> list[tuple[int, UnigramPart]]:
        """A long word's parts (offset, the part's best path), cut where no node of the
        lattice crosses (``cuts``), so every path, HF's too, goes through each cut.

        A part is solved from a path score of 0 and cached by its text. HF solves it from
        the score ``base`` of the best path up to the cut (the left fold of its nodes'
        scores), which rounds differently; the part's path is still HF's when every two
        candidates compared at a position differ by more than the rounding can move them
        (``robust``). Otherwise (near ties) the part is solved again from the exact base,
        as HF does. The first part starts from 0, as HF's word."""
        out: list[tuple[int, UnigramPart]] = []
        base, folded = 0.0, 0
        for offset, end in self.cuts(word):
            text = word[offset:end]
            part = self._parts.get(text)
            if part is None:
                part = UnigramPart(self, text, 0.0)
                if len(self._parts) >= WORD_CACHE:
                    self._parts.clear()
                self._parts[text] = part
            if offset and part.gap <= self.rounding(offset, len(text)):
                for _, earlier in out[folded:]:
                    for score in earlier.node_scores:
                        base = score + base
                folded = len(out)
                part = UnigramPart(self, text, base)
            out.append((offset, part))
        return out

    def rounding(self, offset: int, size: int) -> float:
        """A bound on how far rounding can move a candidate's score, twice over, in a part
        of ``size`` characters at ``offset``, solved from 0 or from the base there: each
        score sum is under ``(offset + size + 1) * most`` in size, each addition rounds
        by half an ulp of it at most, and a path holds ``size`` nodes at most (with a
        margin of 4 over what the argument needs)."""
        return 16.0 * (size + 1) * (offset + size + 1) * self.most * 2.0**-53

    def cuts(self, word: str) -> list[tuple[int, int]]:
        """(start, end) of parts of at least ``PART`` characters each: a cut at i after a
        character that is not a letter or digit (Python's tables only choose candidates)
        when no vocabulary piece holds ``word[i - 1 : i + 1]`` (no node crosses i; nodes of
        unknown characters hold one character) and one of the two is a piece of its own
        (two unknowns on either side would be fused into one token)."""
        out: list[tuple[int, int]] = []
        start = 0
        ids = self.ids
        found = CUT_CANDIDATE.search(word, PART - 1)
        while found is not None:
            cut = found.end()
            if cut >= len(word):
                break
            a, b = word[cut - 1], word[cut]
            if (a in ids or b in ids) and b not in self.followers(a):
                out.append((start, cut))
                start = cut
                found = CUT_CANDIDATE.search(word, cut + PART - 1)
            else:
                found = CUT_CANDIDATE.search(word, cut)
        out.append((start, len(word)))
        return out

    def followers(self, char: str) -> set[str]:
        """Every character that follows ``char`` inside a vocabulary piece (memoised; the
        pieces are joined once, by a separator, which may come out as a follower)."""
        found = self._followers.get(char)
        if found is None:
            if self._joined is None:
                self._joined = SEPARATOR.join(self.ids)
            found = set(re.findall(re.escape(char) + "(.)", self._joined, re.S))
            self._followers[char] = found
        return found


class UnigramPart:
    """A part of a long word solved from ``base``: its tokens' ends, its path's node
    scores, and the smallest gap between two candidates compared (``Unigram.parts``)."""

    __slots__ = ("ends", "gap", "node_scores")

    def __init__(self, model: Unigram, text: str, base: float) -> None:
        starts, node_ids, self.gap = model.viterbi(text, base)
        spans, node_scores = model._spans(text, starts, node_ids)
        self.ends = model._ends(text, spans)
        self.node_scores = tuple(node_scores)

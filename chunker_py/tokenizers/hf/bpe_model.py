"""The BPE model of a tokenizer.json, as HF tokenizers encodes: merges by rank, byte
fallback, and long words cut into parts at places no merge crosses (``Bpe.parts``)."""

from __future__ import annotations

import heapq
import re
from collections.abc import Generator
from typing import Any

from ...engine.steps import finish
from .model_base import WORD_CACHE, Model, byte_tokens
from .tables import refuse

MERGE_STEP = 2_000  # BPE merges between two chances for the page to give way
KEY = 1 << 22  # pair key = left id * KEY + right id (vocabularies hold fewer than 4M ids)
BPE_PART = 128  # code points at least per part of a long BPE word (``Bpe.parts``)
NON_WORD = re.compile(r"\W")  # a BPE cut may be next to one (``Bpe.cuts``)
HIT, BYTES, UNK, DROP = "hit", "bytes", "unk", "drop"  # ``Bpe._kind``


class Bpe(Model):
    def __init__(self, spec: dict[str, Any]) -> None:
        finish(self.build(spec))

    def build(self, spec: dict[str, Any]) -> Generator[None, None, None]:
        """``__init__`` in steps of ``MERGE_STEP`` merges (the page gives way between them,
        as for a Unigram vocabulary)."""
        super().__init__()
        vocab = spec.get("vocab")
        if not isinstance(vocab, dict) or not all(isinstance(i, int) for i in vocab.values()):
            refuse("its BPE model has no vocabulary of token -> id")
        if spec.get("dropout") not in (None, 0, 0.0):
            refuse("its BPE model uses dropout (random merges cannot be counted exactly)")
        self.vocab: dict[str, int] = vocab
        self.unk = spec.get("unk_token")
        self.prefix = spec.get("continuing_subword_prefix") or ""
        self.suffix = spec.get("end_of_word_suffix") or ""
        self.fuse_unk = bool(spec.get("fuse_unk", False))
        self.byte_fallback = bool(spec.get("byte_fallback", False))
        self.ignore_merges = bool(spec.get("ignore_merges", False))
        if max(vocab.values(), default=0) >= KEY:
            refuse("its BPE vocabulary has ids beyond 4 million")
        self.pairs: dict[int, tuple[int, int]] = {}
        self._cuttable: bool | None = None
        self._adjacent: set[str] = set()
        self._all_bytes = False
        self._kinds: dict[str, str] = {}
        self._cuts_ok: dict[str, bool] = {}
        self._parts: dict[tuple[str, bool, bool], tuple[int, ...]] = {}
        self._exact_ends: bool | None = None
        self._hf_ends: dict[str, tuple[int, ...]] = {}
        merges = spec.get("merges")
        if not isinstance(merges, list):
            refuse("its BPE model has no list of merges")
        for begin in range(0, len(merges), MERGE_STEP):
            self._add_pairs(merges, begin, begin + MERGE_STEP)
            yield

    def _add_pairs(self, merges: list[Any], begin: int, end: int) -> None:
        """Merges ``begin`` to ``end - 1``: pair key -> (rank, the merged token's id)."""
        vocab = self.vocab
        cut = len(self.prefix.encode("utf-8"))
        pairs = self.pairs
        for rank, merge in enumerate(merges[begin:end], begin):
            parts = merge.split(" ") if isinstance(merge, str) else merge
            if not isinstance(parts, list) or len(parts) != 2:
                refuse(f"its BPE merge {merge!r} is not a pair of tokens")
            left, right = parts
            if not (isinstance(left, str) and isinstance(right, str)):
                refuse(f"its BPE merge {merge!r} is not a pair of tokens")
            try:
                if cut:
                    joined = (left.encode() + right.encode()[cut:]).decode("utf-8")
                else:
                    joined = left + right
                new_id = vocab[joined]
                pairs[vocab[left] * KEY + vocab[right]] = (rank, new_id)
            except (KeyError, UnicodeDecodeError):
                refuse(
                    f"its BPE merge {left!r} {right!r} makes or uses a token not in the vocabulary"
                )

    def _unk_id(self) -> int:
        unk_id = self.vocab.get(str(self.unk))
        if unk_id is None:
            refuse(f"its unknown token {self.unk!r} is not in the vocabulary")
        return unk_id

    def _tokenize(self, word: str) -> tuple[int, ...]:
        if not word:
            return ()
        if self.ignore_merges and word in self.vocab:
            return (len(word),)  # HF: the whole piece only, never a part of it
        if len(word) >= 2 * BPE_PART and self.cuttable():
            ends: list[int] = []
            for offset, part in self.parts(word):
                ends.extend(offset + end for end in part)
            return tuple(ends)
        return self._merged(word, True, True)

    def count(self, word: str) -> int:
        if len(word) < 2 * BPE_PART or (self.ignore_merges and word in self.vocab):
            return len(self.tokenize(word))
        if not self.cuttable():
            return len(self.tokenize(word))
        return sum(len(part) for _, part in self.parts(word))

    def _merged(self, word: str, first: bool, last: bool) -> tuple[int, ...]:
        """HF's ``merge_word`` and ``merge_all`` on ``word``: the part of a piece that
        starts the piece (``first``: no continuing-subword prefix on its first character)
        and ends it (``last``: the end-of-word suffix on its last character) or not."""
        return tuple(self.merge(*self._symbols(word, first, last)))

    def _symbols(
        self, word: str, first: bool, last: bool, sizes: list[int] | None = None
    ) -> tuple[list[int], list[int]]:
        """HF's ``merge_word`` before the merges: the symbols' ids and where each one's
        characters end, in HF's order (a pending unknown comes after the bytes of the
        characters that follow it). ``sizes`` gets each symbol's length in HF's ``Word``,
        in bytes, from which HF's offsets run on (``hf_ends``): a character's own bytes,
        an unknown's characters' bytes, 1 per byte-fallback token, whose bytes are those
        of the character with its prefix or suffix; a character with no token, no bytes
        and no unknown token is left out, its bytes too."""
        vocab = self.vocab
        ids: list[int] = []
        ends: list[int] = []
        unk: list[int] | None = None  # [id, end, bytes] of the pending unknown token
        final = len(word) - 1 if last else -1
        prefix, suffix = self.prefix, self.suffix
        for i, ch in enumerate(word):
            piece = ch
            if prefix and (i or not first):
                piece = prefix + piece
            if i == final and suffix:
                piece += suffix
            found = vocab.get(piece)
            if found is not None:
                if unk is not None:
                    ids.append(unk[0])
                    ends.append(unk[1])
                    if sizes is not None:
                        sizes.append(unk[2])
                    unk = None
                ids.append(found)
                ends.append(i + 1)
                if sizes is not None:
                    sizes.append(len(ch.encode("utf-8")))
                continue
            if self.byte_fallback:
                fallback = byte_tokens(vocab, piece)
                if fallback is not None:
                    ids.extend(fallback)
                    ends.extend([i + 1] * len(fallback))
                    if sizes is not None:
                        sizes.extend([1] * len(fallback))
                    continue
            if self.unk is not None:
                size = len(ch.encode("utf-8")) if sizes is not None else 0
                if unk is not None and self.fuse_unk:
                    unk[1] = i + 1
                    unk[2] += size
                else:
                    if unk is not None:
                        ids.append(unk[0])
                        ends.append(unk[1])
                        if sizes is not None:
                            sizes.append(unk[2])
                    unk = [self._unk_id(), i + 1, size]
        if unk is not None:
            ids.append(unk[0])
            ends.append(unk[1])
            if sizes is not None:
                sizes.append(unk[2])
        return ids, ends

    def hf_ends(self, word: str) -> tuple[int, ...] | None:
        """Where HF's offsets put each token's end, in bytes of ``word`` (may run past its
        end), or None when those are the tokens' own ends (``tokenize``). HF's offsets run
        on by each symbol's length (``_symbols``), so they differ from the tokens' own ends
        with byte fallback and a prefix or suffix, with byte tokens missing (an unknown
        after bytes), or with no unknown token (characters left out)."""
        if not word or (self.ignore_merges and word in self.vocab):
            return None
        if self._exact_ends is None:
            all_bytes = self.byte_fallback and all(
                self.vocab.get(f"<0x{b:02X}>") is not None for b in range(256)
            )
            fallback_sizes = self.byte_fallback and bool(self.prefix or self.suffix)
            # an unknown after bytes, or a character left out
            self._exact_ends = fallback_sizes or (
                not all_bytes and (self.byte_fallback or self.unk is None)
            )
        if not self._exact_ends:
            return None
        vocab = self.vocab
        if not (self.prefix or self.suffix or self.byte_fallback) and all(c in vocab for c in word):
            return None  # nothing left out
        found = self._hf_ends.get(word)
        if found is None:
            sizes: list[int] = []
            ids, _ = self._symbols(word, True, True, sizes)
            total, ends = 0, []
            for size in sizes:
                total += size
                ends.append(total)
            found = tuple(self.merge(ids, ends))
            if len(self._hf_ends) >= WORD_CACHE:
                self._hf_ends.clear()
            self._hf_ends[word] = found
        return found

    # -------------------------------------------------- long words in parts

    def cuttable(self) -> bool:
        """Whether long words may be cut at all (``cut_ok``), decided once: the ids are
        unique (a merge's pair of ids then names its two strings), and no merge takes a
        byte-fallback token or the unknown token (so those never merge with anything);
        then the vocabulary's adjacent character pairs are gathered."""
        if self._cuttable is None:
            vocab = self.vocab
            ok = len(set(vocab.values())) == len(vocab)
            if ok:
                operands = {key // KEY for key in self.pairs} | {key % KEY for key in self.pairs}
                inert = [vocab.get(f"<0x{byte:02X}>") for byte in range(256)]
                inert.append(vocab.get(str(self.unk)) if self.unk is not None else None)
                ok = not operands.intersection(i for i in inert if i is not None)
            if ok:
                self._adjacent = {t[i : i + 2] for t in vocab for i in range(len(t) - 1)}
                self._all_bytes = all(vocab.get(f"<0x{b:02X}>") is not None for b in range(256))
            self._cuttable = ok
        return self._cuttable

    def _kind(self, char: str) -> str:
        """How a character inside a word (not its first nor its last) enters HF's word:
        HIT (its prefixed piece is a token), BYTES (byte fallback), UNK, or DROP (no
        unknown token: HF leaves it out)."""
        kind = self._kinds.get(char)
        if kind is None:
            piece = self.prefix + char
            if piece in self.vocab:
                kind = HIT
            elif self.byte_fallback and byte_tokens(self.vocab, piece) is not None:
                kind = BYTES
            else:
                kind = UNK if self.unk is not None else DROP
            self._kinds[char] = kind
        return kind

    def cut_ok(self, pair: str) -> bool:
        """Whether a word's BPE result is its two parts' results, joined, at a cut between
        the two characters of ``pair`` (neither the word's first nor its last; memoised).

        Each part's initial symbols are the whole word's there when no unknown token is
        pending at the cut (it would fuse with one after the cut, or come after the
        bytes of one): the left character is HIT (which flushes it), or no unknown can be
        pending (every byte has a token), or the right one is HIT (which flushes it at the
        cut, as the part's end does) or an UNK that is not fused. Then no merge ever joins
        a symbol ending at the cut with one starting there: a byte or unknown symbol never
        merges (``cuttable``), so a symbol holding one is that symbol alone; between two
        HIT characters, every symbol is a token whose text is its characters (with the
        prefix before a symbol not first, the suffix on the last), a merge's result is a
        token too (HF refuses a file where it is not), and it would hold ``pair``: no
        token does. Merges on either side then go in the same order as in the whole word
        (lowest rank, then leftmost, in each part alike)."""
        ok = self._cuts_ok.get(pair)
        if ok is None:
            x, y = self._kind(pair[0]), self._kind(pair[1])
            if DROP in (x, y):
                ok = False
            else:
                pending = x == UNK or (x == BYTES and self.unk is not None and not self._all_bytes)
                ok = not pending or y == HIT or (y == UNK and not self.fuse_unk)
                if ok and x == HIT and y == HIT:
                    ok = pair not in self._adjacent
            self._cuts_ok[pair] = ok
        return ok

    def cuts(self, word: str) -> list[tuple[int, int]]:
        """(start, end) of parts of at least ``BPE_PART`` characters each, cut just before
        or just after a character that is not a letter or digit (Python's tables only
        choose candidates: punctuation ends a part alike after an edit elsewhere) where
        ``cut_ok``."""
        out: list[tuple[int, int]] = []
        start = 0
        last = len(word) - BPE_PART
        search = NON_WORD.search
        known, check = self._cuts_ok, self.cut_ok
        found = search(word, BPE_PART - 1)
        while found is not None:
            at = found.start()
            if at > last:
                break
            cut = -1
            if at - start >= BPE_PART:
                pair = word[at - 1 : at + 1]
                ok = known.get(pair)
                if ok if ok is not None else check(pair):
                    cut = at
            if cut < 0 and at < last:
                pair = word[at : at + 2]
                ok = known.get(pair)
                if ok if ok is not None else check(pair):
                    cut = at + 1
            if cut < 0:
                found = search(word, at + 1)
                continue
            out.append((start, cut))
            start = cut
            found = search(word, cut + BPE_PART - 1)
        out.append((start, len(word)))
        return out

    def parts(self, word: str) -> list[tuple[int, tuple[int, ...]]]:
        """A long word's parts (offset, the part's token ends), each cached by its text."""
        out: list[tuple[int, tuple[int, ...]]] = []
        cache = self._parts
        size = len(word)
        for start, end in self.cuts(word):
            key = (word[start:end], start == 0, end == size)
            part = cache.get(key)
            if part is None:
                part = self._merged(key[0], key[1], key[2])
                if len(cache) >= WORD_CACHE:
                    cache.clear()
                cache[key] = part
            out.append((start, part))
        return out

    def merge(self, ids: list[int], ends: list[int]) -> list[int]:
        """HF's ``Word::merge_all``: lowest rank first, then leftmost; the ends that stay."""
        size = len(ids)
        if size < 2:
            return ends
        pairs = self.pairs
        heap = []
        for i in range(size - 1):
            merge = pairs.get(ids[i] * KEY + ids[i + 1])
            if merge is not None:
                heap.append((merge[0], i, merge[1]))
        if not heap:
            return ends
        heapq.heapify(heap)
        nxt = list(range(1, size + 1))
        prv = list(range(-1, size - 1))
        alive = [True] * size
        while heap:
            _, pos, new_id = heapq.heappop(heap)
            if not alive[pos]:
                continue
            right = nxt[pos]
            if right >= size:
                continue
            merge = pairs.get(ids[pos] * KEY + ids[right])
            if merge is None or merge[1] != new_id:
                continue  # stale
            ids[pos] = new_id
            ends[pos] = ends[right]
            alive[right] = False
            after = nxt[right]
            nxt[pos] = after
            if after < size:
                prv[after] = pos
            before = prv[pos]
            if before >= 0:
                merge = pairs.get(ids[before] * KEY + new_id)
                if merge is not None:
                    heapq.heappush(heap, (merge[0], before, merge[1]))
            if after < size:
                merge = pairs.get(new_id * KEY + ids[after])
                if merge is not None:
                    heapq.heappush(heap, (merge[0], pos, merge[1]))
        return [end for end, keep in zip(ends, alive, strict=True) if keep]

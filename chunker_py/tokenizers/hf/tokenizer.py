"""A tokenizer.json as a ``Tokenizer``: HF's pipeline, counting without special tokens.

The count equals ``tokenizers.Tokenizer.from_file(path).encode(text,
add_special_tokens=False)`` with the file's truncation and padding off (a chunk's tokens,
not a model input): added tokens are matched first (the non-normalized ones in the text,
the normalized ones in each normalized segment), then each segment is normalized,
pre-tokenized and encoded by the model. Post-processors add only special tokens, so they
play no part. Lone surrogates (not UTF-8, which HF cannot take) count as U+FFFD.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Generator
from itertools import accumulate
from typing import Any

from ...engine.steps import finish, relay
from ..base import LruDict, Tokenizer
from ..bpe import same_length_text
from . import unicode_data as ud
from .blocks import (
    BLOCK,
    Chunks,
    Cuts,
    Joins,
    continuation_normalizer,
    joins_safe,
    letters_safe,
    split_safe,
)
from .json_steps import json_text_in_steps, parse_in_steps
from .model_base import Model
from .models import read_model_in_steps
from .normalizers import Normalizer, read_normalizer
from .pre_tokenizers import (
    Metaspace,
    Piece,
    PreTokenizer,
    metaspace_first,
    read_pre_tokenizer,
    without_prefix_space,
)
from .tables import FIELD, Owners, RangeSet, refuse

MAX_BYTES = 64 * 1024 * 1024  # Gemma's 33 MB file fits; a 200 MB file is refused
Segment = tuple[int, int, bool]  # start, end, is an added token
BLOCK_CACHE = 16384


class AddedToken:
    __slots__ = ("content", "lstrip", "rstrip", "single_word")

    def __init__(self, content: str, single_word: bool, lstrip: bool, rstrip: bool) -> None:
        self.content = content
        self.single_word, self.lstrip, self.rstrip = single_word, lstrip, rstrip


class AddedTokens:
    """HF's ``AddedVocabulary.find_matches``: leftmost-longest matches of the contents,
    then each token's single_word / lstrip / rstrip rules."""

    def __init__(self, tokens: list[AddedToken]) -> None:
        self.by_content = {token.content: token for token in tokens}
        contents = sorted(self.by_content, key=len, reverse=True)
        self.pattern = re.compile("|".join(map(re.escape, contents))) if contents else None
        self.word = RangeSet(ud.RUST_WORD)
        self.space = RangeSet(ud.REGEX_SPACE)

    def segments(self, text: str, after_word: bool = False) -> list[Segment]:
        """``after_word``: ``text`` follows a word character (a block after the first,
        cut after a letter), which a single_word token at its start must not follow."""
        if self.pattern is None or not text:
            return [(0, len(text), False)]
        segments: list[Segment] = []
        offset = 0
        for match in self.pattern.finditer(text):
            start, stop = match.span()
            token = self.by_content[match.group()]
            if token.single_word:
                before = not after_word if start == 0 else ord(text[start - 1]) not in self.word
                after = stop == len(text) or ord(text[stop]) not in self.word
                if not (before and after):
                    continue
            if token.lstrip:
                new_start = start
                while new_start > 0 and ord(text[new_start - 1]) in self.space:
                    new_start -= 1
                start = max(new_start, offset)
            if token.rstrip:
                while stop < len(text) and ord(text[stop]) in self.space:
                    stop += 1
            if offset < start:
                segments.append((offset, start, False))
            segments.append((start, stop, True))
            offset = stop
        if offset != len(text):
            segments.append((offset, len(text), False))
        return segments


class HfTokenizer(Tokenizer):
    """A tokenizer read from a tokenizer.json (see ``load_tokenizer_json``)."""

    def __init__(
        self,
        name: str,
        normalizer: Normalizer | None,
        pre_tokenizer: PreTokenizer | None,
        model: Model,
        raw_tokens: list[AddedToken],
        normalized_tokens: list[AddedToken],
        family: str,
    ) -> None:
        super().__init__(name)
        self.normalizer, self.pre_tokenizer, self.model = normalizer, pre_tokenizer, model
        self.raw = AddedTokens(raw_tokens)
        self.normalized = AddedTokens(normalized_tokens)
        self.family = family
        # Metaspace's "first" asks each piece's source offset; with no normalizer and a
        # lone Metaspace that is the segment's offset in the text (``pieces``), so counting
        # needs no per-character owners (a 20,000-code-point piece: 1 ms in CPython).
        self.track_always = metaspace_first(pre_tokenizer) and not (
            normalizer is None and isinstance(pre_tokenizer, Metaspace)
        )
        added = [(t.content, t.rstrip, t.single_word) for t in (*raw_tokens, *normalized_tokens)]
        self.in_blocks = split_safe(normalizer, pre_tokenizer, model, added)
        self.continued = continuation_normalizer(normalizer)
        letters = self.in_blocks and letters_safe(normalizer, pre_tokenizer, added)
        kinds = joins_safe(normalizer, pre_tokenizer, added) if self.in_blocks else ""
        joins = Joins(normalizer, pre_tokenizer, kinds, added) if kinds else None
        self.cuts = Cuts(normalizer, letters, added, joins)
        # A block after the first starts inside the text's segment: a first ByteLevel step
        # adds no prefix space there (a block cut at a space starts with one anyway).
        self.pre_inside = without_prefix_space(pre_tokenizer)
        # Blocks after a text's first one, counted as continuations (keyed apart from the
        # texts ``count`` caches: with a Prepend normalizer the two counts differ).
        self._blocks = LruDict(BLOCK_CACHE)
        # Long segments normalized in cached chunks (when counting: no alignments).
        self.chunks = {id(n): Chunks(n) for n in (normalizer, self.continued) if n is not None}

    def pieces(self, text: str, track: bool, continued: bool = False) -> list[tuple[Piece, bool]]:
        """(piece, is an added token) in order; an added token's piece is its source span.
        ``continued``: ``text`` is a block after the first (``blocks``), so its first
        segment is normalized without the Prepend normalizer's text."""
        out: list[tuple[Piece, bool]] = []
        for start, end, added in self.raw.segments(text, continued):
            if added:
                out.append(
                    ((text[start:end], list(range(start, end)) if track else None, start), True)
                )
                continue
            segment = text[start:end]
            owners: Owners = list(range(start, end)) if track else None
            normalizer = self.continued if continued and start == 0 else self.normalizer
            if normalizer is not None:
                if owners is None and len(segment) >= 2 * BLOCK:
                    segment = self.chunks[id(normalizer)].apply(segment)
                else:
                    segment, owners = normalizer.apply(segment, owners)
            after_word = continued and start == 0
            for n_start, n_end, n_added in self.normalized.segments(segment, after_word):
                sub_owners = owners[n_start:n_end] if owners is not None else None
                # HF's offsets_original().0: the source offset of the slice's first character
                shift = sub_owners[0] if sub_owners and sub_owners[0] >= 0 else start
                if owners is None and normalizer is None:
                    shift = start + n_start  # the source offset: nothing normalized
                piece: Piece = (segment[n_start:n_end], sub_owners, shift)
                if n_added:
                    out.append((piece, True))
                elif self.pre_tokenizer is None:
                    if piece[0]:
                        out.append((piece, False))
                else:
                    pre = self.pre_inside if continued and start == 0 and n_start == 0 else None
                    pre = pre or self.pre_tokenizer
                    out.extend((p, False) for p in pre.split([piece]))
        return out

    def _count(self, text: str) -> int:
        text = same_length_text(text)
        if not self.in_blocks or len(text) < 2 * BLOCK:
            return self._count_whole(text)
        blocks = self.cuts.blocks(text)
        if len(blocks) == 1:
            return self._count_whole(text)
        # The first block through ``count``'s own cache, the others as continuations.
        total = self.count(blocks[0])
        cache = self._blocks
        for block in blocks[1:]:
            found = cache.get(block)
            if found is None:
                found = self._count_whole(block, continued=True)
                cache.put(block, found)
            total += found
        return total

    def _count_whole(self, text: str, continued: bool = False) -> int:
        count = self.model.count
        total = 0
        for piece, added in self.pieces(text, self.track_always, continued):
            total += 1 if added else count(piece[0])
        return total

    def _token_ends(self, text: str) -> list[int]:
        ends = self.hf_token_ends(text)
        if ends and ends[-1] > len(text):  # nondecreasing: only the last ones can be
            return [min(end, len(text)) for end in ends]
        return ends

    def hf_token_ends(self, text: str) -> list[int]:
        """The ends of HF's offsets (code points), each the largest so far (HF's may step
        back: reordered marks). With byte fallback and a continuing-subword prefix, HF's
        may run past the text's end (``Bpe.hf_ends``); ``token_ends`` stops them there."""
        text = same_length_text(text)
        ends: list[int] = []
        top = 0
        text_bytes: list[list[int]] = []  # the text's byte starts, made when first needed
        model = self.model
        for (piece_text, owners, _), added in self.pieces(text, True):
            assert owners is not None
            if added:
                candidates = [owners[-1] + 1] if owners else []
            else:
                in_bytes = model.hf_ends(piece_text)
                if in_bytes is None:
                    candidates = [owners[end - 1] + 1 for end in model.tokenize(piece_text)]
                else:
                    candidates = ends_from_bytes(piece_text, owners, in_bytes, text, text_bytes)
            for end in candidates:
                top = max(top, end)
                ends.append(top)
        return ends


def byte_starts(text: str) -> list[int]:
    """Where each character of ``text`` starts in its UTF-8, then the length."""
    return list(accumulate((len(c.encode("utf-8")) for c in text), initial=0))


def ends_from_bytes(
    piece: str,
    owners: list[int],
    in_bytes: tuple[int, ...],
    text: str,
    text_bytes: list[list[int]],
) -> list[int]:
    """HF's ``into_encoding`` on a piece's token ends in its bytes (``Bpe.hf_ends``): a
    token inside the piece ends where the source character of its last byte ends. For one
    that runs past the piece's end, HF's ``convert_offsets`` finds no alignment, so its
    offsets in the piece's bytes are read as offsets in the text's bytes
    (``BytesToCharOffsetConverter``): its end is the character holding that byte, the
    text's end for the byte just past the text, two characters after its start beyond
    that, or the byte offset itself when its start is past the text too."""
    starts = byte_starts(piece)
    size = starts[-1]
    out: list[int] = []
    start = 0
    for end in in_bytes:
        if end <= size:
            out.append(owners[bisect_right(starts, end - 1) - 1] + 1)
        else:
            if not text_bytes:
                text_bytes.append(byte_starts(text))
            chars = text_bytes[0]
            total = chars[-1]
            if start >= total:
                out.append(end)
            elif end < total:
                out.append(bisect_right(chars, end) - 1)
            elif end == total:
                out.append(len(text))
            else:  # HF: ``unwrap_or(start + 1)``, then one more
                out.append(bisect_right(chars, start) + 1)
        start = end
    return out


def read_added_tokens(spec: object) -> list[dict[str, Any]]:
    if spec is None:
        return []
    if not isinstance(spec, list) or not all(isinstance(t, dict) for t in spec):
        refuse("its added_tokens is not a list of objects")
    for token in spec:
        if not isinstance(token.get("content"), str):
            refuse("one of its added_tokens has no content")
    return spec


def family_of(spec: dict[str, Any]) -> str:
    kind = spec["model"].get("type") or "model"
    if kind == "BPE" and spec["model"].get("byte_fallback"):
        return "BPE with byte fallback"
    if kind == "BPE" and '"ByteLevel"' in json.dumps(spec.get("pre_tokenizer")):
        return "byte-level BPE"
    return kind


def check_tokenizer_size(size: int) -> None:
    """Refuse a file of ``size`` bytes before reading it, if it is too large."""
    if size > MAX_BYTES:
        refuse(
            f"it is {size / 1e6:.0f} MB; tokenizer.json files of real models are "
            f"under {MAX_BYTES // (1024 * 1024)} MB"
        )


def load_tokenizer_json(data: bytes | str, name: str) -> HfTokenizer:
    """Read a tokenizer.json's contents; a ``SettingError`` (field ``tokenizer_file``)
    naming what it cannot reproduce exactly, if anything."""
    return finish(load_in_steps(data, name))


PARSED = 0.9  # the share of a load's progress that parsing the JSON stands for


def load_in_steps(data: bytes | str, name: str) -> Generator[float, None, HfTokenizer]:
    """``load_tokenizer_json`` as a generator: it yields the fraction done (0 to 1) often
    enough that a caller can give way between yields (the page paints and takes keys
    there), and returns the tokenizer."""
    check_tokenizer_size(len(data))
    try:
        text = yield from json_text_in_steps(data)
        yield 0.0  # joining an 18 MB file's decoded slices is a step of its own
        spec = yield from relay(parse_in_steps(text), PARSED.__mul__)
    except (ValueError, RecursionError):
        refuse("it is not JSON (a truncated or damaged file?)")
    yield PARSED
    if not isinstance(spec, dict) or "model" not in spec:
        refuse("it is JSON but not a tokenizer.json (it has no model)")
    normalizer = read_normalizer(spec.get("normalizer"))
    pre_tokenizer = read_pre_tokenizer(spec.get("pre_tokenizer"))
    model = yield from relay(read_model_in_steps(spec["model"]), lambda _: PARSED)
    raw: list[AddedToken] = []
    normalized: list[AddedToken] = []
    for token in read_added_tokens(spec.get("added_tokens")):
        content = token["content"]
        if not content:
            continue
        is_normalized = bool(token.get("normalized", not token.get("special", False)))
        if is_normalized and normalizer is not None:
            content = normalizer.apply(content, None)[0]
            if not content:
                continue
        entry = AddedToken(
            content,
            bool(token.get("single_word", False)),
            bool(token.get("lstrip", False)),
            bool(token.get("rstrip", False)),
        )
        (normalized if is_normalized else raw).append(entry)
    tokenizer = HfTokenizer(
        name, normalizer, pre_tokenizer, model, raw, normalized, family_of(spec)
    )
    yield from _release(spec["model"])
    return tokenizer


RELEASE_STEP = 10_000  # list items freed between two yields


def _release(model_spec: dict[str, Any]) -> Generator[float, None, None]:
    """Free the parsed model's long lists (a BPE's merges, a Unigram's [piece, score]
    pairs: the models keep their own tables, never these lists) a slice at a time: freed
    with the file in one go, 200 k merges took 44-54 ms in Pyodide, in the load's last step."""
    for key in ("merges", "vocab"):
        items = model_spec.get(key)
        if isinstance(items, list):
            while items:
                del items[-RELEASE_STEP:]
                yield PARSED


__all__ = [
    "FIELD",
    "MAX_BYTES",
    "HfTokenizer",
    "check_tokenizer_size",
    "load_in_steps",
    "load_tokenizer_json",
]

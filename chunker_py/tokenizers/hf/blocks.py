"""Where a long text can be counted in blocks, so a keystroke recounts one block.

A boundary is the position before a space that stands between an ASCII letter, digit or
one of ``.,;:!?`` and an ASCII letter or digit ("word| next"). For the pipelines
``split_safe`` accepts, the pieces HF makes of ``left + right`` are the pieces of ``left``
alone followed by those of ``right`` counted as a continuation (``right`` starts with the
space, so ByteLevel's prefix space and Metaspace's prepended replacement are not added;
a Prepend normalizer is skipped for it). Hence a text's count is the sum of its blocks'
counts, each cached. Why each accepted component keeps the boundary:

- normalizers act per code point or per grapheme cluster (the NFx forms, Lowercase,
  StripAccents, BertNormalizer, Precompiled) and map each boundary character to one of
  its kind (checked on each); a Replace touches neither them nor the space, or only runs
  of spaces; Prepend only the text's start; Strip is refused (it strips each block);
- the first pre-tokenizer splits at the space: ByteLevel's and Split's GPT-2, Llama 3 and
  Qwen 2 regexes end a match at a letter, digit or punctuation run before a space and
  have no lookbehind; Whitespace, WhitespaceSplit, BertPreTokenizer and a space delimiter
  split there; Metaspace (split) starts a piece at the replacement; later steps act per
  piece. Without a pre-tokenizer (or with Metaspace not splitting) only a BPE model
  qualifies, when no token of its vocabulary holds the space's image after its first
  character (no merge crosses) and it does not ignore merges (a block could be a token);
- no added token holds a space or the replacement after its first character, none
  ending with a boundary character strips the spaces after it, and none starting with a
  space is single_word (in a text it follows the word before the boundary).

Texts without boundaries (most CJK, Thai) are counted whole, as before. The differential
tests against ``tokenizers`` (long texts and their edits) guard these rules.
"""

from __future__ import annotations

import re

from ...text.graphemes import EXTEND, PREPEND, SPACING_MARK, ZWJ, properties
from . import unicode_data as ud
from .models import Bpe, Model
from .normalizers import (
    BertNormalizer,
    Form,
    Lowercase,
    Normalizer,
    Prepend,
    Replace,
    Sequence_,
    StripAccents,
)
from .pre_tokenizers import (
    BertPreTokenizer,
    ByteLevel,
    CharSplit,
    Metaspace,
    PreTokenizer,
    RegexSplit,
    Whitespace,
)
from .pre_tokenizers import Sequence_ as PreSequence
from .tables import RangeSet

BEFORE = "A-Za-z0-9.,;:!?"
AFTER = "A-Za-z0-9"
BLOCK = 48  # code points at least per block (fewer, larger blocks: less per-block work)
BEFORE_CHARS = {chr(c) for c in range(0x21, 0x7F) if re.fullmatch(f"[{BEFORE}]", chr(c))}
AFTER_CHARS = {chr(c) for c in range(0x21, 0x7F) if re.fullmatch(f"[{AFTER}]", chr(c))}
SPACE_LIKE = {" ", "\u2581"}
# Candidate cuts of any script: a space between two alphanumerics of Python's tables (or
# an ASCII boundary character before it). Each is checked against the frozen tables
# (``Cuts``), so Python's Unicode version only changes where blocks end, never a count.
CANDIDATE = re.compile(rf"(?<=[^\W_]|[{BEFORE}]) (?=[^\W_])")
LETTERS = RangeSet(ud.ONIG_L)
SPACES = RangeSet(ud.RUST_SPACE)
CROSS_RULE = re.compile(r"\{\d*,?\d*\}|[+*?\\]")


def continuation_normalizer(normalizer: Normalizer | None) -> Normalizer | None:
    """``normalizer`` without its Prepend steps: what a block after the first gets."""
    if isinstance(normalizer, Prepend):
        return None
    if isinstance(normalizer, Sequence_):
        return Sequence_([s for s in normalizer.steps if not isinstance(s, Prepend)])
    return normalizer


def _steps(normalizer: Normalizer | None) -> list[Normalizer]:
    if normalizer is None:
        return []
    if isinstance(normalizer, Sequence_):
        return [step for s in normalizer.steps for step in _steps(s)]
    return [normalizer]


def _replace_keeps(step: Replace) -> bool:
    chars = set(CROSS_RULE.sub("", step.pattern.pattern))
    if chars & BEFORE_CHARS:
        return False
    if chars & SPACE_LIKE:  # runs of spaces only, replaced by text free of boundary chars
        return chars <= SPACE_LIKE and not set(step.content) & BEFORE_CHARS
    return True


def _normalizer_keeps(normalizer: Normalizer | None) -> bool:
    from .precompiled import Precompiled

    for step in _steps(normalizer):
        if isinstance(step, Replace):
            if not _replace_keeps(step):
                return False
        elif not isinstance(
            step, Form | Lowercase | StripAccents | BertNormalizer | Precompiled | Prepend
        ):
            return False  # Strip, or anything added later
    rest = continuation_normalizer(normalizer)
    if rest is None:
        return True
    for chars in (BEFORE_CHARS, AFTER_CHARS):
        for char in chars:
            if rest.apply(char, None)[0] not in chars:  # one boundary character of its kind
                return False
    return True


def _splits_at_space(pre: PreTokenizer, space: str) -> bool:
    if isinstance(pre, ByteLevel):
        return pre.regex is not None and space == " "
    if isinstance(pre, RegexSplit):
        return pre.behaviour in ("isolated", "removed") and not pre.invert and space == " "
    if isinstance(pre, Whitespace | BertPreTokenizer):
        return space == " "
    if isinstance(pre, CharSplit):
        return pre.codes[ord(space)] == "d" and pre.behaviour != "merged_with_previous"
    if isinstance(pre, Metaspace):
        return pre.split_on and space in (" ", pre.replacement)
    return False


def split_safe(
    normalizer: Normalizer | None,
    pre_tokenizer: PreTokenizer | None,
    model: Model,
    added: list[tuple[str, bool, bool]],
) -> bool:
    """Whether counting in blocks gives the whole text's count (see the module's rules);
    ``added`` holds each added token's content, whether it strips the spaces on its right
    and whether it is single_word."""
    if any(
        set(content[1:]) & SPACE_LIKE
        or (rstrip and content[-1] in BEFORE_CHARS)
        or (single_word and content[0] in SPACE_LIKE)  # a block's start is not a word's end
        for content, rstrip, single_word in added
    ):
        return False
    if not _normalizer_keeps(normalizer):
        return False
    rest = continuation_normalizer(normalizer)
    space = rest.apply(" ", None)[0] if rest is not None else " "
    if space not in SPACE_LIKE and not (
        isinstance(pre_tokenizer, Metaspace) and space == pre_tokenizer.replacement
    ):
        return False
    first = pre_tokenizer
    if isinstance(first, PreSequence):
        first = first.steps[0] if first.steps else None
    if isinstance(pre_tokenizer, Metaspace) and not pre_tokenizer.split_on:
        first, space = None, pre_tokenizer.replacement  # one piece, its spaces replaced
    if first is not None:
        return _splits_at_space(first, space)
    if not isinstance(model, Bpe) or model.ignore_merges:  # a block could be one token
        return False
    if model.fuse_unk and space not in model.vocab:
        return False
    return not any(space in token[1:] for token in model.vocab)


def letters_safe(
    normalizer: Normalizer | None,
    pre_tokenizer: PreTokenizer | None,
    added: list[tuple[str, bool, bool]],
) -> bool:
    """Whether, on top of ``split_safe``, a space between two letters of any script may be
    a cut (``Cuts`` checks each letter). The NFx forms never compose across a space (a
    starter that composes with nothing); Lowercase, StripAccents and BertNormalizer act per
    code point; a Precompiled first step per grapheme cluster, which ends before the space
    unless the letter before is Prepend and goes on after it when the letter after is
    Extend, ZWJ or SpacingMark (both refused). A Replace must touch runs of spaces only.
    The pre-tokenizers split at the space as for ASCII words: a regex's match that holds a
    character other than whitespace never goes on past a space (``' ?'`` only starts one),
    so the letter before must not come out as whitespace (or empty); with Precompiled and
    a regex pre-tokenizer a cluster could end the letter's text otherwise: refused. No
    letter is a cut's left side if it (or its text's last character) ends an rstrip added
    token, which would take the space."""
    from .precompiled import Precompiled

    steps = _steps(normalizer)
    for index, step in enumerate(steps):
        if isinstance(step, Replace):
            if not set(CROSS_RULE.sub("", step.pattern.pattern)) <= SPACE_LIKE:
                return False
            if not set(step.content) <= SPACE_LIKE:
                return False
        if isinstance(step, Precompiled) and (
            index > 0 or _first(pre_tokenizer, (ByteLevel, RegexSplit))
        ):
            return False
    return True


def _first(pre: PreTokenizer | None, kinds: type | tuple[type, ...]) -> bool:
    if isinstance(pre, PreSequence):
        return any(isinstance(step, kinds) for step in pre.steps)
    return isinstance(pre, kinds)


class Cuts:
    """Cuts a text into blocks of at least ``BLOCK`` code points, each up to the next
    boundary: an ASCII one, or (``letters``) a space between two letters that keep their
    kind through the normalizer (checked once per letter with the frozen tables)."""

    def __init__(
        self, normalizer: Normalizer | None, letters: bool, added: list[tuple[str, bool, bool]]
    ) -> None:
        from .precompiled import Precompiled

        self.stops = {content[-1] for content, rstrip, _ in added if rstrip and content}
        self.rest = continuation_normalizer(normalizer)
        self.letters = letters
        self.clusters = any(isinstance(s, Precompiled) for s in _steps(normalizer))
        self.before: dict[str, bool] = dict.fromkeys(BEFORE_CHARS, True)
        self.after: dict[str, bool] = dict.fromkeys(AFTER_CHARS, True)

    def _letter(self, char: str, after: bool) -> bool:
        if not self.letters or char.isascii() or ord(char) not in LETTERS:
            return False
        if self.clusters:
            kind = properties(char) & 15
            if (kind in (EXTEND, ZWJ, SPACING_MARK)) if after else kind == PREPEND:
                return False
        out = self.rest.apply(char, None)[0] if self.rest is not None else char
        if not out or (not after and (char in self.stops or out[-1] in self.stops)):
            return False
        return not any(ord(c) in SPACES or c in SPACE_LIKE for c in out)

    def blocks(self, text: str) -> list[str]:
        before, after = self.before, self.after
        out: list[str] = []
        start = 0
        search = CANDIDATE.search
        found = search(text, BLOCK)
        while found is not None:
            cut = found.start()
            x, y = text[cut - 1], text[cut + 1]
            ok_x = before.get(x)
            if ok_x is None:
                ok_x = before[x] = self._letter(x, False)
            ok_y = after.get(y)
            if ok_y is None:
                ok_y = after[y] = self._letter(y, True)
            if ok_x and ok_y:
                out.append(text[start:cut])
                start = cut
                found = search(text, cut + BLOCK)
            else:
                found = search(text, cut + 1)
        out.append(text[start:])
        return out

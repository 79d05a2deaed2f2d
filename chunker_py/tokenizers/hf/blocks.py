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
  ending with a boundary character strips the spaces after it; a single_word one starting
  with a space follows the word before the boundary in the text, so with one of those a
  block after the first is matched as following a word character and every cut comes
  after one (``Cuts.after_words``).

Scripts without spaces (CJK, Thai) have two more kinds of cut, with no space (``joins_safe``
gives the argument): before non-ASCII punctuation that follows a letter ("文|。", where the
first pre-tokenizer ends a piece), and between two CJK ideographs where BertNormalizer puts
spaces around each. Texts without any cut are counted whole. The differential tests against
``tokenizers`` (long texts and their edits) guard these rules.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ...text.graphemes import EXTEND, PREPEND, SPACING_MARK, ZWJ, properties
from . import forms
from . import unicode_data as ud
from .bpe_model import Bpe
from .model_base import Model
from .normalizers import (
    CJK,
    BertNormalizer,
    Form,
    Lowercase,
    Normalizer,
    Prepend,
    Replace,
    Sequence_,
    Strip,
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
# (The space comes first, its lookbehind after it: a pattern that starts with a literal is
# searched for that literal; one that starts with a lookbehind tries it at every position,
# 1.5 ms on 20,000 code points of CJK in CPython, where this form takes 0.02 ms.)
CANDIDATE = re.compile(rf" (?=[^\W_])(?<=(?:[^\W_]|[{BEFORE}]) )")
LETTERS = RangeSet(ud.ONIG_L)
SPACES = RangeSet(ud.RUST_SPACE)
CROSS_RULE = re.compile(r"\{\d*,?\d*\}|[+*?\\]")


def continuation_normalizer(normalizer: Normalizer | None) -> Normalizer | None:
    """``normalizer`` without its Prepend steps and its Strip steps' left strip: what a
    block after the first gets (its first segment starts inside the text)."""
    if isinstance(normalizer, Prepend):
        return None
    if isinstance(normalizer, Strip):
        return Strip(False, normalizer.right)
    if isinstance(normalizer, Sequence_):
        steps = [continuation_normalizer(s) for s in normalizer.steps]
        return Sequence_([s for s in steps if s is not None])
    return normalizer


def _steps(normalizer: Normalizer | None) -> list[Normalizer]:
    if normalizer is None:
        return []
    if isinstance(normalizer, Sequence_):
        return [step for s in normalizer.steps for step in _steps(s)]
    return [normalizer]


LITERAL_PARTS = re.compile(r"(?s)\\.|\{\d*,?\d*\}|.")


def _literal_chars(pattern: str) -> set[str] | None:
    """The characters a quantified literal pattern matches, or None for any other."""
    chars = set()
    for part in LITERAL_PARTS.findall(pattern):
        if part[0] == "\\":
            if part[1].isalnum():
                return None  # a class such as \s
            chars.add(part[1])
        elif part in ".[]()|^$":
            return None
        elif part[0] != "{" and part not in "+*?":
            chars.add(part)
    return chars


def _touches_no_space(step: Replace) -> bool:
    """A literal without spaces, replaced by text without spaces: a match never holds the
    cut's space, nor leaves whitespace (or nothing) where a letter was."""
    chars = _literal_chars(step.pattern.pattern)
    if chars is None or not step.content:
        return False
    return not any(ord(c) in SPACES or c in SPACE_LIKE for c in chars | set(step.content))


def _replace_keeps(step: Replace) -> bool:
    if _touches_no_space(step):
        return True
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
            step, Form | Lowercase | StripAccents | BertNormalizer | Precompiled | Prepend | Strip
        ):
            return False  # anything added later
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
        set(content[1:]) & SPACE_LIKE or (rstrip and content[-1] in BEFORE_CHARS)
        for content, rstrip, single_word in added
    ):
        return False
    if not _normalizer_keeps(normalizer):
        return False
    rest = continuation_normalizer(normalizer)
    if rest is not None:  # the space inside a text: no Strip step reaches it
        rest = Sequence_([step for step in _steps(rest) if not isinstance(step, Strip)])
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
        if isinstance(step, Replace) and not _touches_no_space(step):
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


PUNCT = "p"  # a cut before non-ASCII punctuation after a letter ("文|。")
IDEOGRAPHS = "c"  # a cut between two CJK ideographs that BertNormalizer spaces
REGEX, WORDS, ISOLATES = "regex", "words", "isolates"  # how the first pre-tokenizer ends a piece
CJK_CLASS = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in CJK)


def _ends_pieces(pre: PreTokenizer | None) -> str | None:
    """How the first pre-tokenizer ends a piece before punctuation (None: not provably).
    REGEX: GPT-2's, Llama 3's and Qwen 2's patterns (ByteLevel's own, or Split isolated or
    removed) end a letter run at the first character that is not a letter, and start the
    next match there, with no lookbehind; WORDS: Whitespace's ``\\w+|[^\\w\\s]+``;
    ISOLATES: BertPreTokenizer, Punctuation (isolated, removed, merged with next) start a
    piece at each punctuation character. A first ByteLevel adds its prefix space only at
    a segment's start, which a block after the first is not (``without_prefix_space``)."""
    if isinstance(pre, PreSequence):
        pre = pre.steps[0] if pre.steps else None
    if isinstance(pre, ByteLevel):
        return REGEX if pre.regex is not None else None
    if isinstance(pre, RegexSplit):
        ok = pre.behaviour in ("isolated", "removed") and not pre.invert
        return REGEX if ok else None
    if isinstance(pre, Whitespace):
        return WORDS
    if isinstance(pre, BertPreTokenizer):
        return ISOLATES
    if isinstance(pre, CharSplit):
        ok = pre.behaviour in ("isolated", "removed", "merged_with_next")
        return ISOLATES if ok and pre.codes[ord("\u3002")] == "d" else None
    return None


def _splits_at_spaces(pre: PreTokenizer | None) -> bool:
    if isinstance(pre, PreSequence):
        pre = pre.steps[0] if pre.steps else None
    if isinstance(pre, Whitespace | BertPreTokenizer):
        return True
    return isinstance(pre, CharSplit) and pre.codes[ord(" ")] == "d" and pre.behaviour == "removed"


def joins_safe(
    normalizer: Normalizer | None,
    pre_tokenizer: PreTokenizer | None,
    added: list[tuple[str, bool, bool]],
) -> str:
    """The kinds of cut with no space (PUNCT, IDEOGRAPHS) that give the whole text's
    pieces, on top of ``split_safe``. The normalizer must act per code point or be an NFx
    form: Lowercase, StripAccents and BertNormalizer map each code point alone; an NFx
    form of ``left + right`` is the form of each when ``right`` starts with a starter that
    composes with nothing before or after it and is not reordered (``Joins`` checks each
    character through every form step). A Strip step or a Replace of a quantified literal
    may come anywhere: ``Joins`` refuses a cut unless the images of its two characters
    there hold no whitespace at their ends (Strip then acts alike at a block's end and
    inside the whole text: not at all) and no character of the literal (a match, made of
    those characters only, then never holds either, so the whole text's matches are the
    blocks'). No Prepend or Precompiled. Then:

    - PUNCT, before a punctuation character P after a character X: with REGEX, X's image
      ends with a letter and P's starts with neither a letter, a number nor a space, so
      the letter run ends at the cut and the next match starts there; with WORDS, X's
      image ends with a word character and P's with neither a word character nor a space;
      with ISOLATES, P's image starts with punctuation, a piece of its own.
    - IDEOGRAPHS, between two CJK ideographs: BertNormalizer (handle_chinese_chars) puts a
      space on each side of each, and the first pre-tokenizer splits at spaces.

    No added token may hold the character after a cut or its image (``Joins`` refuses
    those), so none is matched across a cut or starts at one. One that ends before a cut
    is matched alike in the whole text and the block (no Prepend; no space for lstrip or
    rstrip to take), and single_word alike before punctuation that is no word character
    (U+00B7 is one, for Rust); before an ideograph (a word character) it is not matched
    in the whole text: refused.

    A cut's candidates come from Python's ``re``; the frozen tables decide."""
    for step in _steps(normalizer):
        if isinstance(step, Replace) and _literal_chars(step.pattern.pattern) is not None:
            continue
        if not isinstance(step, Form | Lowercase | StripAccents | BertNormalizer | Strip):
            return ""
    kinds = PUNCT if _ends_pieces(pre_tokenizer) else ""
    if _splits_at_spaces(pre_tokenizer) and any(
        isinstance(step, BertNormalizer) and step.chinese for step in _steps(normalizer)
    ):
        kinds += IDEOGRAPHS
    return kinds


def _stable_start(char: str, compat: bool, right: bool) -> bool:
    """``char`` (through one NFx form's decomposition) starts with a starter that is not
    reordered nor composed with what stands before it, and (``right``: the character
    after a cut) nor with what follows it."""
    first = forms.decompositions(compat)[ord(char)][:1]
    if not first:
        return True
    code = ord(first)
    if code in forms.combining_classes() or first in forms.seconds():
        return False
    if forms.V_FIRST <= code < forms.T_FIRST + forms.T_COUNT:  # Hangul's second jamo
        return False
    if not right:
        return True
    hangul_first = forms.L_FIRST <= code < forms.V_FIRST
    return not (hangul_first or forms.HANGUL_FIRST <= code <= forms.HANGUL_LAST) and (
        first not in forms.firsts()
    )


def _untouched(step: Strip | Replace, image: str) -> bool:
    """A Strip step takes nothing off either end of ``image``; a Replace's literal holds
    none of its characters (so no match of the whole text holds one)."""
    if isinstance(step, Strip):
        return step.apply(image, None)[0] == image
    chars = _literal_chars(step.pattern.pattern)
    return chars is not None and not set(image) & chars


class Joins:
    """The checks of the cuts with no space, one per character (memoised)."""

    def __init__(
        self,
        normalizer: Normalizer | None,
        pre_tokenizer: PreTokenizer | None,
        kinds: str,
        added: list[tuple[str, bool, bool]],
    ) -> None:
        self.steps = _steps(normalizer)
        self.normalizer = normalizer
        self.ends = _ends_pieces(pre_tokenizer)
        self.kinds = kinds
        # Blocks (``joins_safe``): Strip and Replace steps must leave a cut's characters
        # untouched. ``Chunks`` (no kinds) applies a Replace of spaces per character and
        # checks the joined images itself.
        self.untouched = bool(kinds)
        self.in_tokens = {c for content, _, _ in added for c in content}
        self.single_word_ends = {content[-1] for content, _, single in added if single and content}
        self.token_ends = {content[-1] for content, _, _ in added if content}
        first = pre_tokenizer.steps[0] if isinstance(pre_tokenizer, PreSequence) else pre_tokenizer
        self.prefixed = isinstance(first, ByteLevel) and first.add_prefix_space
        self.letters, self.numbers = LETTERS, RangeSet(ud.ONIG_N)
        self.onig_spaces, self.word = RangeSet(ud.ONIG_S), RangeSet(ud.RUST_WORD)
        self.regex_spaces, self.punctuation = RangeSet(ud.REGEX_SPACE), RangeSet(ud.PUNCTUATION)
        self.before: dict[str, bool] = {}
        self.after: dict[str, bool] = {}
        self.images: dict[tuple[str, bool], str | None] = {}

    def _image(self, char: str, right: bool) -> str | None:
        """``char`` through the normalizer alone, or None when a form step could join it
        with the text before it or (``right``: the character after a cut) after it."""
        for step in self.steps:
            if isinstance(step, Form):
                compat = step.form in ("NFKC", "NFKD")
            elif isinstance(step, BertNormalizer) and step.strip:  # NFD, then marks dropped
                compat = False
            elif self.untouched and isinstance(step, Strip | Replace):
                if not _untouched(step, char):
                    return None
                continue
            else:
                char = step.apply(char, None)[0]
                continue
            if char and not _stable_start(char[0], compat, right):
                return None
            char = step.apply(char, None)[0]
        return char

    def _image_kept(self, char: str, right: bool = False) -> str | None:
        """``char``'s image (memoised)."""
        key = (char, right)
        if key not in self.images:
            self.images[key] = self._image(char, right)
        return self.images[key]

    def _starts_right(self, char: str) -> str | None:
        """The image of the character after a cut, or None when an added token holds it
        or its image (a token that crosses the cut, or starts at it, holds both)."""
        image = None if char in self.in_tokens else self._image_kept(char, True)
        return None if image is None or set(image) & self.in_tokens else image

    def _before(self, char: str) -> bool:
        image = self._image_kept(char)
        if not image:
            return False
        if self.prefixed and {char, image[-1]} & self.token_ends:
            return False  # after a token the text starts a segment: ByteLevel's prefix space
        last = ord(image[-1])
        if self.ends == REGEX:
            return last in self.letters
        if self.ends == WORDS:
            return last in self.word
        return self.ends == ISOLATES

    def _after(self, char: str) -> bool:
        image = self._starts_right(char)
        if not image:
            return False
        first = ord(image[0])
        if ord(char) in self.word or first in self.word:
            return False  # a single_word token before it would not end a word there
        if self.ends == REGEX:
            return not (first in self.letters or first in self.numbers or first in self.onig_spaces)
        if self.ends == WORDS:
            return not (first in self.word or first in self.regex_spaces)
        return first in self.punctuation

    def punct(self, x: str, p: str) -> bool:
        ok = self.before.get(x)
        if ok is None:
            ok = self.before[x] = self._before(x)
        if not ok:
            return False
        ok = self.after.get(p)
        if ok is None:
            ok = self.after[p] = self._after(p)
        return ok

    def ideographs(self, x: str, y: str) -> bool:
        """A space in the image of ``x`` at its end, or of ``y`` at its start."""
        image_x, image_y = self._image_kept(x), self._starts_right(y)
        if not (image_x and image_y) or {x, image_x[-1]} & self.single_word_ends:
            return False  # a single_word token ending the block would not end a word there
        return image_x[-1] == " " or image_y[0] == " "

    def pattern(self) -> str:
        """The candidate cuts with no space (zero-width), as a regex alternative."""
        parts = []
        if PUNCT in self.kinds:
            parts.append(r"(?P<p>(?<=[^\W_])(?=[^\w\s\x00-\x7f]))")
        if IDEOGRAPHS in self.kinds:
            parts.append(f"(?P<c>(?<=[{CJK_CLASS}])(?=[{CJK_CLASS}]))")
        return "|".join(parts)


class Cuts:
    """Cuts a text into blocks of at least ``BLOCK`` code points, each up to the next
    boundary: an ASCII one, or (``letters``) a space between two letters that keep their
    kind through the normalizer (checked once per letter with the frozen tables)."""

    def __init__(
        self,
        normalizer: Normalizer | None,
        letters: bool,
        added: list[tuple[str, bool, bool]],
        joins: Joins | None = None,
    ) -> None:
        from .precompiled import Precompiled

        self.joins = joins
        extra = joins.pattern() if joins is not None else ""
        self.search = (
            re.compile(f"(?P<s>{CANDIDATE.pattern})|{extra}").search if extra else CANDIDATE.search
        )

        self.stops = {content[-1] for content, rstrip, _ in added if rstrip and content}
        # A single_word token that starts with a space: a block after the first is counted
        # as following a word character (``AddedTokens.segments``), so every cut must come
        # after one (a letter or digit whose image ends with one, not ``.,;:!?``).
        self.after_words = any(single and content[:1] in SPACE_LIKE for content, _, single in added)
        self.word = RangeSet(ud.RUST_WORD)
        self.rest = continuation_normalizer(normalizer)
        self.letters = letters
        self.clusters = any(isinstance(s, Precompiled) for s in _steps(normalizer))
        self.before: dict[str, bool] = {
            c: not (self.after_words and not c.isalnum()) for c in BEFORE_CHARS
        }
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
        if not after and self.after_words and ord(out[-1]) not in self.word:
            return False
        return not any(ord(c) in SPACES or c in SPACE_LIKE for c in out)

    def blocks(self, text: str) -> list[str]:
        before, after, joins = self.before, self.after, self.joins
        out: list[str] = []
        start = 0
        search = self.search
        found = search(text, BLOCK)
        while found is not None:
            cut = found.start()
            kind = found.lastgroup
            if kind is None or kind == "s":
                x, y = text[cut - 1], text[cut + 1]
                ok_x = before.get(x)
                if ok_x is None:
                    ok_x = before[x] = self._letter(x, False)
                ok_y = after.get(y)
                if ok_y is None:
                    ok_y = after[y] = self._letter(y, True)
                ok = ok_x and ok_y
            else:
                assert joins is not None
                x, y = text[cut - 1], text[cut]
                ok = joins.punct(x, y) if kind == "p" else joins.ideographs(x, y)
            if ok:
                out.append(text[start:cut])
                start = cut
                found = search(text, cut + BLOCK)
            else:
                found = search(text, cut + 1)
        out.append(text[start:])
        return out


CHUNK_CACHE = 16384
CHUNK = 128  # code points at least per chunk (fewer chunks: less per-keystroke work)


class Chunks:
    """Normalizes a long segment in chunks of at least ``CHUNK`` code points, each cached,
    where the normalizer's image of the whole is the chunks' images joined (a text that is
    one piece, such as CJK for Metaspace, is cut nowhere else; its normalizing was most of a
    keystroke's recount). A cut goes between two characters that ``Joins`` finds stable
    (each NFx form starts the right one with a starter that composes with nothing before
    it and is not reordered; the other accepted steps map code points alone) and, with a
    first Precompiled step (per grapheme cluster), of class Other both (GB999 breaks
    between them). A Replace may touch runs of spaces only, and no image joined at a cut
    may end or start with one of its characters (checked on the images: the whole segment
    is normalized at once otherwise). No Prepend or Strip (they act on the ends)."""

    def __init__(self, normalizer: Normalizer | None) -> None:
        from .precompiled import Precompiled

        self.normalizer = normalizer
        steps = _steps(normalizer)
        self.ok = normalizer is not None
        self.spaces: set[str] = set()
        for index, step in enumerate(steps):
            if isinstance(step, Replace):
                chars = set(CROSS_RULE.sub("", step.pattern.pattern))
                self.ok &= chars <= SPACE_LIKE and set(step.content) <= SPACE_LIKE
                self.spaces |= chars | set(step.content)
            elif isinstance(step, Precompiled):
                self.ok &= index == 0
            elif not isinstance(step, Form | Lowercase | StripAccents | BertNormalizer):
                self.ok = False
        self.clusters = any(isinstance(step, Precompiled) for step in steps)
        self.joins = Joins(normalizer, None, "", [])
        self.left: dict[str, bool] = {}
        self.right: dict[str, bool] = {}
        self.images: dict[str, str] = {}

    def _stable(self, char: str, right: bool) -> bool:
        if self.clusters and properties(char) & 15 != 0:  # not of class Other
            return False
        return bool(self.joins._image_kept(char, right))

    def apply(self, text: str) -> str:
        """The normalizer's image of ``text``, from cached chunks when it is long."""
        assert self.normalizer is not None
        if not self.ok or len(text) < 2 * CHUNK:
            return self.normalizer.apply(text, None)[0]
        left, right, stable = self.left, self.right, self._stable
        parts: list[str] = []
        start, cut, size = 0, CHUNK, len(text)
        while cut < size - CHUNK:
            a, b = text[cut - 1], text[cut]
            ok = left.get(a)
            if ok is None:
                ok = left[a] = stable(a, False)
            if ok:
                ok = right.get(b)
                if ok is None:
                    ok = right[b] = stable(b, True)
            if ok:
                parts.append(text[start:cut])
                start, cut = cut, cut + CHUNK
            else:
                cut += 1
        parts.append(text[start:])
        images = self.images
        out: list[str] = []
        for part in parts:
            image = images.get(part)
            if image is None:
                image = self.normalizer.apply(part, None)[0]
                if len(images) >= CHUNK_CACHE:
                    images.clear()
                images[part] = image
            if not image:
                return self.normalizer.apply(text, None)[0]
            out.append(image)
        spaces = self.spaces
        if spaces and any(x[-1] in spaces or y[0] in spaces for x, y in pairwise(out)):
            return self.normalizer.apply(text, None)[0]
        return "".join(out)

"""The normalizers of a tokenizer.json, each as HF tokenizers applies it.

A normalizer maps ``(text, owners)`` to ``(text, owners)``: ``owners[i]`` is the index of
the source character that character ``i`` comes from, following HF's alignment rules (a
character replacing another takes its alignment, an inserted one the alignment of the
character before it), so token ends computed from them equal HF's offsets. ``owners`` is
``None`` when only counting. Per-character maps run as ``str.translate`` tables.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Sequence
from functools import cache

from . import forms
from . import unicode_data as ud
from .tables import Owners, RangeSet, decode_map, literal_regex, refuse

CJK = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)  # fmt: skip


class CharMap(dict[int, str]):
    """``str.translate`` table from a per-code-point function, filled on first sight."""

    def __init__(self, function: Callable[[int], str]) -> None:
        super().__init__()
        self.function = function

    def __missing__(self, code: int) -> str:
        image = self[code] = self.function(code)
        return image


def map_chars(text: str, owners: Owners, table: CharMap) -> tuple[str, Owners]:
    """Each character replaced by its image (several characters or none) in ``table``."""
    if owners is None:
        return text.translate(table), None
    out: list[str] = []
    new_owners: list[int] = []
    for ch, owner in zip(text, owners, strict=True):
        image = table[ord(ch)]
        out.append(image)
        new_owners.extend([owner] * len(image))
    return "".join(out), new_owners


class Normalizer:
    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        raise NotImplementedError


class Form(Normalizer):
    def __init__(self, form: str) -> None:
        self.form = form

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        return forms.normalize(text, owners, self.form)


@cache
def lowercase_table() -> CharMap:
    lower = decode_map(ud.LOWER)
    return CharMap(lambda code: lower.get(code, chr(code)))


class Lowercase(Normalizer):
    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        if text.isascii():
            return text.lower(), owners
        return map_chars(text, owners, lowercase_table())


@cache
def strip_accents_table() -> CharMap:
    marks = RangeSet(ud.MARKS)
    return CharMap(lambda code: "" if code in marks else chr(code))


class StripAccents(Normalizer):
    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        return map_chars(text, owners, strip_accents_table())


def is_chinese(code: int) -> bool:
    return any(first <= code <= last for first, last in CJK)


@cache
def bert_tables(clean: bool, chinese: bool) -> CharMap:
    removed, spaces = RangeSet(ud.BERT_REMOVED), RangeSet(ud.BERT_SPACE)

    def image(code: int) -> str:
        if clean and code in removed:
            return ""
        if clean and code in spaces:
            return " "
        if chinese and is_chinese(code):
            return f" {chr(code)} "
        return chr(code)

    return CharMap(image)


@cache
def bert_stages(
    clean: bool, chinese: bool, strip: bool, lowercase: bool
) -> tuple[CharMap, CharMap]:
    """BertNormalizer as two per-character tables around NFD's canonical reordering:
    clean text + CJK spacing + decomposition, then Mn stripping + lowercase."""
    first = bert_tables(clean, chinese)
    decompose = forms.decompositions(compat=False)
    nonspacing = RangeSet(ud.NONSPACING)
    lower = lowercase_table()

    def stage_a(code: int) -> str:
        image = first[code]
        return "".join(decompose[ord(ch)] for ch in image) if strip else image

    def stage_b(code: int) -> str:
        if strip and code in nonspacing:
            return ""
        return lower[code] if lowercase else chr(code)

    return CharMap(stage_a), CharMap(stage_b)


class BertNormalizer(Normalizer):
    """Clean text, space around CJK ideographs, NFD + drop Mn, lowercase (each optional)."""

    def __init__(self, clean: bool, chinese: bool, strip: bool, lowercase: bool) -> None:
        self.first = bert_tables(clean, chinese)
        self.stage_a, self.stage_b = bert_stages(clean, chinese, strip, lowercase)
        self.strip, self.lowercase, self.chinese = strip, lowercase, chinese

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        if not self.strip:  # no NFD: one table
            if self.lowercase:
                text, owners = map_chars(text, owners, self.stage_a)
                return map_chars(text, owners, self.stage_b)
            return map_chars(text, owners, self.stage_a)
        if owners is None:
            text = text.translate(self.stage_a)
            text = forms.reorder(text, None)[0]
            return text.translate(self.stage_b), None
        # With owners, NFD's changes travel with reordered marks (see forms.decompose).
        text, owners = map_chars(text, owners, self.first)
        text, owners = forms.normalize(text, owners, "NFD")
        return map_chars(text, owners, self.stage_b)


@cache
def rust_space() -> RangeSet:
    return RangeSet(ud.RUST_SPACE)


class Strip(Normalizer):
    def __init__(self, left: bool, right: bool) -> None:
        self.left, self.right = left, right

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        space = rust_space()
        start, end = 0, len(text)
        if self.left:
            while start < end and ord(text[start]) in space:
                start += 1
        if self.right:
            while end > start and ord(text[end - 1]) in space:
                end -= 1
        if start == 0 and end == len(text):
            return text, owners
        return text[start:end], (owners[start:end] if owners is not None else None)


class Prepend(Normalizer):
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        if not text:
            return text, owners
        if owners is None:
            return self.prefix + text, None
        return self.prefix + text, [owners[0]] * len(self.prefix) + owners


def replace(
    text: str, owners: Owners, pattern: re.Pattern[str], content: str
) -> tuple[str, Owners]:
    """Every match replaced by ``content``; its characters take the alignment of the
    match's last character (HF's rule for inserted characters)."""
    if owners is None:
        return pattern.sub(lambda _: content, text), None
    out: list[str] = []
    new_owners: list[int] = []
    last = 0
    for match in pattern.finditer(text):
        start, end = match.span()
        out.append(text[last:start])
        new_owners.extend(owners[last:start])
        out.append(content)
        new_owners.extend([owners[end - 1]] * len(content))
        last = end
    out.append(text[last:])
    new_owners.extend(owners[last:])
    return "".join(out), new_owners


class Replace(Normalizer):
    def __init__(self, pattern: re.Pattern[str], content: str) -> None:
        self.pattern, self.content = pattern, content

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        return replace(text, owners, self.pattern, self.content)


class Sequence_(Normalizer):
    def __init__(self, steps: Sequence[Normalizer]) -> None:
        self.steps = list(steps)

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        for step in self.steps:
            text, owners = step.apply(text, owners)
        return text, owners


# ---------------------------------------------------------------- the reader


def pattern_of(spec: object, component: str) -> re.Pattern[str]:
    """A Replace pattern: a literal ``String``, or a ``Regex`` only if it is a literal with
    quantifiers (read alike by Oniguruma and ``re``); anything else is refused."""
    if isinstance(spec, dict) and isinstance(spec.get("String"), str) and spec["String"]:
        return re.compile(re.escape(spec["String"]))
    if isinstance(spec, dict) and isinstance(spec.get("Regex"), str):
        compiled = literal_regex(spec["Regex"])
        if compiled is not None:
            return compiled
        refuse(
            f"its {component} pattern {spec['Regex']!r} is not one this reader reproduces exactly"
        )
    refuse(f"its {component} has no readable pattern")


def read_normalizer(spec: object) -> Normalizer | None:
    """The normalizer described by a tokenizer.json's ``normalizer`` value."""
    if spec is None:
        return None
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        refuse("its normalizer is not an object with a type")
    kind = spec["type"]
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return Form(kind)
    if kind == "Lowercase":
        return Lowercase()
    if kind == "StripAccents":
        return StripAccents()
    if kind == "BertNormalizer":
        lowercase = bool(spec.get("lowercase", True))
        strip = spec.get("strip_accents")
        return BertNormalizer(
            clean=bool(spec.get("clean_text", True)),
            chinese=bool(spec.get("handle_chinese_chars", True)),
            strip=lowercase if strip is None else bool(strip),
            lowercase=lowercase,
        )
    if kind == "Strip":
        return Strip(bool(spec.get("strip_left", True)), bool(spec.get("strip_right", True)))
    if kind == "Prepend":
        prefix = spec.get("prepend")
        if not isinstance(prefix, str):
            refuse("its Prepend normalizer has no prepend string")
        return Prepend(prefix)
    if kind == "Replace":
        content = spec.get("content")
        if not isinstance(content, str):
            refuse("its Replace normalizer has no content string")
        return Replace(pattern_of(spec.get("pattern"), "Replace normalizer's"), content)
    if kind == "Precompiled":
        from .precompiled import Precompiled

        charsmap = spec.get("precompiled_charsmap")
        if not isinstance(charsmap, str):
            refuse("its Precompiled normalizer has no precompiled_charsmap")
        try:
            data = base64.b64decode(charsmap, validate=True)
        except ValueError:
            refuse("its Precompiled normalizer's precompiled_charsmap is not base64")
        return Precompiled(data)
    if kind == "Sequence":
        steps = spec.get("normalizers")
        if not isinstance(steps, list):
            refuse("its Sequence normalizer has no list of normalizers")
        return Sequence_([n for n in map(read_normalizer, steps) if n is not None])
    refuse(f"its normalizer {kind!r} is not one this reader reproduces exactly")

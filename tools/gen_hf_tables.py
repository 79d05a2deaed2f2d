#!/usr/bin/env python3
"""Write the Unicode tables of the tokenizer.json reader, frozen, probed from HF `tokenizers`.

Output: chunker_py/tokenizers/hf/unicode_data.py. Dev-only (run once, commit the output);
needs `tokenizers` (the version the tables are probed from is written into the output) and
`regex` (for canonical combining classes, which never change once assigned):

    python tools/gen_hf_tables.py

Why probed and not `unicodedata`: HF tokenizers' components each carry their own Unicode
data of their own age — NFC/NFD from an old `unicode-normalization` fork, Oniguruma's
`\\p{L}` for Split patterns, Rust's `char` methods for Lowercase and Digits, the
`unicode_categories` crate for BertNormalizer's marks — which no `unicodedata` of one
version reproduces, and `unicodedata` differs between CPython and Pyodide anyway. So every
table here is what `tokenizers` itself does to each code point, and the generator checks
its own tables against `tokenizers` on every code point before writing them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

import regex
import tokenizers
from code_points import ALL, EVERY_CHARACTER, HANGUL_FIRST, HANGUL_LAST, ROOT, ranges
from tokenizers import Regex, normalizers, pre_tokenizers

sys.path.insert(0, str(ROOT))
TARGET = ROOT / "chunker_py" / "tokenizers" / "hf" / "unicode_data.py"


def flat(codes: Iterable[int]) -> str:
    """A tuple literal of first, last, first, last, ... in hex, 8 runs a line."""
    items = [f"0x{a:X}, 0x{b:X}," for a, b in ranges(codes)]
    lines = [" ".join(items[i : i + 8]) for i in range(0, len(items), 8)]
    return "(\n" + "".join(f"    {line}\n" for line in lines) + ")"


def blob(table: dict[int, str]) -> str:
    """``key:v.v.v`` entries in hex, keys as deltas from the previous key, 12 a line."""
    items, previous = [], 0
    for cp, image in sorted(table.items()):
        items.append(f"{cp - previous:x}:" + ".".join(f"{ord(ch):x}" for ch in image))
        previous = cp
    lines = [" ".join(items[i : i + 12]) for i in range(0, len(items), 12)]
    return "(\n" + "".join(f'    "{line} "\n' for line in lines) + ")"


def probe(function: Callable[[str], str]) -> dict[int, str]:
    """Every code point whose image under ``function`` is not itself."""
    return {cp: image for cp in ALL if (image := function(chr(cp))) != chr(cp)}


def matched(pattern: str) -> set[int]:
    """The code points a one-character Oniguruma pattern matches inside a Split."""
    split = pre_tokenizers.Split(Regex(pattern), "removed")
    kept = set()
    for _, (start, end) in split.pre_tokenize_str(EVERY_CHARACTER):
        kept.update(range(start, end))
    return {ALL[i] for i in range(len(ALL)) if i not in kept}


def hangul_nfd(cp: int) -> str:
    index = cp - HANGUL_FIRST
    lead, vowel, trail = 0x1100 + index // 588, 0x1161 + (index % 588) // 28, index % 28
    return chr(lead) + chr(vowel) + (chr(0x11A7 + trail) if trail else "")


# ---------------------------------------------------------------- normalization forms


def decompositions() -> tuple[dict[int, str], dict[int, str]]:
    """(NFD map, NFKD map where it differs from NFD), Hangul syllables left out."""
    nfd = probe(normalizers.NFD().normalize_str)
    nfkd = probe(normalizers.NFKD().normalize_str)
    for cp in range(HANGUL_FIRST, HANGUL_LAST + 1):
        assert nfd.pop(cp) == hangul_nfd(cp) == nfkd.pop(cp), hex(cp)
    compat = {cp: image for cp, image in nfkd.items() if nfd.get(cp, chr(cp)) != image}
    return nfd, compat


def combining_classes() -> dict[int, int]:
    """Non-zero canonical combining classes that HF's own NFD reorders by."""
    nonzero = sorted(set(ALL) & {cp for cp in ALL if regex.match(r"\P{ccc=0}", chr(cp))})
    value_of = {}
    for value in range(1, 255):
        try:
            pattern = regex.compile(rf"\p{{ccc={value}}}")
        except regex.error:
            continue
        value_of.update((cp, value) for cp in nonzero if pattern.match(chr(cp)))
    nfd = normalizers.NFD().normalize_str

    def reorders(cp: int) -> bool:
        mark = chr(cp)
        return nfd("a" + mark + "\u0334") != "a" + mark + "\u0334" or (
            nfd("a\u0301" + mark) != "a\u0301" + mark
        )

    # HF's normalisation tables are older: marks it does not know are starters there.
    return {cp: value for cp, value in value_of.items() if reorders(cp)}


def composition_pairs(nfd: dict[int, str]) -> dict[tuple[str, str], int]:
    """(first, second) -> primary composite, for every decomposable character NFC keeps."""
    nfc = normalizers.NFC().normalize_str
    pairs = {}
    for cp, full in nfd.items():
        if nfc(chr(cp)) != chr(cp):
            continue  # excluded, a singleton or a non-starter decomposition
        for k in range(len(full) - 1, 0, -1):
            first = nfc(full[:k] + full[k + 1 :])
            if len(first) == 1 and nfc(first + full[k]) == chr(cp):
                pairs[first, full[k]] = cp
                break
        else:
            raise AssertionError(f"no pair for {cp:04X}")
    return pairs


# ---------------------------------------------------------------- per-code-point probes


def pieces(split: pre_tokenizers.PreTokenizer, text: str) -> list[str]:
    return [piece for piece, _ in split.pre_tokenize_str(text)]


def classify(split: pre_tokenizers.PreTokenizer) -> tuple[set[int], set[int]]:
    """(dropped, isolated) code points of a pre-tokenizer, seen between two letters."""
    dropped, isolated = set(), set()
    for cp in ALL:
        result = pieces(split, "a" + chr(cp) + "a")
        if result == ["a", "a"]:
            dropped.add(cp)
        elif result == ["a", chr(cp), "a"]:
            isolated.add(cp)
    return dropped, isolated


def contraction_letters() -> dict[str, set[int]]:
    """Per ASCII letter of the contractions, what ``(?i:...)`` matches in Oniguruma."""
    # "removed" drops a whole match: an empty result means the probe matched entirely.
    contexts = [
        ("s", "s", "'{}"),
        ("t", "t", "'{}"),
        ("m", "m", "'{}"),
        ("d", "d", "'{}"),
        ("r", "re", "'{}e"),
        ("e", "re", "'r{}"),
        ("v", "ve", "'{}e"),
        ("l", "ll", "'{}l"),
    ]
    letters: dict[str, set[int]] = {}
    for letter, word, context in contexts:
        split = pre_tokenizers.Split(Regex(f"(?i:'{word})"), "removed")
        letters[letter] = {cp for cp in ALL if not pieces(split, context.format(chr(cp)))}
    # the second l of 'll and the e of 've match the same folds as the first l and 're's e
    for letter, word, context in [("l", "ll", "'l{}"), ("e", "ve", "'v{}")]:
        split = pre_tokenizers.Split(Regex(f"(?i:'{word})"), "removed")
        assert letters[letter] == {cp for cp in ALL if not pieces(split, context.format(chr(cp)))}
    # and the whole alternation of Llama 3 matches nothing else on one character
    split = pre_tokenizers.Split(Regex("(?i:'s|'t|'re|'ve|'m|'ll|'d)"), "removed")
    singles = {cp for cp in ALL if not pieces(split, "'" + chr(cp))}
    assert singles == letters["s"] | letters["t"] | letters["m"] | letters["d"], singles
    for letter, found in letters.items():
        assert {ord(letter), ord(letter.upper())} <= found, letter
    return letters


def folds(letter: str, found: set[int]) -> str:
    """A tuple literal of what matches ``letter`` besides its ASCII lower and upper case."""
    extra = sorted(found - {ord(letter), ord(letter.upper())})
    return "(" + "".join(f"0x{cp:X}, " for cp in extra).rstrip(" ") + ")"


def frozen_tables() -> dict[tuple[int, ...], str]:
    """Range tables already frozen in chunker_py/tokenizers/ (reused rather than copied)."""
    from chunker_py.tokenizers import bert_tables, unicode_classes

    found: dict[tuple[int, ...], str] = {}
    for module in (bert_tables, unicode_classes):
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, tuple):
                found.setdefault(value, f"{module.__name__.rsplit('.', 1)[1]}.{name}")
    return found


def main() -> int:
    frozen = frozen_tables()
    nfd, nfkd = decompositions()
    ccc = combining_classes()
    pairs = composition_pairs(nfd)
    nfc_changes = probe(normalizers.NFC().normalize_str)
    nfkc_changes = probe(normalizers.NFKC().normalize_str)
    lower = probe(normalizers.Lowercase().normalize_str)
    marks = {
        cp for cp, image in probe(normalizers.StripAccents().normalize_str).items() if image == ""
    }
    bert_strip = normalizers.BertNormalizer(
        clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False
    ).normalize_str
    nonspacing = {
        cp
        for cp in ALL
        if cp not in nfd and not HANGUL_FIRST <= cp <= HANGUL_LAST and bert_strip(chr(cp)) == ""
    }
    clean = probe(
        normalizers.BertNormalizer(
            clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False
        ).normalize_str
    )
    assert set(clean.values()) <= {"", " "}, set(clean.values()) - {"", " "}
    onig_l, onig_n, onig_s = matched(r"\p{L}"), matched(r"\p{N}"), matched(r"\s")
    rust_space, _ = classify(pre_tokenizers.WhitespaceSplit())
    w_space, w_other = classify(pre_tokenizers.Whitespace())
    rust_word = set(ALL) - w_space - w_other
    _, numeric = classify(pre_tokenizers.Digits(individual_digits=True))
    _, punctuation = classify(pre_tokenizers.Punctuation())
    letters = contraction_letters()
    version = tokenizers.__version__

    def table(codes: Iterable[int]) -> str:
        """The ranges, or the name of the same table already frozen elsewhere."""
        codes = sorted(codes)
        value = tuple(bound for run in ranges(codes) for bound in run)
        return frozen.get(value) or flat(codes)

    out = [
        f'"""Unicode behaviour of HF tokenizers {version}, probed per code point, frozen.',
        "",
        "GENERATED by tools/gen_hf_tables.py; do not edit. Ranges are flat tuples (first, last,",
        "...; inclusive); maps are ``key:v.v`` hex entries with keys as deltas from the previous.",
        '"""',
        "",
        "# fmt: off",
        "# ruff: noqa: E501",
        "",
        "from .. import bert_tables, unicode_classes  # tables equal to theirs are reused",
        "",
        f'TOKENIZERS_VERSION = "{version}"',
        "# NFD (canonical) full decompositions; Hangul syllables decompose algorithmically.",
        f"NFD = {blob(nfd)}",
        "# NFKD full decompositions where they differ from NFD.",
        f"NFKD = {blob(nfkd)}",
        "# Canonical combining classes HF's NFD knows (others are starters there).",
        f"CCC = {blob({cp: chr(v) for cp, v in ccc.items()})}",
        "# Primary composites: first.second -> composite (key deltas over composites).",
        f"PAIRS = {blob({c: a + b for (a, b), c in pairs.items()})}",
        "# Code points that NFC / NFKC change on their own.",
        f"NFC_CHANGES = {table(nfc_changes)}",
        f"NFKC_CHANGES = {table(nfkc_changes)}",
        "# Lowercase (Rust char::to_lowercase).",
        f"LOWER = {blob(lower)}",
        "# StripAccents: combining marks (all of M).",
        f"MARKS = {table(marks)}",
        "# BertNormalizer's strip_accents: Mn (unicode_categories), over NFD-stable characters.",
        f"NONSPACING = {table(nonspacing)}",
        "# BertNormalizer's clean_text: removed, and turned into a space.",
        f"BERT_REMOVED = {table(cp for cp, image in clean.items() if not image)}",
        f"BERT_SPACE = {table(cp for cp, image in clean.items() if image == ' ')}",
        "# Oniguruma classes of Split patterns and ByteLevel's regex.",
        f"ONIG_L = {table(onig_l)}",
        f"ONIG_N = {table(onig_n)}",
        f"ONIG_S = {table(onig_s)}",
        "# What (?i:'s|'t|'re|'ve|'m|'ll|'d) matches for each letter, besides the ASCII pair.",
        "FOLDS = {",
        *(f'    "{letter}": {folds(letter, found)},' for letter, found in letters.items()),
        "}",
        "# Rust char::is_whitespace (WhitespaceSplit, Strip); Rust regex \\w (Whitespace).",
        f"RUST_SPACE = {table(rust_space)}",
        f"RUST_WORD = {table(rust_word)}",
        "# Whitespace pre-tokenizer: Rust regex \\s.",
        f"REGEX_SPACE = {table(w_space)}",
        "# Rust char::is_numeric (Digits); is_ascii_punctuation || is_punctuation (Punctuation).",
        f"NUMERIC = {table(numeric)}",
        f"PUNCTUATION = {table(punctuation)}",
        "",
    ]
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text("\n".join(out), "utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({TARGET.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

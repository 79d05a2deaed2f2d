#!/usr/bin/env python3
"""Write the Unicode tables the tokenizers need, frozen, into chunker_py/tokenizers/.

unicode_classes.py   the classes of tiktoken's split patterns (also used for `words`)
bert_tables.py       BERT uncased normaliser and pre-tokenizer behaviour (for `wordpiece`)

Dev-only (run once, commit the output). Needs `regex`, `tokenizers` and `unicodedata2`
16.0.0 (Unicode 16, the version of the Rust regex tables inside tiktoken 0.14), e.g.:

    pip install --target /tmp/ud16 unicodedata2==16.0.0
    PYTHONPATH=/tmp/ud16 python tools/gen_token_tables.py

Why frozen tables and not `unicodedata` at run time: `unicodedata` follows the Unicode
version of whichever Python runs (14.0 in CPython 3.11, 16.0 in Pyodide 314), so counts
would differ between the CLI and the page on newer characters. The references are frozen
too, each at its own version, so the tables are taken from them:

* cl100k_base / o200k_base: the `\\p{..}` classes of tiktoken's split patterns (Rust
  `regex` tables, Unicode 16.0): general categories from `unicodedata2` 16.0.0, White_Space
  (a stable property) from `regex`. `regex` itself is newer (Unicode 17): characters new
  in 17 counted differently from tiktoken. tools/check_token_tables.py compares the
  result with CPython `tiktoken` around every code point.
* wordpiece: probed from HF `tokenizers` itself, one code point at a time: its
  BertNormalizer (clean text, CJK spacing, NFD, strip Mn, lowercase) and BertPreTokenizer
  (whitespace, punctuation). Its categories are older than Unicode's current ones (it keeps
  some marks that are Mn today), which no `unicodedata` reproduces.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import regex
import tokenizers
import unicodedata2
from code_points import ALL, EVERY_CHARACTER, HANGUL_FIRST, HANGUL_LAST, ROOT, ranges
from tokenizers import normalizers, pre_tokenizers

PACKAGE = ROOT / "chunker_py" / "tokenizers"


def members(pattern: str) -> list[int]:
    """The code points matched by a one-character `regex` pattern."""
    return [ALL[m.start()] for m in regex.finditer(pattern, EVERY_CHARACTER)]


def flat(runs: list[tuple[int, int]]) -> str:
    """A tuple literal of first, last, first, last, ... in hex, 8 runs a line."""
    items = [f"0x{a:X}, 0x{b:X}," for a, b in runs]
    lines = [" ".join(items[i : i + 8]) for i in range(0, len(items), 8)]
    return "(\n" + "".join(f"    {line}\n" for line in lines) + ")"


def mapping(table: dict[int, str]) -> str:
    items = [f"0x{cp:X}: {text!a}," for cp, text in sorted(table.items())]
    lines = [" ".join(items[i : i + 6]) for i in range(0, len(items), 6)]
    return "{\n" + "".join(f"    {line}\n" for line in lines) + "}"


# ---------------------------------------------------------------- tiktoken classes


TIKTOKEN_UNICODE = "16.0.0"


def tiktoken_classes() -> dict[str, list[tuple[int, int]]]:
    assert unicodedata2.unidata_version == TIKTOKEN_UNICODE, unicodedata2.unidata_version
    category = [unicodedata2.category(chr(cp)) for cp in ALL]
    classes = {
        name: ranges(cp for cp, cat in zip(ALL, category, strict=True) if cat.startswith(name))
        for name in ["Lu", "Ll", "Lt", "Lm", "Lo", "M", "N"]
    }
    classes["White_Space"] = ranges(members(r"\p{White_Space}"))
    return classes


# ---------------------------------------------------------------- BERT (HF tokenizers)


def probe(function: Callable[[str], str]) -> dict[int, str]:
    """Every code point whose image under `function` is not itself."""
    changed = {}
    for cp in ALL:
        image = function(chr(cp))
        if image != chr(cp):
            changed[cp] = image
    return changed


def hangul_nfd(cp: int) -> str:
    """The algorithmic decomposition of a precomposed Hangul syllable (Unicode ch. 3.12)."""
    index = cp - HANGUL_FIRST
    lead, vowel, trail = 0x1100 + index // 588, 0x1161 + (index % 588) // 28, index % 28
    return chr(lead) + chr(vowel) + (chr(0x11A7 + trail) if trail else "")


def bert_stage_a() -> tuple[dict[int, str], list[int], list[int], list[int]]:
    """Clean text + CJK spacing + NFD, per code point: (map, removed, to_space, cjk)."""
    stage = normalizers.Sequence(
        [
            normalizers.BertNormalizer(
                clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=False
            ),
            normalizers.NFD(),
        ]
    )
    table = probe(stage.normalize_str)
    removed = [cp for cp, image in table.items() if image == ""]
    to_space = [cp for cp, image in table.items() if image == " "]
    cjk = [cp for cp, image in table.items() if image == f" {chr(cp)} "]
    for cp in range(HANGUL_FIRST, HANGUL_LAST + 1):
        assert table.pop(cp) == hangul_nfd(cp), hex(cp)
    for cp in (*removed, *to_space, *cjk):
        del table[cp]
    return table, removed, to_space, cjk


def bert_stage_b(produced: set[int]) -> tuple[dict[int, str], list[int]]:
    """Strip Mn + lowercase, per code point that stage A can produce: (map, removed)."""
    stage = normalizers.BertNormalizer(
        clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=True
    )
    table = {cp: image for cp, image in probe(stage.normalize_str).items() if cp in produced}
    removed = [cp for cp, image in table.items() if image == ""]
    for cp in removed:
        del table[cp]
    return table, removed


def combining_classes(produced: set[int]) -> dict[int, int]:
    """Non-zero canonical combining classes of the characters stage A can produce.

    Values from `regex` (classes never change once assigned), kept for the marks that HF's
    own NFD reorders around references of class 1 and 230.
    """
    nonzero = set(members(r"\P{ccc=0}")) & produced
    value_of = {}
    for value in range(1, 255):
        try:
            pattern = regex.compile(rf"\p{{ccc={value}}}")
        except regex.error:  # no character has this class
            continue
        value_of.update((cp, value) for cp in nonzero if pattern.match(chr(cp)))
    assert set(value_of) == set(nonzero)
    nfd = normalizers.NFD().normalize_str

    def reorders(cp: int) -> bool:
        mark = chr(cp)
        return nfd("a" + mark + "\u0334") != "a" + mark + "\u0334" or (
            nfd("a\u0301" + mark) != "a\u0301" + mark
        )

    # HF's normalisation tables are older: marks it does not know are starters there.
    unknown = sorted(cp for cp in value_of if not reorders(cp))
    print("combining marks HF NFD treats as class 0:", [f"{cp:04X}" for cp in unknown])
    for cp in unknown:
        del value_of[cp]
    return value_of


def bert_pre_tokenizer() -> tuple[list[int], list[int]]:
    """(whitespace, punctuation) of BertPreTokenizer, probed per code point."""
    split = pre_tokenizers.BertPreTokenizer().pre_tokenize_str
    whitespace, punctuation = [], []
    for cp in ALL:
        pieces = [piece for piece, _ in split("a" + chr(cp) + "a")]
        if pieces == ["a", "a"]:
            whitespace.append(cp)
        elif pieces == ["a", chr(cp), "a"]:
            punctuation.append(cp)
        else:
            assert pieces == ["a" + chr(cp) + "a"], (hex(cp), pieces)
    return whitespace, punctuation


# ---------------------------------------------------------------- output


def header(source: str) -> list[str]:
    return [
        f'"""{source}, frozen. GENERATED by tools/gen_token_tables.py; do not edit.',
        "",
        "Ranges are flat tuples: first, last, first, last, ... (inclusive).",
        '"""',
        "",
        "# fmt: off",
        "# ruff: noqa: E501",
        "",
    ]


def render_classes() -> str:
    out = header(
        f"Unicode {TIKTOKEN_UNICODE} classes of tiktoken's split patterns, from unicodedata2 "
        f"{unicodedata2.unidata_version} (White_Space from regex {regex.__version__})"
    )
    for name, runs in tiktoken_classes().items():
        out.append(f"{name.upper()} = {flat(runs)}")
    return "\n".join([*out, ""])


def render_bert() -> str:
    stage_a, removed, to_space, cjk = bert_stage_a()
    gone = set(removed) | set(cjk)
    kept = [cp for cp in ALL if cp not in gone]
    hangul = range(HANGUL_FIRST, HANGUL_LAST + 1)
    produced = {
        ord(ch)
        for cp in kept
        for ch in (hangul_nfd(cp) if cp in hangul else stage_a.get(cp, chr(cp)))
    }
    stage_b, stripped = bert_stage_b(produced)
    ccc = combining_classes(produced)
    whitespace, punctuation = bert_pre_tokenizer()
    out = header(f"BERT uncased behaviour probed from HF tokenizers {tokenizers.__version__}")
    out += [
        "# Stage A = clean text, CJK spacing, NFD (per code point; NFD then reorders marks);",
        "# stage B = strip Mn, lowercase. Hangul syllables decompose algorithmically.",
        f"REMOVED = {flat(ranges(removed))}",
        f"TO_SPACE = {flat(ranges(to_space))}",
        f"CJK = {flat(ranges(cjk))}",
        f"STAGE_A = {mapping(stage_a)}",
        f"STRIPPED = {flat(ranges(stripped))}",
        f"STAGE_B = {mapping(stage_b)}",
        "# Non-zero canonical combining classes of what stage A produces.",
        "CCC = {" + ", ".join(f"0x{cp:X}: {v}" for cp, v in sorted(ccc.items())) + "}",
        "# BertPreTokenizer: splits on whitespace (dropped) and isolates punctuation.",
        f"WHITESPACE = {flat(ranges(whitespace))}",
        f"PUNCTUATION = {flat(ranges(punctuation))}",
    ]
    return "\n".join([*out, ""])


def main() -> int:
    outputs = {"unicode_classes.py": render_classes, "bert_tables.py": render_bert}
    for name, render in outputs.items():
        if sys.argv[1:] and name not in sys.argv[1:]:
            continue
        target = PACKAGE / name
        target.write_text(render(), "utf-8")
        print(f"wrote {target.relative_to(ROOT)} ({target.stat().st_size} bytes)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

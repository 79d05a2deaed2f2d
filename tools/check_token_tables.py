#!/usr/bin/env python3
"""Compare the pure-Python tokenizers with the references around every code point.

Dev-only and slow (minutes per tokenizer; the tests check a sample of the same):

    python tools/check_token_tables.py [cl100k_base o200k_base wordpiece]

Each code point is put in several contexts (after a letter, a digit, an apostrophe, a
space, a newline, before a combining mark ...); 400 code points' contexts are counted
together, and a batch that differs is searched context by context.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from chunker_py.tokenizers import get_tokenizer  # noqa: E402
from tests.core.token_references import reference_count  # noqa: E402

CONTEXTS = ["a{0}b", " {0}{0}", "1{0}'s", "\n{0} x", "A{0}a", "{0}\u0301z", "'{0}", " {0}\n"]
CODE_POINTS = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
BATCH = 400


def mismatches(name: str) -> list[tuple[str, str]]:
    mine = get_tokenizer(name)
    found = []
    for i in range(0, len(CODE_POINTS), BATCH):
        batch = CODE_POINTS[i : i + BATCH]
        cases = [(cp, context.format(chr(cp))) for cp in batch for context in CONTEXTS]
        joined = "\u3002".join(text for _, text in cases)  # ideographic full stop
        if mine.count(joined) == reference_count(name, joined):
            continue
        found += [
            (f"{cp:04X}", text)
            for cp, text in cases
            if mine.count(text) != reference_count(name, text)
        ]
    return found


def main(names: list[str]) -> int:
    failed = 0
    for name in names or ["cl100k_base", "o200k_base", "wordpiece"]:
        started = time.perf_counter()
        found = mismatches(name)
        seconds = time.perf_counter() - started
        total = len(CODE_POINTS) * len(CONTEXTS)
        print(f"{name}: {len(found)} of {total} contexts differ ({seconds:.0f} s)", flush=True)
        for code, text in found[:40]:
            print(f"  {code} {text!r}")
        failed += bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

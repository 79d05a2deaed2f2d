"""The tokenizer.json reader on the golden corpus, in CPython and inside Pyodide.

The real all-MiniLM-L6-v2 tokenizer.json (extracted by the build) must count and end
tokens as tests/data/token_golden.json's `wordpiece` references say, which
test_tokenizer_references.py ties to HF tokenizers itself: so the reader gives HF's
figures in Pyodide too, where no reference runs (test_hf_tokenizer.py is CPython-only).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chunker_py.tokenizers.hf import load_tokenizer_json

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = json.loads((ROOT / "tests" / "data" / "token_golden.json").read_text("utf-8"))
TOKENIZER_JSON = ROOT / ".cache" / "token-reference" / "wordpiece_tokenizer.json"


def test_the_real_bert_file_counts_and_ends_as_the_golden_references() -> None:
    assert TOKENIZER_JSON.is_file(), "run `python build.py` to extract the reference"
    tokenizer = load_tokenizer_json(TOKENIZER_JSON.read_bytes(), "all-MiniLM-L6-v2")
    texts = GOLDEN["texts"]
    counts, ends = GOLDEN["counts"]["wordpiece"], GOLDEN["ends"]["wordpiece"]
    wrong = [
        text[:40]
        for text, count, end in zip(texts, counts, ends, strict=True)
        if tokenizer.count(text) != count or tokenizer.token_ends(text) != end
    ]
    assert not wrong, f"{len(wrong)} of {len(texts)} differ: {wrong[:5]}"


HF = json.loads((ROOT / "tests" / "data" / "hf_golden.json").read_text("utf-8"))


@pytest.mark.parametrize("family", HF)
def test_small_trained_files_count_and_end_as_their_golden_references(family: str) -> None:
    """tests/data/hf_golden.json (from tests/core/hf_golden.py; test_hf_tokenizer.py ties
    it to `tokenizers`): each small trained file on the golden corpus."""
    entry = HF[family]
    tokenizer = load_tokenizer_json(json.dumps(entry["tokenizer.json"]), family)
    wrong = [
        text[:40]
        for text, count, end in zip(GOLDEN["texts"], entry["counts"], entry["ends"], strict=True)
        if tokenizer.count(text) != count or tokenizer.token_ends(text) != end
    ]
    assert not wrong, f"{len(wrong)} of {len(GOLDEN['texts'])} differ: {wrong[:5]}"

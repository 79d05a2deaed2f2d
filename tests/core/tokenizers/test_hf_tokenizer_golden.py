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


@pytest.mark.parametrize("family", HF)
def test_long_texts_count_in_blocks_as_whole(family: str) -> None:
    """A long text counted in blocks (hf/blocks.py), fresh and after one-character edits,
    equals the same text counted whole, which the tests above tie to HF here too."""
    entry = HF[family]
    tokenizer = load_tokenizer_json(json.dumps(entry["tokenizer.json"]), family)
    document = " and ".join(GOLDEN["texts"])
    tokenizer.count(document)
    wrong = []
    for k in range(40):
        position = k * 7919 % len(document)
        edited = document[:position] + "x."[k % 2] + document[position + 1 :]
        for text in (document, edited, edited[position // 2 :]):
            if tokenizer.count(text) != tokenizer._count_whole(text):
                wrong.append((k, len(text)))
    assert tokenizer.in_blocks  # every golden family's pipeline is one blocks.py accepts
    assert not wrong, f"{len(wrong)} differ: {wrong[:5]}"


CJK = (
    "今日は天気がいいので、公園に行きました。友達に会って、一緒に昼ご飯を食べました！"  # noqa: RUF001
    "我们今天去公园散步，然后在湖边吃了午饭。天气很好，大家都很开心？"  # noqa: RUF001
    "東京の地下鉄は便利ですが、朝はとても混んでいます。「はい」と言った。"
)


@pytest.mark.parametrize("family", HF)
def test_texts_without_spaces_count_in_blocks_as_whole(family: str) -> None:
    """A Japanese and Chinese text with no space, cut before its punctuation or between
    ideographs where the family's pipeline allows it (hf/blocks.py's ``joins_safe``),
    fresh and after edits, equals the same text counted whole: in Pyodide too."""
    tokenizer = load_tokenizer_json(json.dumps(HF[family]["tokenizer.json"]), family)
    document = CJK * 12
    wrong = []
    for k in range(30):
        position = k * 7919 % len(document)
        edited = document[:position] + "。x中、\u3099"[k % 5] + document[position + 1 :]
        for text in (document, edited):
            if tokenizer.count(text) != tokenizer._count_whole(text):
                wrong.append((k, len(text)))
    assert not wrong, f"{len(wrong)} differ: {wrong[:5]}"

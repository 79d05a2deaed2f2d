"""Small trained tokenizer.json files and HF tokenizers' results on the golden corpus.

``python -m tests.core.hf_golden`` (CPython, needs `tokenizers`) trains one small
tokenizer per family, runs `tokenizers` on tests/data/token_golden.json's texts and writes
tests/data/hf_golden.json: each file's JSON with the counts and token ends. The Pyodide
run compares the reader with it (test_hf_tokenizer_golden.py); test_hf_tokenizer.py checks
that `tokenizers` still gives what the file says.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HF_GOLDEN = ROOT / "tests" / "data" / "hf_golden.json"
TEXTS = json.loads((ROOT / "tests" / "data" / "token_golden.json").read_text("utf-8"))["texts"]


def reference_results(tokenizer_json: str) -> tuple[list[int], list[list[int]]]:
    import tokenizers

    reference = tokenizers.Tokenizer.from_str(tokenizer_json)
    reference.no_padding()
    reference.no_truncation()
    counts, ends = [], []
    for text in TEXTS:
        encoding = reference.encode(text, add_special_tokens=False)
        counts.append(len(encoding.ids))
        top, merged = 0, []
        for _, end in encoding.offsets:  # made increasing, as token_ends(merged=True)
            if end > top:
                merged.append(end)
                top = end
        ends.append(merged)
    return counts, ends


def small_tokenizers() -> dict[str, str]:
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, trainers

    from .test_hf_tokenizer import LLAMA3, QWEN2, with_byte_tokens
    from .token_corpus import CORPUS

    guide = (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8").splitlines()
    text = guide + list(CORPUS.values())
    made: dict[str, str] = {}

    def byte_level(name: str, split: object, normalizer: object = None) -> None:
        tokenizer = Tokenizer(models.BPE())
        tokenizer.normalizer = normalizer
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
            [split, pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
        )
        trainer = trainers.BpeTrainer(
            vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            special_tokens=["<|endoftext|>"], show_progress=False,
        )  # fmt: skip
        tokenizer.train_from_iterator(text, trainer=trainer)
        made[name] = tokenizer.to_str()

    byte_level("byte-level BPE (Llama 3)", pre_tokenizers.Split(Regex(LLAMA3), "isolated"))
    byte_level(
        "byte-level BPE (Qwen 2, NFC)",
        pre_tokenizers.Split(Regex(QWEN2), "isolated"),
        normalizers.NFC(),
    )
    for lowercase in (True, False):
        tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tokenizer.normalizer = normalizers.BertNormalizer(lowercase=lowercase)
        tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        trainer = trainers.WordPieceTrainer(
            vocab_size=400, special_tokens=["[UNK]", "[SEP]"], show_progress=False
        )
        tokenizer.train_from_iterator(text, trainer=trainer)
        made[f"WordPiece {'uncased' if lowercase else 'cased'}"] = tokenizer.to_str()
    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.Sequence(
        [normalizers.NFKC(), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(
        vocab_size=1200, special_tokens=["<unk>", "<s>"], unk_token="<unk>", show_progress=False
    )
    tokenizer.train_from_iterator(text, trainer=trainer)
    made["Metaspace + Unigram (NFKC)"] = tokenizer.to_str()
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first", split=False)
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>"], show_progress=False)
    tokenizer.train_from_iterator(text, trainer=trainer)
    made["BPE byte fallback"] = json.dumps(
        with_byte_tokens(json.loads(tokenizer.to_str())), ensure_ascii=False
    )
    return made


def golden() -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for name, tokenizer_json in small_tokenizers().items():
        counts, ends = reference_results(tokenizer_json)
        out[name] = {"tokenizer.json": json.loads(tokenizer_json), "counts": counts, "ends": ends}
    return out


if __name__ == "__main__":
    HF_GOLDEN.write_text(json.dumps(golden(), ensure_ascii=False, separators=(",", ":")), "utf-8")
    print(f"wrote {HF_GOLDEN.relative_to(ROOT)} ({HF_GOLDEN.stat().st_size:,} bytes)")

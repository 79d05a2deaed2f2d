r"""The reference tokenizers (CPython only, dev-only packages), built offline.

tiktoken: the official constructor from ``tiktoken_ext.openai_public`` (its exact split
pattern), with the rank loader replaced so that it receives our package data instead of
downloading. The loader checks the expected sha256 that tiktoken passes against the data
re-serialised in the .tiktoken format, so the reference also proves the rank file is
OpenAI's, bit for bit. No URL is fetched: the loader never reaches the network.

HF tokenizers: the all-MiniLM-L6-v2 tokenizer.json that build.py extracts beside its
vocabulary (.cache/token-reference/), with its padding and truncation switched off.

words: the `regex` module's ``[^\p{White_Space}]+``.

``python -m tests.core.token_references`` rewrites tests/data/token_golden.json, the
reference results that the Pyodide run (which has no reference) compares with.
"""

from __future__ import annotations

import base64
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import regex
import tiktoken
import tiktoken_ext.openai_public as openai_public
import tokenizers

from chunker_py.tokenizers.data import decode_ranks, read_data

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "token_golden.json"
TOKENIZER_JSON = ROOT / ".cache" / "token-reference" / "wordpiece_tokenizer.json"


def tiktoken_file(ranks: dict[bytes, int]) -> bytes:
    """The ranks in OpenAI's .tiktoken format (base64 token, space, rank, newline)."""
    lines = [base64.b64encode(token) + b" " + str(rank).encode() for token, rank in ranks.items()]
    return b"".join(line + b"\n" for line in sorted(lines, key=lambda x: int(x.split()[1])))


@cache
def tiktoken_encoding(name: str) -> tiktoken.Encoding:
    ranks = decode_ranks(read_data(f"{name}.ranks", name))

    def load_ranks(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        digest = hashlib.sha256(tiktoken_file(ranks)).hexdigest()
        assert blobpath.endswith(f"/{name}.tiktoken"), blobpath
        assert digest == expected_hash, f"{name}: package data is not OpenAI's rank file"
        return ranks

    original = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = load_ranks
    try:
        constructor: dict[str, Any] = getattr(openai_public, name)()
    finally:
        openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**constructor)


@cache
def wordpiece_reference() -> tokenizers.Tokenizer:
    assert TOKENIZER_JSON.is_file(), "run `python build.py` to extract the reference"
    tokenizer = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


WORD = regex.compile(r"[^\p{White_Space}]+")


def reference_count(name: str, text: str) -> int:
    if name == "words":
        return len(WORD.findall(text))
    if name == "wordpiece":
        return len(wordpiece_reference().encode(text, add_special_tokens=False).ids)
    return len(tiktoken_encoding(name).encode_ordinary(text))


def reference_ends(name: str, text: str) -> list[int]:
    """Token ends by the reference, in code points, moved to boundaries and merged."""
    ends: list[int] = []
    if name == "words":
        return [match.end() for match in WORD.finditer(text)]
    if name == "wordpiece":
        raw = [
            end for _, end in wordpiece_reference().encode(text, add_special_tokens=False).offsets
        ]
    else:
        data = text.encode("utf-8")
        tokens = tiktoken_encoding(name).decode_tokens_bytes(
            tiktoken_encoding(name).encode_ordinary(text)
        )
        # code point index of each byte offset, rounded up to the next boundary
        starts = [len(text[:i].encode("utf-8")) for i in range(len(text) + 1)]
        raw, position = [], 0
        for token in tokens:
            position += len(token)
            raw.append(next(i for i, b in enumerate(starts) if b >= position))
        assert position == len(data)
    for end in raw:
        if not ends or end > ends[-1]:
            ends.append(end)
    return ends


def golden() -> dict[str, Any]:
    """The golden file's content, computed by the references now."""
    from tests.core.token_corpus import CORPUS, TOKENIZER_NAMES, random_texts

    texts = [*CORPUS.values(), *random_texts(150)]
    return {
        "about": "Reference token counts and ends (tests/core/token_references.py writes it).",
        "texts": texts,
        "counts": {name: [reference_count(name, t) for t in texts] for name in TOKENIZER_NAMES},
        "ends": {name: [reference_ends(name, t) for t in texts] for name in TOKENIZER_NAMES},
    }


def golden_json(content: dict[str, Any]) -> str:
    return json.dumps(content, ensure_ascii=True, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    GOLDEN.write_text(golden_json(golden()), "utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)}")

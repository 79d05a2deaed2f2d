"""Real chunks for the fidelity tests, cut from the repository's own documents: prose (the
user guide), Markdown (two READMEs), code (chunker_py's sources), and the tokenizers' stress
texts (CJK, Thai, Arabic, emoji, marks, odd whitespace), at several sizes, some beyond the
model's window."""

from __future__ import annotations

from pathlib import Path

from chunker_py import parse_settings, split_spans

from ..token_corpus import CORPUS

ROOT = Path(__file__).resolve().parents[3]
DOCUMENTS = [
    "tests/data/user_guide.txt",
    "tests/data/markdown-it-py-README.md",
    "tests/data/annotated-types-README.md",
    "chunker_py/engine/merge.py",
    "chunker_py/measures/bm25.py",
]


def real_chunks(sizes: tuple[int, ...] = (200, 600, 1600), every: int = 1) -> list[str]:
    chunks = list(CORPUS.values())
    for name in DOCUMENTS:
        text = (ROOT / name).read_text("utf-8")
        for size in sizes:
            settings = parse_settings({"chunk_size": str(size), "chunk_overlap": str(size // 10)})
            chunks.extend(text[s.start : s.end] for s in split_spans(text, settings))
    return [c for c in chunks[::every] if c.strip()]

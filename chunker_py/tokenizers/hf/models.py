"""The models of a tokenizer.json: BPE (``bpe_model``), WordPiece and Unigram
(``unigram_model``), as HF tokenizers encodes; ``read_model`` picks one.

``tokenize(word)`` returns where each token of one pre-tokenized piece ends, in the
piece's characters (nondecreasing: byte-fallback tokens of one character all end at its
end). Results are cached per piece; pieces repeat a lot.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .bpe_model import Bpe
from .model_base import Model
from .tables import refuse
from .unigram_model import Unigram


class WordPiece(Model):
    def __init__(self, spec: dict[str, Any]) -> None:
        super().__init__()
        vocab = spec.get("vocab")
        if not isinstance(vocab, dict):
            refuse("its WordPiece model has no vocabulary of token -> id")
        self.vocab: dict[str, int] = vocab
        self.unk = spec.get("unk_token", "[UNK]")
        self.prefix = spec.get("continuing_subword_prefix", "##")
        if not isinstance(self.prefix, str):
            refuse("its WordPiece continuing_subword_prefix is not a string")
        self.max_chars = spec.get("max_input_chars_per_word", 100)
        if not isinstance(self.max_chars, int):
            refuse("its WordPiece max_input_chars_per_word is not a number")
        self.longest = max(map(len, vocab), default=0)

    def _unknown(self, word: str) -> tuple[int, ...]:
        if self.unk not in self.vocab:
            refuse(f"its unknown token {self.unk!r} is not in the vocabulary")
        return (len(word),)

    def _tokenize(self, word: str) -> tuple[int, ...]:
        size = len(word)
        if size > self.max_chars:
            return self._unknown(word)
        vocab, prefix = self.vocab, self.prefix
        ends: list[int] = []
        start = 0
        while start < size:
            end = min(size, start + self.longest)
            while end > start:
                piece = word[start:end] if start == 0 else prefix + word[start:end]
                if piece in vocab:
                    break
                end -= 1
            if end == start:
                return self._unknown(word)
            ends.append(end)
            start = end
        return tuple(ends)


def read_model_in_steps(spec: object) -> Generator[None, None, Model]:
    """``read_model``, giving way while a large BPE or Unigram model is built."""
    kind = model_type(spec)
    if kind in ("BPE", "Unigram"):
        assert isinstance(spec, dict)
        model: Bpe | Unigram = Bpe.__new__(Bpe) if kind == "BPE" else Unigram.__new__(Unigram)
        yield from model.build(spec)
        return model
    return read_model(spec)


def model_type(spec: object) -> str | None:
    """The model's type, guessed for files from before models were tagged."""
    if not isinstance(spec, dict):
        refuse("it has no model")
    kind = spec.get("type")
    if kind is None:
        if "merges" in spec:
            kind = "BPE"
        elif isinstance(spec.get("vocab"), list):
            kind = "Unigram"
        elif "continuing_subword_prefix" in spec or "max_input_chars_per_word" in spec:
            kind = "WordPiece"
    return kind


def read_model(spec: object) -> Model:
    kind = model_type(spec)
    assert isinstance(spec, dict)
    if kind == "BPE":
        return Bpe(spec)
    if kind == "WordPiece":
        return WordPiece(spec)
    if kind == "Unigram":
        return Unigram(spec)
    refuse(f"its model type {kind!r} is not one this reader knows (BPE, WordPiece, Unigram)")

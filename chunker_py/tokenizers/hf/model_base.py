"""What every model of a tokenizer.json shares (``models``): ``tokenize(word)``, cached
per pre-tokenized piece, and byte-fallback ids."""

from __future__ import annotations

WORD_CACHE = 65536


class Model:
    def __init__(self) -> None:
        self._cache: dict[str, tuple[int, ...]] = {}

    def tokenize(self, word: str) -> tuple[int, ...]:
        ends = self._cache.get(word)
        if ends is None:
            ends = self._tokenize(word)
            if len(self._cache) >= WORD_CACHE:
                self._cache.clear()
            self._cache[word] = ends
        return ends

    def _tokenize(self, word: str) -> tuple[int, ...]:
        raise NotImplementedError

    def count(self, word: str) -> int:
        """How many tokens ``word`` makes."""
        return len(self.tokenize(word))

    def hf_ends(self, word: str) -> tuple[int, ...] | None:
        """HF's token ends in bytes of ``word`` where they are not ``tokenize``'s (``Bpe``)."""
        return None


def byte_tokens(vocab: dict[str, int], text: str) -> list[int] | None:
    """Ids of ``<0xXX>`` for each UTF-8 byte of ``text``, or None if one is missing."""
    ids = [vocab.get(f"<0x{byte:02X}>") for byte in text.encode("utf-8")]
    return None if None in ids else ids  # type: ignore[return-value]

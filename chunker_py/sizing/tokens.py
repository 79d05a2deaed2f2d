"""Sizes in tokens: a tokenizer as the engine's ``Sizer`` (see ``chunker_py._sizer``)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from ._base import Tokenizer


class TokenSizer:
    """A piece's size is the token count of its text alone, as LangChain's
    ``from_tiktoken_encoder`` length function measures it (cached per text)."""

    per_code_point = False

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self.name = tokenizer.name

    def length(self, text: str, start: int, end: int) -> int:
        return self.tokenizer.count(text[start:end])

    def lengths(self, text: str, bounds: Sequence[int]) -> list[int]:
        count = self.tokenizer.count
        return [count(text[a:b]) for a, b in pairwise(bounds)]

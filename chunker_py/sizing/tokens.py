"""Sizes in tokens: a tokenizer as the engine's ``Sizer`` (see ``chunker_py.engine.sizer``),
and the windows of a fixed number of tokens (Token window mode, and Fixed size in tokens)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import pairwise

from ..engine.index import TextIndex, per_text
from ..engine.merge import Job
from ..engine.spans import window_count
from ..tokenizers import get_tokenizer
from ..tokenizers.base import Tokenizer


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


_SIZERS: dict[str, TokenSizer] = {}


def token_sizer(name: str) -> TokenSizer:
    """The engine's sizer for tokens of ``name`` (one per name)."""
    sizer = _SIZERS.get(name)
    if sizer is None:
        sizer = _SIZERS[name] = TokenSizer(get_tokenizer(name))
    return sizer


def token_ends(job: Job) -> list[int]:
    """One code-point end per token of the whole text, cached with the text's facts."""
    sizer = job.sizer
    assert isinstance(sizer, TokenSizer), "Token window is sized in tokens"
    return _token_ends(job.index, sizer.name)


def index_token_ends(index: TextIndex, tokenizer: str) -> list[int]:
    """``token_ends(job)`` of the indexed text: the same list, from the same cache."""
    return _token_ends(index, tokenizer)


@per_text
def _token_ends(index: TextIndex, tokenizer: str) -> list[int]:
    return get_tokenizer(tokenizer).token_ends(index.text, merged=False)


def token_windows(job: Job) -> None:
    """Send windows of ``job.size`` tokens advancing by ``size - overlap`` tokens to the
    sink (trimmed per the edges setting, like Fixed size)."""
    for start, end in window_bounds(token_ends(job), job.size, job.overlap):
        job.sink.merged(start, end)


def window_bounds(ends: Sequence[int], size: int, overlap: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each nonempty window of ``size`` tokens advancing by ``size -
    overlap``, from the tokens' ``ends`` (untrimmed)."""
    advance = size - overlap
    for window in range(window_count(len(ends), size, overlap)):
        first = window * advance
        start = ends[first - 1] if first else 0
        end = ends[min(first + size, len(ends)) - 1]
        if start < end:
            yield start, end

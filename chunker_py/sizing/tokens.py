"""Sizes in tokens: a tokenizer as the engine's ``Sizer`` (see ``chunker_py.engine.sizer``),
and the windows of a fixed number of tokens (Token window mode, and Fixed size in tokens)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..engine.index import TextIndex, per_text
from ..engine.merge import Job
from ..engine.spans import window_count
from ..tokenizers import get_tokenizer
from ..tokenizers.base import SpanCounter, Tokenizer


class TokenSizer:
    """A piece's size is the token count of its text alone, as LangChain's
    ``from_tiktoken_encoder`` length function measures it (cached per text)."""

    per_code_point = False

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self.name = tokenizer.name
        # the last text measured and its span counter, if the tokenizer has one
        self._spans: tuple[str, SpanCounter | None] = ("", None)

    def length(self, text: str, start: int, end: int) -> int:
        spans = self._span_counts(text)
        if spans is None:
            return self.tokenizer.count(text[start:end])
        return spans.count(start, end)

    def lengths(self, text: str, bounds: Sequence[int]) -> list[int]:
        spans = self._span_counts(text)
        if spans is None:
            return self.tokenizer.piece_counts(text, bounds)
        return spans.piece_counts(bounds)

    def _span_counts(self, text: str) -> SpanCounter | None:
        last, spans = self._spans
        if last is not text:
            spans = self.tokenizer.span_counts(text)
            self._spans = (text, spans)
        return spans


_SIZERS: dict[str, TokenSizer] = {}


def token_sizer(name: str) -> TokenSizer:
    """The engine's sizer for tokens of ``name`` (one per tokenizer: a new one when
    ``use_tiktoken`` has changed the registry's)."""
    tokenizer = get_tokenizer(name)
    sizer = _SIZERS.get(name)
    if sizer is None or sizer.tokenizer is not tokenizer:
        sizer = _SIZERS[name] = TokenSizer(tokenizer)
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

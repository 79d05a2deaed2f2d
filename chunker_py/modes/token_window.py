"""Token window mode: encode once, cut every ``size`` tokens with ``overlap`` tokens.

Window w holds tokens ``w*(size - overlap)`` to ``w*(size - overlap) + size - 1`` of the
whole text's encoding; its slice runs from the end of the token before it to the end of
its last token. A byte-level token can end inside a code point (part of an emoji's
bytes): such an end moves to the end of that code point, so a window can hold one more
(partial) token than asked and a slice never splits a code point. Windows stop at the
first one that reaches the last token; one left empty by such a move is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._engine import Job, window_count
from ._fields import Field
from ._tokenizers import TokenSizer

FIELDS: tuple[Field, ...] = ()


@dataclass(frozen=True)
class Options:
    """Token window has no options of its own (the Tokenizer is a common setting)."""


def token_ends(job: Job) -> list[int]:
    """One code-point end per token of the whole text, cached with the text's facts."""
    sizer = job.sizer
    assert isinstance(sizer, TokenSizer), "Token window is sized in tokens"
    key = ("token-ends", sizer.name)
    ends: list[int] | None = job.index.memo.get(key)
    if ends is None:
        ends = job.index.memo[key] = sizer.tokenizer.token_ends(job.text, merged=False)
    return ends


def feed(job: Job, options: Options) -> None:
    """Send the windows to the sink (trimmed per the edges setting, like Fixed size)."""
    ends = token_ends(job)
    advance = job.size - job.overlap
    for window in range(window_count(len(ends), job.size, job.overlap)):
        first = window * advance
        start = ends[first - 1] if first else 0
        end = ends[min(first + job.size, len(ends)) - 1]
        if start < end:
            job.sink.merged(start, end)

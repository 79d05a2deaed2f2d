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

from ..engine.fields import Field
from ..engine.merge import Job
from ..sizing.tokens import token_windows

FIELDS: tuple[Field, ...] = ()


@dataclass(frozen=True)
class Options:
    """Token window has no options of its own (the Tokenizer is a common setting)."""


def over_size(_options: Options) -> str:
    """Why a window's chunk can count more tokens than the chunk size (the size warning)."""
    return (
        "each window holds the chunk size in tokens of the whole text's encoding, but its "
        "text counted on its own can take more: a word or a run of characters cut at the "
        "window's edge is split into other pieces when it starts or ends a text (a "
        "WordPiece word continued by ## pieces, byte-pair merges across the edge), and a "
        "token ending inside a code point's bytes moves to that code point's end"
    )


def feed(job: Job, options: Options) -> None:
    """Send the windows to the sink (trimmed per the edges setting, like Fixed size)."""
    token_windows(job)

"""The sizer the settings choose (code points or a tokenizer's tokens) and its name."""

from __future__ import annotations

from ..config.settings import Settings
from ..engine.sizer import CODE_POINTS, Sizer
from ..sizing.tokens import token_sizer


def sizer_for(settings: Settings) -> Sizer:
    """How the settings measure size: code points, or tokens of the chosen tokenizer
    (Token window cuts in tokens whatever the size unit)."""
    tokens = settings.size_unit == "tokens" and settings.relevant("size_unit")
    if tokens or settings.mode_info.tokens_only:
        return token_sizer(settings.tokenizer)
    return CODE_POINTS


def size_unit_name(settings: Settings) -> str:
    """The unit chunk size counts in, in words: "code points" or "<tokenizer> tokens"."""
    return "code points" if sizer_for(settings).per_code_point else f"{settings.tokenizer} tokens"

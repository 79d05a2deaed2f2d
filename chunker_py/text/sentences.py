"""Sentence boundaries (docs/decisions.md "Sentence mode"), shared by Sentence mode, Markdown
structure's descent into sentences, the damage figures and the streamed seams.

The rules live in ``segmenter.py`` (README "Sentence, in detail" lists them); this module
keeps the names the other layers import and the per-text cache.
"""

from __future__ import annotations

from ..engine.index import TextIndex, per_text
from .segmenter import sentence_spans
from .sentence_language import LANGUAGES, detect_language
from .sentence_latin import normalise_abbreviation

__all__ = ["LANGUAGES", "detect_language", "normalise_abbreviation", "sentence_spans", "sentences"]


@per_text
def sentences(
    index: TextIndex, abbreviations: tuple[str, ...], language: str = "auto"
) -> list[tuple[int, int]]:
    """The text's sentences, cached per text, abbreviation list and language (Sentence
    mode and the damage figures share them)."""
    return sentence_spans(index.text, abbreviations=abbreviations, language=language)

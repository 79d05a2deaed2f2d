"""Sentence boundaries (SPEC.md "Sentence mode"), shared by Sentence mode, Markdown
structure's descent into sentences and the damage figures.

The rules live in ``text/segmenter.py`` (README "Sentence, in detail" lists them); this
module keeps the names the modes import.
"""

from __future__ import annotations

from .text.segmenter import LANGUAGES, detect_language, normalise_abbreviation, sentence_spans

__all__ = ["LANGUAGES", "detect_language", "normalise_abbreviation", "sentence_spans"]

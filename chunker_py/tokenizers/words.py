"""words: runs of characters between whitespace (RagBuilder's TokenTextSplitter unit).

Whitespace is Unicode's White_Space property, frozen (the same table as tiktoken's
``\\s``): spaces, tabs, line breaks, NBSP, U+0085, U+2028 ... but not U+FEFF or U+200B.
Needs no data file.
"""

from __future__ import annotations

import re

from . import unicode_classes as uc
from .base import Tokenizer
from .ranges import class_body


class WordsTokenizer(Tokenizer):
    def __init__(self, name: str = "words") -> None:
        super().__init__(name)
        self._word = re.compile(f"[^{class_body(uc.WHITE_SPACE)}]+")

    def _count(self, text: str) -> int:
        return len(self._word.findall(text))

    def _token_ends(self, text: str) -> list[int]:
        return [match.end() for match in self._word.finditer(text)]

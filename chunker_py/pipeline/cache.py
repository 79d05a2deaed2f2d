"""The cache of text indexes: the last few texts analysed keep their facts."""

from __future__ import annotations

from ..engine.index import TextIndex

_recent: list[TextIndex] = []


def text_index(text: str) -> TextIndex:
    """The facts kept about ``text`` (piece bounds, a Markdown parse, sentences), reused
    while the same text is analysed again (a settings change on the page re-parses
    nothing). A few texts are kept: the page's, and a comparison's."""
    for index in _recent:
        if index.text is text or index.text == text:
            return index
    index = TextIndex(text)
    _recent.insert(0, index)
    del _recent[3:]
    return index

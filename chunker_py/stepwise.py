"""The stepwise variants of the library's long calls, for a caller that must stay
responsive: the Chunk Inspector page runs one step per task between frames, so typing and
painting never wait for a whole comparison or a large tokenizer.json.

Each is a generator of the same work its plain counterpart in ``chunker_py`` does at once
(``chunker_py.engine.steps.finish`` runs one to its end):

- ``prepare_steps(text, settings)``: what ``analyse`` does at length (a Markdown parse,
  token counts of long runs), done first in steps; the analysis then finds it cached.
- ``compare_rows`` / ``compare_row_steps``: ``compare``'s rows one at a time, and with a
  ``None`` at each pause of their token counting.
- ``damage_by_size_rows`` / ``damage_by_size_row_steps``: the same for ``damage_by_size``.
- ``add_tokenizer_json_in_steps(data, file_name)``: ``add_tokenizer_json`` yielding the
  fraction done, returning the tokenizer's name.
"""

from __future__ import annotations

from .pipeline.compare import (
    compare_row_steps,
    compare_rows,
    damage_by_size_row_steps,
    damage_by_size_rows,
    prepare_steps,
)
from .tokenizers import add_tokenizer_json_in_steps

__all__ = [
    "add_tokenizer_json_in_steps",
    "compare_row_steps",
    "compare_rows",
    "damage_by_size_row_steps",
    "damage_by_size_rows",
    "prepare_steps",
]

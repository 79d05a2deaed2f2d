"""The embedding model's window as damage (docs/decisions.md "Retrieval choices"): a chunk
longer than 256 word pieces ([CLS] and [SEP] included) is truncated by the model, so its
tail can never be found by dense retrieval. Per chunk: the word pieces the model does not
see (0 when it fits); per result: how many chunks lose some, and how many pieces in all.
Reported whenever dense or hybrid retrieval is chosen (BAD-INPUT 34: truncated, counted,
never an error)."""

from __future__ import annotations

from typing import Any

KEY = "beyond_model_window"  # chunks cut by the window (a record: its unseen word pieces)
PIECES_KEY = "beyond_model_window_word_pieces"  # unseen word pieces, all chunks together


def unseen_per_chunk(analysis: Any) -> list[int]:
    """Each chunk's word pieces beyond the window, computed once per result."""
    found: list[int] | None = analysis.__dict__.get("_unseen_word_pieces")
    if found is None:
        # imported here: the WordPiece tables load only when the window is asked about
        from ..embedding.wordpieces import unseen_word_pieces

        text = analysis.text
        found = [unseen_word_pieces(text[span.start : span.end]) for span in analysis.spans]
        analysis.__dict__["_unseen_word_pieces"] = found
    return found


def window_figures(analysis: Any) -> dict[str, int]:
    """``{KEY: chunks beyond the window, PIECES_KEY: their unseen word pieces}``."""
    unseen = unseen_per_chunk(analysis)
    return {KEY: sum(1 for n in unseen if n), PIECES_KEY: sum(unseen)}


def describe(figures: dict[str, int]) -> str:
    """The summary's sentence, e.g. "beyond the embedding model's window: 3 chunks, 412
    word pieces unseen"."""
    chunks, pieces = figures[KEY], figures[PIECES_KEY]
    noun = "chunk" if chunks == 1 else "chunks"
    unit = "word piece" if pieces == 1 else "word pieces"
    return f"beyond the embedding model's window: {chunks:,} {noun}, {pieces:,} {unit} unseen"

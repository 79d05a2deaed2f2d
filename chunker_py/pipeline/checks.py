"""The checks that make a result unusable: an empty text, no chunk left, too many chunks,
or chunks whose context prefixes exceed the output budget."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.errors import ResultError
from ..engine.spans import Span


def result_error(text: str, count: int, max_chunks: int | None) -> ResultError | None:
    """Why a result of ``count`` chunks of ``text`` is unusable, or None."""
    if not text:
        return ResultError(
            "The source text is empty; paste or import a document.", count=0, field="text"
        )
    if count == 0:
        return ResultError(
            "No text remains after trimming edge whitespace; choose Preserve edge whitespace "
            "or add non-whitespace content.",
            count=0,
            field="edges",
        )
    if max_chunks is not None and count > max_chunks:
        return ResultError(
            f"These settings would produce {count:,} chunks, more than the {max_chunks:,} "
            "limit; raise the chunk size or lower the overlap.",
            count=count,
            field="chunk_size",
        )
    return None


def output_budget(length: int) -> int:
    """Most code points the chunks may hold with their prefixes (RagBuilder's limit)."""
    return max(65_536, 32 * length)


def budget_error(length: int, spans: Sequence[Span]) -> ResultError | None:
    """The error when the chunks with their context prefixes exceed the output budget."""
    total = sum(s.end - s.start + (len(s.meta.prefix) if s.meta else 0) for s in spans)
    budget = output_budget(length)
    if total <= budget:
        return None
    return ResultError(
        f"The chunks with their context prefixes would hold {total:,} code points, more "
        f"than the output budget of {budget:,} (32 times the text, at least 65,536); raise "
        "the chunk size, lower Split at heading level or turn off the heading breadcrumb.",
        count=len(spans),
        field="chunk_size",
    )

"""Summary figures with the guide's names: Chunks, Repeated, Edge characters omitted,
Smallest, Average, Largest."""

from __future__ import annotations

from dom import by_id, decimal, number

from chunker_py import Analysis, Summary

TOKEN_FIGURES = ("smallest", "average", "largest", "total")


def show_tokens(result: Analysis | None, loaded: bool) -> None:
    """Token figures in the settings' tokenizer; "loading" until its tables are in."""
    status = by_id("tokens-status")
    if result is None or not result.spans:
        status.textContent = ""
        for key in TOKEN_FIGURES:
            by_id(f"tokens-{key}").textContent = "—"
        return
    name = result.settings.tokenizer
    summary = result.token_summary if loaded else None
    status.textContent = f"({name})" if summary is not None else f"(loading {name}…)"
    for key in TOKEN_FIGURES:
        if summary is None:
            text = "…"
        elif key == "average":
            text = decimal(summary.average)
        else:
            text = number(getattr(summary, key))
        by_id(f"tokens-{key}").textContent = text


def show_tokens_unavailable(why: str) -> None:
    """No token figures: the tokenizers' code did not arrive (``why`` names the file)."""
    by_id("tokens-status").textContent = f"(unavailable: {why})"
    for key in TOKEN_FIGURES:
        by_id(f"tokens-{key}").textContent = "—"


FIGURES = ("chunks", "repeated", "omitted", "smallest", "average", "largest")


def show(summary: Summary | None) -> None:
    if summary is None:
        for key in FIGURES:
            by_id(f"figure-{key}").textContent = "—"
        return
    values = {
        "chunks": number(summary.chunks),
        "repeated": number(summary.repeated),
        "omitted": number(summary.omitted),
        "smallest": number(summary.smallest),
        "average": decimal(summary.average),  # average_display, grouped
        "largest": number(summary.largest),
    }
    for key, value in values.items():
        by_id(f"figure-{key}").textContent = value

"""Summary figures with the guide's names: Chunks, Repeated, Edge characters omitted,
Smallest, Average, Largest; and the token figures in the settings' tokenizer."""

from __future__ import annotations

from dom import ListView, by_id, decimal, number

from chunker_py.pipeline.results import Summary

FIGURES = ("chunks", "repeated", "omitted", "smallest", "average", "largest")
TOKEN_FIGURES = ("smallest", "average", "largest", "total")


class Figures:
    """The summary figures of one result (None: a dash each)."""

    def show(self, view: Summary | None) -> None:
        if view is None:
            for key in FIGURES:
                by_id(f"figure-{key}").textContent = "—"
            return
        values = {
            "chunks": number(view.chunks),
            "repeated": number(view.repeated),
            "omitted": number(view.omitted),
            "smallest": number(view.smallest),
            "average": decimal(view.average),  # average_display, grouped
            "largest": number(view.largest),
        }
        for key, value in values.items():
            by_id(f"figure-{key}").textContent = value


class TokenFigures:
    """Token figures in the settings' tokenizer; "loading" until the view says its tables
    are in (``tokens_ready``)."""

    def show(self, view: ListView) -> None:
        result = view.analysis
        status = by_id("tokens-status")
        if result is None or not result.spans:
            status.textContent = ""
            for key in TOKEN_FIGURES:
                by_id(f"tokens-{key}").textContent = "—"
            return
        name = result.settings.tokenizer
        summary = result.token_summary if view.tokens_ready else None
        status.textContent = f"({name})" if summary is not None else f"(loading {name}…)"
        for key in TOKEN_FIGURES:
            if summary is None:
                text = "…"
            elif key == "average":
                text = decimal(summary.average)
            else:
                text = number(getattr(summary, key))
            by_id(f"tokens-{key}").textContent = text

    def unavailable(self, why: str) -> None:
        """No token figures: the tokenizers' code did not arrive (``why`` names the file)."""
        by_id("tokens-status").textContent = f"(unavailable: {why})"
        for key in TOKEN_FIGURES:
            by_id(f"tokens-{key}").textContent = "—"

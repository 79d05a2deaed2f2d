"""Chunk readiness: Ready, or Check inputs with the message to follow, plus warnings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dom import by_id, element


@dataclass(frozen=True)
class Verdict:
    """What Chunk readiness shows of one update: ``problem`` is the message beneath Check
    inputs (None means Ready), then the warnings and notes listed under it."""

    problem: str | None = None
    warnings: Sequence[str] = ()
    notes: Sequence[str] = ()


class Readiness:
    """The Chunk readiness panel: the verdict of the last update, or a bug. ``status`` is
    what it says now (its #readiness[data-status], which the page never reads back)."""

    def __init__(self) -> None:
        self.status = ""

    def _say(self, status: str) -> None:
        self.status = by_id("readiness").dataset.status = status

    def show(self, view: Verdict) -> None:
        problem = view.problem
        self._say("check" if problem else "ready")
        by_id("readiness-status").textContent = "Check inputs" if problem else "Ready"
        by_id("readiness-message").textContent = problem or "The settings produced usable records."
        _list("readiness-warnings", view.warnings)
        _list("readiness-notes", view.notes)

    def counting(self, doing: str) -> None:
        """The edit's long work runs in steps (so no task runs long), ``doing`` says what
        ("Counting tokens…"): the results below are still the previous text's until the
        verdict replaces this."""
        self._say("counting")
        by_id("readiness-status").textContent = doing
        by_id("readiness-message").textContent = (
            "This text takes a moment; the page stays responsive meanwhile. "
            "The results below are still those of the previous text."
        )
        _list("readiness-warnings", ())
        _list("readiness-notes", ())

    def bug(self, message: str) -> None:
        """An unexpected exception: say so plainly; the next edit tries again."""
        self._say("bug")
        by_id("readiness-status").textContent = "Something went wrong"
        by_id("readiness-message").textContent = (
            f"Bug: {message}. Please report it; your text and settings are unchanged, and the "
            "next edit will try again."
        )

    def unavailable(self, why: str) -> None:
        """A file of the page did not arrive (``why`` names it): not a bug, and not the
        inputs."""
        self._say("unavailable")
        by_id("readiness-status").textContent = "Part of the page did not load"
        message = f"{why}. Reload the page to try again; your text and settings are unchanged."
        by_id("readiness-message").textContent = message


def _list(element_id: str, items: Sequence[str]) -> None:
    listing = by_id(element_id)
    listing.replaceChildren(*[element("li", item) for item in items])
    listing.hidden = not items

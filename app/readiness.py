"""Chunk readiness: Ready, or Check inputs with the message to follow, plus warnings."""

from __future__ import annotations

from collections.abc import Sequence

from dom import by_id, element


def show(problem: str | None, warnings: Sequence[str] = (), notes: Sequence[str] = ()) -> None:
    """``problem`` is the message beneath Check inputs; None means Ready."""
    panel = by_id("readiness")
    panel.dataset.status = "check" if problem else "ready"
    by_id("readiness-status").textContent = "Check inputs" if problem else "Ready"
    by_id("readiness-message").textContent = problem or "The settings produced usable records."
    _list("readiness-warnings", warnings)
    _list("readiness-notes", notes)


def bug(message: str) -> None:
    """An unexpected exception: say so plainly; the next edit tries again."""
    panel = by_id("readiness")
    panel.dataset.status = "bug"
    by_id("readiness-status").textContent = "Something went wrong"
    by_id("readiness-message").textContent = (
        f"Bug: {message}. Please report it; your text and settings are unchanged, and the "
        "next edit will try again."
    )


def unavailable(why: str) -> None:
    """A file of the page did not arrive (``why`` names it): not a bug, and not the inputs."""
    panel = by_id("readiness")
    panel.dataset.status = "unavailable"
    by_id("readiness-status").textContent = "Part of the page did not load"
    by_id(
        "readiness-message"
    ).textContent = f"{why}. Reload the page to try again; your text and settings are unchanged."


def _list(element_id: str, items: Sequence[str]) -> None:
    listing = by_id(element_id)
    listing.replaceChildren(*[element("li", item) for item in items])
    listing.hidden = not items

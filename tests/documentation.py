"""The repository's documentation as the tests read it: README.md, then every page of docs/.

Tests that check what the documentation says (its commands run as written, its benchmark
commands exist, its tables match the code) read it through here, so a page added to docs/
is checked like the README."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def page(name: str) -> str:
    """One page's text: ``"README.md"`` or a name under docs/ such as ``"docs/evidence.md"``."""
    return (ROOT / name).read_text(encoding="utf-8")


def everything() -> str:
    """Every page's text, README first, each ending with a line break (a fenced block never
    runs from one page into the next)."""
    return "".join(path.read_text(encoding="utf-8").rstrip("\n") + "\n" for path in PAGES)

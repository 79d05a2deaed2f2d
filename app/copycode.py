"""Copy as code: buttons that copy the current settings as a command line, chunker_py code
and, where exact, LangChain code. The text comes from app/snippets.py (pure Python); the
snippets are also shown, so what is copied can be read first."""

from __future__ import annotations

from typing import Any

import snippets
from dom import by_id, copy_text, on

from chunker_py import Settings

# button id -> (snippet <pre> id, what the status line calls it)
BUTTONS = {
    "copy-cli": ("code-cli", "Command line"),
    "copy-library": ("code-library", "chunker_py code"),
    "copy-langchain": ("code-langchain", "LangChain code"),
}


class CopyCode:
    def __init__(self) -> None:
        self.texts: dict[str, str | None] = {}
        self.last: Settings | None = None

    def wire(self) -> None:
        for button in BUTTONS:

            async def copy(_event: Any, button: str = button) -> None:
                await self._copy(button)

            on(by_id(button), "click", copy)

    def show(self, chosen: Settings | None) -> None:
        if chosen is not None and chosen == self.last:
            return
        self.last = chosen
        self.texts = {
            "copy-cli": snippets.cli_command(chosen) if chosen else None,
            "copy-library": snippets.library_code(chosen) if chosen else None,
            "copy-langchain": snippets.langchain_code(chosen) if chosen else None,
        }
        for button, (pre, _what) in BUTTONS.items():
            text = self.texts[button]
            by_id(button).disabled = text is None
            by_id(pre).textContent = text or "—"
        by_id("langchain-note").textContent = (
            snippets.langchain_note(chosen) if chosen else "Fix the settings under Chunk readiness."
        )

    async def _copy(self, button: str) -> None:
        text = self.texts.get(button)
        what = BUTTONS[button][1]
        if text is None:
            return
        await copy_text(text, what, "code-status")

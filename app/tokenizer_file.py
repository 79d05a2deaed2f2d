"""Tokenizer's "Load tokenizer.json…": a model's own tokenizer, read in this page.

The file is read with the File API and parsed by chunker_py, never uploaded; it becomes a
Tokenizer choice named ``file:<file name>`` (as ``--tokenizer-file`` names it, so the
downloads agree) until the page is closed. A share link names it but cannot carry it: a
link opened where the file is not loaded says so and counts with the default tokenizer.
Reading starts after the status line is painted; a file the reader cannot count exactly
is refused with its message, and the current tokenizer stays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dom import after_paint, by_id, number, on
from js import document

from chunker_py import TOKENIZERS, ChunkerError, add_tokenizer_json, check_tokenizer_size


class TokenizerFile:
    def __init__(self, changed: Callable[[], Any]) -> None:
        self._changed = changed
        self.select = by_id("tokenizer")

    def wire(self) -> None:
        on(by_id("tokenizer-file"), "change", self._browse)
        field = document.querySelector('[data-field="tokenizer"]')
        on(field, "dragover", lambda event: event.preventDefault())
        on(field, "drop", self._drop)

    def tell(self, message: str, *, problem: bool = False) -> None:
        status = by_id("tokenizer-file-status")
        status.textContent = message
        status.classList.toggle("problem", problem)

    async def _browse(self, event: Any) -> None:
        files = event.target.files
        if files.length:
            await self._read(files.item(0))
        event.target.value = ""  # choosing the same file again fires change again

    async def _drop(self, event: Any) -> None:
        event.preventDefault()
        files = event.dataTransfer.files
        if files.length != 1:
            self.tell("Drop one tokenizer.json file.", problem=True)
            return
        await self._read(files.item(0))

    async def _read(self, file: Any) -> None:
        name, size = str(file.name), int(file.size)
        try:
            check_tokenizer_size(size)  # refused before reading
        except ChunkerError as error:
            self.tell(f"{error.message} The current tokenizer stays.", problem=True)
            return
        self.tell(f"Reading {name} ({number(size)} bytes)…")
        data = (await file.arrayBuffer()).to_bytes()
        after_paint(lambda: self._load(data, name))

    def _load(self, data: bytes, name: str) -> None:
        try:
            tokenizer = add_tokenizer_json(data, name)
        except ChunkerError as error:
            self.tell(f"{error.message} The current tokenizer stays.", problem=True)
            return
        options = self.select.options
        known = [str(options.item(i).value) for i in range(int(options.length))]
        if tokenizer not in known:
            option = document.createElement("option")
            option.value = tokenizer
            option.textContent = TOKENIZERS[tokenizer]
            self.select.add(option)
        self.select.value = tokenizer
        self.tell(
            f"Loaded {name}: counts equal Hugging Face tokenizers'. It stays until the page "
            "is closed; a share link names it but cannot carry it."
        )
        self._changed()

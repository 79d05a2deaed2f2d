"""Tokenizer's "Load tokenizer.json…": a model's own tokenizer, read in this page.

The file is read with the File API and parsed by chunker_py, never uploaded; it becomes a
Tokenizer choice named ``file:<file name>`` (as ``--tokenizer-file`` names it, so the
downloads agree) until the page is closed. A share link names it but cannot carry it: a
link opened where the file is not loaded says so and counts with the default tokenizer.
Reading starts after the status line is painted and runs in slices of about 40 ms
between which the page paints the progress and takes keys, so a 17 MB file does not freeze
typing; choosing another file drops a load still running. A file the reader cannot count
exactly is refused with its message, and the current tokenizer stays.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from dom import after_paint, by_id, element, number, on
from js import document, window
from pyodide.ffi import create_once_callable

from chunker_py import TOKENIZERS, ChunkerError
from chunker_py.stepwise import add_tokenizer_json_in_steps
from chunker_py.tokenizers import check_tokenizer_size

SLICE_SECONDS = 0.04  # work between two chances to paint and take a key


class TokenizerFile:
    def __init__(self, changed: Callable[[], Any]) -> None:
        self._changed = changed
        self._generation = 0  # the load that may still finish is the latest one
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
        self._generation += 1  # a load still running for an earlier file is dropped
        generation = self._generation
        self._busy(True)
        self.tell(f"Loading tokenizer… reading {name} ({number(size)} bytes).")
        data = (await file.arrayBuffer()).to_bytes()
        if generation != self._generation:
            return
        steps = add_tokenizer_json_in_steps(data, name)
        after_paint(lambda: self._slice(steps, name, generation))

    def _busy(self, busy: bool) -> None:
        by_id("tokenizer-file-status").setAttribute("aria-busy", "true" if busy else "false")

    def _slice(self, steps: Generator[float, None, str], name: str, generation: int) -> None:
        """Run the load for about ``SLICE_SECONDS``, then give way to keys and paints."""
        if generation != self._generation:
            steps.close()  # a newer file replaced this one: nothing was registered
            by_id("tokenizer-file-status").dataset.dropped = name  # tests wait for it
            return
        deadline = time.perf_counter() + SLICE_SECONDS
        fraction = 0.0
        try:
            while time.perf_counter() < deadline:
                fraction = next(steps)
        except StopIteration as done:
            self._loaded(done.value, name)
            return
        except ChunkerError as error:
            self._busy(False)
            self.tell(f"{error.message} The current tokenizer stays.", problem=True)
            return
        self.tell(f"Loading tokenizer… {name}: {fraction:.0%}")
        window.setTimeout(create_once_callable(lambda: self._slice(steps, name, generation)), 0)

    def _loaded(self, tokenizer: str, name: str) -> None:
        self._busy(False)
        options = self.select.options
        known = [str(options.item(i).value) for i in range(int(options.length))]
        if tokenizer not in known:
            option = element("option", TOKENIZERS[tokenizer])
            option.value = tokenizer
            self.select.add(option)
        self.select.value = tokenizer
        self.tell(
            f"Loaded {name}: counts equal Hugging Face tokenizers'. It stays until the page "
            "is closed; a share link names it but cannot carry it."
        )
        self._changed()

"""Placeholder UI entry point: proves the runtime booted and the chunker_py wheel installed.

The real UI replaces this file. Its contract with the page (see static/boot.js):
set #app's data-state to "ready" only once the panels show the current input's result.
"""

from pyscript import document

import chunker_py

document.getElementById("core-name").textContent = chunker_py.__name__
document.getElementById("app").dataset.state = "ready"

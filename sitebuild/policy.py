"""The page's Content-Security-Policy: in index.html's <meta> tag and sent as a header by
the development server (sitebuild/serve.py) and the tests' servers."""

import base64
import hashlib
from pathlib import Path

# The page's one inline script (index.html's {{html:wasm_preload}}), allowed by its hash only
WASM_PRELOAD = Path(__file__).with_name("wasm_preload.js").read_text("utf-8")


def script_hash(source: str) -> str:
    """A CSP source that allows an inline script of exactly this text."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


# The strictest policy under which PyScript, Pyodide and Plotly run (tests/page checks
# that nothing is refused). Why each relaxation is there:
#   script-src 'wasm-unsafe-eval'  Pyodide compiles pyodide.asm.wasm; no 'unsafe-eval' needed.
#   script-src 'sha256-…'         the first visit's wasm preload (sitebuild/wasm_preload.js),
#                                  inline so that it leaves with the page's first requests;
#                                  any other inline script is refused.
#   style-src 'unsafe-inline'      PyScript's error banner and Plotly set inline styles and
#                                  Plotly injects <style> elements.
#   img-src data: blob:            Plotly's modebar icons and image export.
#   worker-src blob:               static/snapshot.js starts the worker that downloads and
#                                  inflates the start-up snapshot from a blob URL (so it
#                                  needs no request of its own), as PyScript builds its
#                                  workers (if a script asks for one).
CSP = (
    "default-src 'self'; connect-src 'self'; "
    f"script-src 'self' 'wasm-unsafe-eval' {script_hash(WASM_PRELOAD)}; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'"
)

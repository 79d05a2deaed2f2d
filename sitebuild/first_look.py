"""The first look: the sample's first result in index.html, before Python is ready.

When the page opens on the sample with its default settings, static/firstlook.js shows
the sample's readiness, summary, chunk map and records at once, marked "starting…", and
the live result replaces them when Python is ready. Those panels are drawn at build time
by the page's own code: first_look.mjs runs app/inspector.py's first update in Node's
Pyodide against the built index.html in a DOM stand-in, with the page's drawing scripts.
They go into index.html inside an inert <template id="first-look">: nothing in it is shown
or run unless firstlook.js, a same-origin script, moves its panels in (no inline script:
the CSP is unchanged). Any other start (a settings link, a text or a setting the browser
restored, an edit before Python is ready) never shows them.
"""

from __future__ import annotations

import hashlib
import html
import tempfile
from pathlib import Path

from sitebuild.npm import npm_package
from sitebuild.paths import CACHE, STATIC
from sitebuild.pypi import sha256_hex
from sitebuild.shell import log, run_node

RENDERER = Path(__file__).with_name("first_look.mjs")
HOME = "/home/pyodide"  # Pyodide's working directory, as in the page
# The panels of the first look, in page order (ids in index.html).
PANELS = ("readiness", "summary-panel", "chunk-map-panel", "records-panel")
# The page's drawing scripts that the first update calls, in page order.
SCRIPTS = ("render.js", "chunkmap.js")


def render_panels(bundle: bytes, index_html: str, text: str | None = None) -> dict[str, object]:
    """Run first_look.mjs: the panels drawn by the page's first update of `index_html`
    (with `text` in the Source text box instead of the page's, when given), and the
    address's fragment that update wrote."""
    source, _version = npm_package("pyodide")
    with tempfile.TemporaryDirectory() as tmp:
        bundle_path = Path(tmp) / "bundle.zip"
        bundle_path.write_bytes(bundle)
        html_path = Path(tmp) / "index.html"
        html_path.write_text(index_html, "utf-8")
        recipe = {
            "pyodide": str(source),
            "bundle": str(bundle_path),
            "home": HOME,
            "html": str(html_path),
            "scripts": [str(STATIC / name) for name in SCRIPTS],
            "panels": list(PANELS),
            "text": text,
        }
        rendered: dict[str, object] = run_node(
            RENDERER, recipe, Path(tmp), "rendering the first look"
        )
    return rendered


def first_look_template(rendered: dict[str, object]) -> str:
    """The <template> index.html carries: the panels' markup as first_look.mjs serialised
    it (escaped there), and the fragment of the default start (firstlook.js shows the
    first look on that address too: it is the page's own address after a default start)."""
    panels = rendered["panels"]
    assert isinstance(panels, dict)
    fragment = html.escape(str(rendered["fragment"]), quote=True)
    # a CR as a reference: the HTML parser would read a raw one as a line feed
    body = "\n".join(str(panels[panel]) for panel in PANELS).replace("\r", "&#13;")
    return f'<template id="first-look" data-fragment="{fragment}">\n{body}\n</template>'


def first_look_for(bundle: bytes, index_html: str) -> str:
    """The first look's <template> for this page, from .cache/first-look/ or rendered now
    (keyed by the runtime, the page's Python, its markup and its drawing scripts)."""
    _source, version = npm_package("pyodide")
    digest = hashlib.sha256(f"pyodide {version}\nbundle {sha256_hex(bundle)}\n".encode())
    for program in (RENDERER, Path(__file__), *(STATIC / name for name in SCRIPTS)):
        digest.update(f"{program.name} {sha256_hex(program.read_bytes())}\n".encode())
    digest.update(index_html.encode())
    cached = CACHE / "first-look" / f"first-look-{digest.hexdigest()[:20]}.html"
    if not cached.is_file():
        log("rendering the first look (the sample's first result, Node's Pyodide)")
        template = first_look_template(render_panels(bundle, index_html))
        cached.parent.mkdir(parents=True, exist_ok=True)
        older = sorted(cached.parent.glob("first-look-*.html"), key=lambda p: p.stat().st_mtime)
        for old in older[:-3]:  # the few newest stay (a branch switch stays cheap)
            old.unlink()
        cached.write_text(template, "utf-8")
    return cached.read_text("utf-8")

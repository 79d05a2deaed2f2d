"""The built site as files and as the development server sends them (no browser)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import urllib.request
from email.message import Message

import pytest

from sitebuild.paths import ROOT
from sitebuild.policy import CSP


def fetch(url: str) -> tuple[Message, bytes]:
    """Headers (case-insensitive) and body of a GET."""
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers, response.read()


@pytest.mark.parametrize(
    ("suffix", "mime"),
    [
        ("pyodide.mjs", "text/javascript"),
        ("pyodide.asm.wasm", "application/wasm"),
        ("python_stdlib.zip", "application/zip"),
        ("pyodide-lock.json", "application/json"),
    ],
)
def test_server_sends_exact_mime_immutable_and_csp(server, site, suffix: str, mime: str) -> None:
    """Versioned vendor files are content-addressed: a year, never asked again."""
    folder = site.vendored.pyodide.rsplit("/", 1)[0]
    headers, _ = fetch(f"{server.url}{folder}/{suffix}")
    assert headers["Content-Type"].split(";")[0] == mime
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Content-Security-Policy"] == CSP


def test_index_carries_the_same_policy_and_hashed_asset_urls(server, site) -> None:
    _, body = fetch(server.url)
    index = body.decode()
    assert f'content="{CSP}"' in index
    assert f'src="{site.build}/app/main.py"' in index
    assert "{{" not in index


def test_the_one_inline_script_is_the_wasm_preload_and_the_policy_allows_only_it(
    server, site
) -> None:
    """index.html has one inline script, sitebuild/wasm_preload.js's text byte for byte;
    the policy's script-src allows it by its SHA-256 and allows no other inline script."""
    _, body = fetch(server.url)
    index = body.decode()
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", index, re.S)
    source = (ROOT / "sitebuild" / "wasm_preload.js").read_text("utf-8")
    assert [text for _, text in inline if text.strip()] == [source]
    (attributes,) = [a for a, text in inline if text == source]
    wasm = re.search(r'data-wasm="([^"]+)"', attributes)
    assert wasm and (site.root / html.unescape(wasm.group(1))).is_file()
    digest = base64.b64encode(hashlib.sha256(source.encode()).digest()).decode()
    script_src = re.search(r"script-src ([^;]+);", CSP)
    assert script_src
    assert script_src.group(1).split() == ["'self'", "'wasm-unsafe-eval'", f"'sha256-{digest}'"]
    assert "unsafe-inline" not in script_src.group(1)


def test_micropython_s_config_switches_off_the_same_plugins(server) -> None:
    """PyScript loads its plugins once per script type; MicroPython's type (unused) gets
    the same plugins switched off as the page's own script, in an <mpy-config>."""
    _, body = fetch(server.url)
    index = body.decode()
    config = re.search(r'<script type="py" [^>]*config="([^"]+)"', index)
    mpy = re.findall(r"<mpy-config hidden>([^<]*)</mpy-config>", index)
    assert config and len(mpy) == 1
    plugins = json.loads(html.unescape(config.group(1)))["plugins"]
    assert "!py-editor" in plugins and "!py-terminal" in plugins
    assert json.loads(html.unescape(mpy[0])) == {"plugins": plugins}


def test_copied_lock_names_the_digest_of_the_micropip_wheel_beside_it(site) -> None:
    folder = site.root / site.vendored.pyodide.rsplit("/", 1)[0]
    entry = json.loads((folder / "pyodide-lock.json").read_text())["packages"]["micropip"]
    wheel = (folder / entry["file_name"]).read_bytes()
    assert entry["sha256"] == hashlib.sha256(wheel).hexdigest()

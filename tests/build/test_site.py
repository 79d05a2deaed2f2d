"""The built site as files and as the development server sends them (no browser)."""

from __future__ import annotations

import hashlib
import json
import urllib.request
from email.message import Message

import pytest

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


def test_copied_lock_names_the_digest_of_the_micropip_wheel_beside_it(site) -> None:
    folder = site.root / site.vendored.pyodide.rsplit("/", 1)[0]
    entry = json.loads((folder / "pyodide-lock.json").read_text())["packages"]["micropip"]
    wheel = (folder / entry["file_name"]).read_bytes()
    assert entry["sha256"] == hashlib.sha256(wheel).hexdigest()

"""Load tokenizer.json… (issue 24): a model's own tokenizer, driven through the labels.

The real all-MiniLM-L6-v2 tokenizer.json is loaded in the page: Tokens change to its
counts, sizes in its tokens, and the JSONL download equals ``python -m chunker_py
--tokenizer-file`` byte for byte; a bad file is refused and the tokenizer stays.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from chunker_py import FIELDS

from ..core.token_references import TOKENIZER_JSON
from .conftest import App

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
TEXT = "Ein Text über café, 東京 und 😀. It's 2026: naïve résumés.\n\n" * 12
FILE_NAME = "minilm-tokenizer.json"


def load_file(app: App, name: str, data: bytes) -> None:
    app.page.get_by_label("Load tokenizer.json…").set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": data}]
    )


def test_a_loaded_tokenizer_json_counts_sizes_and_downloads_as_the_cli(
    app: App, tmp_path: Path
) -> None:
    app.settle(lambda: app.browse("notes.md", TEXT.encode("utf-8"), "text/markdown"))
    app.configure(None, size=120, overlap=0)
    app.select("Tokenizer", value="cl100k_base")
    expect(app.readiness_status()).to_have_text("Ready")
    before = app.token_counts()
    app.settle(lambda: load_file(app, FILE_NAME, TOKENIZER_JSON.read_bytes()))
    status = app.page.locator("#tokenizer-file-status")
    expect(status).to_contain_text(f"Loaded {FILE_NAME}")
    shown = app.control("Tokenizer").evaluate("(el) => el.outerHTML")
    assert app.value("Tokenizer") == f"file:{FILE_NAME}", shown
    app.choose(FIELDS["size_unit"].choices["tokens"])
    expect(app.readiness_status()).to_have_text("Ready")
    fragment = app.page.evaluate("() => location.hash")
    assert f"tok=file%3A{FILE_NAME}" in fragment  # named, never carried
    counts = app.token_counts()
    _, data = app.download("Download JSONL")
    document = tmp_path / "notes.md"
    document.write_bytes(TEXT.encode("utf-8"))
    tokenizer_file = tmp_path / FILE_NAME
    tokenizer_file.write_bytes(TOKENIZER_JSON.read_bytes())
    cli = subprocess.run(
        [sys.executable, "-m", "chunker_py", str(document), "--size", "120", "--overlap", "0",
         "--size-unit", "tokens", "--tokenizer-file", str(tokenizer_file)],
        capture_output=True, cwd=ROOT, check=True,
    )  # fmt: skip
    records = [json.loads(line) for line in cli.stdout.splitlines()]
    assert counts != before
    assert counts == [str(r["tokens"]) for r in records]
    assert all(r["settings"]["tokenizer"] == f"file:{FILE_NAME}" for r in records)
    assert data == cli.stdout


def test_a_file_it_cannot_read_is_refused_and_the_tokenizer_stays(app: App) -> None:
    app.select("Tokenizer", value="o200k_base")
    load_file(app, "broken.json", b'{"model": {"type": "BPE", "vocab": {')
    status = app.page.locator("#tokenizer-file-status")
    expect(status).to_contain_text("not JSON")
    expect(status).to_contain_text("The current tokenizer stays.")
    assert app.value("Tokenizer") == "o200k_base"

"""Load tokenizer.json…: a model's own tokenizer, driven through the labels.

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

from ...core.token_references import TOKENIZER_JSON
from ..conftest import App

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[3]
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


def large_unigram_file(pieces: int = 250_000) -> bytes:
    """A Unigram tokenizer.json the size of XLM-RoBERTa's (250 k scored pieces, ~17 MB)."""
    greek, cyrillic = range(0x3B1, 0x3CA), range(0x430, 0x450)
    letters = "abcdefghijklmnopqrstuvwxyzäöüéçñß東京大学日本語한국어" + "".join(
        map(chr, [*greek, *cyrillic])
    )
    vocab: list[list[object]] = [["<unk>", 0.0], ["▁", -2.5]]
    vocab += [[letter, -8.0 - i / 97] for i, letter in enumerate(letters)]
    vocab += [
        [("▁" if k % 2 else "") + letters[k % len(letters)] + letters[k * 31 % len(letters)]
         + str(k), -3.0 - (k * 7919 % 100003) / 7777.123456789]
        for k in range(pieces - len(vocab))
    ]  # fmt: skip
    spec = {
        "version": "1.0",
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always",
                          "split": True},
        "model": {"type": "Unigram", "unk_id": 0, "vocab": vocab, "byte_fallback": False},
    }  # fmt: skip
    return json.dumps(spec, indent=2, ensure_ascii=False).encode("utf-8")


# Every write to the status line and to #app[data-state], in order, from now on.
TIMELINE = """() => {
  window.__tokTimeline = [];
  const status = document.querySelector("#tokenizer-file-status");
  const app = document.querySelector("#app");
  new MutationObserver(() => window.__tokTimeline.push("status:" + status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
  new MutationObserver(() => window.__tokTimeline.push("state:" + app.dataset.state))
    .observe(app, {attributes: true, attributeFilter: ["data-state"]});
}"""

# When the first progress of `large` is shown, choose `name` in the same control.
REPLACE_AT_FIRST_PROGRESS = """([large, name, text]) => {
  const status = document.querySelector("#tokenizer-file-status");
  const observer = new MutationObserver(() => {
    if (!status.textContent.startsWith("Loading tokenizer… " + large + ":")) return;
    observer.disconnect();
    window.__tokTimeline.push("replaced");
    const input = document.querySelector("#tokenizer-file");
    const files = new DataTransfer();
    files.items.add(new File([text], name, {type: "application/json"}));
    input.files = files.files;
    input.dispatchEvent(new Event("change", {bubbles: true}));
  });
  observer.observe(status, {childList: true, characterData: true, subtree: true});
}"""


def test_a_17_mb_file_loads_in_slices_while_typing_is_answered(app: App) -> None:
    app.settle(lambda: app.browse("notes.md", TEXT.encode("utf-8"), "text/markdown"))
    app.configure(None, size=120, overlap=0)
    status = app.page.locator("#tokenizer-file-status")
    app.page.evaluate(TIMELINE)
    load_file(app, "large-tokenizer.json", large_unigram_file())
    expect(status).to_contain_text("Loading tokenizer… large-tokenizer.json:", timeout=60_000)
    expect(status).to_have_attribute("aria-busy", "true")
    source = app.control("Source text")
    source.click()
    app.page.keyboard.press("ControlOrMeta+End")
    app.page.keyboard.type(" typed")  # no waiting: the keys land while the file loads
    expect(status).to_contain_text("Loaded large-tokenizer.json", timeout=120_000)
    expect(status).to_have_attribute("aria-busy", "false")
    timeline: list[str] = app.page.evaluate("() => window.__tokTimeline")
    progress = [i for i, entry in enumerate(timeline) if entry.startswith("status:Loading")]
    answered = [i for i, entry in enumerate(timeline) if entry == "state:ready"]
    assert len(progress) >= 3, timeline  # the progress was shown as it grew
    # a key's result was shown before the load ended, with more progress after it
    assert any(i < progress[-1] for i in answered), timeline
    assert app.value("Tokenizer") == "file:large-tokenizer.json"
    assert source.input_value().endswith(" typed")


def test_choosing_another_file_mid_load_drops_the_first(app: App) -> None:
    app.settle(lambda: app.browse("notes.md", TEXT.encode("utf-8"), "text/markdown"))
    status = app.page.locator("#tokenizer-file-status")
    app.page.evaluate(TIMELINE)
    app.page.evaluate(
        REPLACE_AT_FIRST_PROGRESS,
        ["replaced-tokenizer.json", FILE_NAME, TOKENIZER_JSON.read_text(encoding="utf-8")],
    )
    load_file(app, "replaced-tokenizer.json", large_unigram_file())
    expect(status).to_contain_text(f"Loaded {FILE_NAME}", timeout=120_000)
    expect(app.readiness_status()).to_have_text("Ready")
    # the first load's next slice saw it was replaced and stopped
    expect(status).to_have_attribute("data-dropped", "replaced-tokenizer.json")
    expect(status).to_contain_text(f"Loaded {FILE_NAME}")
    timeline: list[str] = app.page.evaluate("() => window.__tokTimeline")
    assert "replaced" in timeline
    options = app.control("Tokenizer").evaluate(
        "(el) => Array.from(el.options, (option) => option.value)"
    )
    assert "file:replaced-tokenizer.json" not in options, timeline
    assert app.value("Tokenizer") == f"file:{FILE_NAME}"

"""The `Sentence language` select, driven through its visible label: automatic by default
(German here, from the text's function words), and a chosen language changes Sentence
mode's chunks, the share link and the download."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from chunker_py.config.links import settings_from_fragment

from ..conftest import App

pytestmark = pytest.mark.browser

# German: an ordinal ("der 2. Zug", the second train) never ends a sentence; English has
# no such rule, so "2." ends one there. At size 38 the packing shows the difference: the
# first sentence and "Es kam der 2." fill a chunk exactly (38 code points).
GERMAN = "Wir sind und bleiben da. Es kam der 2. Zug."
AS_GERMAN = ["Wir sind und bleiben da.", "Es kam der 2. Zug."]
AS_ENGLISH = ["Wir sind und bleiben da. Es kam der 2.", "Zug."]


def chunk_texts(app: App) -> list[str]:
    return app.page.locator("#preview-list .chunk-text").all_text_contents()


def test_the_sentence_language_select_changes_the_chunks(app: App) -> None:
    app.fill("Source text", GERMAN)
    app.choose("Sentence")
    app.fill("Requested overlap", "0")
    app.fill("Chunk size", "38")
    expect(app.page.locator("#app")).to_have_attribute("data-state", "ready")
    select = app.page.get_by_label("Sentence language", exact=True)
    expect(select).to_be_visible()
    assert select.evaluate("(el) => el.selectedOptions[0].textContent.trim()") == (
        "Automatic (from the text)"
    )
    assert chunk_texts(app) == AS_GERMAN  # auto: German from "sind", "und", "der"
    app.select("Sentence language", "English")
    expect(app.readiness_status()).to_have_text("Ready")
    assert chunk_texts(app) == AS_ENGLISH
    settings, notes = settings_from_fragment(app.page.evaluate("() => location.hash"))
    assert notes == [] and settings.sentence_language == "en"
    app.select("Sentence language", "German")
    assert chunk_texts(app) == AS_GERMAN
    _name, data = app.download("Download JSONL")
    assert b'"text":"Es kam der 2. Zug."' in data.replace(b": ", b":")
    app.select("Sentence language", "Automatic (from the text)")
    assert chunk_texts(app) == AS_GERMAN
    app.choose("Recursive")
    expect(select).to_be_hidden()  # a Sentence mode option only

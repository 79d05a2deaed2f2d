"""Damage and the splitter comparison on the page, driven through labels and roles.

Both are computed after the result is painted (#app[data-damage], #app[data-comparison]
say when each is ready); the figures must equal chunker_py's for the same text and
settings, and stale work must never overwrite a newer text's result.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from chunker_py import analyse, compare
from chunker_py.config.links import settings_from_fragment

from ..conftest import App
from ..input.test_modes import set_option

pytestmark = pytest.mark.browser

DOC = (
    "# Notes\n\n"
    "Intro sentence one. Intro sentence two is a little longer than the first.\n\n"
    "```py\nfor i in range(3):\n    print(i)\n\n    print('done')\n```\n\n"
    "| Key | Value |\n|---|---|\n| a | alpha |\n| b | beta |\n| c | gamma |\n\n"
    "Café e\u0301t\u00e9 👩\u200d👩\u200d👧 closing words here.\n"
)


def wait_after_paint(app: App) -> None:
    expect(app.page.locator("#app")).to_have_attribute("data-damage", "ready")
    expect(app.page.locator("#app")).to_have_attribute("data-comparison", "ready")


def current_settings(app: App) -> Any:
    settings, notes = settings_from_fragment(app.page.evaluate("() => location.hash"))
    assert notes == []
    return settings


def test_damage_group_equals_the_core_for_the_same_text(app: App) -> None:
    settings = app.configure(DOC, mode="fixed", size=20, overlap=0)
    wait_after_paint(app)
    damage = analyse(DOC, settings).damage
    assert damage is not None and damage.code_blocks_cut == 1 and damage.mid_word_edges > 0
    chunks = len(analyse(DOC, settings).spans)
    shown = {
        "Code blocks cut": f"{damage.code_blocks_cut} of {damage.code_blocks}",
        "Tables cut": f"{damage.tables_cut} of {damage.tables}",
        "Table rows without header": str(damage.table_rows_without_header),
        "Ends mid-sentence": (
            f"{damage.ends_mid_sentence} ({100 * damage.ends_mid_sentence / chunks:.1f}%)"
        ),
        "Mid-word edges": str(damage.mid_word_edges),
        "Split graphemes": str(damage.split_grapheme_edges),
        "Over size": str(damage.over_size),
    }
    for term, value in shown.items():
        expect(app.figure(term)).to_have_text(value)


def test_each_damaged_chunk_says_how_in_words_and_the_filter_shows_only_those(
    app: App,
) -> None:
    settings = app.configure(DOC, size=40, overlap=0)
    wait_after_paint(app)
    result = analyse(DOC, settings)
    damage = result.damage
    assert damage is not None
    damaged = [i for i, c in enumerate(damage.chunks) if c.damaged]
    assert 0 < len(damaged) < len(result.spans)
    words = app.page.locator("#records-body tr").evaluate_all(
        "rows => rows.map(r => r.lastElementChild.textContent)"
    )
    assert words == [
        "; ".join(c.describe() + (["far below the size"] if i in result.tiny else []))
        for i, c in enumerate(damage.chunks)
    ]
    filter_box = app.page.get_by_label("Show damaged chunks only")
    filter_box.check()
    rows = app.records()
    assert [int(r[0]) for r in rows] == damaged
    expect(app.page.locator("#preview-list li.chunk")).to_have_count(len(damaged))
    expect(app.page.locator("#preview-list .chunk-damage").first).to_contain_text(
        damage.chunks[damaged[0]].describe()[0]
    )
    filter_box.uncheck()
    expect(app.page.locator("#records-body tr")).to_have_count(len(result.spans))


FENCED = (
    "Intro paragraph that explains the code below in a few words.\n\n"
    "```python\n" + "value = compute(value)\n" * 12 + "```\n\n"
    "Closing paragraph after the code block, long enough to stand alone: it says what the "
    "code computes and why, in more words than one chunk of the size holds.\n"
)


def test_a_chunk_far_below_the_size_says_so_in_readiness_and_its_record(app: App) -> None:
    """A lone closing fence with the Markdown preset: a 3-code-point chunk."""
    app.configure(FENCED, size=120, overlap=0)
    set_option(app, "Separators preset", "markdown")
    try:
        wait_after_paint(app)
        settings = current_settings(app)
        assert settings.get("preset") == "markdown"
        result = analyse(FENCED, settings)
        fence = next(c.index for c in result.chunks if c.text == "```")
        assert result.tiny == {fence}
        warnings = app.region("Chunk readiness").locator("#readiness-warnings li")
        expect(warnings.filter(has_text="far below the size")).to_have_count(1)
        row = app.page.locator(f'#records-body tr[data-index="{fence}"]')
        expect(row.locator(".damage-cell")).to_contain_text("far below the size")
        texts = app.page.locator("#records-body tr .damage-cell").all_text_contents()
        assert [i for i, t in enumerate(texts) if "far below the size" in t] == [fence]
    finally:
        set_option(app, "Separators preset", "generic")


def test_choosing_a_comparison_row_applies_its_settings(app: App) -> None:
    settings = app.configure(DOC, size=60, overlap=10)
    wait_after_paint(app)
    rows = compare(DOC, settings)
    table = app.page.locator("#compare-body tr")
    expect(table).to_have_count(len(rows))
    labels = table.locator("th").all_text_contents()
    assert labels == [r.label + (" (current)" if r.current else "") for r in rows]
    counts = table.evaluate_all("rows => rows.map(r => r.cells[1].textContent)")
    assert counts == [f"{r.count:,}" for r in rows]
    app.settle(
        lambda: app.page.get_by_role("button", name="Use Markdown structure settings").click()
    )
    expect(app.page.get_by_role("radio", name="Markdown structure")).to_be_checked()
    chosen = current_settings(app)
    assert chosen.mode == "markdown" and chosen.chunk_size == 60
    wait_after_paint(app)
    expect(app.page.locator("#compare-body tr.current th")).to_have_text(
        "Markdown structure (current)"
    )
    app.choose("Recursive")


def test_typing_stays_correct_while_the_comparison_is_computed(app: App) -> None:
    app.configure(DOC, size=40, overlap=5)
    wait_after_paint(app)
    area = app.source
    area.focus()
    area.press("End")
    app.settle(lambda: app.page.keyboard.type(" More text typed quickly. Another one!", delay=5))
    wait_after_paint(app)
    text = area.input_value()
    assert text.endswith("Another one!")
    settings = current_settings(app)
    result = analyse(text, settings)
    assert [r[-1] for r in app.records()] == [c.text for c in result.chunks]
    counts = app.page.locator("#compare-body tr").evaluate_all(
        "rows => rows.map(r => r.cells[1].textContent)"
    )
    assert counts == [f"{r.count:,}" for r in compare(text, settings)]


def test_damage_words_stay_with_their_chunks_when_the_lists_are_redrawn(app: App) -> None:
    """The preview and the records draw the damage words from their own view, so items
    drawn after the damage pass (Show all, Show whitespace) get theirs too."""
    settings = app.configure(DOC, mode="fixed", size=4, overlap=0)
    wait_after_paint(app)
    damage = analyse(DOC, settings).damage
    assert damage is not None
    expected = ["; ".join(c.describe()) for c in damage.chunks]
    assert len(expected) > 60 and all(expected)  # more than the preview lists at first
    preview_words = "items => items.map(i => i.querySelector('.chunk-damage').textContent)"
    items = app.page.locator("#preview-list li.chunk")
    expect(items).to_have_count(60)
    app.page.get_by_role("button", name=f"Show all {len(expected)} chunks").click()
    expect(items).to_have_count(len(expected))
    assert items.evaluate_all(preview_words) == expected
    app.page.get_by_label("Show whitespace").check()
    expect(app.page.locator("#preview-list .ws").first).to_be_attached()
    assert items.evaluate_all(preview_words) == expected
    records_words = "rows => rows.map(r => r.lastElementChild.textContent)"
    assert app.page.locator("#records-body tr").evaluate_all(records_words) == expected

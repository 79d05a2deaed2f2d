"""Every figure in its unit, said in the page's own words, with no dead end.

Expected values come from chunker_py on the same text and settings. Each test names the
fault it rules out; each failed on the page before its fix.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from chunker_py import TOKENIZERS, Row, analyse, compare
from chunker_py import Settings as CoreSettings
from chunker_py.config.links import settings_from_fragment
from chunker_py.pipeline.units import size_unit_name

from ..conftest import ROOT, SAMPLE, App
from .test_damage import DOC

pytestmark = pytest.mark.browser

# A long README's first 20,000 code points (this project's, frozen at an earlier commit), cut
# at a line end: headings, code, tables, prose.
README = (
    (ROOT / "bench" / "data" / "README-6f5a5e5.md").read_text("utf-8")[:20_000].rsplit("\n", 1)[0]
)


def wait_after_paint(app: App) -> None:
    """Damage and the comparison done (a first tokenizer load and seven rows on 20,000
    code points take seconds on a busy machine: the wait is generous)."""
    for flag in ("data-damage", "data-comparison"):
        expect(app.page.locator("#app")).to_have_attribute(flag, "ready", timeout=90_000)


def current_settings(app: App) -> CoreSettings:
    settings, notes = settings_from_fragment(app.page.evaluate("() => location.hash"))
    assert notes == []
    return settings


def warnings_shown(app: App) -> list[str]:
    return app.region("Chunk readiness").locator("#readiness-warnings li").all_text_contents()


def waiting_for_the_model(row: Row, cells: list[str]) -> bool:
    """Semantic mode's row waits for the embedding model in the page (it is loaded only when
    Semantic mode or dense retrieval is chosen), so it has no figures and its figure cells
    show a dash; the core without an embedder agrees (no figures)."""
    if row.key != "semantic":
        return False
    assert row.damage is None and row.max_size is None
    assert cells[2:11] == ["—"] * 9
    return True


def comparison_cells(app: App) -> list[list[str]]:
    """Each comparison row's cells after the Splitter name (Apply's button left out)."""
    return app.page.locator("#compare-body tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].slice(1, -1).map(c => c.textContent))"
    )


@pytest.mark.parametrize("tokenizer", list(TOKENIZERS))
def test_sizes_in_tokens_are_judged_in_tokens_everywhere(app: App, tokenizer: str) -> None:
    """With Size unit = Tokens, the readiness warning, the sizes histogram (unit,
    over-size bins, caption), the hint under the size fields and the comparison's size
    columns all count tokens of the chosen tokenizer."""
    app.configure(README, size=256, overlap=32)
    app.choose("Tokens")
    app.select("Tokenizer", value=tokenizer)
    wait_after_paint(app)
    settings = current_settings(app)
    assert settings.size_unit == "tokens" and settings.tokenizer == tokenizer
    result = analyse(README, settings)
    damage = result.damage
    assert damage is not None
    unit = f"{tokenizer} tokens"
    assert size_unit_name(settings) == unit
    # readiness: warns of exactly the chunks over 256 tokens (none when Over size is 0)
    assert warnings_shown(app) == list(result.warnings)
    over = [w for w in result.warnings if "far below the size" not in w]  # not tiny chunks
    assert bool(over) == (damage.over_size > 0)
    assert all(unit in warning for warning in result.warnings)
    expect(app.figure("Over size")).to_have_text(f"{damage.over_size:,}")
    # the hint under Chunk size and Requested overlap
    expect(app.page.locator("#numbers-unit")).to_have_text(f"In {unit}.")
    # the histogram: bars in tokens, hatched exactly where a bin is over the size
    chart = app.page.locator("#sizes-chart")
    expect(chart).to_have_attribute("data-unit", unit)
    bins = json.loads(chart.get_attribute("data-bins") or "[]")
    assert sum(n for _f, _l, n in bins) == len(result.spans)
    assert sum(n for first, _l, n in bins if first > 256) == damage.over_size
    expect(app.page.locator("#sizes-text")).to_contain_text(
        f"{damage.over_size:,} over the chunk size of 256 {unit}."
    )
    # the comparison: every row's sizes in its own unit, equal to the core's
    rows = compare(README, settings)
    for row, cells in zip(rows, comparison_cells(app), strict=True):
        assert cells[1] == size_unit_name(row.settings) == unit
        if not waiting_for_the_model(row, cells):
            assert cells[3] == f"{row.max_size:,}"
    app.choose("Code points")
    app.select("Tokenizer", value="cl100k_base")


def test_the_token_window_row_names_its_unit_beside_code_point_rows(app: App) -> None:
    """At size 400 in code points, Token window's sizes are tokens and say so."""
    app.configure(README, size=400, overlap=50)
    app.choose("Code points")
    wait_after_paint(app)
    settings = current_settings(app)
    rows = compare(README, settings)
    cells = comparison_cells(app)
    labels = app.page.locator("#compare-body th").all_text_contents()
    for label, row, row_cells in zip(labels, rows, cells, strict=True):
        expected = f"{settings.tokenizer} tokens" if row.key == "token-window" else "code points"
        assert row_cells[1] == expected, label
        if not waiting_for_the_model(row, row_cells):
            assert row_cells[3] == f"{row.max_size:,}", label
    # and in Token window mode itself the hint and histogram count tokens
    app.choose("Token window")
    wait_after_paint(app)
    unit = f"{settings.tokenizer} tokens"
    expect(app.page.locator("#numbers-unit")).to_have_text(f"In {unit}.")
    expect(app.page.locator("#sizes-chart")).to_have_attribute("data-unit", unit)
    app.choose("Recursive")


def test_clicking_blank_space_in_the_chunk_map_raises_nothing(app: App) -> None:
    """A click on the map's padding (no chunk under it) was a PythonError."""
    app.configure(DOC, size=60, overlap=0)
    chunk_map = app.page.locator("#chunk-map")
    chunk_map.scroll_into_view_if_needed()
    expect(chunk_map.locator(".map-chunk").first).to_be_attached()
    errors = len(app.page_errors)
    chunk_map.click(position={"x": 2, "y": 2})
    chunk_map.click(position={"x": 3, "y": 3})
    # a chunk still activates afterwards: the click handler kept working
    app.page.locator("#chunk-map .map-chunk").nth(1).click()
    expect(app.page.locator("#records-body tr.selected")).to_have_count(1)
    assert app.page_errors[errors:] == []


def test_the_best_of_each_damage_column_is_marked_in_words(app: App) -> None:
    """The fewest of each damage column is emphasised and says "fewest"."""
    app.configure(DOC, size=40, overlap=5)
    wait_after_paint(app)
    rows = compare(DOC, current_settings(app))
    columns = {  # position among the cells after the name, the core's figure
        5: lambda r: r.damage.code_blocks_cut,
        6: lambda r: r.damage.tables_cut,
        7: lambda r: r.ends_mid_sentence_pct,
        8: lambda r: r.damage.mid_word_edges,
        9: lambda r: r.damage.split_grapheme_edges,
        10: lambda r: r.damage.over_size,
    }
    marked = app.page.locator("#compare-body tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].slice(1, -1).map(c => c.classList.contains('best')"
        " && c.querySelector('.best-tag')?.textContent === 'fewest'))"
    )
    # Semantic mode's row waits for the embedding model: no figures, never marked
    waiting = [
        i
        for i, (r, cells) in enumerate(zip(rows, comparison_cells(app), strict=True))
        if waiting_for_the_model(r, cells)
    ]
    assert len(waiting) == 1
    assert not any(marked.pop(waiting[0]))
    rows = [r for i, r in enumerate(rows) if i != waiting[0]]
    differing = 0
    for position, figure in columns.items():
        values = [figure(r) for r in rows]
        if len(set(values)) == 1:
            assert not any(m[position] for m in marked), "a column of equal values is marked"
            continue
        differing += 1
        fewest = min(values)
        assert [m[position] for m in marked] == [v == fewest for v in values], position
    assert differing >= 2  # the document makes the splitters differ


def test_use_says_what_it_applied_and_keeps_the_focus_on_the_table(app: App) -> None:
    """Choosing Use says so in words and focus lands on the row now current."""
    app.configure(DOC, size=60, overlap=10)
    wait_after_paint(app)
    app.settle(lambda: app.page.get_by_role("button", name="Use Sentence settings").click())
    wait_after_paint(app)
    expect(app.page.locator("#compare-status")).to_contain_text("Now using Sentence")
    focused = app.page.evaluate("() => document.activeElement.textContent")
    assert focused == "Sentence (current)"
    app.choose("Recursive")


# one input event with the whole text, as a paste gives
PASTE = "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }"

INTERNAL = re.compile(r"\bseed \d|\bREADME\b|\bissue \d|\bSPEC\b", re.IGNORECASE)


def test_the_page_speaks_no_internal_language_and_defines_its_figures(app: App) -> None:
    """No tracker or source numbers, no "see the README"; each summary figure and comparison
    column has a definition on the page, the guide's where it gives one, reachable from
    the keyboard."""
    app.configure(DOC, size=60, overlap=10)
    wait_after_paint(app)
    page = app.page
    text = page.evaluate("() => document.body.innerText")
    assert INTERNAL.findall(text) == []
    definitions = page.locator("details.definitions")
    summary = definitions.locator("summary")
    summary.focus()
    page.keyboard.press("Enter")
    expect(definitions).to_have_attribute("open", "")
    terms = " ".join(definitions.locator("dt").all_text_contents())
    figures = app.region("Summary").locator("dl.figures dt").all_text_contents()
    table = app.region("Splitter comparison table, scrollable")
    columns = table.locator("thead th").all_text_contents()[1:-1]
    for figure in figures + columns:
        assert figure in terms, f"{figure!r} is not defined"
    defined = definitions.locator("dd").all_text_contents()
    guide = (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8")
    repeated = "It counts repeated occurrences, not distinct repeated words or phrases anywhere"
    assert repeated in guide and any(repeated in d for d in defined)
    omitted = "absent from every retained chunk after trimming"
    assert omitted in guide and any(omitted in d for d in defined)
    page.keyboard.press("Enter")
    expect(definitions).not_to_have_attribute("open", "")


def test_a_paste_over_the_limit_can_be_kept_cut_to_its_first_20000_code_points(
    app: App,
) -> None:
    """Refused, old text kept, and an explicit offer to keep its start (cut in
    code points: 20,005 emoji are 40,010 UTF-16 units)."""
    app.configure(SAMPLE)
    pasted = "😀" * 20_005
    area = app.source
    area.evaluate(PASTE, pasted)
    expect(app.source_status()).to_contain_text("20,005 code points")
    assert area.input_value() == SAMPLE.replace("\r\n", "\n")
    keep = app.page.get_by_role("button", name="Keep the first 20,000 code points")
    expect(keep).to_be_visible()
    app.settle(keep.click)
    assert (
        app.page.evaluate("() => [...document.getElementById('source-text').value].length")
        == 20_000
    )
    assert area.input_value() == "😀" * 20_000
    expect(app.page.locator("#source-count")).to_have_text("20,000 of 20,000 code points")
    expect(keep).to_be_hidden()
    app.fill("Source text", SAMPLE)


def test_figures_group_thousands_and_the_sample_is_labelled_and_cleared_in_one_step(
    app: App,
) -> None:
    """Figures grouped: "Average 1,431.2", not 1431.2 (tokens too); the sample says it is one;
    Clear text empties the text in one step."""
    page = app.page
    app.fill("Source text", SAMPLE)
    expect(page.locator("#source-sample")).to_be_visible()
    text = (README + "\n") * 2
    text = text[:19_990]
    app.configure(text, size=10_000, overlap=0)
    expect(page.locator("#source-sample")).to_be_hidden()
    wait_after_paint(app)
    result = analyse(text, current_settings(app))
    assert result.summary is not None and result.summary.average >= 1_000
    expect(app.figure("Average")).to_have_text(f"{result.summary.average:,.1f}")
    tokens = result.token_summary
    assert tokens is not None and tokens.average >= 1_000
    expect(page.locator("#tokens-average")).to_have_text(f"{tokens.average:,.1f}")
    app.settle(lambda: app.press("Clear text"))
    assert app.source.input_value() == ""
    expect(app.readiness_status()).to_have_text("Check inputs")
    assert page.evaluate("() => document.activeElement.id") == "source-text"
    app.configure(SAMPLE)

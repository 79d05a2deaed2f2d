"""What the page's figures and marks mean is said where they are shown: each Evidence
check figure has its definition and unit beside it, and the chunk map's legend explains
every mark the map draws, damage included, with room between its lines."""

from __future__ import annotations

from itertools import pairwise

import pytest
from playwright.sync_api import expect

from ..conftest import App

pytestmark = pytest.mark.browser

UNITS = ("of all", "of those checked", "in chunks", "in code points", "tokens")


def test_every_evidence_figure_is_defined_beside_it_with_its_unit(app: App) -> None:
    figures = app.page.get_by_role("list", name="Evidence figures of this result")
    if not figures.count():  # a <dl> is not a list role in every engine: by its label
        figures = app.page.locator('dl[aria-label="Evidence figures of this result"]')
    terms = figures.locator("dt")
    assert terms.count() == 9
    for i in range(terms.count()):
        item = terms.nth(i).locator("xpath=..")
        term = terms.nth(i).inner_text()
        definition = item.locator("dd.figure-def")
        expect(definition).to_be_visible()
        said = definition.inner_text()
        assert any(unit in said for unit in UNITS), f"{term}: {said}"
    tokens = figures.locator("div").filter(has_text="Tokens at k").locator("dd.figure-def")
    expect(tokens).to_contain_text("cl100k_base")


def test_the_chunk_map_legend_explains_the_damage_marks(app: App) -> None:
    legend = app.page.locator("#chunk-map-help")
    for words in ("red dotted underline", "red start bar", "red double line"):
        expect(legend).to_contain_text(words)
    style = legend.evaluate(
        "(el) => { const s = getComputedStyle(el); const d ="
        " getComputedStyle(el.querySelector('.map-damage-key'));"
        " return [parseFloat(s.lineHeight) / parseFloat(s.fontSize), d.textDecorationStyle]; }"
    )
    assert style[0] >= 1.9  # an underline 4 px below a word stays clear of the next line
    assert style[1] == "dotted"


@pytest.mark.parametrize("width", (390, 1400))
def test_the_size_trade_offs_labels_are_legible_with_questions(app: App, width: int) -> None:
    """With the sample's questions each bar's label says "N / a/b ✓" (excerpts kept
    whole): at least 11 px at every width (Plotly shrank them to the bars, to about 6 px),
    and no label runs into its neighbour's."""
    app.page.set_viewport_size({"width": width, "height": 900})
    app.page.wait_for_selector('#app[data-comparison="ready"]', timeout=30_000)
    labels = app.page.locator("#tradeoff-chart .bartext")
    app.page.wait_for_function(
        "() => [...document.querySelectorAll('#tradeoff-chart .bartext')]"
        ".every((t) => t.textContent.includes('✓'))"
    )
    sizes = labels.evaluate_all(
        "(texts) => texts.map((t) => parseFloat(getComputedStyle(t).fontSize))"
    )
    assert min(sizes) >= 11, sizes
    boxes = labels.evaluate_all(
        "(texts) => texts.map((t) => { const r = t.getBoundingClientRect();"
        " return [r.left, r.right]; })"
    )
    for (_l1, right), (left, _r2) in pairwise(boxes):
        assert right <= left + 1, boxes
    app.page.set_viewport_size({"width": 1400, "height": 900})


def test_the_figures_at_k_say_which_chunks_they_are_of(app: App) -> None:
    """Recall, Precision and IoU at k, and the comparison's Evidence columns, name the
    retrieval and what it takes: k chunks, or those within the Budget."""
    definitions = [app.page.locator(f"#evidence-{f}-def") for f in ("recall", "precision", "iou")]
    compared = app.page.locator("#compare-retrieval")
    app.fill("Chunks retrieved", "3")
    for said in (*definitions, compared):
        expect(said).to_contain_text("the 3 chunks BM25 retrieves")
    app.fill("Budget", "800")
    within = "the chunks BM25 ranks first while their tokens stay within 800"
    for said in (*definitions, compared):
        expect(said).to_contain_text(within)
    app.fill("Budget", "")
    app.fill("Chunks retrieved", "5")
    expect(compared).to_have_text("at k: the 5 chunks BM25 retrieves")

"""Small things a keyboard user and a question writer meet: a skip link to the results as
the first Tab stop, and a Question field as wide as its panel."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..conftest import App

pytestmark = pytest.mark.browser


def test_the_first_tab_offers_a_skip_link_to_the_results(app: App) -> None:
    """The skip link is the page's first focusable element (the first Tab stop); focused it
    shows, and Enter takes the keyboard past the settings to Chunk readiness."""
    first = app.page.evaluate(
        "() => document.querySelector('a[href], button, input, select, textarea, summary')"
        ".textContent"
    )
    assert first == "Skip to the results"
    skip = app.page.get_by_role("link", name="Skip to the results")
    skip.focus()
    expect(skip).to_be_focused()
    assert skip.evaluate("(el) => el.getBoundingClientRect().width") > 20
    app.page.keyboard.press("Enter")
    expect(app.page.locator("#readiness")).to_be_in_viewport()


def test_the_question_field_takes_its_panels_width(app: App) -> None:
    field = app.page.get_by_label("Question", exact=True)
    panel = app.page.locator("#evidence-panel")
    ratio = field.evaluate(
        "(el, panel) => el.getBoundingClientRect().width / panel.getBoundingClientRect().width",
        panel.element_handle(),
    )
    assert ratio > 0.8


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_excerpt_box_looks_like_the_other_fields(app: App, scheme: str) -> None:
    """In dark mode the browser's own textarea looked disabled beside the Question field."""
    app.page.emulate_media(color_scheme=scheme)
    look = (
        "(el) => { const s = getComputedStyle(el);"
        " return [s.backgroundColor, s.color, s.borderTopColor]; }"
    )
    question = app.page.get_by_label("Question", exact=True).evaluate(look)
    excerpt = app.page.get_by_label("Excerpt", exact=True).evaluate(look)
    assert excerpt == question
    app.page.emulate_media(color_scheme="light")

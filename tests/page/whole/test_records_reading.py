"""Chunk records are read for their text: at every width the Text cell takes most of the
table's width and a record of the sample is a few lines tall, not a letter-by-letter
column (51 px wide on a phone, rows 700-1,100 px tall, before)."""

from __future__ import annotations

import pytest

from ..conftest import App

pytestmark = pytest.mark.browser

MEASURE = """() => {
    const wrap = document.querySelector('#records-panel .table-wrap');
    const row = document.querySelector('#records-body tr');
    const text = row.querySelector('td.text-cell');
    return {
        wrap: wrap.getBoundingClientRect().width,
        text: text.getBoundingClientRect().width,
        row: row.getBoundingClientRect().height,
        label: row.querySelector('td.num').dataset.label,
    };
}"""


@pytest.mark.parametrize("width", (390, 768, 1024, 1400))
def test_the_text_of_a_record_is_readable_at_every_width(app: App, width: int) -> None:
    app.page.set_viewport_size({"width": width, "height": 900})
    app.page.locator("#records-panel").scroll_into_view_if_needed()
    app.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")
    seen = app.page.evaluate(MEASURE)
    if width < 700:  # a card: the text across it
        assert seen["text"] >= 0.8 * seen["wrap"], seen
    else:  # a table: the text column at least 18rem beside the figures
        assert seen["text"] >= 280, seen
    assert seen["row"] < 400, seen  # the sample's chunks are up to 300 code points
    assert seen["label"] == "Index"  # each figure names its column on a card
    app.page.set_viewport_size({"width": 1400, "height": 900})

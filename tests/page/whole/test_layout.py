"""The page at every width: no panel over another, no sideways scroll, every control in reach.

Widths 390 (a phone), 768, 1,024 and 1,400 px, 900 px tall. Boxes are read from the page
(getBoundingClientRect) at the top, the middle and the end of the page, so a settings
column that stays sticky over the results is seen where it covers
them; every control is scrolled into view and hit-tested, and reached with Tab.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from ..conftest import App, launch_app

pytestmark = pytest.mark.browser

WIDTHS = (390, 768, 1024, 1400)
HEIGHT = 900

# The panels' boxes in the viewport: the settings column and every result panel shown.
PANEL_BOXES = """() => {
    const boxes = [];
    for (const el of document.querySelectorAll('.inputs, .results .panel')) {
        if (!el.checkVisibility()) continue;
        const r = el.getBoundingClientRect();
        const name = el.getAttribute('aria-labelledby') || el.className;
        boxes.push({ name, left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    }
    return boxes;
}"""

# Every control a person can operate, marked with data-probe (radios: the checked one of
# each group, the group's one Tab stop).
MARK_CONTROLS = """() => {
    for (const el of document.querySelectorAll('[data-probe]')) delete el.dataset.probe;
    const selector = 'a[href], button:not([disabled]), input:not([disabled]),'
        + ' select:not([disabled]), textarea, summary, [tabindex]:not([tabindex="-1"])';
    const controls = [...document.querySelectorAll(selector)].filter((el) =>
        el.checkVisibility() && !(el.type === 'radio' && !el.checked) && el.tabIndex >= 0);
    controls.forEach((el, i) => { el.dataset.probe = String(i); });
    return controls.length;
}"""

# Scroll control `i` into view (nested scroll boxes too) and hit-test its centre.
REACH = """(i) => {
    const el = document.querySelector(`[data-probe="${i}"]`);
    el.scrollIntoView({ block: 'center', inline: 'nearest' });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
    const hit = document.elementFromPoint(x, y);
    const labelled = [...(el.labels || [])].some((l) => l.contains(hit));
    const ok = inView && hit !== null && (el === hit || el.contains(hit) || labelled
        || el.classList.contains('visually-hidden'));
    return ok ? null : `${el.outerHTML.slice(0, 120)} (hit: ${hit && hit.outerHTML.slice(0, 80)})`;
}"""

NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
# what sticks out on the right, to say why
SIDEWAYS = """() => [...document.querySelectorAll('body *')]
    .filter((el) => el.checkVisibility()
        && el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
        && !el.closest('.table-wrap, .chunk-map'))
    .slice(0, 5).map((el) => el.outerHTML.slice(0, 80))"""

FOCUSED_PROBE = "() => document.activeElement && document.activeElement.dataset.probe || null"


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["left"] < b["right"] - 0.5
        and b["left"] < a["right"] - 0.5
        and a["top"] < b["bottom"] - 0.5
        and b["top"] < a["bottom"] - 0.5
    )


@pytest.fixture(scope="module")
def wide(browser: Any, server: Any) -> Iterator[App]:
    """One booted page, resized per test (a resize re-lays out; no reload is needed)."""
    booted = launch_app(browser, server.url, viewport={"width": 1400, "height": HEIGHT})
    booted.open().wait_ready()
    expect(booted.page.locator("#app")).to_have_attribute("data-comparison", "ready")
    yield booted
    booted.page.context.close()


def at_width(app: App, width: int) -> None:
    app.page.set_viewport_size({"width": width, "height": HEIGHT})
    app.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done()))")


def scroll_positions(app: App) -> list[int]:
    end = app.page.evaluate("() => document.documentElement.scrollHeight - innerHeight")
    return [0, end // 3, end // 2, 2 * end // 3, end]


@pytest.mark.parametrize("width", WIDTHS)
def test_no_panel_covers_another_and_nothing_scrolls_sideways(wide: App, width: int) -> None:
    at_width(wide, width)
    page = wide.page
    # charts follow a resize a little later (Plotly's responsive mode): wait for the state
    try:
        page.wait_for_function(NO_SIDEWAYS, timeout=15_000)
    except PlaywrightError:
        sideways = page.evaluate(SIDEWAYS)
        pytest.fail(f"the page scrolls sideways at {width} px: {sideways}")
    for y in scroll_positions(wide):
        page.evaluate("(y) => window.scrollTo(0, y)", y)
        boxes = page.evaluate(PANEL_BOXES)
        clashes = [
            (a["name"], b["name"])
            for i, a in enumerate(boxes)
            for b in boxes[i + 1 :]
            if overlaps(a, b)
        ]
        assert clashes == [], f"at {width} px, scrolled to {y}: {clashes}"
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("width", (390, 900))
def test_the_settings_column_is_not_sticky_in_one_column(wide: App, width: int) -> None:
    """The narrow-screen rule must win over the sticky one."""
    at_width(wide, width)
    position = wide.page.evaluate(
        "() => getComputedStyle(document.querySelector('.inputs')).position"
    )
    assert position == "static"


@pytest.mark.parametrize("width", WIDTHS)
def test_every_control_can_be_scrolled_into_view_and_reached_with_tab(
    wide: App, width: int
) -> None:
    at_width(wide, width)
    page = wide.page
    count = page.evaluate(MARK_CONTROLS)
    assert count > 30
    unreachable = [problem for i in range(count) if (problem := page.evaluate(REACH, i))]
    assert unreachable == [], f"at {width} px: {unreachable}"
    page.click("h1")
    reached: set[str] = set()
    first = None
    for _ in range(count + 40):
        page.keyboard.press("Tab")
        probe = page.evaluate(FOCUSED_PROBE)
        if probe is None and reached:
            continue  # an element without a probe (e.g. inside Plotly), keep going
        if probe == first:
            break
        first = first or probe
        reached.add(probe)
        if len(reached) == count:
            break
    missing = sorted(set(map(str, range(count))) - reached, key=int)
    names = [
        page.evaluate(
            f"() => document.querySelector('[data-probe=\"{i}\"]').outerHTML.slice(0, 100)"
        )
        for i in missing
    ]
    assert names == [], f"not reached with Tab at {width} px: {names}"
    page.evaluate("() => window.scrollTo(0, 0)")


def test_every_setting_is_in_reach_mid_page_on_a_short_window(wide: App) -> None:
    """At 1,400 x 900, scrolled to the middle of the results, every control of
    the settings column can be brought into view without leaving that place."""
    at_width(wide, 1400)
    page = wide.page
    for summary in ("Size unit and tokenizer", "Mode options", "Advanced"):
        wide.open_group(summary)
    middle = scroll_positions(wide)[2]
    page.evaluate("(y) => window.scrollTo(0, y)", middle)
    column = page.evaluate(
        "() => { const r = document.querySelector('.inputs').getBoundingClientRect();"
        " return { top: r.top, bottom: r.bottom }; }"
    )
    assert column["top"] >= 0 and column["bottom"] <= HEIGHT, column
    controls = page.locator(
        ".inputs :is(input:not(.visually-hidden), select, textarea, button, summary)"
    )
    unreachable = []
    for control in controls.all():
        if not control.is_visible():
            continue
        problem = control.evaluate(
            """(el) => {
                el.scrollIntoView({ block: 'nearest' });
                const r = el.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                const ok = r.top >= 0 && r.bottom <= innerHeight && hit !== null
                    && (el === hit || el.contains(hit)
                        || [...(el.labels || [])].some((l) => l.contains(hit)));
                return ok ? null : el.outerHTML.slice(0, 100);
            }"""
        )
        if problem:
            unreachable.append(problem)
    assert unreachable == []
    scrolled = page.evaluate("() => window.scrollY")
    assert abs(scrolled - middle) < 2, "reaching a setting scrolled the page away"
    wide.close_group("Advanced")
    page.evaluate("() => window.scrollTo(0, 0)")


def test_the_comparison_fits_its_panel_at_1400_px(wide: App) -> None:
    """Every column, Apply included, without scrolling the table sideways."""
    at_width(wide, 1400)
    wrap = wide.region("Splitter comparison table, scrollable")
    sizes = wrap.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert sizes[0] <= sizes[1], sizes
    wrap.scroll_into_view_if_needed()
    expect(wrap.get_by_role("button", name="Use Sentence settings")).to_be_in_viewport(ratio=1)


def test_focusing_browse_outlines_the_button_only(wide: App) -> None:
    """The hint beside Browse TXT/MD is not outlined with the button."""
    at_width(wide, 1400)
    page = wide.page
    page.click("h1")
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "browse":
            break
    assert page.evaluate("() => document.activeElement.id") == "browse"
    outline = page.evaluate(
        "(id) => getComputedStyle(document.getElementById(id)).outlineStyle", "source-help"
    )
    assert outline == "none"
    button = page.evaluate(
        "() => getComputedStyle(document.querySelector('label[for=browse]')).outlineStyle"
    )
    assert button != "none"


# The settings' controls the result bar ("Ready · N chunks · Show the results ↓") covers.
UNDER_THE_BAR = """() => {
    const bar = document.getElementById('result-bar');
    if (!bar.checkVisibility()) return [];
    const b = bar.getBoundingClientRect();
    return [...document.querySelectorAll('.inputs :is(button, input, select, textarea, summary)')]
        .filter((el) => el !== bar && el.checkVisibility())
        .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.left < b.right - 0.5 && b.left < r.right - 0.5
                && r.top < b.bottom - 0.5 && b.top < r.bottom - 0.5;
        })
        .map((el) => el.outerHTML.slice(0, 80));
}"""


@pytest.mark.parametrize("width", (390, 768))
def test_the_result_bar_covers_no_control_of_the_settings(wide: App, width: int) -> None:
    """Scrolled through the settings in steps, no control lies under the result bar."""
    at_width(wide, width)
    page = wide.page
    expect(page.locator("#result-bar")).to_contain_text("Show the results")
    end = page.evaluate(
        "() => document.querySelector('.inputs').getBoundingClientRect().bottom + scrollY"
    )
    for y in range(0, int(end), HEIGHT // 4):
        page.evaluate("(y) => window.scrollTo(0, y)", y)
        covered = page.evaluate(UNDER_THE_BAR)
        assert covered == [], f"at {width} px, scrolled to {y}: {covered}"
    page.evaluate("() => window.scrollTo(0, 0)")

"""No input within the limits blocks the main thread for long (issue 18, defect 8).

A PerformanceObserver lists every long task (50 ms or more) while the page shows a
document's result and everything after the paint (charts, damage, the splitter
comparison). The hostile but legal document of issue 18, 20,000 code points of a 40-level
nested list, is tried in every mode: before the comparison ran one row per task, it held
the page for 290-700 ms in one task. Not yet here (issue 18's closing note), because one
step of theirs is still too long: a 20,000-letter run without a separator, which the Token
window row encodes as one BPE piece (~180 ms in CPython), a 2,000-row table or quotes
nested 30 deep (one markdown-it-py parse, 60-190 ms in CPython), and 20,000 code points of
emoji sequences.

Wall-clock limits flake on a busy machine, so the bar is relative to work measured in the
same page, just before or in the same edit: the edit's own task (the input event, which
splits and draws the result at once) and ordinary prose of the same length in the same
mode. No task after the paint may exceed 200 ms unless it stays within RATIO times the
larger of those two (the machine is slow at that moment, not the page): before issue 18
the comparison ran seven splits and damage passes in one task, now one per task. The
edit's own task is the split itself (for Markdown structure, markdown-it-py's parse): it
is not held to the bar here (see issue 18's closing note).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from chunker_py import MAX_CODE_POINTS, MODES

from .conftest import App, launch_app

pytestmark = pytest.mark.browser

LIMIT_MS = 200
RATIO = 3  # an after-paint task may take this many times the edit's own work
FLOOR_MS = 50  # long tasks start at 50 ms: a baseline with none counts as 50

OBSERVE = """() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            window.__longTasks.push([entry.startTime, entry.duration]);
        }
    }).observe({ type: 'longtask' });
}"""

# one input event with the whole text, as a paste gives; returns when it started and ended
# (the page splits and draws the result in the event itself)
PASTE = """(el, v) => {
    el.value = v;
    const start = performance.now();
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return [start, performance.now()];
}"""


def fit(text: str) -> str:
    return text[:MAX_CODE_POINTS]


def nested_list(depth: int = 40) -> str:
    lines = [" " * (2 * min(d, depth - 1)) + f"- item {d} of the list" for d in range(4_000)]
    return fit("\n".join(lines))


HOSTILE = {
    "nested list": nested_list(),
}
PROSE = fit(
    "Reset your password from the account page. Keep your backup codes somewhere safe.\n\n" * 300
)


@pytest.fixture(scope="module")
def probed(browser: Any, server: Any) -> Iterator[App]:
    booted = launch_app(browser, server.url, viewport={"width": 1400, "height": 900})
    booted.open().wait_ready()
    booted.page.evaluate(OBSERVE)
    yield booted
    booted.page.context.close()


def tasks(app: App, text: str) -> tuple[float, float]:
    """Show ``text``'s result and everything after the paint: the edit's own task and
    the longest task after it (0 when none was long)."""
    page = app.page
    # the previous document's after-paint work done, then a clean list
    expect(page.locator("#app")).to_have_attribute("data-comparison", "ready", timeout=120_000)
    page.evaluate("() => { window.__longTasks = []; }")
    edit: list[float] = []
    app.settle(lambda: edit.extend(app.source.evaluate(PASTE, text)), timeout=120_000)
    expect(page.locator("#app")).to_have_attribute("data-comparison", "ready", timeout=120_000)
    # a long task is reported after it ends: one more frame and task let it arrive
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    start, end = edit
    later = [
        duration
        for begin, duration in page.evaluate("() => window.__longTasks")
        if not begin <= start <= begin + duration  # the edit's own task
    ]
    return end - start, max(later, default=0.0)


@pytest.mark.parametrize("mode", list(MODES))
def test_no_task_after_the_paint_blocks_the_page_on_hostile_documents(
    probed: App, mode: str
) -> None:
    probed.choose(MODES[mode].label)
    tasks(probed, PROSE[:-1])  # warm: this mode's code and tables are loaded
    prose_edit, prose_later = tasks(probed, PROSE)
    slow = {}
    for name, text in HOSTILE.items():
        edit, later = tasks(probed, text)
        allowed = max(LIMIT_MS, RATIO * max(edit, prose_edit, FLOOR_MS))
        if later > allowed:
            slow[name] = f"{round(later)} ms after an edit of {round(edit)} ms"
    assert slow == {}, (
        f"{MODES[mode].label}: {slow}; ordinary prose: an edit of {round(prose_edit)} ms, "
        f"then {round(prose_later)} ms"
    )

"""No input within the limits blocks the main thread for long.

The hostile but legal documents (tests/page/typing/hostile.py: a 40-level nested
list, quotes 30 deep, a 2,000-row table, 20,000 code points of ZWJ emoji, a 20,000-letter
run without a space, Chinese without a space, CRLF line ends) are pasted in every mode,
and every Python step of the page is logged with the JavaScript task it ran in. Before the
work was paced, the splitter comparison ran its seven splits and damage passes in one task, and
one full cycle collection after the steps walked every survivor since boot (~130 ms on the
nested list under load).

Wall-clock limits flake on a busy machine, so the bar is structural, and the times are in
bench/bench_long_tasks.py (longest task per mode, against ordinary prose in the same run):
- the edit's own task runs the update and nothing after the paint;
- every step after the paint runs in a task of its own: no task runs two of them;
- the paste runs one update, and the work after the paint is cut into steps: the
  comparison takes a step per row of its table, at least. In Semantic mode a split that
  waits for its windows' vectors (#app[data-split="waiting"]) runs one more update when
  they arrive, in a task of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from chunker_py import MODES, Settings, analyse

from ..conftest import App, launch_app
from .hostile import HOSTILE, PROSE, emoji, probe, show, table, unspaced

pytestmark = pytest.mark.browser

UPDATE = "Page.update"
COMPARISON = "Page._drive.<locals>.step _comparison"
# Semantic mode before the model's vectors: the other modes' rows, one step per row
OTHER_MODES = "Page._drive.<locals>.step _other_modes"
EVIDENCE = "Page._drive.<locals>.step work"
COUNTED = "Page._drive.<locals>.step counted"  # the edit's tokens, counted in steps
# the modules imported from outside stdlib.zip (app/boot_finders.py's FullStdlibOnDemand)
MISSES = "import sys; [f.misses for f in sys.meta_path if hasattr(f, 'misses')]"

# a paste, and what the page shows at the end of its task (before any step after it); what
# was recorded as shown before it (work of the previous text still ending) is dropped
PASTE_SEEN = """(el, v) => {
    window.__ciShown = [];
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return window.__ciSnap();
}"""

# From now on, what the page shows after each task that changed it (a MutationObserver
# on #app, whose callback runs once the task's changes are done, before they are
# painted): readiness, the result bar, the state, Export's buttons, the dimming.
RECORD_SHOWN = """() => {
    const text = (id) => document.getElementById(id).textContent;
    const off = (id) => document.getElementById(id).disabled;
    window.__ciSnap = () => ({
        status: text('readiness-status'), bar: text('result-bar'),
        state: document.getElementById('app').dataset.state,
        exportOff: ['download-jsonl', 'download-csv', 'copy-jsonl', 'copy-csv'].every(off),
        dimmed: Number(getComputedStyle(
            document.querySelector('.results > .panel:not(.readiness)')).opacity) < 1,
    });
    if (window.__ciShownObserver) window.__ciShownObserver.disconnect();
    window.__ciShown = [];
    window.__ciShownObserver = new MutationObserver(() => window.__ciShown.push(window.__ciSnap()));
    window.__ciShownObserver.observe(document.getElementById('app'),
        { subtree: true, attributes: true, childList: true, characterData: true });
}"""

# the delay before "Counting tokens…" set for one test (the page's own is 200 ms): what is
# shown must not depend on how fast a busy machine runs the count
DELAY = """
import inspector
inspector.PENDING_STATUS_DELAY_MS = {ms}
"""


@pytest.fixture(scope="module")
def probed(browser: Any, server: Any) -> Iterator[App]:
    booted = launch_app(browser, server.url, viewport={"width": 1400, "height": 900})
    booted.open().wait_ready()
    probe(booted)
    yield booted
    booted.page.context.close()


def problems(seen: dict[str, Any], rows: int) -> list[str]:
    """What breaks the structure in one edit's log (empty when nothing does)."""
    steps = seen["steps"]
    found = []
    edits = [s for s in steps if s[0] == UPDATE]
    # Semantic mode: a split waiting for its windows' vectors is done again when they
    # arrive, in a task of its own (checked below with the others)
    expected = 1 + seen["waited"]
    if len(edits) != expected:
        return [f"the paste ran {len(edits)} update(s), not {expected}: {steps}"]
    edit_task = edits[0][1]
    tasks = Counter(s[1] for s in steps)
    if tasks[edit_task] != 1:
        found.append(f"the edit's task also ran {[s[0] for s in steps if s[1] == edit_task]}")
    shared = {t: [s[0] for s in steps if s[1] == t] for t, n in tasks.items() if n > 1}
    if shared:
        found.append(f"tasks running several steps: {shared}")
    names = Counter(s[0] for s in steps if s[1] != edit_task)
    compared = names[COMPARISON] + names[OTHER_MODES]
    if compared < rows:
        found.append(f"{compared} comparison steps for {rows} rows")
    return found


@pytest.mark.parametrize("mode", list(MODES))
def test_each_step_after_the_paint_runs_in_its_own_task_on_hostile_documents(
    probed: App, mode: str
) -> None:
    probed.choose(MODES[mode].label)
    show(probed, PROSE[:-1])  # this mode's code and tables loaded
    broken = {}
    for name, make in [("ordinary prose", lambda: PROSE), *HOSTILE.items()]:
        seen = show(probed, make())
        rows = probed.page.locator("#compare-body tr").count()
        assert rows >= 2, f"{name}: the comparison has {rows} rows"
        if found := problems(seen, rows):
            broken[name] = found
    assert broken == {}, f"{MODES[mode].label}: {broken}"
    # no module outside stdlib.zip was imported: that import fetches the whole standard
    # library, synchronously, in the task that needs it (the first emoji pasted did, for
    # the utf-16-le and utf-32-le codecs)
    assert probed.python(MISSES) == [[]]


def test_the_probe_sees_two_steps_run_in_one_task(probed: App) -> None:
    """The check above can fail: two steps called from one task share its number."""
    probed.python(
        "PROBE.clear()\n"
        "from js import setTimeout\n"
        "from pyodide.ffi import create_once_callable\n"
        "page = inspector.Page.__new__(inspector.Page)\n"
        "def both():\n"
        "    page._guarded(lambda: None)\n"
        "    page._guarded(lambda: None)\n"
        "    window.__ciBoth = True\n"
        "setTimeout(create_once_callable(both), 0)\n"
    )
    probed.page.wait_for_function("() => window.__ciBoth === true", timeout=60_000)
    # only this test's two steps: run alone, the boot's own steps after the paint may
    # still be running (and logged) meanwhile
    steps = probed.python("[list(s) for s in PROBE if s[0] == 'both.<locals>.<lambda>']")
    assert isinstance(steps, list) and len(steps) == 2, steps
    assert steps[0][1] == steps[1][1]
    seen = {"steps": [[UPDATE, *steps[0][1:]], steps[1]], "waited": 0}
    assert problems(seen, 0) != []


def _shown(app: App) -> dict[str, Any]:
    bar = app.page.text_content("#result-bar")
    warnings = app.page.locator("#readiness-warnings li").all_text_contents()
    return {"bar": bar, "warnings": warnings, "status": app.readiness_status().text_content()}


def _expected(text: str, mode: str = "token-window") -> dict[str, Any]:
    """What the page must show for ``text`` in ``mode`` (its defaults otherwise), from
    chunker_py in CPython."""
    result = analyse(text, Settings().replace(mode=mode), with_tradeoffs=False)
    return {
        "bar": f"Ready · {result.count:,} chunks · Show the results ↓",
        "warnings": list(result.warnings),
        "status": "Ready",
    }


def _until_ready(app: App, since: int) -> list[dict[str, Any]]:
    """Wait for the edit's result and the work after it; what was shown meanwhile."""
    app.page.wait_for_function(
        "(n) => window.__ciStates.slice(n).includes('ready')", arg=since, timeout=180_000
    )
    app.page.wait_for_selector('#app[data-comparison="ready"]', state="attached",
                               timeout=180_000)  # fmt: skip
    shown: list[dict[str, Any]] = app.page.evaluate("() => window.__ciShown")
    return shown


def _swept(app: App) -> None:
    """Wait for the sweep, the last work after the paint: it runs after the comparison is
    ready, in steps of its own, so a test recording what is shown from a quiet page waits
    for it too."""
    app.page.wait_for_selector('#app[data-sweep="ready"]', state="attached", timeout=180_000)


def _never_stale(shown: list[dict[str, Any]], expected: dict[str, Any]) -> None:
    """Until the edit's result is shown the page is busy and offers nothing to download or
    copy; the first result shown as ready is the new text's, equal to chunker_py's."""
    ready = next(i for i, s in enumerate(shown) if s["state"] == "ready")
    before = shown[:ready]
    assert all(s["state"] == "busy" and s["exportOff"] for s in before), before
    assert shown[ready]["bar"] == expected["bar"], shown[ready]
    assert shown[ready]["status"] == "Ready" and not shown[ready]["dimmed"], shown[ready]
    assert not shown[-1]["exportOff"], shown[-1]


@pytest.mark.parametrize(
    ("mode", "make", "doing"),
    [
        ("token-window", lambda: "fresh " + emoji()[6:], "Counting tokens…"),
        ("token-window", lambda: "fresh " + unspaced()[6:], "Counting tokens…"),
        ("markdown", lambda: table(2_001), "Reading the Markdown structure…"),
    ],
    ids=["token-window-emoji", "token-window-unspaced", "markdown-table"],
)
def test_an_edits_long_work_runs_in_steps(probed: App, mode: str, make: Any, doing: str) -> None:
    """Token window mode's edit on 20,000 code points of ZWJ emoji or
    letters without a space merged every token in the edit's task (250-970 ms under load);
    Markdown structure mode's edit parsed a 2,000-row table in it. That work now runs one
    step per task after the paint. At once the page is busy and Export offers nothing;
    once the delay has passed (1 ms here) readiness says what is being done, over the
    previous results dimmed; then the result, equal to chunker_py's. (The texts are new
    to the page's caches.)"""
    probed.choose(MODES[mode].label)
    show(probed, PROSE[:-2])
    _swept(probed)
    text = make()
    since = probed.page.evaluate("() => window.__ciStates.length")
    probed.python("PROBE.clear()\n" + DELAY.format(ms=1))
    try:
        probed.page.evaluate(RECORD_SHOWN)
        seen = probed.source.evaluate(PASTE_SEEN, text)
        # the paste's own task: busy, nothing to download, no status yet (no flash)
        assert seen["status"] == "Ready" and seen["state"] == "busy", seen
        assert seen["exportOff"] and not seen["dimmed"], seen
        shown = _until_ready(probed, since)
    finally:
        probed.python(DELAY.format(ms=200))
    pending = [s for s in shown if s["status"] == doing]
    assert pending, f"{doing!r} never shown: {shown}"
    assert all(s["bar"].startswith(doing) and s["dimmed"] for s in pending), pending
    _never_stale(shown, _expected(text, mode))
    steps = probed.python("[list(step) for step in PROBE]")
    assert isinstance(steps, list)
    counted = [s for s in steps if s[0] == COUNTED]
    assert len(counted) >= 3, [s[0] for s in steps]
    rows = probed.page.locator("#compare-body tr").count()
    assert problems({"steps": steps, "waited": 0}, rows) == []  # no mode here waits
    assert _shown(probed) == _expected(text, mode)


# the Page whose edit counted in steps, kept in PAGES (to read its status timer)
KEEP_PAGE = """
import inspector
PAGES = []
_plain_count_first = inspector.Page._count_first


def _count_first_kept(self, *args):
    PAGES.append(self)
    _plain_count_first(self, *args)


inspector.Page._count_first = _count_first_kept
"""
PLAIN_COUNT_FIRST = "inspector.Page._count_first = _plain_count_first"


def test_a_count_that_ends_within_the_delay_never_shows_the_pending_status(
    probed: App,
) -> None:
    """Typing in a long emoji text in Token window mode: each keystroke's count takes a few
    steps, and flashed "Counting tokens…" and the dimming. A count that ends before the
    delay (a minute here, whatever the machine's load) shows neither, at no point; the
    timer is cancelled with the result; the old text's records are never offered."""
    probed.choose(MODES["token-window"].label)
    show(probed, PROSE[:-5])
    _swept(probed)
    text = "brief " + emoji()[:1_000]  # new to the caches; a few steps
    since = probed.page.evaluate("() => window.__ciStates.length")
    probed.python("PROBE.clear()\n" + DELAY.format(ms=60_000) + KEEP_PAGE)
    try:
        probed.page.evaluate(RECORD_SHOWN)
        seen = probed.source.evaluate(PASTE_SEEN, text)
        assert seen["state"] == "busy" and seen["exportOff"], seen
        shown = _until_ready(probed, since)
        timer = probed.python("[getattr(page, 'status_timer', None) is None for page in PAGES]")
    finally:
        probed.python(DELAY.format(ms=200) + PLAIN_COUNT_FIRST)
    steps = probed.python("[list(step) for step in PROBE]")
    assert isinstance(steps, list)
    assert len([s for s in steps if s[0] == COUNTED]) >= 2, [s[0] for s in steps]
    flashed = [s for s in shown if s["status"] != "Ready" or s["dimmed"]]
    assert flashed == [], flashed
    assert timer == [True], timer  # one edit counted in steps, its timer gone
    _never_stale(shown, _expected(text))
    assert _shown(probed) == _expected(text)


# once a step of the edit's token counting has run, the text in window.__ciNewer is pasted
# in a task of its own (the counting has steps left then)
PASTE_MID_COUNT = f"""
import inspector
from js import setTimeout, window
_plain_drive = inspector.Page._drive


def _drive_then_paste(self, generation, work):
    _plain_drive(self, generation, work)
    if any(step[0] == {COUNTED!r} for step in PROBE):
        inspector.Page._drive = _plain_drive
        setTimeout(window.__ciPasteNewer, 0)


inspector.Page._drive = _drive_then_paste
"""
PASTE_NEWER = """(text) => {
    window.__ciPasteNewer = () => {
        const area = document.getElementById('source-text');
        area.value = text;
        area.dispatchEvent(new Event('input', { bubbles: true }));
    };
}"""


def test_a_newer_edit_drops_the_token_counting_of_an_older_one(probed: App) -> None:
    """An edit while the previous one's tokens are still being counted: the older count
    stops (no step of it runs after the newer update) and only the newer text is shown."""
    probed.choose(MODES["token-window"].label)
    show(probed, PROSE[:-3])
    _swept(probed)
    older = "older " + emoji()[9:]  # a piece of its own (not the one above)
    newer = PROSE[:-4]
    probed.page.evaluate(PASTE_NEWER, newer)
    probed.python("PROBE.clear()\n" + PASTE_MID_COUNT + KEEP_PAGE)
    probed.page.evaluate(RECORD_SHOWN)
    probed.source.evaluate(PASTE_SEEN, older)
    probed.page.wait_for_function(
        "(text) => document.getElementById('source-text').value === text", arg=newer,
        timeout=60_000,
    )  # fmt: skip
    probed.page.wait_for_selector('#app[data-state="ready"][data-comparison="ready"]',
                                  state="attached", timeout=180_000)  # fmt: skip
    steps = probed.python("[list(step) for step in PROBE]")
    assert isinstance(steps, list)
    names = [s[0] for s in steps]
    assert names.count(UPDATE) == 2, names
    second = names.index(UPDATE, 1)
    assert COUNTED in names[:second], names  # it had started
    assert COUNTED not in names[second:], names
    # the older edit's "Counting tokens…" timer went with it (its status, if it came
    # first, never stays over the newer result)
    timer = probed.python("[page.status_timer is None for page in PAGES]")
    probed.python(PLAIN_COUNT_FIRST)
    assert timer == [True], timer
    _never_stale(probed.page.evaluate("() => window.__ciShown"), _expected(newer))
    assert _shown(probed) == _expected(newer)


# the records' Tokens cells as the paste's own task leaves them
PASTE_TOKENS = """(el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return [...document.querySelectorAll('#records-body .tokens-cell')].map((c) => c.textContent);
}"""


def test_an_edit_counts_no_tokens_in_its_own_task(probed: App) -> None:
    """In the code-point modes the edit's own task counted the tokens
    of the first 100 records (a 20,000-letter run's: ~190 ms in the page at load 2, over
    the bar under load). New chunks show "…" in that task; once counted after the paint,
    every row shows its chunk's count, as chunker_py counts it."""
    probed.choose(MODES["recursive"].label)
    show(probed, PROSE[:-6])
    text = "counted " + unspaced()[8:]  # new to the caches
    seen = probed.source.evaluate(PASTE_TOKENS, text)
    assert seen and set(seen) == {"…"}, seen
    probed.page.wait_for_selector('#app[data-comparison="ready"]', state="attached",
                                  timeout=180_000)  # fmt: skip
    probed.page.wait_for_function(
        "() => ![...document.querySelectorAll('#records-body .tokens-cell')]"
        ".some((c) => c.textContent === '…')", timeout=60_000,
    )  # fmt: skip
    shown = probed.page.locator("#records-body .tokens-cell").all_text_contents()
    result = analyse(text, Settings().replace(mode="recursive"), with_tradeoffs=False)
    assert len(shown) == min(100, result.count)
    assert shown == [str(n) for n in result.tokens[: len(shown)]]

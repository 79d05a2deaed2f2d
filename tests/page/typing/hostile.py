"""Long tasks: hostile but legal documents and a probe of the page's tasks.

Shared by tests/page/typing/test_long_tasks.py (what runs in which task: structural, holds on
a busy machine) and bench/bench_long_tasks.py (how long those tasks take, as ratios to
ordinary prose in the same run).

The probe wraps ``inspector.Page._guarded`` in the page's own Pyodide: every Python step
of the page (the edit's own update, each step after the paint) runs through it. Each
outermost call is logged with its name, its start and end (performance.now()) and the
number of the JavaScript callback it ran in: ``window.__ciTask()`` numbers the callback
that calls it first and forgets the number at the callback's microtask checkpoint, so
two steps with the same number ran in one task, back to back.
"""

from __future__ import annotations

import random
from typing import Any

from chunker_py.engine.limits import MAX_CODE_POINTS

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 7 code points, ZWJ


def fit(text: str) -> str:
    return text[:MAX_CODE_POINTS]


def nested_list(depth: int = 40) -> str:
    lines = [" " * (2 * min(d, depth - 1)) + f"- item {d} of the list" for d in range(4_000)]
    return fit("\n".join(lines))


def nested_quotes(depth: int = 30) -> str:
    lines = ["> " * (1 + d % depth) + f"quoted line {d}" for d in range(2_000)]
    return fit("\n".join(lines))


def table(rows: int = 2_000) -> str:
    lines = ["|n|v|", "|-|-|"] + [f"|{n}|x|" for n in range(rows)]
    return "\n".join(lines)


def emoji() -> str:
    return FAMILY * (MAX_CODE_POINTS // len(FAMILY))


def unspaced() -> str:
    letters = random.Random(18)
    return "".join(letters.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(MAX_CODE_POINTS))


def cjk() -> str:
    """Chinese without a space or a line break: every size is found inside sentences."""
    return fit("重置密码请前往账户页面并妥善保管备用代码。" * 1_000)


def crlf() -> str:
    """Windows line ends: short lines, blank lines, a list and a heading per section."""
    section = "# Part {n}\r\n\r\nA line of prose.\r\n- an item\r\n- another\r\n\r\n"
    return fit("".join(section.format(n=n) for n in range(600)))


HOSTILE = {
    "nested-list": nested_list,  # 40 levels
    "quotes": nested_quotes,  # 30 deep
    "table": table,  # 2,000 rows
    "emoji": emoji,  # ZWJ sequences
    "unspaced": unspaced,  # one 20,000-letter run
    "cjk": cjk,  # no space, no line break
    "crlf": crlf,  # CRLF line ends, 3,600 lines
}
PROSE = fit(
    "Reset your password from the account page. Keep your backup codes somewhere safe.\n\n" * 300
)

# Runs once per page: long tasks (50 ms or more) into window.__longTasks; the callback
# numbering described above.
OBSERVE = """() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            window.__longTasks.push([entry.startTime, entry.duration]);
        }
    }).observe({ type: 'longtask' });
    window.__ciTaskCount = 0;
    window.__ciTaskNow = 0;
    window.__ciTask = () => {
        if (!window.__ciTaskNow) {
            window.__ciTaskNow = ++window.__ciTaskCount;
            queueMicrotask(() => { window.__ciTaskNow = 0; });
        }
        return window.__ciTaskNow;
    };
}"""

# one input event with the whole text, as a paste gives; returns when it started and ended
# (the page splits and draws the result in the event's task)
PASTE = """(el, v) => {
    el.value = v;
    const start = performance.now();
    el.dispatchEvent(new Event('input', { bubbles: true }));
    return [start, performance.now()];
}"""
# everything after the paint done, neither the split nor the comparison's Semantic row
# waiting for vectors (once the model is loaded, they come in after the comparison, and
# the comparison is computed again with them)
SETTLED = (
    '#app[data-comparison="ready"][data-evidence="ready"]:not([data-damage="pending"])'
    ':not([data-split="waiting"]):not([data-semantic-row="waiting"])'
)

PATCH = """
import inspect
import inspector
from js import window

PROBE = []  # (name, task number, start, end) of each outermost step
_depth = [0]
_guarded = inspector.Page._guarded


def _name(work):
    name = getattr(work, "__qualname__", "?")
    for cell in getattr(work, "__closure__", None) or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if inspect.isgenerator(value):
            name += " " + value.gi_code.co_name
    return name


def _probed(self, work, **options):
    if _depth[0]:
        return _guarded(self, work, **options)
    _depth[0] += 1
    task = window.__ciTask()
    start = window.performance.now()
    try:
        return _guarded(self, work, **options)
    finally:
        _depth[0] -= 1
        PROBE.append((_name(work), task, start, window.performance.now()))


inspector.Page._guarded = _probed

# Semantic mode: each split shown that waits for its windows' vectors (done again when they
# arrive, in an update of its own)
WAITED = []
_split_waits = inspector.Page._split_waits


def _waits(self, waits):
    if waits:
        WAITED.append(window.__ciTask())
    return _split_waits(self, waits)


inspector.Page._split_waits = _waits
"""


def probe(app: Any) -> None:
    """Start observing ``app`` (a tests/page/conftest.py App, booted)."""
    app.page.evaluate(OBSERVE)
    app.python(PATCH)


def show(app: Any, text: str) -> dict[str, Any]:
    """Paste ``text`` and wait for everything after the paint (the comparison last; in
    Semantic mode, the split done again once its windows' vectors arrived). Returns the
    edit's [start, end], the steps logged since the paste ([name, task, start, end]), how
    many splits shown waited for vectors, and the long tasks ([start, duration]) observed
    meanwhile."""
    page = app.page
    page.wait_for_selector(SETTLED, state="attached", timeout=180_000)
    page.evaluate("() => { window.__longTasks = []; }")
    app.python("PROBE.clear(); WAITED.clear()")
    edit: list[float] = []
    app.settle(lambda: edit.extend(app.source.evaluate(PASTE, text)), timeout=180_000)
    page.wait_for_selector(SETTLED, state="attached", timeout=300_000)
    # a long task is reported after it ends: one more frame and task let it arrive
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    steps = app.python("[list(step) for step in PROBE]")
    return {
        "edit": edit,
        "waited": app.python("len(WAITED)"),
        "steps": [list(step) for step in steps],  # type: ignore[union-attr]
        "long": page.evaluate("() => window.__longTasks"),
    }

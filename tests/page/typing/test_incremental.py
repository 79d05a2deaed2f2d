"""The keystroke path's shortcuts show exactly what a full redraw would.

To answer a key within a frame the page skips work: the records table and the preview are
not rebuilt when the chunks they list and the text under them are unchanged, the chunk
map places only the blocks whose chunks moved and is drawn after the paint while it is off
screen, and the trade-off chart and token figures come after the paint. Each test edits
the text as a person does (caret, keys) where one of those shortcuts applies, and compares
every panel with chunker_py's result for the new text.
"""

from __future__ import annotations

from playwright.sync_api import expect

from chunker_py import Settings, analyse, get_tokenizer
from chunker_py.pipeline.analysis import tradeoffs

from ..conftest import App
from ..panels.test_chunk_map import assert_map_matches, current_settings

# 180 chunks at size 40 / overlap 0: more than the 100 records and 60 preview items listed
TEXT = "".join(f"Sentence number {i} of the long text.\n\n" for i in range(180))
PLACE_CARET = """(area, at) => {
  area.focus();
  const units = [...area.value].slice(0, at).join("").length;  // code points -> UTF-16
  area.setSelectionRange(units, units);
}"""
SELECT = """(area, [at, to]) => {
  area.focus();
  const cps = [...area.value];
  area.setSelectionRange(cps.slice(0, at).join("").length, cps.slice(0, to).join("").length);
}"""


def expected_records(text: str, settings: Settings) -> list[list[str]]:
    chunks = analyse(text, settings).chunks[:100]
    return [[str(c.index), str(c.start), str(c.end), str(c.length), str(c.overlap), c.text]
            for c in chunks]  # fmt: skip


def assert_panels_match(app: App, text: str) -> None:
    """Every panel shows ``text``'s result under the page's settings."""
    assert app.value("Source text") == text
    settings = current_settings(app)
    result = analyse(text, settings)
    assert app.figure("Chunks").text_content() == f"{result.count:,}"
    assert app.records() == expected_records(text, settings)
    count = get_tokenizer(settings.tokenizer).count
    assert app.token_counts() == [str(count(c.text)) for c in result.chunks[:100]]
    assert app.preview() == [c.text for c in result.chunks[:60]]
    titles = app.region("Overlap preview").locator(".chunk-title").all_text_contents()
    assert (
        [t.split(" · ")[1] for t in titles]
        == [
            f"{c.start:,}–{c.end:,}"  # noqa: RUF001
            for c in result.chunks[:60]
        ]
    )
    summary = result.token_summary
    assert summary is not None
    assert app.figure("Total tokens").text_content() == f"{summary.total:,}"
    assert_map_matches(app, text)
    bars = app.page.locator("#tradeoff-chart .bartext").all_text_contents()
    assert bars == [f"{t.count:,}" for t in tradeoffs(text, settings)]


def press_at(app: App, at: int, keys: str, *, select_to: int | None = None) -> None:
    area = app.source
    if select_to is None:
        area.evaluate(PLACE_CARET, at)
    else:
        area.evaluate(SELECT, [at, select_to])
    app.settle(lambda: app.page.keyboard.type(keys) if len(keys) == 1 or keys[0] != "<"
               else app.page.keyboard.press(keys[1:-1]))  # fmt: skip


def map_on_screen(app: App, wanted: bool) -> None:
    """Scroll so the Chunk map is on screen or not and wait for the page to know it. The
    settings column is sticky and scrolls on its own: the text area is scrolled into view
    in it (as a person does after using a field further down, e.g. Source name)."""
    script = "() => window.ciChunkMap.onScreen()"
    if wanted:
        app.page.set_viewport_size({"width": 1280, "height": 1000})
        app.page.locator("#chunk-map-panel").evaluate("el => el.scrollIntoView()")
    else:
        app.page.set_viewport_size({"width": 1280, "height": 500})
        app.page.evaluate("() => window.scrollTo(0, 0)")
    app.source.evaluate("(el) => el.scrollIntoView({ block: 'nearest' })")
    app.page.wait_for_function(script if wanted else f"() => !({script})()")
    expect(app.source).to_be_in_viewport()


def test_edits_after_before_and_inside_the_listed_chunks(app: App) -> None:
    app.configure(TEXT, size=40, overlap=0)
    map_on_screen(app, True)
    text = TEXT
    assert len(analyse(text, current_settings(app)).chunks) > 100
    # after every listed chunk: the table and preview are kept as they are
    press_at(app, len(text), "!")
    text += "!"
    assert_panels_match(app, text)
    # inside chunk 0, the same length: spans unchanged, text not (the lists must redraw)
    press_at(app, 0, "X", select_to=1)
    text = "X" + text[1:]
    assert_panels_match(app, text)
    # before every chunk: all offsets shift by one
    press_at(app, 0, "Q")
    text = "Q" + text
    assert_panels_match(app, text)
    # a paragraph break in the middle of the map: chunk indices shift after it
    middle = text.index("Sentence number 90")
    press_at(app, middle, "<Enter>")
    text = text[:middle] + "\n" + text[middle:]
    assert_panels_match(app, text)
    # and removed again with Backspace
    press_at(app, middle + 1, "<Backspace>")
    text = text[:middle] + text[middle + 1 :]
    assert_panels_match(app, text)
    # a sentence blanked out by spaces of the same length (one input, as an editor's
    # replace does): its chunk is dropped, so every later chunk's index drops by one while
    # its offsets stay the same
    start = text.index("Sentence number 20 ")
    end = text.index("\n", start)
    app.source.evaluate(SELECT, [start, end])
    app.settle(lambda: app.page.keyboard.insert_text(" " * (end - start)))
    text = text[:start] + " " * (end - start) + text[end:]
    assert_panels_match(app, text)
    assert app.page_errors == []


def test_the_map_drawn_after_the_paint_while_off_screen(app: App) -> None:
    app.configure(TEXT, size=40, overlap=0)
    map_on_screen(app, False)
    text = TEXT
    for at, key in ((len(text), "?"), (10, "Z")):
        press_at(app, at, key)
        text = text[:at] + key + text[at:]
        assert_panels_match(app, text)
    assert app.page_errors == []


def test_the_cycle_collector_runs_after_the_paint_not_while_typing(app: App) -> None:
    """Automatic collection is off (it paused keystrokes); the page collects after the
    paint, so cyclic garbage made by typing does not pile up."""
    app.configure(TEXT, size=40, overlap=0)
    make_cycles = "import gc\nfor _ in range(5000):\n    _a = []; _a.append(_a)\ngc.get_count()[0]"
    assert app.python(make_cycles) >= 5000  # not collected while automatic collection is off
    assert app.python("import gc\ngc.isenabled()") is False
    press_at(app, len(TEXT), "!")
    # the collection is the last task of the after-paint work: allow it a moment
    counts = []
    for _ in range(20):
        counts.append(app.python("import gc\ngc.get_count()[0]"))
        if counts[-1] < 5000:
            break
        app.page.wait_for_timeout(100)
    assert counts[-1] < 5000, counts


def test_cyclic_garbage_that_outlived_a_young_collection_is_freed_once_the_page_is_idle(
    app: App,
) -> None:
    """Long tasks: after each step the page collects the young generation only (a full
    collection walked every survivor since boot in one task); an object that survived one
    of those and then died inside a cycle waits for the full collection, which runs once
    the page has been idle a few seconds (app/inspector.py IDLE_COLLECT_MS)."""
    app.configure(TEXT, size=40, overlap=0)
    app.python(
        "import gc, weakref\n"
        "class _Cycle:\n"
        "    pass\n"
        "_c = _Cycle(); _c.me = _c; _gone = weakref.ref(_c)\n"
        "gc.collect(0)\n"  # survives a young collection: now in the old generation
        "del _c\n"
    )
    press_at(app, len(TEXT), "!")
    expect(app.page.locator("#app")).to_have_attribute("data-comparison", "ready")
    freed = False
    for _ in range(150):  # IDLE_COLLECT_MS is 5 s; a busy machine may take longer
        freed = app.python("_gone() is None") is True
        if freed:
            break
        app.page.wait_for_timeout(200)
    assert freed

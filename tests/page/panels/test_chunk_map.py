"""The chunk map, the chunk sizes histogram, dark mode and copy as code, in Chromium.

Driven through labels and roles with the `App` driver. Expected values are computed here by
chunker_py from the same text and settings (never read back from the page's own output):
the map's pieces from the spans, histogram counts from the records, snippet output from
running the copied snippet in this CPython on the page's text.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from chunker_py import Settings, analyse
from chunker_py.config.links import settings_from_fragment

from ..conftest import ROOT, SAMPLE, App, launch_app
from ..input.test_modes import set_option
from ..whole.test_accessibility import describe, run_axe

pytestmark = pytest.mark.browser

# Emoji (astral: two UTF-16 units each), a ZWJ family, a flag, CRLF line ends.
EMOJI_CRLF = (
    "Intro 😀 line with words.\r\n\r\n"
    "Second 👩‍👩‍👧 paragraph, flags 🇩🇪 and more words here.\r\n"
    "Third line 🎉🎉 ends.\r\n\r\n"
    "Last paragraph: naïve café 😀 done.\r\n"
)


@pytest.fixture(scope="module")
def app(browser: Any, server: Any) -> Iterator[App]:
    """conftest's booted `app`, in a wider window (the map beside the panels)."""
    booted = launch_app(browser, server.url, viewport={"width": 1400, "height": 900})
    booted.open().wait_ready()
    yield booted
    booted.page.context.close()


def wait_for_plotly(app: App) -> None:
    """Plotly is loaded after the first result (a stand-in records the calls until then):
    wait for the real script and the drawn chart before reading Plotly's own state."""
    expect(app.page.locator("html")).to_have_attribute("data-plotly", "loaded")
    expect(app.page.locator("#sizes-chart .main-svg").first).to_be_attached()


def current_settings(app: App) -> Settings:
    settings, notes = settings_from_fragment(app.page.evaluate("() => location.hash"))
    assert notes == []
    return settings


def configure(app: App, text: str | None, mode: str = "recursive", **settings: Any) -> None:
    """App.configure in Recursive mode, then the mode: Separators (an advanced field it
    sets) is shown in Recursive mode with the Generic preset only."""
    app.choose("Recursive")
    set_option(app, "Separators preset", "generic")
    app.configure(text, mode="recursive", **settings)
    if mode == "fixed":
        app.choose("Fixed size")


def load_file(app: App, text: str, name: str = "doc.md") -> None:
    """Import `text` as a file: a text area would turn CR LF into LF when typed."""
    app.settle(lambda: app.browse(name, text.encode("utf-8"), "text/markdown"))


def map_pieces(app: App) -> list[dict[str, Any]]:
    return app.page.locator("#chunk-map > .map-block > *").evaluate_all(
        """nodes => nodes.map(n => ({
            cls: n.className, text: n.textContent, index: n.dataset.index ?? null,
            start: n.dataset.start ?? null, end: n.dataset.end ?? null,
            repeated: n.querySelector('.map-repeated')?.textContent ?? '',
            label: n.querySelector('.map-handle')?.getAttribute('aria-label') ?? null,
            role: n.querySelector('.map-handle')?.getAttribute('role') ?? null,
        }))"""
    )


def expected_pieces(text: str, settings: Settings) -> list[tuple[str, str]]:
    """(kind, text) of the map's pieces from chunker_py's chunks: each chunk from its start
    to the next chunk's start (or its end), earlier-covered text first; gaps in between."""
    chunks = analyse(text, settings).chunks
    out: list[tuple[str, str]] = []
    reach = 0
    for i, c in enumerate(chunks):
        following = chunks[i + 1].start if i + 1 < len(chunks) else len(text)
        if c.start > reach:
            out.append(("gap", text[reach : c.start]))
        own_end = max(c.start, min(c.end, following))
        out.append(("chunk", text[c.start : own_end]))
        if min(max(reach, c.end), following) > own_end:
            out.append(("covered", text[own_end : min(max(reach, c.end), following)]))
        reach = max(reach, c.end)
    if len(text) > reach:
        out.append(("gap", text[reach:]))
    return out


def kind(cls: str) -> str:
    return "chunk" if "map-chunk" in cls else "gap" if "map-gap" in cls else "covered"


def assert_map_matches(app: App, text: str) -> None:
    settings = current_settings(app)
    chunks = analyse(text, settings).chunks
    pieces = map_pieces(app)
    # the whole source text, verbatim, exactly once
    assert "".join(p["text"] for p in pieces) == text
    assert [(kind(p["cls"]), p["text"]) for p in pieces] == expected_pieces(text, settings)
    shown = [p for p in pieces if kind(p["cls"]) == "chunk"]
    assert [(int(p["start"]), int(p["end"])) for p in shown] == [(c.start, c.end) for c in chunks]
    rows = app.records()  # the first 100 unless all are listed
    assert len(rows) == min(len(shown), 100)
    assert [(int(p["start"]), int(p["end"])) for p in shown[: len(rows)]] == [
        (int(r[1]), int(r[2])) for r in rows
    ]
    # the repeated part of each chunk: its overlap with the chunk before it, as far as the
    # chunk's own part goes (with deep overlap the next chunk starts inside it)
    assert [p["repeated"] for p in shown] == [
        c.text[: min(c.overlap, len(p["text"]))] for p, c in zip(shown, chunks, strict=True)
    ]
    # alternating colours; each with a handle: a button named by its index and range
    assert [p["cls"].split()[1] for p in shown] == [f"c{i % 2}" for i in range(len(chunks))]
    for p, c in zip(shown, chunks, strict=True):
        assert p["role"] == "button"
        assert p["label"].startswith(f"Chunk {c.index}, code points {c.start:,} to {c.end:,}")
    summary = analyse(text, settings).summary
    assert summary is not None
    assert sum(len(p["text"]) for p in pieces if kind(p["cls"]) == "gap") == summary.omitted


# ---------------------------------------------------------------- the map


def test_the_map_shows_the_sample_with_spans_equal_to_the_records(app: App) -> None:
    configure(app, SAMPLE)
    expect(app.page.get_by_role("heading", name="Chunk map")).to_be_visible()
    assert_map_matches(app, SAMPLE)
    # trimmed edge whitespace is shown as omitted, with visible symbols
    gaps = app.page.locator("#chunk-map .map-gap")
    assert gaps.count() > 0
    assert gaps.first.get_attribute("data-shown") == "↵↵"


def test_the_map_spans_are_exact_with_emoji_and_crlf(app: App) -> None:
    load_file(app, EMOJI_CRLF)
    for mode, size, overlap, edges in (
        ("fixed", 17, 5, "preserve"),
        ("fixed", 12, 0, "trim"),
        ("recursive", 30, 10, "trim"),
    ):
        configure(app, None, mode, size=size, overlap=overlap, edges=edges)
        assert_map_matches(app, EMOJI_CRLF)
    # overlap is there and marked: some chunk has a repeated part
    assert app.page.locator("#chunk-map .map-repeated").count() > 0


def test_the_map_with_deep_overlap_and_other_modes(app: App) -> None:
    load_file(app, EMOJI_CRLF)
    configure(app, None, "fixed", size=20, overlap=15)
    assert_map_matches(app, EMOJI_CRLF)
    app.choose("Sentence")
    set_option(app, "Chunk size", "60")
    set_option(app, "Requested overlap", "30")
    assert_map_matches(app, EMOJI_CRLF)
    app.choose("Markdown structure")
    assert_map_matches(app, EMOJI_CRLF)
    app.choose("Recursive")


def block_starts(app: App) -> list[int]:
    """The code-point offset at which each of the map's blocks starts."""
    starts = app.page.locator("#chunk-map > .map-block").evaluate_all(
        """blocks => { let at = 0; return blocks.map(b => {
            const start = at; at += [...b.textContent].length; return start; }); }"""
    )
    assert isinstance(starts, list)
    return starts


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # 7 code points


def test_a_long_line_is_cut_into_blocks_between_grapheme_clusters(app: App) -> None:
    """Long tasks: a line without a line break was one block of the map, laid out
    whole on every edit. It is cut into blocks at pieces' ends, after white space where
    there is some, and never inside a grapheme cluster: chunks of 300 code points end
    inside the 7-code-point ZWJ families, but blocks start only where a family does. The
    pieces, offsets and colours are those of the records either way."""
    families = FAMILY * 1_000
    configure(app, families, "fixed", size=300, overlap=0, edges="preserve")
    assert_map_matches(app, families)
    starts = block_starts(app)
    assert len(starts) >= 3, starts
    assert [s for s in starts if s % len(FAMILY)] == [], starts
    words = "word " * 1_500
    configure(app, words, "recursive", size=300, overlap=0, edges="trim")
    assert_map_matches(app, words)
    starts = block_starts(app)
    assert len(starts) >= 3, starts
    assert [s for s in starts[1:] if words[s - 1] != " "] == [], starts
    letters = "".join(chr(97 + (i * 7) % 26) for i in range(6_000))
    configure(app, letters, "recursive", size=300, overlap=30, edges="trim")
    assert_map_matches(app, letters)
    assert len(block_starts(app)) >= 3


def many_chunks_text() -> str:
    return "".join(f"Sentence number {i} of the long text.\n\n" for i in range(180))


def test_activating_a_chunk_shows_its_record_row_and_preview_item_and_back(app: App) -> None:
    text = many_chunks_text()
    configure(app, text, size=40, overlap=0)
    chunks = analyse(text, current_settings(app)).chunks
    assert len(chunks) > 150  # beyond the first 100 records and 60 preview items
    target = 150
    # the comparison and the chart's damage text arrive after a pause in typing and change
    # the height of panels above the records: let them land before judging the scroll
    expect(app.page.locator("#app")).to_have_attribute("data-comparison", "ready")
    button = app.page.get_by_role("button", name=re.compile(rf"^Chunk {target}, "))
    button.click()
    focused = app.page.evaluate(
        "() => [...document.activeElement.cells || []].map(c => c.textContent)"
    )
    c = chunks[target]
    assert focused[:3] == [str(c.index), str(c.start), str(c.end)]
    row = app.page.locator("#records-body tr.selected")
    expect(row).to_have_count(1)
    # scrolled into its table's box (the page-level viewport check is left out: panels
    # off screen skip layout with content-visibility: auto and settle a frame later)
    assert row.evaluate(
        """(r) => { const w = r.closest('.table-wrap');
                    return r.offsetTop >= w.scrollTop
                        && r.offsetTop + r.offsetHeight <= w.scrollTop + w.clientHeight; }"""
    )
    item = app.page.locator("#preview-list li.selected")
    expect(item).to_have_count(1)
    expect(item.locator(".chunk-text")).to_have_text(c.text)
    # back: Escape on the row returns the focus to the same chunk in the map
    app.page.keyboard.press("Escape")
    expect(button).to_be_focused()
    expect(button).to_be_in_viewport()


def test_the_chosen_chunk_stays_marked_when_its_row_and_item_are_listed_again(
    app: App,
) -> None:
    """One selection: the chunk chosen in the map is the page's selection, which the records and
    the preview mark from their views: listing the first rows only and then all of them
    again, or listing the damaged chunks only and then all, draws the chosen chunk's row
    and item anew, still marked (they lost the mark when the map set it on them)."""
    text = many_chunks_text()
    configure(app, text, size=40, overlap=0)
    chunks = analyse(text, current_settings(app)).chunks
    target = 150
    expect(app.page.locator("#app")).to_have_attribute("data-comparison", "ready")
    app.page.get_by_role("button", name=re.compile(rf"^Chunk {target}, ")).click()
    row = app.page.locator("#records-body tr.selected")
    item = app.page.locator("#preview-list li.selected")
    expect(row.locator("td").first).to_have_text(str(target))
    expect(item.locator(".chunk-text")).to_have_text(chunks[target].text)
    for noun, first in (("records", 100), ("chunks", 60)):
        app.page.get_by_role("button", name=f"Show the first {first} {noun} only").click()
        app.page.get_by_role("button", name=f"Show all {len(chunks)} {noun}").click()
    expect(row).to_have_count(1)
    expect(row.locator("td").first).to_have_text(str(target))
    expect(item).to_have_count(1)
    expect(item.locator(".chunk-text")).to_have_text(chunks[target].text)
    damaged_only = app.page.get_by_label("Show damaged chunks only")
    damaged_only.check()
    damaged_only.uncheck()
    expect(app.page.locator("#preview-list li.selected .chunk-text")).to_have_text(
        chunks[target].text
    )
    expect(row.locator("td").first).to_have_text(str(target))
    expect(app.page.locator("#chunk-map .map-chunk.selected")).to_have_attribute(
        "data-index", str(target)
    )


def test_the_map_is_operable_from_the_keyboard(app: App) -> None:
    text = many_chunks_text()
    configure(app, text, size=40, overlap=0)
    chunks = analyse(text, current_settings(app)).chunks
    # one tab stop for the whole map (roving tabindex)
    assert app.page.locator('#chunk-map [tabindex="0"]').count() == 1
    assert app.page.locator('#chunk-map [tabindex="-1"]').count() == len(chunks) - 1
    expect(app.page.locator("#app")).to_have_attribute("data-comparison", "ready")
    app.page.mouse.move(0, 0)  # the detail line follows the pointer too: keep it off the map
    first = app.page.get_by_role("button", name=re.compile(r"^Chunk 0, "))
    first.focus()
    app.page.keyboard.press("ArrowRight")
    app.page.keyboard.press("ArrowRight")
    second = app.page.get_by_role("button", name=re.compile(r"^Chunk 2, "))
    expect(second).to_be_focused()
    expect(app.page.locator("#chunk-map-detail")).to_contain_text(
        f"Chunk #2 · {chunks[2].start:,}–{chunks[2].end:,}"  # noqa: RUF001
    )
    app.page.keyboard.press("Enter")
    expect(app.page.locator("#records-body tr.selected td").first).to_have_text("2")
    back = app.page.get_by_role("button", name="Back to chunk #2 in the chunk map")
    back.click()
    expect(second).to_be_focused()
    app.page.keyboard.press("End")
    expect(
        app.page.get_by_role("button", name=re.compile(rf"^Chunk {len(chunks) - 1}, "))
    ).to_be_focused()


def assert_described_as_in_the_preview(app: App, text: str) -> None:
    expect(app.page.locator("#app")).to_have_attribute("data-damage", "ready")
    chunks = analyse(text, current_settings(app)).chunks
    titles = app.page.locator("#preview-list .chunk-title").all_text_contents()
    assert len(titles) == min(len(chunks), 60)
    app.page.mouse.move(0, 0)  # the detail line follows the pointer too
    detail = app.page.locator("#chunk-map-detail")
    for c in (chunks[0], chunks[1], chunks[len(titles) - 1]):
        assert titles[c.index].startswith(f"#{c.index} · {c.start:,}–{c.end:,} · ")  # noqa: RUF001
        handle = app.page.locator(f'#chunk-map .map-chunk[data-index="{c.index}"] > *').first
        handle.focus()
        said = re.escape(f"Chunk {titles[c.index]} · ")
        expect(detail).to_have_text(re.compile(f"^{said}.*Enter or click: show its record$"))
        name = f"Chunk {c.index}, code points {c.start:,} to {c.end:,}, {c.length:,} long"
        name += f", starts with {c.overlap:,} repeated" if c.overlap else ""
        label = handle.get_attribute("aria-label") or ""
        assert label == name or label.startswith(name + ", "), (label, name)


def test_a_chunk_is_described_in_the_map_as_in_the_preview(app: App) -> None:
    """The map's detail line for a chunk is its preview title (one description, made in
    Python), then what activating it does; its button name states the chunk's index, range,
    length and overlap, the overlap in full even where the next chunk starts inside it."""
    load_file(app, EMOJI_CRLF)
    configure(app, None, "fixed", size=20, overlap=15)
    chunks = analyse(EMOJI_CRLF, current_settings(app)).chunks
    assert any(c.overlap > chunks[c.index + 1].start - c.start for c in chunks[:-1])
    assert_described_as_in_the_preview(app, EMOJI_CRLF)
    configure(app, SAMPLE, size=200, overlap=40)
    app.choose("Markdown structure")  # titles with heading paths
    assert_described_as_in_the_preview(app, SAMPLE)
    app.choose("Recursive")


# ---------------------------------------------------------------- histogram

REACT_COUNTER = """() => {
  if (window.__reacts) return;
  window.__reacts = {};
  const react = window.Plotly.react;
  window.Plotly.react = function (el, ...rest) {
    window.__reacts[el.id] = (window.__reacts[el.id] || 0) + 1;
    return react.call(this, el, ...rest);
  };
}"""


def histogram(app: App) -> tuple[list[list[int]], list[int]]:
    chart = app.page.locator("#sizes-chart")
    bins = json.loads(chart.get_attribute("data-bins") or "[]")
    drawn = chart.evaluate("el => el.data ? [...el.data[0].y] : []")
    return bins, drawn


def test_the_histogram_counts_equal_the_records(app: App) -> None:
    text = many_chunks_text()
    # a custom list without "" leaves long unsplittable pieces: some chunks over the size
    text += "x" * 90 + "\n\n" + "y" * 70
    configure(app, text, size=60, overlap=0, separators=("\n\n",))
    wait_for_plotly(app)
    lengths = [int(r[3]) for r in app.records()]
    assert len(lengths) == analyse(text, current_settings(app)).count
    bins, drawn = histogram(app)
    assert [b[2] for b in bins] == drawn
    assert sum(drawn) == len(lengths)
    for first, last, count in bins:
        assert count == sum(1 for n in lengths if first <= n <= last)
    # contiguous bins, and one edge is the chunk size: no bar mixes within and over size
    assert all(b[0] == a[1] + 1 for a, b in pairwise(bins))
    assert any(last == 60 for _f, last, _n in bins)
    over = sum(1 for n in lengths if n > 60)
    assert over == 2
    expect(app.page.locator("#sizes-text")).to_contain_text(f"{over} over the chunk size of 60")
    expect(app.page.locator("#sizes-chart .bars .point")).to_have_count(len(bins))


def test_the_histogram_is_hidden_for_one_chunk_and_redrawn_only_on_change(app: App) -> None:
    configure(app, SAMPLE)
    wait_for_plotly(app)  # the counter wraps the real Plotly.react, not the stand-in's
    app.page.evaluate(REACT_COUNTER)
    app.page.evaluate("() => { window.__reacts = {}; }")
    app.fill("Source name", "handbook")  # labels only: same chunks, no redraw
    assert app.page.evaluate("() => window.__reacts['sizes-chart'] || 0") == 0
    app.fill("Chunk size", "200")
    assert app.page.evaluate("() => window.__reacts['sizes-chart'] || 0") == 1
    app.fill("Source name", "")
    configure(app, "One short chunk only.")
    expect(app.page.locator("#sizes-chart")).to_be_hidden()
    expect(app.page.locator("#sizes-text")).to_have_text("One chunk of 21 code points.")


# ---------------------------------------------------------------- dark mode and axe


def test_axe_passes_with_the_map_and_histogram_in_light_and_dark(
    new_app: Callable[..., App],
) -> None:
    for scheme in ("light", "dark"):
        fresh = new_app(color_scheme=scheme).open().wait_ready()
        p = fresh.page
        expect(p.locator("#chunk-map .map-chunk").first).to_be_visible()
        wait_for_plotly(fresh)  # Plotly's layout exists once the real chart is drawn
        p.get_by_text("Show the code", exact=True).click()
        background = p.evaluate("() => getComputedStyle(document.body).backgroundColor")
        ink = p.evaluate("() => document.getElementById('sizes-chart').layout.font.color")
        if scheme == "dark":
            assert background == "rgb(18, 22, 29)", background
            assert ink == "#e4e8f0"
        else:
            assert background == "rgb(246, 247, 249)", background
            assert ink == "#1d2330"
        violations = run_axe(fresh)
        assert violations == [], f"{scheme}:\n{describe(violations)}"


# ---------------------------------------------------------------- copy as code


COPIED = {
    "Copy command line": "Command line copied to the clipboard.",
    "Copy chunker_py code": "chunker_py code copied to the clipboard.",
    "Copy LangChain code": "LangChain code copied to the clipboard.",
}


def copied(app: App, button: str) -> str:
    """Click a copy button; once the page says it copied, what the clipboard holds."""
    app.page.evaluate("() => navigator.clipboard.writeText('')")
    app.page.locator("#code-status").evaluate("el => { el.textContent = ''; }")
    app.page.get_by_role("button", name=button, exact=True).click()
    expect(app.page.locator("#code-status")).to_have_text(COPIED[button])
    text = app.page.evaluate("() => navigator.clipboard.readText()")
    # what was copied is what the page shows under "Show the code"
    pre = {"Copy command line": "#code-cli", "Copy chunker_py code": "#code-library"}
    shown = app.page.locator(pre.get(button, "#code-langchain")).text_content()
    assert text == shown and text
    return text


def run_python(code: str, folder: Path) -> bytes:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=folder,
        capture_output=True,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"},
    )
    return done.stdout


def run_command_line(command: str, folder: Path) -> bytes:
    import shlex

    words = shlex.split(command)  # as a POSIX shell reads it
    assert words[:3] == ["python", "-m", "chunker_py"], words
    done = subprocess.run(
        [sys.executable, *words[1:]],
        cwd=folder,
        capture_output=True,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    return done.stdout


SNIPPET_CASES = [
    ("Recursive", {"Chunk size": "300", "Requested overlap": "50"}, True),
    ("Recursive", {"Chunk size": "80", "Requested overlap": "20", "Separators preset": "markdown"},
     True),
    ("Fixed size", {"Chunk size": "70", "Requested overlap": "9"}, False),
    ("Markdown structure", {"Chunk size": "120", "Split at heading level": "2"}, False),
    ("Sentence", {"Chunk size": "90", "Requested overlap": "30"}, False),
]  # fmt: skip


@pytest.mark.parametrize(("mode", "options", "exact_langchain"), SNIPPET_CASES)
@pytest.mark.parametrize("text", ["sample", "emoji-crlf"])
def test_copied_snippets_reproduce_the_records(
    app: App,
    tmp_path: Path,
    mode: str,
    options: dict[str, str],
    exact_langchain: bool,
    text: str,
) -> None:
    source = SAMPLE if text == "sample" else EMOJI_CRLF
    load_file(app, source, "document.txt")
    configure(app, None, size=300, overlap=0, name="handbook")
    app.choose(mode)
    for label, value in options.items():
        set_option(app, label, value)
    expect(app.readiness_status()).to_have_text("Ready")
    (tmp_path / "document.txt").write_bytes(source.encode("utf-8"))
    _name, jsonl = app.download("Download JSONL")
    page_texts = [r[-1] for r in app.records()]  # Text is the last record column
    assert jsonl.decode("utf-8").count("\n") == len(page_texts)

    assert run_command_line(copied(app, "Copy command line"), tmp_path) == jsonl
    assert run_python(copied(app, "Copy chunker_py code"), tmp_path) == jsonl

    langchain = app.page.get_by_role("button", name="Copy LangChain code", exact=True)
    note = app.page.locator("#langchain-note")
    if exact_langchain:
        out = run_python(copied(app, "Copy LangChain code"), tmp_path).decode("utf-8")
        assert [json.loads(line) for line in out.splitlines()] == page_texts
        expect(note).to_contain_text("gives exactly these chunk texts")
    else:
        expect(langchain).to_be_disabled()
        expect(note).to_contain_text(f"No exact LangChain equivalent for {mode}")
    app.choose("Recursive")
    set_option(app, "Separators preset", "generic")
    app.fill("Source name", "")


def test_damage_marks_the_chunks_edges_in_the_map(app: App) -> None:
    text = "One sentence here. Another one follows it. And a third one ends it.\n" * 4
    configure(app, text, "fixed", size=30, overlap=0)
    expect(app.page.locator("#app")).to_have_attribute("data-damage", "ready")
    found = analyse(text, current_settings(app)).damage
    assert found is not None
    pieces = app.page.locator("#chunk-map .map-chunk").evaluate_all(
        """nodes => nodes.map(n => [n.dataset.startMark, n.dataset.endMark,
                                    n.firstChild.getAttribute('aria-label')])"""
    )
    assert len(pieces) == len(found.chunks)
    assert any(d.ends_mid_sentence for d in found.chunks)
    for (start_mark, end_mark, label), d in zip(pieces, found.chunks, strict=True):
        assert (start_mark == "starts mid-sentence") == d.starts_mid_sentence
        assert (end_mark == "ends mid-sentence") == d.ends_mid_sentence
        assert ("damage: " + "; ".join(d.describe()) in label) == d.damaged

"""The page as a person uses it: every control and panel of the user guide, in Chromium.

One booted page (the module-scoped `app` fixture, conftest.App) is shared by the checks
below; each check sets the text and settings it needs through the visible labels, so the
order of the checks does not matter except for the first (the untouched sample) and the
last (requests and console over everything the page did). Share links open two more pages.

Expected figures come from the user guide (its worked examples and rules) or are computed
in this process by chunker_py from the same text and settings; none is copied from the
page's output. State is read from `#app[data-state]`; nothing sleeps.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import math
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import expect

from chunker_py import Settings, analyse, to_csv, to_jsonl
from chunker_py.config.links import settings_from_fragment
from chunker_py.config.settings import DEFAULT_SEPARATORS
from chunker_py.io.records import record
from chunker_py.pipeline.analysis import count_chunks

from ..conftest import SAMPLE, App

# The guide's worked examples: "Reset password. Keep backup codes.", size 18, overlap 4, trim.
EXAMPLE = "Reset password. Keep backup codes."
SETTLE_MS = 30_000

FIGURE_NAMES = ("Chunks", "Repeated", "Edge characters omitted", "Smallest", "Average", "Largest")

PNG_BYTES = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


# --------------------------------------------------------------------------- helpers


def expected_figures(text: str, settings: Settings) -> dict[str, str]:
    summary = analyse(text, settings).summary
    assert summary is not None
    return {
        "Chunks": f"{summary.chunks:,}",
        "Repeated": f"{summary.repeated:,}",
        "Edge characters omitted": f"{summary.omitted:,}",
        "Smallest": f"{summary.smallest:,}",
        "Average": f"{summary.average:,.1f}",  # thousands grouped, as every figure
        "Largest": f"{summary.largest:,}",
    }


def expected_rows(text: str, settings: Settings) -> list[list[str]]:
    return [
        [str(c.index), str(c.start), str(c.end), str(c.length), str(c.overlap), c.text]
        for c in analyse(text, settings).chunks
    ]


def comparison_sizes(size: int, overlap: int) -> list[int]:
    """docs/decisions.md: {C//2, C, 3C//2, 2C}, clamped to [O+1, 10 000], merged, ascending."""
    return sorted(
        {min(max(s, overlap + 1), 10_000) for s in (size // 2, size, 3 * size // 2, 2 * size)}
    )


def assert_result_shown(app: App, text: str, settings: Settings) -> None:
    """Every panel shows chunker_py's result for `text` and `settings`."""
    expect(app.readiness_status()).to_have_text("Ready")
    assert app.figures() == expected_figures(text, settings)
    assert app.records() == expected_rows(text, settings)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


# --------------------------------------------------------------------------- the sample


def test_sample_loads_and_every_panel_shows_a_result(app: App) -> None:
    page = app.page
    assert app.source.input_value() == SAMPLE
    settings = Settings()  # the guide: initial values 300 and 50, recursive, trimmed
    assert app.control("Chunk size").input_value() == "300"
    assert app.control("Requested overlap").input_value() == "50"
    expect(page.get_by_role("radio", name="Recursive", exact=True)).to_be_checked()
    expect(page.get_by_role("radio", name="Trim edge whitespace")).to_be_checked()

    expect(app.readiness_status()).to_have_text("Ready")
    assert app.figures() == expected_figures(SAMPLE, settings)
    analysis = analyse(SAMPLE, settings)
    assert app.records() == expected_rows(SAMPLE, settings)
    assert len(app.records()) == len(analysis.chunks) > 1

    # Overlap preview: one item per chunk, each repeated prefix marked
    items = page.locator("#preview-list li.chunk")
    expect(items).to_have_count(min(len(analysis.chunks), 60))
    marks = page.locator("#preview-list mark.repeated").all_text_contents()
    assert marks == [c.text[: c.overlap] for c in analysis.chunks if c.overlap]

    # Size trade-offs: a drawn Plotly chart with one bar per comparison size
    sizes = comparison_sizes(300, 50)
    expect(page.locator("#tradeoff-chart .main-svg").first).to_be_attached()
    expect(page.locator("#tradeoff-chart .bars .point")).to_have_count(len(sizes))
    ticks = page.locator("#tradeoff-chart .xtick text").all_text_contents()
    assert ticks == [f"{s:,}" + (" (current)" if s == 300 else "") for s in sizes]
    sentence = page.locator("#tradeoff-text").text_content() or ""
    for s in sizes:
        count = count_chunks(SAMPLE, settings, size=s)
        assert f"size {s:,}" in sentence and f"{count:,} chunks" in sentence, sentence

    for button in ("Download JSONL", "Download CSV", "Copy JSONL", "Copy CSV"):
        expect(page.get_by_role("button", name=button)).to_be_enabled()
    assert app.state() == "ready"


# --------------------------------------------------------------------------- worked examples


def test_worked_example_recursive_shows_the_guides_figures(app: App) -> None:
    settings = app.configure(EXAMPLE, mode="recursive", size=18, overlap=4, edges="trim")
    assert len(EXAMPLE) == 34  # "contains 34 code points"
    figures = app.figures()
    assert figures["Chunks"] == "3"
    assert figures["Repeated"] == "0"
    assert figures["Edge characters omitted"] == "2"
    assert figures["Average"] == "10.7"
    rows = app.records()
    assert [(r[1], r[2]) for r in rows] == [("0", "15"), ("16", "27"), ("28", "34")]
    # the omissions are the spaces at source positions 15 and 27
    assert EXAMPLE[15] == EXAMPLE[27] == " "
    assert [r[5] for r in rows] == [EXAMPLE[0:15], EXAMPLE[16:27], EXAMPLE[28:34]]
    assert sum(int(r[3]) for r in rows) == 32  # "retained lengths total 32"
    assert app.page.locator("#preview-list mark.repeated").count() == 0
    assert_result_shown(app, EXAMPLE, settings)


def test_worked_example_fixed_shows_the_guides_figures(app: App) -> None:
    settings = app.configure(EXAMPLE, mode="fixed", size=18, overlap=4, edges="trim")
    figures = app.figures()
    assert figures["Chunks"] == "3"
    assert figures["Repeated"] == "8"
    assert figures["Edge characters omitted"] == "0"
    assert figures["Average"] == "14.0"
    rows = app.records()
    assert [(r[1], r[2]) for r in rows] == [("0", "18"), ("14", "32"), ("28", "34")]
    assert [r[5] for r in rows] == [EXAMPLE[0:18], EXAMPLE[14:32], EXAMPLE[28:34]]
    # "The second chunk repeats . Ke, and the third repeats code."
    marks = app.page.locator("#preview-list mark.repeated")
    expect(marks).to_have_text([". Ke", "code"])
    items = app.page.locator("#preview-list li.chunk")
    expect(items.nth(1).locator("mark.repeated")).to_have_text(". Ke")
    expect(items.nth(2).locator("mark.repeated")).to_have_text("code")
    assert_result_shown(app, EXAMPLE, settings)


def test_rapid_typing_shows_only_the_latest_inputs_result(app: App) -> None:
    app.configure(EXAMPLE, mode="fixed", size=18, overlap=4)
    size = app.control("Chunk size")
    app.settle(lambda: size.fill(""))
    # "1" alone is invalid (overlap 4 must be smaller); only "18" may be shown at the end
    size.press_sequentially("18")
    expect(app.figure("Repeated")).to_have_text("8")
    expect(app.page.locator("#app")).to_have_attribute("data-state", "ready")
    expect(app.readiness_status()).to_have_text("Ready")
    assert app.records() == expected_rows(EXAMPLE, Settings("fixed", 18, 4))


# --------------------------------------------------------------------------- each control


def test_mode_switches_between_recursive_and_fixed_windows(app: App) -> None:
    recursive = app.configure(EXAMPLE, mode="recursive", size=18, overlap=4)
    before = app.records()
    assert before == expected_rows(EXAMPLE, recursive)
    app.choose("Fixed size")
    fixed = Settings("fixed", 18, 4)
    assert app.records() == expected_rows(EXAMPLE, fixed) != before
    assert "mode=fixed" in urlsplit(app.page.url).fragment
    app.choose("Recursive")
    assert app.records() == before


def test_chunk_size_changes_the_result(app: App) -> None:
    settings = app.configure(SAMPLE, size=300, overlap=50)
    at_300 = app.figures()
    app.fill("Chunk size", "120")
    smaller = Settings(chunk_size=120, chunk_overlap=50)
    assert_result_shown(app, SAMPLE, smaller)
    assert int(app.figures()["Chunks"]) > int(at_300["Chunks"])
    assert max(int(r[3]) for r in app.records()) <= 120  # a size limit bounds each range
    app.fill("Chunk size", "300")
    assert app.figures() == at_300 == expected_figures(SAMPLE, settings)


def test_requested_overlap_in_fixed_preserved_windows_is_shared_exactly(app: App) -> None:
    # Guide: "With preserved edges, successive fixed windows share exactly the requested
    # overlap, and only the final window can be shorter than the size limit."
    text = EXAMPLE
    n, size = len(text), 18
    for overlap in (4, 6, 0):
        app.configure(text, mode="fixed", size=size, overlap=overlap, edges="preserve")
        advance = size - overlap
        windows = math.ceil(max(n - size, 0) / advance) + 1  # stop at the first window at N
        rows = app.records()
        assert len(rows) == windows
        starts = [i * advance for i in range(windows)]
        assert [(int(r[1]), int(r[2])) for r in rows] == [(a, min(a + size, n)) for a in starts]
        assert [int(r[4]) for r in rows] == [0] + [overlap] * (windows - 1)
        assert app.figure("Repeated").text_content() == str(overlap * (windows - 1))


def test_preserve_edge_whitespace_omits_nothing_in_the_recursive_example(app: App) -> None:
    app.configure(EXAMPLE, mode="recursive", size=18, overlap=4, edges="trim")
    assert app.figure("Edge characters omitted").text_content() == "2"
    app.choose("Preserve edge whitespace")
    expect(app.figure("Edge characters omitted")).to_have_text("0")
    rows = app.records()
    covered = set()
    for r in rows:
        covered.update(range(int(r[1]), int(r[2])))
        assert r[5] == EXAMPLE[int(r[1]) : int(r[2])]
    assert covered == set(range(len(EXAMPLE)))
    assert_result_shown(app, EXAMPLE, Settings("recursive", 18, 4, "preserve"))
    app.choose("Trim edge whitespace")
    expect(app.figure("Edge characters omitted")).to_have_text("2")


def test_custom_separator_list_changes_the_boundaries(app: App) -> None:
    text = "alpha;beta;gamma delta;epsilon zeta;eta theta iota;kappa"
    default = app.configure(text, size=20, overlap=0)
    before = app.records()
    assert before == expected_rows(text, default)
    custom = (";", "")
    app.fill("Separators", json.dumps(list(custom)))
    after_settings = Settings(chunk_size=20, chunk_overlap=0, separators=custom)
    assert_result_shown(app, text, after_settings)
    assert app.records() != before
    # matched literally, kept at the start of the following piece
    assert all(r[5].startswith(";") for r in app.records()[1:])
    summary = app.page.locator("#separators-summary").text_content() or ""
    assert '";"' in summary
    app.settle(app.page.get_by_role("button", name="Default separators").click)
    assert json.loads(app.control("Separators").input_value()) == list(DEFAULT_SEPARATORS)
    assert app.records() == before


def test_source_name_labels_records_without_changing_boundaries(app: App) -> None:
    settings = app.configure(SAMPLE, size=200, overlap=20, name="")
    rows = app.records()
    name_jsonl, unnamed = app.download("Download JSONL")
    first = json.loads(unnamed.decode().splitlines()[0])
    assert first["id"] == "document#0" and first["source"] is None

    app.fill("Source name", "Team handbook")
    assert app.records() == rows  # boundaries unchanged
    filename, named = app.download("Download JSONL")
    records = [json.loads(line) for line in named.decode().splitlines()]
    assert [r["id"] for r in records] == [f"Team handbook#{i}" for i in range(len(rows))]
    assert {r["source"] for r in records} == {"Team handbook"}
    assert [(r["start"], r["end"]) for r in records] == [(int(x[1]), int(x[2])) for x in rows]
    assert filename == "Team_handbook.jsonl" and name_jsonl == "chunks.jsonl"
    named_settings = settings.replace(source_name="Team handbook")
    assert named.decode() == to_jsonl(analyse(SAMPLE, named_settings))
    _, csv_bytes = app.download("Download CSV")
    header = next(csv.reader(io.StringIO(csv_bytes.decode(), newline="")))
    assert header == ["index", "start", "end", "length", "tokens", "overlap", "text", "source"]
    app.fill("Source name", "")


def test_sliders_move_the_number_fields(app: App) -> None:
    app.configure(SAMPLE, size=300, overlap=50)
    size_slider = app.page.get_by_label("Chunk size slider")
    overlap_slider = app.page.get_by_label("Requested overlap slider")
    app.settle(lambda: size_slider.fill("240"))
    expect(app.control("Chunk size")).to_have_value("240")
    assert_result_shown(app, SAMPLE, Settings(chunk_size=240, chunk_overlap=50))
    app.settle(lambda: overlap_slider.press("ArrowRight"))
    expect(app.control("Requested overlap")).to_have_value("51")
    assert_result_shown(app, SAMPLE, Settings(chunk_size=240, chunk_overlap=51))
    app.settle(lambda: size_slider.press("ArrowLeft"))
    expect(app.control("Chunk size")).to_have_value("239")
    # and the number fields move the sliders
    app.fill("Chunk size", "180")
    expect(size_slider).to_have_value("180")
    assert overlap_slider.get_attribute("max") == "179"
    app.fill("Requested overlap", "30")
    expect(overlap_slider).to_have_value("30")
    assert_result_shown(app, SAMPLE, Settings(chunk_size=180, chunk_overlap=30))


# --------------------------------------------------------------------------- invalid values


INVALID = [
    pytest.param("Chunk size", "0", "Chunk size", "300", id="size-0"),
    pytest.param("Chunk size", "10001", "Chunk size", "300", id="size-10001"),
    pytest.param("Chunk size", "3.5", "Chunk size", "300", id="size-fraction"),
    pytest.param("Chunk size", "", "Chunk size", "300", id="size-empty"),
    pytest.param("Requested overlap", "300", "Requested overlap", "50", id="overlap-eq-size"),
    pytest.param("Requested overlap", "450", "Requested overlap", "50", id="overlap-gt-size"),
    pytest.param("Requested overlap", "-1", "Requested overlap", "50", id="overlap-negative"),
    pytest.param("Separators", '["\\n\\n", "\\n"', "Separators", None, id="separators-bad-json"),
    # this core message names the field as 'The empty separator ""'
    pytest.param("Separators", '["", " "]', "separator", None, id="separators-empty-first"),
    pytest.param("Separators", "[]", "Separators", None, id="separators-empty-list"),
    pytest.param("Source name", "n" * 201, "Source name", "", id="source-name-201"),
]


@pytest.mark.parametrize(("label", "bad", "named", "good"), INVALID)
def test_invalid_value_says_check_inputs_and_keeps_the_text(
    app: App, label: str, bad: str, named: str, good: str | None
) -> None:
    text = f"My own notes {uuid.uuid4().hex}. They must survive a bad setting.\n\nSecond part."
    settings = app.configure(text)
    if good is None:
        good = json.dumps(list(DEFAULT_SEPARATORS))
    app.fill(label, bad)
    expect(app.readiness_status()).to_have_text("Check inputs")
    expect(app.readiness_message()).to_contain_text(named, ignore_case=True)
    expect(app.control(label)).to_have_attribute("aria-invalid", "true")
    assert app.source.input_value() == text
    assert set(app.figures().values()) == {"—"}
    assert app.records() == []
    expect(app.page.get_by_role("button", name="Download JSONL")).to_be_disabled()

    # editing the text while a setting is invalid keeps the edit too
    edited = text + " Edited."
    app.fill("Source text", edited)
    expect(app.readiness_status()).to_have_text("Check inputs")
    assert app.source.input_value() == edited

    app.fill(label, good)
    assert_result_shown(app, edited, settings)
    assert app.control(label).get_attribute("aria-invalid") is None


# --------------------------------------------------------------------------- import


TXT = "Plain text import.\n\nIt has two paragraphs, and a café ☕ too.\n".encode()
MD = "# Heading\n\n- item one\n- item two\n\nSome *Markdown* text with 😀.\n".encode()


@pytest.mark.parametrize("how", ["browse", "drop"])
@pytest.mark.parametrize(
    ("name", "mime", "data"),
    [("notes.txt", "text/plain", TXT), ("readme.md", "text/markdown", MD)],
    ids=["txt", "md"],
)
def test_import_a_file_shows_its_text_and_results(
    app: App, how: str, name: str, mime: str, data: bytes
) -> None:
    settings = app.configure("Before the import.", size=20, overlap=5)
    tagged = data.replace(b"two", f"two ({how})".encode())  # differs from the last import
    if how == "browse":
        app.settle(lambda: app.browse(name, tagged, mime))
    else:
        app.settle(lambda: app.drop([(name, tagged, mime)]))
    text = tagged.decode("utf-8")
    assert app.source.input_value() == text
    expect(app.source_status()).to_contain_text(name)
    assert_result_shown(app, text, settings)
    # importing a file does not fill Source name (guide, step 5)
    assert app.control("Source name").input_value() == ""


def test_import_keeps_crlf_line_endings_exactly(app: App) -> None:
    # bad input 14: line endings are not normalised; offsets refer to the file's text
    data = b"First line.\r\nSecond line.\r\n\r\nThird paragraph here.\r\n"
    settings = app.configure("Before the CRLF import.", size=20, overlap=5)
    app.settle(lambda: app.browse("windows.txt", data, "text/plain"))
    text = data.decode("utf-8")
    _, jsonl = app.download("Download JSONL")
    records = [json.loads(line) for line in jsonl.decode().splitlines()]
    expected = analyse(text, settings).chunks
    # offsets of the file's own text (CRLF counted as two code points), and exact slices
    assert [(r["start"], r["end"], r["text"]) for r in records] == [
        (c.start, c.end, c.text) for c in expected
    ]
    assert all(r["text"] == text[r["start"] : r["end"]] for r in records)
    assert app.records() == expected_rows(text, settings)


REFUSED = [
    pytest.param("big.txt", "text/plain", b"a" * 100_001, ["100,001", "100,000"], id="over-100000"),
    pytest.param("picture.png", "image/png", PNG_BYTES, ["not a UTF-8 text file"], id="png"),
    pytest.param(
        "latin1.txt",
        "text/plain",
        "café au lait\n".encode("latin-1"),
        ["not a UTF-8 text file", "invalid UTF-8"],
        id="invalid-utf8",
    ),
]


@pytest.mark.parametrize("how", ["browse", "drop"])
@pytest.mark.parametrize(("name", "mime", "data", "says"), REFUSED)
def test_import_refuses_bad_files_and_keeps_the_text(
    app: App, how: str, name: str, mime: str, data: bytes, says: list[str]
) -> None:
    text = f"Kept text {uuid.uuid4().hex}."
    settings = app.configure(text, size=20, overlap=5)
    unique = f"{how}-{name}"
    if how == "browse":
        app.browse(unique, data, mime)
    else:
        app.drop([(unique, data, mime)])
    expect(app.source_status()).to_contain_text(unique)
    for phrase in says:
        expect(app.source_status()).to_contain_text(phrase)
    assert app.source.input_value() == text
    assert app.state() == "ready"
    assert_result_shown(app, text, settings)


def test_two_files_dropped_at_once_both_become_documents(app: App) -> None:
    """Several files dropped at once each become a document of the list (the guide's
    "drag-drop TXT/MD files"); one of them is shown."""
    app.configure(f"Kept text {uuid.uuid4().hex}.", size=20, overlap=5)
    app.settle(lambda: app.drop([("a.txt", TXT, "text/plain"), ("b.md", MD, "text/markdown")]))
    names = [entry.split(" · ")[0] for entry in app.documents()]
    assert "a.txt" in names and "b.md" in names
    assert app.source.input_value() in (TXT.decode("utf-8"), MD.decode("utf-8"))


# --------------------------------------------------------------------------- text limits


def test_text_over_20000_code_points_is_refused_with_the_count(app: App) -> None:
    text = f"Previous text {uuid.uuid4().hex}."
    settings = app.configure(text, size=300, overlap=50)
    app.settle(lambda: app.source.fill("a" * 20_001))
    expect(app.source_status()).to_contain_text("20,001")
    assert app.source.input_value() == text
    assert_result_shown(app, text, settings)

    # code points, not UTF-16 units: 20 000 emoji (40 000 units) are accepted ...
    emoji = "😀" * 20_000
    app.settle(lambda: app.source.fill(emoji))
    assert app.source.input_value() == emoji
    expect(app.source_status()).to_have_text("")
    expect(app.page.locator("#source-count")).to_contain_text("20,000 of 20,000")
    assert_result_shown(app, emoji, settings)
    # ... and one more code point is not
    app.settle(lambda: app.source.fill(emoji + "a"))
    expect(app.source_status()).to_contain_text("20,001")
    assert app.source.input_value() == emoji
    app.configure(EXAMPLE)  # leave a small text for the next checks


# --------------------------------------------------------------------------- downloads


DOWNLOAD_TEXT = (
    "Emoji 😀 first. Flags 🇫🇷 and ZWJ 👩‍💻 sequences stay whole code points.\n\n"
    'A😀BC😀D, "quoted", with commas, and\nline breaks.\n\n'
    "=SUM(A1) looks like a formula; café e\u0301 combining marks too 🙂🙃.\n"
)


@pytest.mark.parametrize("mode", ["recursive", "fixed"])
def test_downloads_match_the_records_and_offsets(app: App, mode: str) -> None:
    settings = app.configure(DOWNLOAD_TEXT, mode=mode, size=24, overlap=6, name="Emoji notes")
    analysis = analyse(DOWNLOAD_TEXT, settings)

    filename, jsonl = app.download("Download JSONL")
    assert filename == "Emoji_notes.jsonl"
    assert jsonl.decode("utf-8") == to_jsonl(analysis)
    records = [json.loads(line) for line in jsonl.decode("utf-8").splitlines()]
    assert records == [record(c, analysis) for c in analysis.chunks]
    previous: tuple[int, int] | None = None
    for i, r in enumerate(records):
        assert r["index"] == i and r["id"] == f"Emoji notes#{i}"
        assert r["text"] == DOWNLOAD_TEXT[r["start"] : r["end"]]
        assert r["length"] == r["end"] - r["start"]
        assert r["start_utf16"] == utf16_len(DOWNLOAD_TEXT[: r["start"]])
        assert r["end_utf16"] == utf16_len(DOWNLOAD_TEXT[: r["end"]])
        shared = (
            0
            if previous is None
            else max(0, min(previous[1], r["end"]) - max(previous[0], r["start"]))
        )
        assert r["overlap"] == shared
        assert r["settings"]["mode"] == mode and r["settings"]["chunk_size"] == 24
        previous = (r["start"], r["end"])
    assert any(utf16_len(r["text"]) != r["length"] for r in records)  # the emoji matter

    # in the browser, the UTF-16 offsets slice the same text out of Source text
    sliced = app.source.evaluate(
        "(area, recs) => recs.map(r => [area.value.slice(r.start_utf16, r.end_utf16),"
        " [...area.value].slice(r.start, r.end).join('')])",
        [{k: r[k] for k in ("start", "end", "start_utf16", "end_utf16")} for r in records],
    )
    assert sliced == [[r["text"], r["text"]] for r in records]

    filename, csv_bytes = app.download("Download CSV")
    assert filename == "Emoji_notes.csv"
    assert csv_bytes.decode("utf-8") == to_csv(analysis)
    rows = list(csv.reader(io.StringIO(csv_bytes.decode("utf-8"), newline="")))
    header = ["index", "start", "end", "length", "tokens", "overlap", "text", "source"]
    assert rows[0] == header
    assert rows[1:] == [
        [
            str(c.index),
            str(c.start),
            str(c.end),
            str(c.length),
            str(analysis.tokens[c.index]),
            str(c.overlap),
            c.text,
            "Emoji notes",
        ]
        for c in analysis.chunks
    ]
    assert all(r[6] == DOWNLOAD_TEXT[int(r[1]) : int(r[2])] for r in rows[1:])
    app.fill("Source name", "")


def test_spreadsheet_safe_csv_prefixes_formula_cells(app: App) -> None:
    text = "=SUM(A1) first\n\n+plus second\n\nplain third"
    settings = app.configure(text, size=16, overlap=0)
    _, exact = app.download("Download CSV")
    app.page.get_by_label("Spreadsheet-safe CSV").check()
    try:
        _, safe = app.download("Download CSV")
    finally:
        app.page.get_by_label("Spreadsheet-safe CSV").uncheck()
    analysis = analyse(text, settings)
    assert exact.decode() == to_csv(analysis)
    safe_rows = list(csv.reader(io.StringIO(safe.decode(), newline="")))[1:]
    for row, chunk in zip(safe_rows, analysis.chunks, strict=True):
        starts_formula = chunk.text.startswith(("=", "+", "-", "@", "\t", "\r"))
        assert row[6] == ("'" + chunk.text if starts_formula else chunk.text)
    assert any(r[6].startswith("'") for r in safe_rows)


# --------------------------------------------------------------------------- share links


LINK_SETTINGS = Settings("fixed", 123, 7, "preserve", ("\n\n", ". ", " ", ""), "Team handbook é")


def test_share_link_holds_the_settings_and_no_text_and_restores_them(
    app: App, new_app: Callable[..., App]
) -> None:
    marker = f"SECRETMARKER{uuid.uuid4().hex}"
    s = LINK_SETTINGS
    app.configure(
        f"{marker} is private text.\n\nIt must never reach a link.",
        mode="recursive",  # Separators show in Recursive mode only; they stay when it changes
        size=s.chunk_size,
        overlap=s.chunk_overlap,
        edges=s.edges,
        separators=s.separators,
        name=s.source_name,
    )
    app.choose("Fixed size")
    url = app.page.url
    fragment = urlsplit(url).fragment
    assert marker not in url and marker not in unquote(url)
    assert "private" not in unquote(url)
    chosen, notes = settings_from_fragment(fragment)
    assert notes == []
    assert chosen == LINK_SETTINGS

    restored = new_app()
    restored.page.goto(url)
    restored.wait_ready()
    page = restored.page
    assert restored.source.input_value() == SAMPLE  # the sample, not the marker
    expect(page.get_by_role("radio", name="Fixed size")).to_be_checked()
    expect(page.get_by_role("radio", name="Preserve edge whitespace")).to_be_checked()
    assert restored.control("Chunk size").input_value() == "123"
    assert restored.control("Requested overlap").input_value() == "7"
    assert json.loads(restored.control("Separators").input_value()) == list(s.separators)
    assert restored.control("Source name").input_value() == s.source_name
    assert_result_shown(restored, SAMPLE, LINK_SETTINGS)
    assert marker not in page.content()
    assert restored.foreign_requests() == []
    assert restored.console_errors() == []


def test_link_with_a_bad_value_opens_with_a_note_naming_it(new_app: Callable[..., App]) -> None:
    fresh = app = new_app().open("#v=1&mode=fixed&size=12abc&overlap=5&edges=sideways")
    fresh.wait_ready()
    notes = fresh.page.locator("#readiness-notes")
    expect(notes).to_be_visible()
    expect(notes).to_contain_text("size")
    expect(notes).to_contain_text("12abc")
    expect(notes).to_contain_text("edges")
    expect(notes).to_contain_text("sideways")
    # readable values are used; the ignored ones take their defaults
    expect(fresh.page.get_by_role("radio", name="Fixed size")).to_be_checked()
    expect(fresh.page.get_by_role("radio", name="Trim edge whitespace")).to_be_checked()
    assert app.control("Chunk size").input_value() == "300"
    assert app.control("Requested overlap").input_value() == "5"
    assert_result_shown(app, SAMPLE, Settings("fixed", 300, 5))
    assert fresh.foreign_requests() == []
    assert fresh.console_errors() == []


def test_link_edited_in_the_address_bar_applies_and_names_the_bad_value(app: App) -> None:
    app.configure(EXAMPLE)
    base = app.page.url.split("#", 1)[0]
    app.settle(lambda: app.page.goto(base + "#v=1&mode=fixed&size=18&overlap=zz"))
    expect(app.page.locator("#readiness-notes")).to_contain_text("overlap")
    expect(app.page.locator("#readiness-notes")).to_contain_text("zz")
    expect(app.page.get_by_role("radio", name="Fixed size")).to_be_checked()
    assert app.control("Chunk size").input_value() == "18"
    assert app.source.input_value() == EXAMPLE  # same page: the text is kept
    chosen, _ = settings_from_fragment("#v=1&mode=fixed&size=18&overlap=zz")
    assert_result_shown(app, EXAMPLE, chosen)


# --------------------------------------------------------------------------- last: hygiene


def test_long_results_show_the_first_records_and_all_on_request(app: App) -> None:
    """Over 100 chunks: the table shows the first 100 and the preview the first 60, each
    with a button for all; the figures and downloads always cover every chunk."""
    settings = app.configure(SAMPLE, mode="fixed", size=10, overlap=0)
    expected = expected_rows(SAMPLE, settings)
    total = len(expected)
    assert total > 100
    assert app.figures() == expected_figures(SAMPLE, settings)
    assert app.records() == expected[:100]
    expect(app.page.locator("#records-caption")).to_contain_text(f"{total:,} records (showing 100")
    expect(app.page.locator("#preview-list li.chunk")).to_have_count(60)

    show_records = app.page.get_by_role("button", name=f"Show all {total:,} records")
    show_records.click()
    expect(app.page.locator("#records-body tr")).to_have_count(total)
    assert app.records() == expected
    app.page.get_by_role("button", name=f"Show all {total:,} chunks").click()
    expect(app.page.locator("#preview-list li.chunk")).to_have_count(total)

    _name, data = app.download("Download JSONL")
    assert len(data.decode().splitlines()) == total
    app.page.get_by_role("button", name="Show the first 100 records only").click()
    expect(app.page.locator("#records-body tr")).to_have_count(100)
    app.page.get_by_role("button", name="Show the first 60 chunks only").click()
    expect(app.page.locator("#preview-list li.chunk")).to_have_count(60)


def test_show_whitespace_draws_symbols_without_changing_the_text(app: App) -> None:
    text = "one\ttwo  three\nfour"
    settings = app.configure(text, mode="fixed", size=8, overlap=2, edges="preserve")
    chunks = analyse(text, settings).chunks
    bodies = app.page.locator("#preview-list .chunk-text")
    expect(bodies).to_have_count(len(chunks))
    assert app.page.locator("#preview-list .ws").count() == 0  # off: plain text only
    app.page.get_by_label("Show whitespace").check()
    symbols = app.page.locator("#preview-list .ws")
    expect(symbols.first).to_be_attached()
    shown = symbols.evaluate_all("spans => spans.map(s => [s.textContent, s.dataset.ws])")
    assert {tuple(x) for x in shown} == {(" ", "·"), ("\t", "→"), ("\n", "↵")}
    assert bodies.all_text_contents() == [c.text for c in chunks]  # copying gives the text
    app.page.get_by_label("Show whitespace").uncheck()
    expect(symbols).to_have_count(0)
    assert bodies.all_text_contents() == [c.text for c in chunks]


def test_every_request_went_to_the_pages_own_origin_and_console_has_no_errors(
    app: App, server: Any
) -> None:
    assert len(app.requests) > 10
    assert all(u.startswith(server.url) for u in app.requests if u.startswith("http"))
    assert app.foreign_requests() == []  # a download's blob: URL is the page's own origin
    assert app.console_errors() == []

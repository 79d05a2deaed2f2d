"""Issue 4, section 3: every case of BAD-INPUT.md that is page behaviour, in the browser.

The core's messages and rules are unit-tested in tests/core; these check what the page
does with them: the message is shown where the user looks, the text and settings are kept,
no partial result (records, downloads) is offered, nothing is rendered as HTML and no
dialog opens. Numbers in test names refer to the cases of ../shared/BAD-INPUT.md.

Two boots: one page opened from a hostile share link, one shared page for all the edits
(each test first restores the defaults it relies on).
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from playwright.sync_api import expect

from chunker_py import DEFAULT_SEPARATORS, Settings, analyse, to_csv, to_jsonl

from .conftest import WatchedPage, open_watched_page

BASE_TEXT = "Reset password. Keep backup codes.\n\nA second paragraph follows here."
DEFAULT_SEPARATORS_JSON = json.dumps(list(DEFAULT_SEPARATORS))
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(1)>"
EXPORT_BUTTONS = ("#download-jsonl", "#download-csv", "#copy-jsonl", "#copy-csv")


# ---------------------------------------------------------------- helpers


def reset(w: WatchedPage, text: str = BASE_TEXT) -> None:
    """Default settings and `text`, shown and Ready."""
    p = w.page
    if p.get_attribute("details.advanced", "open") is None:
        p.click("details.advanced > summary")
    for control in ("#mode-recursive", "#edges-trim"):
        if not p.is_checked(control):
            p.check(control)
            w.settle()
    for control, value in (
        ("#chunk-size", "300"),
        ("#chunk-overlap", "50"),
        ("#separators", DEFAULT_SEPARATORS_JSON),
        ("#source-name", ""),
        ("#source-text", text),
    ):
        p.fill(control, value)
        w.settle()
    p.set_checked("#spreadsheet-safe", False)
    expect(p.locator("#readiness-status")).to_have_text("Ready")
    assert p.input_value("#source-text") == text


def set_value(w: WatchedPage, selector: str, value: str) -> None:
    """Set a control's value exactly (lone surrogates, text in number fields) and fire input."""
    w.page.evaluate(
        """([selector, value]) => {
            const element = document.querySelector(selector);
            element.value = value;
            element.dispatchEvent(new Event('input', { bubbles: true }));
        }""",
        [selector, value],
    )
    w.settle()


def import_file(w: WatchedPage, name: str, data: bytes, mime: str = "text/plain") -> None:
    w.page.set_input_files("#browse", files=[{"name": name, "mimeType": mime, "buffer": data}])


def download(w: WatchedPage, kind: str, tmp_path) -> tuple[str, str]:
    with w.page.expect_download() as info:
        w.page.click(f"#download-{kind}")
    target = tmp_path / f"download.{kind}"
    info.value.save_as(target)
    return target.read_bytes().decode("utf-8"), info.value.suggested_filename


def assert_no_injection(w: WatchedPage) -> None:
    """No dialog, no element a payload could have created, no CSP violation."""
    assert w.dialogs == []
    injected = w.page.evaluate(
        """() => [...document.querySelectorAll(
                '#app img, #app script, #app iframe, #app object, #app embed, [onerror], [onload]'
            )].map((element) => element.outerHTML)"""
    )
    assert injected == []
    assert w.violations() == []


def assert_no_result(w: WatchedPage) -> None:
    """Check inputs, and nothing partial offered."""
    p = w.page
    expect(p.locator("#readiness-status")).to_have_text("Check inputs")
    assert p.locator("#records-body tr").count() == 0
    assert p.locator("#preview-list li").count() == 0
    assert p.text_content("#figure-chunks") == "—"
    for button in EXPORT_BUTTONS:
        assert p.is_disabled(button), button


def page_text(w: WatchedPage, selector: str) -> str:
    return w.page.evaluate("(s) => document.querySelector(s).textContent", selector)


# ---------------------------------------------------------------- a page opened from a bad link

HOSTILE_NAME = f"{XSS_IMG}</script>javascript:alert(1)"
HOSTILE_SEPARATORS = [XSS_SCRIPT, "\n\n", ""]
HOSTILE_LINK = (
    "#v=1&mode=fixed&size=%ZZ&overlap=%E0%A4%A&edges=preserve&edges=trim"
    "&__proto__=1&constructor=x&colour=red"
    "&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%3C%2Fscript%3Ejavascript%3Aalert(1)"
    "&sep=%5B%22%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%2C%22%5Cn%5Cn%22%2C%22%22%5D"
)


@pytest.fixture(scope="module")
def from_link(browser, server):
    page, close = open_watched_page(browser, server.url)
    page.open(HOSTILE_LINK)
    page.wait_ready()
    yield page
    close()


def notes(w: WatchedPage) -> list[str]:
    return w.page.locator("#readiness-notes li").all_text_contents()


def test_6_hostile_link_opens_ready_with_link_xss_kept_as_text(from_link) -> None:
    p = from_link.page
    expect(p.locator("#readiness-status")).to_have_text("Ready")
    assert p.input_value("#source-name") == HOSTILE_NAME
    assert json.loads(p.input_value("#separators")) == HOSTILE_SEPARATORS
    assert XSS_SCRIPT in page_text(from_link, "#separators-summary")
    assert_no_injection(from_link)


def test_6_hostile_link_uses_defaults_for_unreadable_values_and_names_them(from_link) -> None:
    p = from_link.page
    assert p.is_checked("#mode-fixed")  # readable values are kept
    assert p.input_value("#chunk-size") == "300"  # %ZZ
    assert p.input_value("#chunk-overlap") == "50"  # %E0%A4%A
    assert p.is_checked("#edges-trim")  # edges given twice
    expect(p.locator("#readiness-notes")).to_be_visible()
    said = "\n".join(notes(from_link))
    for expected in (
        "Ignored size",
        "Ignored overlap",
        "Ignored edges: it appears more than once",
        "'__proto__'",
        "'constructor'",
        "'colour'",
    ):
        assert expected in said, f"{expected!r} missing from the notes: {said}"
    assert p.evaluate(
        "() => Object.prototype.polluted === undefined && ({}).__proto__ === Object.prototype"
    )


def test_6_link_over_8kb_is_ignored_whole_and_said(from_link) -> None:
    p = from_link.page
    p.evaluate("(hash) => { location.hash = hash; }", "#v=1&size=77&name=" + "a" * 9000)
    expect(p.locator("#readiness-notes")).to_contain_text("longer than 8 KB")
    from_link.settle()
    expect(p.locator("#readiness-status")).to_have_text("Ready")
    assert p.input_value("#chunk-size") == "300"
    assert p.input_value("#source-name") == ""


def test_6_link_with_bad_mode_control_name_and_lone_surrogate_is_ignored_by_name(
    from_link,
) -> None:
    p = from_link.page
    p.evaluate(
        "(hash) => { location.hash = hash; }",
        "#v=1&mode=evil&size=120&name=a%0D%0Ab&sep=%5B%22%ED%A0%80%22%5D",
    )
    expect(p.locator("#readiness-notes")).to_contain_text("Ignored mode")
    from_link.settle()
    expect(p.locator("#readiness-status")).to_have_text("Ready")
    said = "\n".join(notes(from_link))
    assert "Ignored name" in said and "Ignored sep" in said
    assert p.input_value("#chunk-size") == "120"
    assert p.is_checked("#mode-recursive")
    assert p.input_value("#source-name") == ""
    assert json.loads(p.input_value("#separators")) == list(DEFAULT_SEPARATORS)
    assert_no_injection(from_link)


# ---------------------------------------------------------------- XSS through files and the name


def test_3_xss_in_file_contents_is_shown_as_literal_text(watched) -> None:
    reset(watched)
    payload = f"# Title\n\n{XSS_SCRIPT}{XSS_IMG}\n\nafter"
    import_file(watched, "evil.md", payload.encode(), "text/markdown")
    expect(watched.page.locator("#source-status")).to_contain_text("Imported evil.md")
    watched.settle()
    assert XSS_SCRIPT + XSS_IMG in page_text(watched, "#preview-list")
    assert XSS_SCRIPT + XSS_IMG in page_text(watched, "#records-body")
    assert_no_injection(watched)


@pytest.mark.parametrize(
    "name",
    [
        f"</script>{XSS_IMG}",
        "javascript:alert(1)",
        "\u202egnp.exe",
        "../../etc/passwd",
    ],
)
def test_5_hostile_source_name_is_plain_text_and_download_name_is_sanitised(
    watched, name: str, tmp_path
) -> None:
    reset(watched)
    watched.page.fill("#source-name", name)
    watched.settle()
    expect(watched.page.locator("#readiness-status")).to_have_text("Ready")
    jsonl, file_name = download(watched, "jsonl", tmp_path)
    assert {json.loads(line)["source"] for line in jsonl.splitlines()} == {name}
    assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.jsonl", file_name), file_name
    assert "/" not in file_name and "\u202e" not in file_name
    assert_no_injection(watched)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("n" * 201, "Source name has 201 code points; the limit is 200.")],
)
def test_5_overlong_source_name_is_refused_with_a_message(watched, name, expected) -> None:
    reset(watched)
    watched.page.fill("#source-name", name)
    watched.settle()
    assert_no_result(watched)
    expect(watched.page.locator("#readiness-message")).to_have_text(expected)
    assert watched.page.get_attribute("#source-name", "aria-invalid") == "true"
    assert watched.page.input_value("#source-text") == BASE_TEXT


# ---------------------------------------------------------------- settings typed on the page


@pytest.mark.parametrize("value", ["0", "-5", "1e309", "NaN", "12abc", "3.5", "10001", ""])
def test_1_bad_chunk_size_names_the_field_and_range(watched, value: str) -> None:
    reset(watched)
    set_value(watched, "#chunk-size", value)
    assert_no_result(watched)
    expect(watched.page.locator("#readiness-message")).to_contain_text(
        "Chunk size must be a whole number from 1 to 10,000"
    )
    assert watched.page.get_attribute("#chunk-size", "aria-invalid") == "true"
    assert watched.page.input_value("#source-text") == BASE_TEXT


@pytest.mark.parametrize("value", ["300", "301", "-1", "2.5"])
def test_2_bad_overlap_names_the_field_before_any_splitting(watched, value: str) -> None:
    reset(watched)
    set_value(watched, "#chunk-overlap", value)
    assert_no_result(watched)
    expect(watched.page.locator("#readiness-message")).to_contain_text(
        "Requested overlap must be a whole number from 0 to 299, smaller than Chunk size"
    )
    assert watched.page.get_attribute("#chunk-overlap", "aria-invalid") == "true"


@pytest.mark.parametrize(
    ("separators", "expected"),
    [
        ("[]", "Separators"),
        (json.dumps([f"s{i}" for i in range(17)]), "at most 16 entries"),
        (json.dumps(["x" * 65, ""]), "has 65 code points"),
        (json.dumps(["a", "a", ""]), "listed twice"),
        (json.dumps(["", "a"]), "must be the last entry"),
        ('["\\n"', "JSON list of strings"),
    ],
)
def test_4_bad_separators_are_refused_with_a_message(watched, separators, expected) -> None:
    reset(watched)
    watched.page.fill("#separators", separators)
    watched.settle()
    assert_no_result(watched)
    expect(watched.page.locator("#readiness-message")).to_contain_text(expected)
    assert watched.page.get_attribute("#separators", "aria-invalid") == "true"


def test_4_regex_looking_separator_is_matched_literally(watched, tmp_path) -> None:
    text = "aaaa(a+)+$bbbbbb(a+)+$cc"
    reset(watched, text)
    watched.page.fill("#separators", json.dumps(["(a+)+$", ""]))
    watched.settle()
    watched.page.fill("#chunk-size", "10")
    watched.settle()
    watched.page.fill("#chunk-overlap", "0")
    watched.settle()
    expected = analyse(text, Settings(chunk_size=10, chunk_overlap=0, separators=("(a+)+$", "")))
    assert [c.text for c in expected.chunks] == ["aaaa", "(a+)+$bbbb", "bb", "(a+)+$cc"]
    jsonl, _ = download(watched, "jsonl", tmp_path)
    assert jsonl == to_jsonl(expected)


# ---------------------------------------------------------------- documents


def test_7_paste_over_20000_code_points_is_refused_with_the_count(watched) -> None:
    reset(watched)
    watched.page.fill("#source-text", "a" * 20_001)
    watched.settle()
    expect(watched.page.locator("#source-status")).to_contain_text("20,001 code points")
    expect(watched.page.locator("#source-status")).to_contain_text("previous text was kept")
    assert watched.page.input_value("#source-text") == BASE_TEXT
    expect(watched.page.locator("#readiness-status")).to_have_text("Ready")


def test_12_paste_is_limited_by_code_points_not_utf16_units_or_bytes(watched) -> None:
    reset(watched)
    text = "😀" * 20_000  # 40,000 UTF-16 units, 80,000 bytes
    watched.page.fill("#source-text", text)
    watched.settle()
    assert watched.page.input_value("#source-text") == text
    expect(watched.page.locator("#source-count")).to_have_text("20,000 of 20,000 code points")
    expect(watched.page.locator("#readiness-status")).to_have_text("Ready")


def test_8_file_over_100000_bytes_is_refused_with_its_size(watched) -> None:
    reset(watched)
    import_file(watched, "big.txt", b"a" * 100_001)
    expect(watched.page.locator("#source-status")).to_contain_text("100,001 bytes")
    assert watched.page.input_value("#source-text") == BASE_TEXT


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("utf16-bom.txt", "\ufeffhello".encode("utf-16-le")),
        ("utf16-be-bom.txt", "hello".encode("utf-16")),
        ("utf16-nobom.txt", "hello".encode("utf-16-le")),
        ("nul.txt", b"hello\x00world"),
        ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        ("archive.md", b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xff\xfe"),
        ("latin1.txt", "café".encode("latin-1")),
    ],
)
def test_9_10_non_utf8_files_are_refused_and_nothing_is_imported(watched, name, data) -> None:
    reset(watched)
    import_file(watched, name, data)
    status = watched.page.locator("#source-status")
    expect(status).to_contain_text(f"{name} is not a UTF-8 text file")
    expect(status).to_contain_text("previous text was kept")
    assert watched.page.input_value("#source-text") == BASE_TEXT
    assert "\ufffd" not in watched.page.input_value("#source-text")


def test_11_utf8_bom_is_dropped_and_inner_feff_stays(watched) -> None:
    reset(watched)
    import_file(watched, "bom.txt", "\ufeffstart \ufeff inner".encode())
    expect(watched.page.locator("#source-status")).to_contain_text("Imported bom.txt")
    watched.settle()
    assert watched.page.input_value("#source-text") == "start \ufeff inner"


def test_13_empty_file_has_its_own_message(watched) -> None:
    reset(watched)
    import_file(watched, "empty.txt", b"")
    expect(watched.page.locator("#source-status")).to_contain_text("empty.txt is empty")
    assert watched.page.input_value("#source-text") == BASE_TEXT


def test_13_whitespace_only_text_with_trimmed_edges_has_a_specific_message(watched) -> None:
    reset(watched)
    watched.page.fill("#source-text", "   \n\t  \n")
    watched.settle()
    assert_no_result(watched)
    expect(watched.page.locator("#readiness-message")).to_contain_text(
        "No text remains after trimming edge whitespace"
    )


DROP = """([files, fake]) => {
    const area = document.getElementById('source-text');
    let event;
    if (fake) {  // a folder: DataTransfer cannot hold a directory entry, so fake the event
        event = new Event('drop', { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: {
            items: [{ webkitGetAsEntry: () => ({ isDirectory: true, name: 'folder' }) }],
            files: { length: 0, item: () => null },
        } });
    } else {
        const transfer = new DataTransfer();
        for (const [name, text] of files) transfer.items.add(new File([text], name));
        event = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer });
    }
    area.dispatchEvent(event);
}"""


def test_13_several_files_dropped_at_once_are_refused(watched) -> None:
    reset(watched)
    watched.page.evaluate(DROP, [[["a.txt", "first"], ["b.md", "second"]], False])
    expect(watched.page.locator("#source-status")).to_have_text(
        "2 files were dropped; drop one TXT or Markdown file at a time."
    )
    assert watched.page.input_value("#source-text") == BASE_TEXT


def test_13_one_dropped_file_is_imported(watched) -> None:
    reset(watched)
    watched.page.evaluate(DROP, [[["one.txt", "dropped text here"]], False])
    expect(watched.page.locator("#source-status")).to_contain_text("Imported one.txt")
    watched.settle()
    assert watched.page.input_value("#source-text") == "dropped text here"


def test_13_folder_drop_is_refused_simulated_entry(watched) -> None:
    """A real directory cannot be put in a DataTransfer from a test; the event is faked
    with an item whose webkitGetAsEntry() says isDirectory, which is what the page reads."""
    reset(watched)
    watched.page.evaluate(DROP, [[], True])
    expect(watched.page.locator("#source-status")).to_have_text(
        "Folders cannot be imported; drop one TXT or Markdown file."
    )
    assert watched.page.input_value("#source-text") == BASE_TEXT


@pytest.mark.parametrize(
    "file_text",
    [
        "First line\r\nsecond line\r\n\r\nNew paragraph\r\nend\r\n",
        "Old Mac line\rsecond\r\rthird paragraph\r",
    ],
)
def test_14_crlf_and_cr_in_an_imported_file_are_kept_exactly(
    watched, file_text: str, tmp_path
) -> None:
    reset(watched)
    watched.page.fill("#chunk-size", "20")
    watched.settle()
    watched.page.fill("#chunk-overlap", "5")
    watched.settle()
    import_file(watched, "crlf.txt", file_text.encode())
    expect(watched.page.locator("#source-text")).not_to_have_value(BASE_TEXT)
    watched.settle()
    jsonl, _ = download(watched, "jsonl", tmp_path)
    records = [json.loads(line) for line in jsonl.splitlines()]
    # Every record must be an exact slice of the file the user imported.
    assert [r["text"] for r in records] == [file_text[r["start"] : r["end"]] for r in records], (
        "downloaded records are not slices of the imported file (line endings changed)"
    )
    expected = analyse(file_text, Settings(chunk_size=20, chunk_overlap=5))
    assert jsonl == to_jsonl(expected)
    expect(watched.page.locator("#source-status")).to_contain_text("Imported crlf.txt")


def test_15_lone_surrogate_paste_is_refused_with_its_position(watched) -> None:
    reset(watched)
    set_value(watched, "#source-text", "ab\ud800cd")
    expect(watched.page.locator("#source-status")).to_contain_text(
        "lone surrogate (U+D800) at code point 2"
    )
    assert watched.page.input_value("#source-text") == BASE_TEXT
    expect(watched.page.locator("#readiness-status")).to_have_text("Ready")


def test_16_21_unicode_is_never_normalised_and_offsets_stay_exact(watched, tmp_path) -> None:
    text = (
        "Cafe\u0301 👩\u200d👩\u200d👧 🇺🇸 \u202eabc\u202c zero\u200bwidth "
        "עברית line\u2028sep para\u2029sep " * 6
    )
    reset(watched, text)
    watched.page.fill("#chunk-size", "25")
    watched.settle()
    watched.page.fill("#chunk-overlap", "7")
    watched.settle()
    assert watched.page.input_value("#source-text") == text
    jsonl, _ = download(watched, "jsonl", tmp_path)
    expected = analyse(text, Settings(chunk_size=25, chunk_overlap=7))
    assert jsonl == to_jsonl(expected)
    utf16 = text.encode("utf-16-le")
    for line in jsonl.splitlines():
        record = json.loads(line)
        assert record["text"] == text[record["start"] : record["end"]]
        units = utf16[2 * record["start_utf16"] : 2 * record["end_utf16"]]
        assert units.decode("utf-16-le") == record["text"]


# ---------------------------------------------------------------- results and exports


@pytest.mark.parametrize(
    ("mode", "size", "overlap"), [("fixed", 2, 1), ("recursive", 10_000, 9_999)]
)
def test_17_18_over_2000_chunks_says_how_many_and_offers_nothing(
    watched, mode: str, size: int, overlap: int
) -> None:
    text = "a" * 20_000  # one line, no separators
    reset(watched, text)
    watched.page.check(f"#mode-{mode}")
    watched.settle()
    watched.page.fill("#chunk-size", str(size))
    watched.settle()
    watched.page.fill("#chunk-overlap", str(overlap))
    watched.settle(timeout=10_000)  # quickly: no quadratic work
    expected = analyse(text, Settings(mode=mode, chunk_size=size, chunk_overlap=overlap))
    assert expected.error is not None and expected.count > 2000
    assert_no_result(watched)
    message = watched.page.text_content("#readiness-message") or ""
    assert f"would produce {expected.count:,} chunks" in message
    assert "raise the chunk size or lower the overlap" in message


def test_19_20_spreadsheet_safe_checkbox_changes_the_csv_download(watched, tmp_path) -> None:
    text = '=SUM(A1:A2)\n\n+1 plus\n\n-2 minus\n\n@cmd\n\nplain "quoted", with comma\nand newline'
    reset(watched, text)
    watched.page.fill("#chunk-size", "12")
    watched.settle()
    watched.page.fill("#chunk-overlap", "0")
    watched.settle()
    expected = analyse(text, Settings(chunk_size=12, chunk_overlap=0))
    exact, _ = download(watched, "csv", tmp_path)
    assert exact == to_csv(expected)
    rows = list(csv.DictReader(io.StringIO(exact, newline="")))
    assert [r["text"] for r in rows] == [text[int(r["start"]) : int(r["end"])] for r in rows]
    assert any(r["text"].startswith("=") for r in rows)

    watched.page.check("#spreadsheet-safe")
    safe, _ = download(watched, "csv", tmp_path)
    watched.page.uncheck("#spreadsheet-safe")
    assert safe == to_csv(expected, spreadsheet_safe=True)
    assert safe != exact
    safe_texts = [r["text"] for r in csv.DictReader(io.StringIO(safe, newline=""))]
    assert not any(t.startswith(("=", "+", "-", "@")) for t in safe_texts)
    assert "'=SUM(A1:A2)" in safe_texts

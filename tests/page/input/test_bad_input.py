"""Every bad-input case that is page behaviour, in the browser.

The core's messages and rules are unit-tested in tests/core; these check what the page
does with them: the message is shown where the user looks, the text and settings are kept,
no partial result (records, downloads) is offered, nothing is rendered as HTML and no
dialog opens. Each test's docstring names its case of docs/decisions.md "Bad input".

Everything is done through the page's labels, as a person would: values are typed into
number fields key by key, so what arrives is what Chromium lets through. A number field
refuses letters, and a value it cannot parse ("1e309") reaches the page as "": values such
as "NaN" and "12abc" can only arrive through a share link (tested here) or the command
line (tests/core/io/test_cli.py, config/test_settings.py).

Two boots: one page opened from a hostile share link, one shared page for all the edits
(each test first restores the defaults it relies on).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from chunker_py import Settings, analyse, to_csv, to_jsonl
from chunker_py.config.settings import DEFAULT_SEPARATORS

from ..conftest import App, launch_app

BASE_TEXT = "Reset password. Keep backup codes.\n\nA second paragraph follows here."
XSS_SCRIPT = "<script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(1)>"
NO_EXPORTS = {"Download JSONL": False, "Download CSV": False, "Copy JSONL": False,
              "Copy CSV": False}  # fmt: skip


# ---------------------------------------------------------------- helpers


def reset(app: App, text: str = BASE_TEXT) -> None:
    """Default settings and `text`, shown and Ready."""
    app.configure(text)
    app.set_checked("Spreadsheet-safe CSV", False)
    expect(app.readiness_status()).to_have_text("Ready")
    assert app.value("Source text") == text


def assert_no_injection(app: App) -> None:
    """No dialog, no element a payload could have created, no CSP violation."""
    assert app.dialogs == []
    injected = app.page.evaluate(
        """() => [...document.querySelectorAll(
                '#app img, #app script, #app iframe, #app object, #app embed, [onerror], [onload]'
            )].map((element) => element.outerHTML)"""
    )
    assert injected == []
    assert app.violations() == []


def assert_no_result(app: App) -> None:
    """Check inputs, and nothing partial offered."""
    expect(app.readiness_status()).to_have_text("Check inputs")
    assert app.records() == []
    assert app.preview() == []
    assert app.figure("Chunks").text_content() == "—"
    assert app.exports_enabled() == NO_EXPORTS


def invalid(app: App, label: str) -> bool:
    return app.control(label).get_attribute("aria-invalid") == "true"


# ---------------------------------------------------------------- a page opened from a bad link

HOSTILE_NAME = f"{XSS_IMG}</script>javascript:alert(1)"
HOSTILE_SEPARATORS = [XSS_SCRIPT, "\n\n", ""]
HOSTILE_LINK = (
    "#v=1&mode=fixed&size=%ZZ&overlap=%E0%A4%A&edges=preserve&edges=trim"
    "&__proto__=1&constructor=x&colour=red"
    # keys a naive JS query parser (qs-style brackets or dots) would turn into pollution
    "&__proto__%5Bpolluted%5D=yes&constructor%5Bprototype%5D%5Bpolluted%5D=yes"
    "&__proto__.polluted=yes"
    "&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E%3C%2Fscript%3Ejavascript%3Aalert(1)"
    "&sep=%5B%22%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%2C%22%5Cn%5Cn%22%2C%22%22%5D"
)


@pytest.fixture(scope="module")
def from_link(browser, server) -> Iterator[App]:
    app = launch_app(browser, server.url)
    app.open(HOSTILE_LINK).wait_ready()
    yield app
    app.page.context.close()


def test_hostile_link_opens_ready_with_link_xss_kept_as_text(from_link: App) -> None:
    """Bad input case 6."""
    expect(from_link.readiness_status()).to_have_text("Ready")
    assert from_link.value("Source name") == HOSTILE_NAME
    assert json.loads(from_link.value("Separators")) == HOSTILE_SEPARATORS
    summary = from_link.page.locator("#separators-summary").text_content() or ""
    assert XSS_SCRIPT in summary
    assert_no_injection(from_link)


def test_hostile_link_uses_defaults_for_unreadable_values_and_names_them(
    from_link: App,
) -> None:
    """Bad input case 6."""
    assert from_link.checked("Fixed size")  # readable values are kept
    assert from_link.value("Chunk size") == "300"  # %ZZ
    assert from_link.value("Requested overlap") == "50"  # %E0%A4%A
    assert from_link.checked("Trim edge whitespace")  # edges given twice
    said = "\n".join(from_link.notes())
    for expected in (
        "Ignored size",
        "Ignored overlap",
        "Ignored edges: it appears more than once",
        "'__proto__'",
        "'constructor'",
        "'colour'",
        "'__proto__[polluted]'",
        "'constructor[prototype][polluted]'",
        "'__proto__.polluted'",
    ):
        assert expected in said, f"{expected!r} missing from the notes: {said}"


def test_hostile_link_keys_pollute_no_prototype(from_link: App) -> None:
    """Bad input case 6.

    The link above carries the keys that pollute Object.prototype when a page reads
    its fragment with a naive parser; none of them may reach any object."""
    polluted = from_link.page.evaluate(
        "() => [({}).polluted, Object.prototype.polluted, [].polluted,"
        " Object.getPrototypeOf({}) === Object.prototype]"
    )
    assert polluted == [None, None, None, True]


def test_link_over_8kb_is_ignored_whole_and_said(from_link: App) -> None:
    """Bad input case 6."""
    from_link.open_link("#v=1&size=77&name=" + "a" * 9000)
    expect(from_link.region("Chunk readiness")).to_contain_text("longer than 8 KB")
    expect(from_link.readiness_status()).to_have_text("Ready")
    assert from_link.value("Chunk size") == "300"
    assert from_link.value("Source name") == ""


def test_link_with_bad_mode_control_name_and_lone_surrogate_is_ignored_by_name(
    from_link: App,
) -> None:
    """Bad input case 6."""
    from_link.open_link("#v=1&mode=evil&size=120&name=a%0D%0Ab&sep=%5B%22%ED%A0%80%22%5D")
    expect(from_link.readiness_status()).to_have_text("Ready")
    said = "\n".join(from_link.notes())
    assert "Ignored mode" in said and "Ignored name" in said and "Ignored sep" in said
    assert from_link.value("Chunk size") == "120"
    assert from_link.checked("Recursive")
    assert from_link.value("Source name") == ""
    assert json.loads(from_link.value("Separators")) == list(DEFAULT_SEPARATORS)
    assert_no_injection(from_link)


@pytest.mark.parametrize("value", ["NaN", "12abc", "1e309", "3.5", "-5", "+3", "٣"])
def test_values_no_number_field_lets_through_arrive_by_link_and_are_named(
    from_link: App, value: str
) -> None:
    """Bad input case 1.

    Chromium's number field refuses these keys (or reports them as ""); a share link
    can carry them. Each is ignored by name and the default is used."""
    from_link.open_link("#v=1&size=77&overlap=5")  # a size other than the default first
    assert from_link.value("Chunk size") == "77"
    from_link.open_link(f"#v=1&size={quote(value, safe='')}&overlap=5")
    said = "\n".join(from_link.notes())
    assert "Ignored size" in said, said
    assert from_link.value("Chunk size") == "300"
    assert from_link.value("Requested overlap") == "5"
    expect(from_link.readiness_status()).to_have_text("Ready")


# ---------------------------------------------------------------- XSS through files and the name


def test_xss_in_file_contents_is_shown_as_literal_text(app: App) -> None:
    """Bad input case 3."""
    reset(app)
    payload = f"# Title\n\n{XSS_SCRIPT}{XSS_IMG}\n\nafter"
    app.settle(lambda: app.browse("evil.md", payload.encode(), "text/markdown"))
    expect(app.source_status()).to_contain_text("Imported evil.md")
    assert any(XSS_SCRIPT + XSS_IMG in text for text in app.preview())
    assert any(XSS_SCRIPT + XSS_IMG in row[-1] for row in app.records())
    assert_no_injection(app)


@pytest.mark.parametrize(
    "name", [f"</script>{XSS_IMG}", "javascript:alert(1)", "\u202egnp.exe", "../../etc/passwd"]
)
def test_hostile_source_name_is_plain_text_and_download_name_is_sanitised(
    app: App, name: str
) -> None:
    """Bad input case 5."""
    reset(app)
    app.fill("Source name", name)
    expect(app.readiness_status()).to_have_text("Ready")
    file_name, jsonl = app.download("Download JSONL")
    assert {json.loads(line)["source"] for line in jsonl.decode().splitlines()} == {name}
    assert re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.jsonl", file_name), file_name
    assert_no_injection(app)


def test_overlong_source_name_is_refused_with_a_message(app: App) -> None:
    """Bad input case 5."""
    reset(app)
    app.fill("Source name", "n" * 201)
    assert_no_result(app)
    expect(app.readiness_message()).to_have_text(
        "Source name has 201 code points; the limit is 200."
    )
    assert invalid(app, "Source name")
    assert app.value("Source text") == BASE_TEXT


# ---------------------------------------------------------------- settings typed on the page


@pytest.mark.parametrize(
    ("typed", "arrives"),
    [("0", "0"), ("-5", "-5"), ("3.5", "3.5"), ("10001", "10001"), ("", ""), ("1e309", "")],
)
def test_bad_chunk_size_typed_names_the_field_and_range(app: App, typed: str, arrives: str) -> None:
    """Bad input case 1.

    Typed key by key. "1e309" is a number Chromium cannot hold: the field reports ""."""
    reset(app)
    app.type("Chunk size", typed)
    assert app.value("Chunk size") == arrives
    assert_no_result(app)
    expect(app.readiness_message()).to_contain_text(
        "Chunk size must be a whole number from 1 to 10,000"
    )
    assert invalid(app, "Chunk size")
    assert app.value("Source text") == BASE_TEXT


@pytest.mark.parametrize("typed", ["300", "301", "-1", "2.5"])
def test_bad_overlap_names_the_field_before_any_splitting(app: App, typed: str) -> None:
    """Bad input case 2."""
    reset(app)
    app.type("Requested overlap", typed)
    assert app.value("Requested overlap") == typed
    assert_no_result(app)
    expect(app.readiness_message()).to_contain_text(
        "Requested overlap must be a whole number from 0 to 299, smaller than Chunk size"
    )
    assert invalid(app, "Requested overlap")


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
def test_bad_separators_are_refused_with_a_message(app: App, separators, expected) -> None:
    """Bad input case 4."""
    reset(app)
    app.fill("Separators", separators)
    assert_no_result(app)
    expect(app.readiness_message()).to_contain_text(expected)
    assert invalid(app, "Separators")


def test_regex_looking_separator_is_matched_literally(app: App) -> None:
    """Bad input case 4."""
    text = "aaaa(a+)+$bbbbbb(a+)+$cc"
    settings = app.configure(text, size=10, overlap=0, separators=("(a+)+$", ""))
    expected = analyse(text, settings)
    assert [c.text for c in expected.chunks] == ["aaaa", "(a+)+$bbbb", "bb", "(a+)+$cc"]
    _, jsonl = app.download("Download JSONL")
    assert jsonl.decode() == to_jsonl(expected)


# ---------------------------------------------------------------- documents


def test_paste_over_20000_code_points_is_refused_with_the_count(app: App) -> None:
    """Bad input case 7."""
    reset(app)
    app.fill("Source text", "a" * 20_001)
    expect(app.source_status()).to_contain_text("20,001 code points")
    expect(app.source_status()).to_contain_text("previous text was kept")
    assert app.value("Source text") == BASE_TEXT
    expect(app.readiness_status()).to_have_text("Ready")


def test_paste_is_limited_by_code_points_not_utf16_units_or_bytes(app: App) -> None:
    """Bad input case 12."""
    reset(app)
    text = "😀" * 20_000  # 40,000 UTF-16 units, 80,000 bytes
    app.fill("Source text", text)
    assert app.value("Source text") == text
    expect(app.page.locator("#source-count")).to_have_text("20,000 of 20,000 code points")
    expect(app.readiness_status()).to_have_text("Ready")


def test_file_over_100000_bytes_is_refused_with_its_size(app: App) -> None:
    """Bad input case 8."""
    reset(app)
    app.browse("big.txt", b"a" * 100_001)  # refused before reading: nothing recomputes
    expect(app.source_status()).to_contain_text("100,001 bytes")
    assert app.value("Source text") == BASE_TEXT


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
def test_non_utf8_files_are_refused_and_nothing_is_imported(app: App, name, data) -> None:
    """Bad input cases 9 and 10."""
    reset(app)
    app.browse(name, data)
    expect(app.source_status()).to_contain_text(f"{name} is not a UTF-8 text file")
    expect(app.source_status()).to_contain_text("previous text was kept")
    assert app.value("Source text") == BASE_TEXT


def test_utf8_bom_is_dropped_and_inner_feff_stays(app: App) -> None:
    """Bad input case 11."""
    reset(app)
    app.settle(lambda: app.browse("bom.txt", "\ufeffstart \ufeff inner".encode()))
    expect(app.source_status()).to_contain_text("Imported bom.txt")
    assert app.value("Source text") == "start \ufeff inner"


def test_empty_file_has_its_own_message(app: App) -> None:
    """Bad input case 13."""
    reset(app)
    app.browse("empty.txt", b"")
    expect(app.source_status()).to_contain_text("empty.txt is empty")
    assert app.value("Source text") == BASE_TEXT


def test_whitespace_only_text_with_trimmed_edges_has_a_specific_message(app: App) -> None:
    """Bad input case 13."""
    reset(app)
    app.fill("Source text", "   \n\t  \n")
    assert_no_result(app)
    expect(app.readiness_message()).to_contain_text(
        "No text remains after trimming edge whitespace"
    )


def test_several_files_dropped_at_once_are_all_imported(app: App) -> None:
    """Bad input cases 13 and 29: each becomes a document, the first is shown."""
    reset(app)
    app.settle(lambda: app.drop([("a.txt", b"first"), ("b.md", b"second")]))
    expect(app.source_status()).to_have_text("Imported 2 of 2 files; showing a.txt.")
    assert app.value("Source text") == "first"


def test_one_dropped_file_is_imported(app: App) -> None:
    """Bad input case 13."""
    reset(app)
    app.settle(lambda: app.drop([("one.txt", b"dropped text here")]))
    expect(app.source_status()).to_contain_text("Imported one.txt")
    assert app.value("Source text") == "dropped text here"


def test_folder_drop_is_refused_simulated_entry(app: App) -> None:
    """Bad input case 13.

    A real directory cannot be put in a DataTransfer from a test; the drop event is
    faked with an entry whose isDirectory is true, which is what the page reads."""
    reset(app)
    app.drop_folder()
    expect(app.source_status()).to_have_text(
        "Folders cannot be imported; drop TXT or Markdown files."
    )
    assert app.value("Source text") == BASE_TEXT


@pytest.mark.parametrize(
    "file_text",
    [
        "First line\r\nsecond line\r\n\r\nNew paragraph\r\nend\r\n",
        "Old Mac line\rsecond\r\rthird paragraph\r",
    ],
)
def test_crlf_and_cr_in_an_imported_file_are_kept_exactly(app: App, file_text: str) -> None:
    """Bad input case 14."""
    app.configure(BASE_TEXT, size=20, overlap=5)
    app.settle(lambda: app.browse("crlf.txt", file_text.encode()))
    expect(app.source_status()).to_contain_text("Imported crlf.txt")
    _, data = app.download("Download JSONL")
    jsonl = data.decode()
    records = [json.loads(line) for line in jsonl.splitlines()]
    assert [r["text"] for r in records] == [file_text[r["start"] : r["end"]] for r in records], (
        "downloaded records are not slices of the imported file (line endings changed)"
    )
    assert jsonl == to_jsonl(analyse(file_text, Settings(chunk_size=20, chunk_overlap=5)))


def test_lone_surrogate_paste_is_refused_with_its_position(app: App) -> None:
    """Bad input case 15.

    No keyboard types a lone surrogate; a paste from another program can carry one,
    so the value is set exactly and one input event fired."""
    reset(app)
    app.set_exact("Source text", "ab\ud800cd")
    expect(app.source_status()).to_contain_text("lone surrogate (U+D800) at code point 2")
    assert app.value("Source text") == BASE_TEXT
    expect(app.readiness_status()).to_have_text("Ready")


def test_unicode_is_never_normalised_and_offsets_stay_exact(app: App) -> None:
    """Bad input cases 16 and 21."""
    text = (
        "Cafe\u0301 👩\u200d👩\u200d👧 🇺🇸 \u202eabc\u202c zero\u200bwidth "
        "עברית line\u2028sep para\u2029sep " * 6
    )
    app.configure(text, size=25, overlap=7)
    assert app.value("Source text") == text
    _, data = app.download("Download JSONL")
    jsonl = data.decode()
    assert jsonl == to_jsonl(analyse(text, Settings(chunk_size=25, chunk_overlap=7)))
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
def test_over_2000_chunks_says_how_many_and_offers_nothing(
    app: App, mode: str, size: int, overlap: int
) -> None:
    """Bad input cases 17 and 18.

    Whether this answers quickly is measured in bench/bench_core.py, not here."""
    text = "a" * 20_000  # one line, no separators
    reset(app, text)
    settings = app.configure(mode=mode, size=size, overlap=overlap)
    expected = analyse(text, settings)
    assert expected.error is not None and expected.count > 2000
    assert_no_result(app)
    message = app.readiness_message().text_content() or ""
    assert f"would produce {expected.count:,} chunks" in message
    assert "raise the chunk size or lower the overlap" in message


def test_spreadsheet_safe_checkbox_changes_the_csv_download(app: App) -> None:
    """Bad input cases 19 and 20."""
    text = '=SUM(A1:A2)\n\n+1 plus\n\n-2 minus\n\n@cmd\n\nplain "quoted", with comma\nand newline'
    app.configure(text, size=12, overlap=0)
    expected = analyse(text, Settings(chunk_size=12, chunk_overlap=0))
    _, data = app.download("Download CSV")
    exact = data.decode()
    assert exact == to_csv(expected)
    rows = list(csv.DictReader(io.StringIO(exact, newline="")))
    assert [r["text"] for r in rows] == [text[int(r["start"]) : int(r["end"])] for r in rows]
    assert any(r["text"].startswith("=") for r in rows)

    app.set_checked("Spreadsheet-safe CSV", True)
    try:
        _, data = app.download("Download CSV")
    finally:
        app.set_checked("Spreadsheet-safe CSV", False)
    safe = data.decode()
    assert safe == to_csv(expected, spreadsheet_safe=True)
    safe_texts = [r["text"] for r in csv.DictReader(io.StringIO(safe, newline=""))]
    assert not any(t.startswith(("=", "+", "-", "@")) for t in safe_texts)
    assert "'=SUM(A1:A2)" in safe_texts


def test_the_link_never_claims_settings_the_controls_do_not_show(app: App) -> None:
    """Typing 999999 as Chunk size once left the last valid size in the address and let
    Copy settings link copy it: now the address holds no settings and the button is
    refused, saying why, until the field is valid again."""
    reset(app)
    app.type("Chunk size", "999999")
    assert_no_result(app)
    assert "size=" not in app.page.evaluate("() => location.href")
    link = app.page.get_by_role("button", name="Copy settings link", exact=True)
    expect(link).to_be_disabled()
    expect(app.page.locator("#link-note")).to_contain_text("until the settings are valid")
    app.type("Chunk size", "120")
    expect(link).to_be_enabled()
    assert "size=120" in app.page.evaluate("() => location.href")
    expect(app.page.locator("#link-note")).to_be_hidden()

"""Every registered mode and option, driven through the page's labels as a person would.

The page's controls are generated from chunker_py's FIELDS and MODES at build time; these
tests check that each mode appears, shows the controls it uses, reads its options from a
share link, refuses bad values under Chunk readiness, and that the JSONL download equals
``python -m chunker_py`` with the same settings, byte for byte.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import expect

from chunker_py import FIELDS, MODES, Settings, analyse
from chunker_py.config.links import settings_to_fragment

from ..conftest import App

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[3]

MARKDOWN = (
    "Intro line before any heading.\r\n\r\n"
    "# Guide\r\n\r\n"
    "Some words about the guide. A second sentence follows here.\r\n\r\n"
    "## Install 😀\r\n\r\n"
    "```sh\r\npip install thing\r\n\r\nthing --help\r\n```\r\n\r\n"
    "| Option | Meaning |\r\n|---|---|\r\n| -a | all of it |\r\n| -b | brief |\r\n"
    "| -c | colour output |\r\n| -d | debug |\r\n\r\n"
    "## Use\r\n\r\nCall it. Then read Dr. Who's notes! Vgl. S. 3 ist gut.\r\n"
)


def cli_jsonl(text: str, settings: Settings, tmp_path: Path) -> bytes:
    """The CLI's JSONL for the same settings, given as explicit flags from FIELDS."""
    path = tmp_path / "doc.md"
    path.write_bytes(text.encode("utf-8"))
    args = []
    for key, field in FIELDS.items():
        value = settings.get(key)
        if value == field.default or key == "source_name":
            continue
        if field.kind == "flag":
            args.append(field.flag)
        else:
            args += [field.flag, field.text(value)]
    done = subprocess.run(
        [sys.executable, "-m", "chunker_py", str(path), *args],
        capture_output=True,
        cwd=ROOT,
        check=True,
    )
    return done.stdout


def load(app: App) -> None:
    """Import MARKDOWN as a file (typing would turn its CRLF into LF, as text areas do)."""
    app.settle(lambda: app.browse("guide.md", MARKDOWN.encode("utf-8"), "text/markdown"))
    app.configure(None, size=300, overlap=0)
    set_option(app, "Size unit", "code-points")  # cases before may have chosen tokens
    set_option(app, "Tokenizer", "cl100k_base")


def set_option(app: App, label: str, value: str) -> None:
    field = next(f for f in FIELDS.values() if f.label == label)
    if field.widget == "checkbox":
        app.set_checked(label, value == "1")
    elif field.widget == "radio":
        app.choose(field.choices[value])
    elif field.widget == "select":
        app.select(label, value=value)
    else:
        app.fill(label, value)


def test_every_registered_mode_is_a_labelled_choice_with_its_own_controls(app: App) -> None:
    app.configure(MARKDOWN)
    for mode in MODES.values():
        app.choose(mode.label)
        expect(app.page.get_by_text(mode.help, exact=True)).to_be_visible()
        for field in FIELDS.values():
            if field.group == "advanced" or field.widget == "radio":
                continue
            control = app.page.get_by_label(field.label, exact=True)
            if field.key == "chunk_overlap":
                # where chunks never overlap, the control stays but is disabled
                (
                    expect(control).to_be_enabled
                    if mode.uses_overlap
                    else expect(control).to_be_disabled
                )()
            elif field.used_by(mode.name):
                expect(control).to_be_visible()
            else:
                expect(control).to_be_hidden()
    app.choose("Recursive")


CASES = [
    ("Markdown structure", {"Chunk size": "120", "Split at heading level": "2"}),
    ("Markdown structure", {"Chunk size": "60", "Include heading breadcrumb": "0"}),
    ("Sentence", {"Chunk size": "70", "Requested overlap": "30",
                  "Abbreviations": '["Vgl."]'}),
    ("Recursive", {"Chunk size": "80", "Requested overlap": "10", "Separators preset": "markdown"}),
    ("Recursive", {"Chunk size": "50", "Requested overlap": "0", "Separators preset": "python"}),
    ("Recursive", {"Chunk size": "40", "Requested overlap": "8", "Size unit": "tokens",
                   "Tokenizer": "o200k_base"}),
    ("Sentence", {"Chunk size": "30", "Requested overlap": "0", "Size unit": "tokens",
                  "Tokenizer": "wordpiece"}),
    ("Markdown structure", {"Chunk size": "50", "Size unit": "tokens", "Tokenizer": "words"}),
    ("Token window", {"Chunk size": "25", "Requested overlap": "5",
                      "Tokenizer": "cl100k_base"}),
]  # fmt: skip


@pytest.mark.parametrize(("mode", "options"), CASES)
def test_download_equals_the_cli_byte_for_byte(
    app: App, tmp_path: Path, mode: str, options: dict[str, str]
) -> None:
    load(app)
    app.choose(mode)
    for label, value in options.items():
        set_option(app, label, value)
    expect(app.readiness_status()).to_have_text("Ready")
    fragment = app.page.evaluate("() => location.hash")
    from chunker_py.config.links import settings_from_fragment

    settings, notes = settings_from_fragment(fragment)
    assert notes == []
    assert settings.mode == next(n for n, m in MODES.items() if m.label == mode)
    _name, data = app.download("Download JSONL")
    assert data == cli_jsonl(MARKDOWN, settings, tmp_path)
    # the Tokens column (filled after the paint) equals the CLI's token counts
    assert app.token_counts() == [str(t) for t in analyse(MARKDOWN, settings).tokens]
    rows = app.records()
    chunks = analyse(MARKDOWN, settings).chunks
    assert len(rows) == len(chunks) and [r[-1] for r in rows] == [c.text for c in chunks]
    if settings.mode == "markdown":
        assert [r[5] for r in rows] == [c.heading_path for c in chunks]


def test_the_preview_shows_context_prefixes_apart_from_the_source_text(app: App) -> None:
    load(app)
    app.choose("Markdown structure")
    set_option(app, "Chunk size", "40")
    set_option(app, "Include heading breadcrumb", "1")
    from chunker_py.config.links import settings_from_fragment

    settings, _ = settings_from_fragment(app.page.evaluate("() => location.hash"))
    chunks = analyse(MARKDOWN, settings).chunks
    prefixes = app.page.locator("#preview-list .prefix-text").all_text_contents()
    assert prefixes == [c.prefix for c in chunks if c.prefix]
    assert any("| Option | Meaning |" in p for p in prefixes)  # a repeated table header
    bodies = app.page.locator("#preview-list .chunk-text").all_text_contents()
    assert bodies == [c.text for c in chunks]  # the prefix is never in the chunk's text


@pytest.mark.parametrize(
    ("label", "bad", "phrase"),
    [
        ("Split at heading level", "0", "Split at heading level must be a whole number from 1"),
        ("Split at heading level", "7", "Split at heading level must be a whole number from 1"),
        ("Abbreviations", '["Vgl."', "Abbreviations must be a JSON list"),
        ("Abbreviations", '["two words"]', "Abbreviation 1 must be one word"),
    ],
)
def test_a_bad_option_is_named_under_chunk_readiness_and_the_text_is_kept(
    app: App, label: str, bad: str, phrase: str
) -> None:
    load(app)
    app.choose("Markdown structure" if "heading" in label else "Sentence")
    app.fill(label, bad)
    expect(app.readiness_status()).to_have_text("Check inputs")
    expect(app.readiness_message()).to_contain_text(phrase)
    expect(app.page.get_by_label(label, exact=True)).to_have_attribute("aria-invalid", "true")
    assert app.source.input_value() == MARKDOWN.replace("\r\n", "\n")  # as text areas show
    assert app.page.get_by_label(label, exact=True).input_value() == bad
    app.fill(label, "2" if "heading" in label else "")
    expect(app.readiness_status()).to_have_text("Ready")


def test_a_share_link_restores_every_new_option(app: App) -> None:
    settings = Settings(
        mode="markdown", chunk_size=90, chunk_overlap=10, heading_level=3, breadcrumb=False,
        preset="latex", abbreviations=("sog.",),
    )  # fmt: skip
    app.open_link(settings_to_fragment(settings))  # edits the fragment: hashchange
    page = app.page
    expect(page.get_by_role("radio", name="Markdown structure", exact=True)).to_be_checked()
    expect(page.get_by_label("Split at heading level", exact=True)).to_have_value("3")
    expect(page.get_by_label("Include heading breadcrumb", exact=True)).not_to_be_checked()
    app.choose("Recursive")
    expect(page.get_by_label("Separators preset", exact=True)).to_have_value("latex")
    app.choose("Sentence")
    expect(page.get_by_label("Abbreviations", exact=True)).to_have_value('["sog."]')


def test_a_phone_width_page_never_scrolls_sideways(new_app: Callable[..., App]) -> None:
    """At 390 px every control fits; only the wide tables scroll, inside their own boxes."""
    phone = new_app(viewport={"width": 390, "height": 844})
    phone.open()
    phone.wait_ready()
    for mode in MODES.values():
        phone.choose(mode.label)
        width = phone.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"{mode.label}: the page is {width} px wide"

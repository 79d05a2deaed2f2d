"""The document list: several files imported at once, through the page's labels.

Each valid file becomes a document (name, size in bytes, chunks at the shared settings);
refused files are listed with their reason and no loaded document is lost (bad input
case 29); choosing a document shows it as the Source text and in every panel.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import expect

from chunker_py import Settings, analyse

from ..conftest import App
from ..panels.test_chunk_map import run_command_line

pytestmark = pytest.mark.browser

SET_TEXTS = {
    "notes.md": "# Notes\n\nA first paragraph. It has two sentences.\n\n```\ncode here\n```\n" * 20,
    "plain.txt": "One line of plain text without an end" * 30,
    "table.md": "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 60 + "\nAfter the table.\n",
}
ALPHA = "Alpha opens the set. " * 30
BETA = "Beta is the second document.\n\n" * 10
GAMMA = "Gamma closes it."


def line(name: str, text: str, chunks: int) -> str:
    return f"{name} · {len(text.encode()):,} bytes · {chunks:,} chunks"


def chunks(text: str, size: int = 0) -> int:
    settings = Settings(chunk_size=size) if size else Settings()
    return analyse(text, settings).count


def test_three_files_browsed_at_once_become_three_documents(app: App) -> None:
    """Bad input case 29: each file a document; the first shown; any one can be chosen."""
    files = [
        ("alpha.txt", ALPHA.encode()),
        ("beta.md", BETA.encode()),
        ("gamma.txt", GAMMA.encode()),
    ]
    app.settle(lambda: app.browse_files(files))
    expect(app.source_status()).to_have_text("Imported 3 of 3 files; showing alpha.txt.")
    assert app.value("Source text") == ALPHA
    expect(app.region("Documents").get_by_role("button")).to_have_text(
        [
            line("alpha.txt", ALPHA, chunks(ALPHA)),
            line("beta.md", BETA, chunks(BETA)),
            line("gamma.txt", GAMMA, chunks(GAMMA)),
        ]
    )
    shown = app.region("Documents").get_by_role("button", name=re.compile(r"^alpha\.txt "))
    expect(shown).to_have_attribute("aria-pressed", "true")

    beta = app.region("Documents").get_by_role("button", name=re.compile(r"^beta\.md "))
    app.settle(beta.click)
    assert app.value("Source text") == BETA
    expect(beta).to_have_attribute("aria-pressed", "true")
    assert app.figure("Chunks").text_content() == f"{chunks(BETA):,}"
    assert len(app.records()) == chunks(BETA)


def test_settings_are_shared_and_every_document_is_recounted(app: App) -> None:
    """One set of settings: a new chunk size recounts the documents not shown too."""
    files = [("one.txt", ALPHA.encode()), ("two.txt", BETA.encode())]
    app.settle(lambda: app.browse_files(files))
    app.fill("Chunk size", "100")
    region = app.region("Documents")
    expect(region.get_by_role("button", name=re.compile(r"^two\.txt "))).to_have_text(
        line("two.txt", BETA, chunks(BETA, 100))
    )
    expect(region.get_by_role("button", name=re.compile(r"^one\.txt "))).to_have_text(
        line("one.txt", ALPHA, chunks(ALPHA, 100))
    )
    assert "one.txt" not in app.page.url and "Alpha" not in app.page.url
    app.fill("Chunk size", "300")


def test_a_file_over_100000_bytes_is_refused_and_the_others_stay(app: App) -> None:
    """Bad input case 29: the big and the non-UTF-8 files listed with their reason; the
    valid one loads; every document loaded before stays in the list."""
    app.settle(lambda: app.browse_files([("kept-before.txt", GAMMA.encode())]))
    before = app.documents()
    files = [
        ("huge.txt", b"a" * 100_001),
        ("fine.txt", BETA.encode()),
        ("latin.txt", "café".encode("latin-1")),
    ]
    app.settle(lambda: app.browse_files(files))
    expect(app.source_status()).to_have_text(
        "Imported 1 of 3 files; showing fine.txt. Refused 2, listed below with the reason."
    )
    refused = app.refused_files()
    assert refused[0].startswith("huge.txt: huge.txt has 100,001 bytes; imports accept at most")
    assert refused[1].startswith("latin.txt: latin.txt is not a UTF-8 text file")
    listed = app.documents()
    assert listed[: len(before)] == before
    assert [entry.split(" · ")[0] for entry in listed[len(before) :]] == ["fine.txt"]
    assert app.value("Source text") == BETA


def test_files_with_the_same_name_are_both_kept_told_apart(app: App) -> None:
    """Bad input case 29: two files named alike, dropped at once."""
    app.settle(lambda: app.drop([("twin.txt", b"first twin"), ("twin.txt", b"second twin")]))
    names = [entry.split(" · ")[0] for entry in app.documents()]
    assert "twin.txt" in names and "twin.txt (2)" in names
    second = app.region("Documents").get_by_role("button", name=re.compile(r"^twin\.txt \(2\)"))
    app.settle(second.click)
    assert app.value("Source text") == "second twin"


def test_an_edit_belongs_to_the_shown_document(app: App) -> None:
    """Typing in the Source text changes the shown document; choosing another and back
    keeps the edit."""
    app.settle(lambda: app.browse_files([("edit-a.txt", b"first text"), ("edit-b.txt", b"other")]))
    app.fill("Source text", "first text, edited")
    region = app.region("Documents")
    app.settle(region.get_by_role("button", name=re.compile(r"^edit-b\.txt ")).click)
    app.settle(region.get_by_role("button", name=re.compile(r"^edit-a\.txt ")).click)
    assert app.value("Source text") == "first text, edited"


def long_file(code_points: int) -> str:
    """Sentences and paragraphs, with one marked passage in the middle."""
    words = ["alpha", "beta", "gamma.", "delta\n\n", "épsilon", "zeta"]
    rng = random.Random(5)
    text = " ".join(rng.choice(words) for _ in range(code_points // 5))
    middle = len(text) // 2
    return (text[:middle] + " MARKED PASSAGE HERE " + text[middle:])[:code_points]


def test_a_long_file_is_offered_in_parts_whose_records_keep_the_files_offsets(
    app: App, tmp_path: Path
) -> None:
    """Bad input case 30: a 60,000-code-point file is refused as a document, never cut
    silently, and offered in parts; each part is a document; a part's download is what
    the command it names writes for that part of the file, so the marked passage is
    found at its offsets in the original file."""
    text = long_file(60_000)
    data = text.encode()
    app.browse_files([("long.md", data)])  # refused: the text stays, nothing to settle
    expect(app.source_status()).to_contain_text(
        "The text has 60,000 code points; the limit is 20,000."
    )
    expect(app.source_status()).to_contain_text("It can be loaded in parts")
    assert app.value("Source text") != text
    app.settle(app.page.get_by_role("button", name="Load long.md in parts").click)
    expect(app.source_status()).to_contain_text("Loaded long.md (60,000 code points")
    listed = [entry.split(" · ")[:2] for entry in app.documents()]
    parts = [entry for entry in listed if entry[0] == "long.md"]
    count = len(parts)  # 60,000 code points in parts of at most 20,000, cut at a space
    assert count >= 3 and [p[1] for p in parts] == [
        f"part {i} of {count}" for i in range(1, count + 1)
    ]
    expect(app.page.get_by_role("list", name="Files refused")).to_be_hidden()

    second = app.region("Documents").get_by_role("button", name=re.compile(r"^long\.md · part 2 "))
    app.settle(second.click)
    expect(second).to_have_attribute("aria-pressed", "true")
    shown = app.value("Source text")
    assert 0 < len(shown) <= 20_000 and shown in text
    _name, jsonl = app.download("Download JSONL")
    records = [json.loads(line) for line in jsonl.decode().splitlines()]
    assert len(records) == len(app.records())  # the part's chunks, no more
    # the shown command, on the original file: this part's lines are among its lines
    (tmp_path / "long.md").write_bytes(data)
    expect(app.page.locator("#export-part")).to_contain_text(
        f"Records of part 2 of {count} of long.md: offsets, ids and indices in the whole file"
    )
    command = app.page.locator("#export-part code").text_content()
    assert command is not None and command.startswith("python -m chunker_py long.md ")
    assert command.endswith(" --stream --buffer-size 20000")
    streamed = run_command_line(command, tmp_path).decode().splitlines(keepends=True)
    assert records[0]["index"] > 0
    # the whole file's download is the named command's output, byte for byte
    name, whole = app.download("Download the whole file (JSONL)")
    assert name == "long.jsonl" and whole.decode() == "".join(streamed)
    assert jsonl.decode() == "".join(streamed[records[0]["index"] : records[-1]["index"] + 1])
    marked = [r for r in records if "MARKED PASSAGE" in r["text"]]
    assert marked, "the marked passage is in the middle part"
    for record in records:
        assert text[record["start"] : record["end"]] == record["text"]
        assert text[: record["start"]].count("\n") + 1 == record["start_line"]

    # questions written for the whole file (Chroma's offsets are the file's): the one
    # whose evidence this part holds is imported, placed in the part; the other is listed
    def asked(question: str, start: int, end: int) -> str:
        ref = {"content": text[start:end], "start_index": start, "end_index": end}
        return json.dumps({"question": question, "references": [ref], "corpus_id": "long"})

    marked_at = text.index("MARKED PASSAGE")
    lines = [asked("Where is the mark?", marked_at, marked_at + 14), asked("Early?", 10, 30)]
    app.page.get_by_label("Import questions").set_input_files(
        files=[{"name": "asked.jsonl", "mimeType": "application/jsonl",
                "buffer": "\n".join(lines).encode()}]
    )  # fmt: skip
    expect(app.page.locator("#evidence-status")).to_contain_text(
        "Imported 1 question from asked.jsonl; 1 skipped"
    )
    skipped = app.page.get_by_role("list", name="Questions skipped").get_by_role("listitem")
    expect(skipped).to_have_count(1)
    expect(skipped.first).to_contain_text("its evidence is in another part of the file")
    app.page.wait_for_selector('#app[data-evidence="ready"]', state="attached")
    _name, figures = app.download("Download figures (JSONL)")
    (found,) = [json.loads(line) for line in figures.decode().splitlines()]
    part_start = text.index(shown)
    assert found["excerpts"][0]["start"] == marked_at - part_start  # in the part shown
    assert found["excerpts"][0]["found"] is True


def test_each_long_file_keeps_its_offer_and_one_over_the_total_is_refused(app: App) -> None:
    """Bad input case 30 with several files: both long files are offered in parts, and
    loading one keeps the other's offer; a file over 1,000,000 code points is refused with
    that limit, and not offered."""
    first, second = long_file(25_000), long_file(21_000)
    files = [
        ("first.txt", first.encode()),
        ("second.txt", second.encode()),
        ("whole-book.txt", b"word " * 200_001),
    ]
    app.browse_files(files)
    expect(app.source_status()).to_have_text(
        "None of the 3 files was imported; the previous text was kept. Those over the size "
        "can be loaded in parts, below."
    )
    refused = app.page.get_by_role("list", name="Files refused")
    expect(refused.get_by_role("button")).to_have_text(["Load in parts", "Load in parts"])
    assert app.refused_files()[2] == (
        "whole-book.txt: whole-book.txt has 1,000,005 bytes; imports accept at most 100,000 "
        "bytes. It has 1,000,005 code points; a file loaded in parts may hold at most "
        "1,000,000 code points in all."
    )
    app.settle(app.page.get_by_role("button", name="Load first.txt in parts").click)
    assert app.value("Source text") in first
    expect(refused.get_by_role("listitem")).to_have_count(2)
    expect(refused.get_by_role("button", name="Load second.txt in parts")).to_be_visible()


def test_the_comparison_over_the_set_is_the_command_lines_corpus_lines(
    new_app: Callable[..., App], tmp_path: Path
) -> None:
    """Three documents: the comparison over the set shows, per splitter, the corpus line
    `python -m chunker_py FILE... --format compare` prints for the same files and
    settings (the Semantic row waits for the model in the page)."""
    app = new_app()
    app.open().wait_ready()
    expect(app.page.locator("#set-compare")).to_be_hidden()  # one document: no set
    files = [(name, text.encode()) for name, text in SET_TEXTS.items()]
    app.settle(lambda: app.browse_files(files))
    app.page.wait_for_selector('#app[data-set="ready"]', state="attached", timeout=120_000)
    expect(app.page.locator("#set-compare-count")).to_have_text("3 documents")
    shown = app.page.locator("#set-compare-body tr").evaluate_all(
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent))"
    )
    for name, data in files:
        (tmp_path / name).write_bytes(data)
    command = f"python -m chunker_py {' '.join(SET_TEXTS)} --format compare"
    printed = run_command_line(command, tmp_path).decode().splitlines()
    corpus = [line for line in map(json.loads, printed) if line.get("corpus")]
    assert [row[0] for row in shown] == [line["row"] for line in corpus]

    def written(line: dict[str, object], key: str) -> str:
        value = line[key]
        if value is None:
            return "—"
        assert isinstance(value, int)
        if key == "ends_mid_sentence":
            return f"{value:,} ({line['ends_mid_sentence_pct']:.1f}%)"
        return f"{value:,}"

    keys = ["chunks", "files_over_limit", "max_tokens", "code_blocks_cut", "tables_cut",
            "ends_mid_sentence", "mid_word_edges", "split_grapheme_edges", "over_size",
            "files_without_figures"]  # fmt: skip
    compared = 0
    for row, line in zip(shown, corpus, strict=True):
        if line["key"] == "semantic":
            continue
        assert row[1:] == [written(line, key) for key in keys], line["row"]
        compared += 1
    assert compared >= 6
    # the set's download is the command the Export panel names, byte for byte
    expect(app.page.locator("#export-set")).to_contain_text("The set: 3 files")
    command = app.page.locator("#export-set code").text_content()
    assert command is not None
    assert command.startswith(f"python -m chunker_py {' '.join(SET_TEXTS)} --mode recursive ")
    name, whole = app.download("Download the set (JSONL)")
    assert name == "documents.jsonl"
    assert whole == run_command_line(command, tmp_path)
    assert [json.loads(line)["id"] for line in whole.decode().splitlines()][:1] == ["notes.md#0"]
    # an edit to the document shown: the set's table follows it
    app.fill("Source text", SET_TEXTS["notes.md"] + "\n\nA new paragraph, long. " * 40)
    app.page.wait_for_selector('#app[data-set="ready"]', state="attached", timeout=120_000)
    first = app.page.locator("#set-compare-body tr").first.locator("td").first
    expect(first).not_to_have_text(shown[0][1])

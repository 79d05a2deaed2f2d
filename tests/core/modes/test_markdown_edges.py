"""Markdown structure mode at the edges of a table: a table with a header row and no body
rows is cut like any other block (by sentences, then words), never packed as one row
over the chunk size; one body row is packed with its header."""

from __future__ import annotations

from chunker_py import Settings, analyse

HEADER_ONLY = (
    "# Prices\n\n| alpha column | beta column | gamma column |\n|---|---|---|\n\n"
    "After the table comes a sentence. And another one here."
)


def test_a_table_with_a_header_and_no_body_rows_is_cut_within_the_size() -> None:
    settings = Settings(mode="markdown", chunk_size=20, chunk_overlap=0)
    result = analyse(HEADER_ONLY, settings)
    assert result.error is None
    assert all(c.end - c.start <= 20 for c in result.chunks)
    assert [c.text for c in result.chunks][1:5] == [
        "| alpha column |",
        "beta column | gamma",
        "column |",
        "|---|---|---|",
    ]


def test_a_table_with_one_body_row_keeps_its_header_for_the_row() -> None:
    text = "| alpha column | beta column |\n|---|---|\n| one | two |\n"
    result = analyse(text, Settings(mode="markdown", chunk_size=45, chunk_overlap=0))
    assert result.error is None
    assert [c.text for c in result.chunks] == [
        "| alpha column | beta column |\n|---|---|",
        "| one | two |",
    ]
    assert result.chunks[1].prefix == "| alpha column | beta column |\n|---|---|\n"

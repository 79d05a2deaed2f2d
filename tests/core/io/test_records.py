"""JSONL and CSV records: schema, exact read-back on hostile text, spreadsheet-safe CSV."""

from __future__ import annotations

import csv
import io
import json
import re

from hypothesis import assume, example, given
from hypothesis import strategies as st

from chunker_py import Settings, analyse, to_csv, to_jsonl
from chunker_py.io.records import download_name, line_unsafe, record

from ..conftest import texts

HOSTILE = '=1+2,"quoted"\r\n\u2028x\u0085y\ufeff😀 \t@cmd|-3+3\n+a\x0bb\x1cc'


def test_jsonl_schema_and_order_of_keys() -> None:
    result = analyse(
        "Reset password. Keep backup codes.",
        Settings(chunk_size=18, chunk_overlap=4, source_name="note"),
    )
    lines = to_jsonl(result).splitlines()
    first = json.loads(lines[0])
    assert list(first) == [
        "id",
        "index",
        "text",
        "start",
        "end",
        "start_utf16",
        "end_utf16",
        "length",
        "tokens",
        "overlap",
        "start_line",
        "start_column",
        "end_line",
        "end_column",
        "damage",
        "source",
        "settings",
    ]
    assert first["id"] == "note#0" and first["source"] == "note"
    assert first["tokens"] == 3  # "Reset password." in cl100k_base: Reset, password, .
    # two whole sentences: nothing cut
    assert first["damage"] == {
        "cuts_code": False,
        "cuts_table": False,
        "ends_mid_sentence": False,
        "starts_mid_sentence": False,
        "over_size": False,
        "mid_word_edges": 0,
        "split_grapheme_edges": 0,
    }
    assert first["settings"] == {
        "mode": "recursive",
        "chunk_size": 18,
        "chunk_overlap": 4,
        "edges": "trim",
        "size_unit": "code-points",
        "tokenizer": "cl100k_base",
        "preset": "generic",
        "separators": ["\n\n", "\n", " ", ""],
    }
    fixed = analyse("abc", Settings(mode="fixed", chunk_size=2, chunk_overlap=0))
    record = json.loads(to_jsonl(fixed).splitlines()[0])
    assert "separators" not in record["settings"] and record["source"] is None
    assert record["id"] == "document#0"


@given(text=st.one_of(texts, st.text(max_size=80)), size=st.integers(1, 12))
@example(text=HOSTILE, size=5)
@example(text="a\ud800b\udfffc\u2028", size=2)
def test_jsonl_reads_back_exact_slices_line_by_line(text: str, size: int) -> None:
    result = analyse(text, Settings(chunk_size=size, chunk_overlap=0), max_code_points=None)
    assume(result.error is None)  # e.g. whitespace only: nothing to read back
    out = to_jsonl(result)
    out.encode("utf-8")  # always encodable: lone surrogates are escaped
    lines = out.splitlines()  # splits at U+2028, NEL ...: none may occur raw
    assert len(lines) == len(result.chunks)
    for line in lines:
        r = json.loads(line)
        assert r["text"] == text[r["start"] : r["end"]]
        units = text.encode("utf-16-le", "surrogatepass")
        assert (
            units[2 * r["start_utf16"] : 2 * r["end_utf16"]].decode("utf-16-le", "surrogatepass")
            == r["text"]
        )


@given(text=st.one_of(texts, st.text(max_size=80)))
@example(text=HOSTILE)
def test_csv_reads_back_exactly(text: str) -> None:
    assume(not any(0xD800 <= ord(c) <= 0xDFFF for c in text))  # no UTF-8 CSV holds one
    result = analyse(text, Settings(chunk_size=6, chunk_overlap=2, source_name="a,b"))
    assume(result.error is None)
    rows = list(csv.reader(io.StringIO(to_csv(result), newline="")))
    header = ["index", "start", "end", "length", "tokens", "overlap", "text", "source"]
    assert rows[0] == header
    assert len(rows) == len(result.chunks) + 1
    for row in rows[1:]:
        index, start, end, length, tokens, overlap = map(int, row[:6])
        assert row[6] == text[start:end] and row[7] == "a,b"
        assert length == end - start and result.chunks[index].overlap == overlap
        assert tokens == result.tokens[index]


def test_csv_is_rfc4180() -> None:
    result = analyse(
        'say "hi", ok\nnext',
        Settings(mode="fixed", chunk_size=50, chunk_overlap=0, edges="preserve"),
    )
    assert to_csv(result) == (
        'index,start,end,length,tokens,overlap,text\r\n0,0,17,17,7,0,"say ""hi"", ok\nnext"\r\n'
    )
    assert "source" not in to_csv(result).split("\r\n")[0]


def test_spreadsheet_safe_csv_prefixes_formula_cells_only_when_asked() -> None:
    text = "=SUM(A1)\n+1\n-2\n@x\n\tt\nplain"
    result = analyse(text, Settings(chunk_size=1, chunk_overlap=0, separators=("\n",)))
    exact = list(csv.reader(io.StringIO(to_csv(result), newline="")))[1:]
    safe = list(csv.reader(io.StringIO(to_csv(result, spreadsheet_safe=True), newline="")))[1:]
    assert [r[6] for r in exact] == ["=SUM(A1)", "\n+1", "\n-2", "\n@x", "\n\tt", "\nplain"]
    assert safe[0][6] == "'=SUM(A1)"
    assert [r[6] for r in safe[1:]] == [r[6] for r in exact[1:]]  # these start with \n
    one = analyse("-1", Settings(chunk_size=5, chunk_overlap=0))
    assert to_csv(one, spreadsheet_safe=True).splitlines()[1].endswith(",'-1")
    tab = analyse("\tx", Settings(chunk_size=5, chunk_overlap=0, edges="preserve"))
    assert to_csv(tab, spreadsheet_safe=True).splitlines()[1].endswith(",'\tx")


def test_download_names_are_sanitised() -> None:
    assert download_name("../../etc/passwd", "csv") == "etc_passwd.csv"
    assert download_name("</script>\u202eexe.txt", "jsonl") == "script_exe.txt.jsonl"
    assert download_name("", "csv") == "chunks.csv"
    assert download_name("...", "csv") == "chunks.csv"
    assert download_name("Team handbook", "jsonl") == "Team_handbook.jsonl"


def _rfc4180_row(cells: list[str]) -> str:
    """RFC 4180 as docs/decisions.md states it: a cell holding " , CR or LF is quoted, its quotes
    doubled; every other cell as is; CR LF after each row."""
    quoted = [
        '"' + c.replace('"', '""') + '"' if any(x in c for x in '",\r\n') else c for c in cells
    ]
    return ",".join(quoted) + "\r\n"


@given(text=st.one_of(texts, st.text(alphabet='ab ,"\r\n=+-@\t\x85\u2028', max_size=60)))
@example(text=HOSTILE)
@example(text=' "')
def test_csv_quotes_exactly_the_cells_rfc4180_quotes(text: str) -> None:
    """The CSV (written by ``csv.writer``) is byte for byte the RFC 4180 rule: no cell
    quoted that need not be, in both the exact and the spreadsheet-safe forms."""
    assume(not any(0xD800 <= ord(c) <= 0xDFFF for c in text))
    settings = Settings(mode="markdown", chunk_size=7, source_name='n,"1"')
    result = analyse(text, settings)
    assume(result.error is None)
    header = "index,start,end,length,tokens,overlap,text,heading_path,source\r\n"
    for safe in (False, True):
        rows = [header]
        for c in result.chunks:
            cells = [str(c.index), str(c.start), str(c.end), str(c.length)]
            cells += [str(result.tokens[c.index]), str(c.overlap), c.text, c.heading_path]
            cells.append('n,"1"')
            if safe:
                cells = ["'" + x if x[:1] in ("=", "+", "-", "@", "\t", "\r") else x for x in cells]
            rows.append(_rfc4180_row(cells))
        assert to_csv(result, spreadsheet_safe=safe) == "".join(rows)


@given(
    texts,
    st.integers(1, 40),
    st.sampled_from(["", "notes/a.md", "名 x", 'q"\\\u2028\u2029/']),
    st.sampled_from(["recursive", "markdown", "sentence", "fixed"]),
    st.none()
    | st.dictionaries(
        st.text(max_size=4),
        st.sampled_from(["\u2028", "a\ud800b", "\x85\u2029"]) | st.text(max_size=6),
        max_size=3,
    ),
)
def test_jsonl_with_a_shared_tail_equals_each_record_dumped_whole(
    text: str, size: int, name: str, mode: str, metadata: dict[str, str] | None
) -> None:
    # to_jsonl writes the tail every record shares (metadata, source, settings) once and
    # each head from a template; the plain way dumps each whole record (its dict, the
    # mode's keys and damage included) with json.dumps, then escapes what splits lines
    settings = Settings(mode=mode, chunk_size=size, chunk_overlap=0, source_name=name)
    result = analyse(text, settings)
    expected = []
    for chunk in result.chunks:
        rec = record(chunk, result)
        if metadata is not None:
            rest = {k: rec.pop(k) for k in ("source", "settings")}
            rec = {**rec, "metadata": metadata, **rest}
        line = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
        for char in "\x85\u2028\u2029":
            line = line.replace(char, f"\\u{ord(char):04x}")
        line = "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in line)
        expected.append(line + "\n")
    assert to_jsonl(result, metadata) == "".join(expected)


@given(
    text=st.text(max_size=40) | st.text(alphabet="a\x85\u2028\u2029\ud800\udfff\u2027é", max_size=6)
)
@example(text="\udc00")
@example(text="\ud83d\ude00")
@example(text="\u2027\u202a\x84\x86")
def test_line_unsafe_is_the_regex_scan_it_replaces(text: str) -> None:
    """``to_jsonl``'s test for a character to escape in the whole output (no
    regex scan of the text) against the scan it replaced."""
    assert line_unsafe(text) == (re.search("[\x85\u2028\u2029\ud800-\udfff]", text) is not None)

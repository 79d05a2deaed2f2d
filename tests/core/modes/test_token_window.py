"""Token window mode: windows of N tokens of one encoding of the whole text, overlap O."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from bisect import bisect_right
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunker_py import SettingError, Settings, analyse, parse_settings, split_spans
from chunker_py.tokenizers import get_tokenizer

from ..token_corpus import TOKENIZER_NAMES, token_texts


def windows(text: str, name: str, size: int, overlap: int, edges: str = "preserve") -> list:
    settings = Settings(
        mode="token-window", chunk_size=size, chunk_overlap=overlap, tokenizer=name, edges=edges
    )
    return split_spans(text, settings)


def tokens_in(ends: list[int], start: int, end: int) -> int:
    """Tokens of the whole encoding that end inside ``(start, end]``."""
    return bisect_right(ends, end) - bisect_right(ends, start)


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
@given(text=token_texts, data=st.data())
def test_windows_hold_size_tokens_overlap_as_asked_and_are_exact_slices(
    name: str, text: str, data: st.DataObject
) -> None:
    size = data.draw(st.integers(1, 12), label="size")
    overlap = data.draw(st.integers(0, size - 1), label="overlap")
    ends = get_tokenizer(name).token_ends(text, merged=False)
    spans = windows(text, name, size, overlap)
    bounds = {0, *ends}
    for span in spans:
        assert 0 <= span.start < span.end <= len(text)
        assert span.start in bounds and span.end in bounds  # cuts only at token ends
        # Its size tokens end inside it; more only at its very end, where the tokens
        # holding the rest of a split code point's bytes end too.
        assert tokens_in(ends, span.start, span.end - 1) <= size - 1
    starts = [s.start for s in spans]
    assert starts == sorted(starts)
    if ends:
        assert spans[-1].end == ends[-1]
    for before, after in itertools.pairwise(spans):
        shared = tokens_in(ends, after.start, min(before.end, after.end) - 1)
        assert shared <= overlap


@pytest.mark.parametrize("name", ["cl100k_base", "words"])
def test_ascii_windows_are_exactly_size_tokens_with_overlap(name: str) -> None:
    text = "one two three four five six seven eight nine ten eleven twelve"
    spans = windows(text, name, 4, 1)
    ends = get_tokenizer(name).token_ends(text)
    counts = [tokens_in(ends, s.start, s.end) for s in spans]
    assert counts[:-1] == [4] * (len(counts) - 1) and counts[-1] <= 4
    starts = [bisect_right(ends, s.start) for s in spans]
    assert [b - a for a, b in itertools.pairwise(starts)] == [3] * (len(spans) - 1)


def test_words_windows_in_words() -> None:
    text = "a b c d e f g"
    assert [text[s.start : s.end] for s in windows(text, "words", 3, 1, "trim")] == [
        "a b c",
        "c d e",
        "e f g",
    ]


def test_a_window_never_cuts_inside_a_code_point() -> None:
    text = "🫨" * 5  # several byte-level tokens per emoji in cl100k_base
    spans = windows(text, "cl100k_base", 1, 0)
    assert "".join(text[s.start : s.end] for s in spans) == text
    assert all(s.end - s.start == 1 for s in spans)


def test_size_unit_and_tokenizer_are_settings_with_labels() -> None:
    settings = parse_settings({"size_unit": "tokens", "tokenizer": "o200k_base"})
    assert (settings.size_unit, settings.tokenizer) == ("tokens", "o200k_base")
    assert Settings().size_unit == "code-points" and Settings().tokenizer == "cl100k_base"
    with pytest.raises(SettingError) as caught:
        parse_settings({"tokenizer": "gpt2"})
    assert caught.value.field == "tokenizer"
    with pytest.raises(SettingError) as caught:
        parse_settings({"size_unit": "bytes"})
    assert caught.value.field == "size_unit"


def test_sizes_in_tokens_bound_merged_chunks() -> None:
    text = "Tokens, not code points. " * 40
    result = analyse(text, Settings(chunk_size=20, chunk_overlap=5, size_unit="tokens"))
    counts = [get_tokenizer("cl100k_base").count(c.text) for c in result.chunks]
    assert max(counts) <= 20 and len(result.chunks) > 1


@pytest.mark.subprocess
def test_the_cli_says_to_run_the_build_when_token_data_is_missing(tmp_path: Path) -> None:
    package = Path(__file__).resolve().parents[3] / "chunker_py"
    shutil.copytree(package, tmp_path / "chunker_py", ignore=shutil.ignore_patterns("_data"))
    done = subprocess.run(
        [sys.executable, "-m", "chunker_py", "-", "--size-unit", "tokens"],
        input="some text",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "python build.py" in done.stderr


def test_records_and_the_cli_summary_carry_token_counts() -> None:
    text = "Reset your password. Keep the backup codes somewhere safe. 日本語も。"
    args = ["-", "--size", "30", "--overlap", "0", "--tokenizer", "o200k_base"]
    summary = json.loads(_cli_run(text, [*args, "--format", "summary"]))
    records = [json.loads(line) for line in _cli_run(text, args).splitlines()]
    counted = [get_tokenizer("o200k_base").count(r["text"]) for r in records]
    assert [r["tokens"] for r in records] == counted
    assert summary["tokens"] == {
        "smallest": min(counted),
        "average": sum(counted) / len(counted),
        "largest": max(counted),
        "total": sum(counted),
    }
    assert records[0]["settings"]["tokenizer"] == "o200k_base"


def _cli_run(text: str, argv: list[str]) -> str:
    import io

    from chunker_py.io import cli

    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8")
    try:
        return cli.run(argv)
    finally:
        sys.stdin = stdin


@pytest.mark.parametrize(("name", "size"), [("wordpiece", 16), ("cl100k_base", 128)])
def test_a_window_counted_on_its_own_over_the_size_is_explained(name: str, size: int) -> None:
    """The user guide at these sizes has windows whose text, counted alone, is one token
    over the size, although they hold the size in tokens of the whole encoding: the
    readiness warning says why, not only that."""
    text = (Path(__file__).resolve().parents[2] / "data" / "user_guide.txt").read_text("utf-8")
    settings = Settings(mode="token-window", chunk_size=size, chunk_overlap=0, tokenizer=name)
    result = analyse(text, settings)
    tokenizer = get_tokenizer(name)
    ends = tokenizer.token_ends(text, merged=False)
    over = [s for s in result.spans if tokenizer.count(text[s.start : s.end]) > size]
    assert over  # the case this guards
    assert all(tokens_in(ends, s.start, s.end) <= size for s in over)
    (warning,) = [w for w in result.warnings if "exceed the chunk size" in w]
    assert "counted on its own can take more" in warning and "window's edge" in warning

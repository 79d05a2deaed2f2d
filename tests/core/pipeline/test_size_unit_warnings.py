"""Chunk readiness judges sizes in the size unit.

With Size unit = Tokens the warning about chunks over the chunk size counts tokens of the
chosen tokenizer, names that unit, and is absent exactly when no chunk is over the size
(the damage figure Over size, measured with the same sizer, is the reference).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chunker_py import TOKENIZERS, Analysis, Settings, analyse, get_tokenizer
from chunker_py.pipeline.units import size_unit_name

ROOT = Path(__file__).resolve().parents[3]
# a long README (this project's, frozen at an earlier commit)
README = (ROOT / "bench" / "data" / "README-6f5a5e5.md").read_text("utf-8")[:20_000]


def over_size(result: Analysis) -> list[str]:
    """The over-size warning (the tiny-chunk one is tests/core/pipeline/test_tiny_chunks.py's)."""
    return [w for w in result.warnings if "exceed the chunk size" in w]


@pytest.mark.parametrize("tokenizer", list(TOKENIZERS))
def test_a_readme_within_256_tokens_gets_no_over_size_warning(tokenizer: str) -> None:
    settings = Settings(chunk_size=256, chunk_overlap=32, size_unit="tokens", tokenizer=tokenizer)
    result = analyse(README, settings)
    assert result.damage is not None
    assert bool(over_size(result)) == (result.damage.over_size > 0)
    count = get_tokenizer(tokenizer).count
    assert max(count(c.text) for c in result.chunks) <= 256 or over_size(result)


@pytest.mark.parametrize("tokenizer", list(TOKENIZERS))
def test_chunks_over_the_size_in_tokens_are_named_and_counted_in_tokens(tokenizer: str) -> None:
    # no separator splits the long run, so its chunk stays over 20 tokens
    text = "short words here\n\n" + "averyveryverylongword " * 30 + "\n\nend"
    settings = Settings(
        chunk_size=20, chunk_overlap=0, size_unit="tokens", tokenizer=tokenizer,
        separators=("\n\n",),
    )  # fmt: skip
    result = analyse(text, settings)
    count = get_tokenizer(tokenizer).count
    over = [(c.index, count(c.text)) for c in result.chunks if count(c.text) > 20]
    assert over and result.damage is not None and result.damage.over_size == len(over)
    (warning,) = over_size(result)
    unit = size_unit_name(settings)
    assert unit == f"{tokenizer} tokens"
    assert warning.startswith(f"{len(over)} chunk(s) exceed the chunk size of 20 {unit}")
    assert f"the longest has {max(n for _i, n in over):,} {unit}" in warning
    assert 'Add the empty separator ""' in warning  # the list lacks it


def test_the_empty_separator_is_not_suggested_when_the_list_has_it() -> None:
    # one code point over the size in tokens: "" is already there and cannot help
    settings = Settings(chunk_size=1, chunk_overlap=0, size_unit="tokens")
    result = analyse("😀 a", settings)
    assert over_size(result), "an emoji is more than one cl100k_base token"
    assert all("Add the empty separator" not in w for w in over_size(result))
    assert all("cl100k_base tokens" in w for w in over_size(result))


def test_code_point_warnings_name_code_points() -> None:
    settings = Settings(chunk_size=5, chunk_overlap=0, separators=(" ",))
    result = analyse("tiny abcdefghij", settings)
    (warning,) = over_size(result)
    longest = max(c.length for c in result.chunks)
    assert "chunk size of 5 code points" in warning
    assert f"the longest has {longest} code points" in warning

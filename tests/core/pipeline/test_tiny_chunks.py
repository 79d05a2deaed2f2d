"""Chunks far below the size (under a twentieth of it) are named in a warning, as the
peers' users ask for a minimum size: a lone closing fence with the Markdown preset is a
3-code-point chunk nobody wants to embed."""

from __future__ import annotations

from chunker_py import Settings, analyse
from chunker_py.pipeline.size_warnings import tiny_chunk_warnings

FENCED = (
    "Intro paragraph that explains the code below in a few words.\n\n"
    "```python\n" + "value = compute(value)\n" * 12 + "```\n\n"
    "Closing paragraph after the code block, long enough to stand alone: it says what the "
    "code computes and why, in more words than one chunk of the size holds.\n"
)


def test_a_lone_closing_fence_is_named_as_a_tiny_chunk() -> None:
    settings = Settings(chunk_size=120, chunk_overlap=0, preset="markdown")
    result = analyse(FENCED, settings)
    tiny = [c.index for c in result.chunks if c.end - c.start < 6]
    assert tiny and result.chunks[tiny[0]].text == "```"
    (warning,) = [w for w in result.warnings if "far below" in w]
    assert f"index {tiny[0]}" in warning and "3 code points" in warning
    assert "under a twentieth of the chunk size of 120 code points" in warning


def test_no_warning_when_every_chunk_is_near_the_size() -> None:
    text = "word " * 200
    settings = Settings(chunk_size=100, chunk_overlap=0)
    assert tiny_chunk_warnings(text, analyse(text, settings).spans, settings) == ()


def test_tiny_is_measured_in_the_size_unit() -> None:
    """In tokens a short chunk of many code points can still be tiny."""
    text = "alpha beta gamma delta. " * 40 + "\n\nok"
    settings = Settings(chunk_size=60, chunk_overlap=0, size_unit="tokens")
    warnings = tiny_chunk_warnings(text, analyse(text, settings).spans, settings)
    assert len(warnings) == 1 and "cl100k_base tokens" in warnings[0]

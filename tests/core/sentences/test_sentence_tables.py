"""The frozen sentence tables are what tools/gen_sentence_tables.py writes (CPython only:
the tool reads `regex` and `pysbd`, pinned in requirements-test.txt)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.cpython_only  # Pyodide: regenerates the tables

ROOT = Path(__file__).resolve().parents[3]


def test_the_committed_tables_are_generated() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from tools.gen_sentence_tables import PACKAGE, chars_module, formatted, words_module
    finally:
        sys.path.remove(str(ROOT))
    for name, source in (
        ("sentence_chars.py", chars_module()),
        ("sentence_words.py", words_module()),
    ):
        assert (PACKAGE / name).read_text("utf-8") == formatted(source, name), name


# Python's own Unicode data, whose version differs between CPython and Pyodide
VERSIONED = re.compile(
    r"import unicodedata|\.is(?:alpha|alnum|digit|decimal|numeric|upper|lower)\("
)


def test_no_unicode_data_of_the_running_python() -> None:
    """The rules read letter classes from the frozen tables only, so CPython and Pyodide
    find the same sentences (white space as ``str.isspace`` sees it is the engine's)."""
    text = ROOT / "chunker_py" / "text"
    for path in [text / "segmenter.py", *sorted(text.glob("sentence*.py"))]:
        source = path.read_text("utf-8")
        assert not VERSIONED.search(source), path.name

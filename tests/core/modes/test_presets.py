"""Separator presets against LangChain's ``RecursiveCharacterTextSplitter.from_language``.

The preset lists are the project's own constants; LangChain is the oracle for both the
lists and the chunks. Chunk texts are compared, and every LangChain chunk must equal
``source[start:end]`` at the offsets our records carry (offsets come from the algorithm,
never from searching text). Typed separators that look like regexes stay literal.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import random
from pathlib import Path

import hypothesis
import markdown_it
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

from chunker_py import Settings, analyse, split_spans, to_jsonl
from chunker_py.engine.presets import PRESET_LABELS, PRESETS

from ..conftest import ATOMS, size_and_overlap

pytestmark = pytest.mark.cpython_only  # Pyodide: LangChain needs compiled extensions

ROOT = Path(__file__).resolve().parents[3]
# LangChain has no separator list for these (get_separators_for_language raises).
NO_LIST = {"perl"}
LANGUAGES = sorted(lang.value for lang in Language if lang.value not in NO_LIST)


@pytest.fixture(autouse=True)
def _quiet_langchain(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)  # it logs a warning for each oversized chunk


def langchain_separators(name: str) -> list[str]:
    return RecursiveCharacterTextSplitter.get_separators_for_language(Language(name))


def langchain_chunks(text: str, name: str, size: int, overlap: int, trim: bool) -> list[str]:
    splitter = RecursiveCharacterTextSplitter.from_language(
        Language(name), chunk_size=size, chunk_overlap=overlap, strip_whitespace=trim
    )
    return list(splitter.split_text(text))


def preset_settings(name: str, size: int, overlap: int, trim: bool) -> Settings:
    edges = "trim" if trim else "preserve"
    return Settings(chunk_size=size, chunk_overlap=overlap, edges=edges, preset=name)


def assert_same_chunks(text: str, name: str, size: int, overlap: int, trim: bool) -> None:
    """Chunk texts equal LangChain's, and each is ``source[start:end]`` of our records."""
    expected = langchain_chunks(text, name, size, overlap, trim)
    settings = preset_settings(name, size, overlap, trim)
    analysis = analyse(text, settings, max_chunks=None, max_code_points=None)
    if not expected:  # nothing retained: we refuse with a message instead of 0 chunks
        assert analysis.error is not None and analysis.count == 0
        return
    records = [json.loads(line) for line in to_jsonl(analysis).splitlines()]
    assert [r["text"] for r in records] == expected
    assert [text[r["start"] : r["end"]] for r in records] == expected
    assert all(r["settings"]["preset"] == name for r in records)


# ------------------------------------------------------------------ the lists themselves


@pytest.mark.parametrize("name", LANGUAGES)
def test_preset_list_equals_langchain(name: str) -> None:
    assert PRESETS[name] == tuple(langchain_separators(name))


def test_every_langchain_list_is_a_preset_and_nothing_else() -> None:
    assert set(PRESETS) == set(LANGUAGES)
    assert set(PRESET_LABELS) == {"generic", *LANGUAGES}
    with pytest.raises(ValueError):  # if LangChain adds Perl, the preset should follow
        langchain_separators("perl")


# ------------------------------------------------------------------ generated texts

# Hand-written near misses and neighbours of the separators (a heading without its space, a
# fence not at a line start, "End Sub" that VB6's lookahead refuses, lone "$", CRLF ...).
NEAR_MISSES = [
    "\n#",
    "#",
    "\n####### ",
    "```",
    "``` \n",
    "~~~\n",
    "\n**\n",
    "\n--\n",
    "\r\n# ",
    "\r\n",
    "$",
    "$$",
    "x$",
    "\\section{",
    "\n\\section*{",
    "<div>",
    "</p>",
    "<h1>",
    "<br/>",
    "\nEnd Sub",
    "\nEnd If ",
    "\n    def ",
    "\n\tclass ",
    "\n|",
    "\n.. note::\n\n",
    "\n\n..\n\n",
    "{",
    "}",
    ";",
    "(",
]


@st.composite
def language_texts(draw: st.DrawFn, name: str) -> str:
    """Text built from instances of the language's own separators (generated from
    LangChain's regexes), near misses and the common atoms (CRLF, emoji, NBSP ...)."""
    instances = [st.from_regex(sep, fullmatch=True) for sep in langchain_separators(name) if sep]
    atom = st.one_of(
        st.one_of(*instances),
        st.sampled_from(NEAR_MISSES),
        st.sampled_from(ATOMS),
    )
    return "".join(draw(st.lists(atom, max_size=30)))


@pytest.mark.parametrize("name", LANGUAGES)
@hypothesis.settings(max_examples=60)
@given(data=st.data())
def test_preset_matches_from_language(name: str, data: st.DataObject) -> None:
    text = data.draw(language_texts(name), label="text")
    size, overlap = data.draw(size_and_overlap(30), label="size/overlap")
    trim = data.draw(st.booleans(), label="trim")
    assert_same_chunks(text, name, size, overlap, trim)


def test_presets_match_from_language_on_seeded_texts() -> None:
    """Many more random texts, cheaply: every language, separators in random order."""
    rng = random.Random(20261130)
    for name in LANGUAGES:
        pool = [*NEAR_MISSES, *ATOMS, *(s for s in langchain_separators(name) if "\\" not in s)]
        pool += ["\n# ", "\n## ", "```\n", "\n***\n", "\n---\n", "\nclass ", "\ndef ", "word "]
        for _ in range(150):
            text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 60)))
            size = rng.choice([1, 2, 5, rng.randint(1, 80)])
            overlap = rng.randint(0, size - 1)
            assert_same_chunks(text, name, size, overlap, rng.random() < 0.7)


# ------------------------------------------------------------------ real files


def long_description(distribution: str) -> str:
    """The body of a distribution's METADATA (its README), read from the file itself: once
    Dask is imported, `importlib.metadata.metadata()` answers through the importlib_metadata
    backport, whose message has no payload."""
    metadata = importlib.metadata.distribution(distribution).read_text("METADATA") or ""
    return metadata.split("\n\n", 1)[1]


def real_files() -> dict[str, str]:
    """Markdown and Python sources: this repo's, and installed test dependencies'."""
    package = Path(markdown_it.__file__).parent
    files = {
        "README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
        "sitebuild/snapshot.py": (ROOT / "sitebuild" / "snapshot.py").read_text("utf-8"),
        "user_guide.txt": (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8"),
        "markdown-it-py README": long_description("markdown-it-py"),
        "markdown_it/main.py": (package / "main.py").read_text(encoding="utf-8"),
        "markdown_it/rules_block/fence.py": (package / "rules_block" / "fence.py").read_text(
            encoding="utf-8"
        ),
    }
    return {k: str(v) for k, v in files.items()}


REAL = real_files()
REAL_CASES = [
    ("README.md", "markdown"),
    ("markdown-it-py README", "markdown"),
    ("user_guide.txt", "markdown"),
    ("sitebuild/snapshot.py", "python"),
    ("markdown_it/main.py", "python"),
    ("markdown_it/rules_block/fence.py", "python"),
    ("README.md", "html"),
    ("README.md", "latex"),
    ("sitebuild/snapshot.py", "js"),
    ("README.md", "rst"),
    ("sitebuild/snapshot.py", "visualbasic6"),
    ("markdown-it-py README", "haskell"),
]


@pytest.mark.parametrize(("file", "name"), REAL_CASES)
@pytest.mark.parametrize(("size", "overlap"), [(300, 50), (1000, 200), (80, 0), (40, 39)])
def test_preset_matches_from_language_on_real_files(
    file: str, name: str, size: int, overlap: int
) -> None:
    text = REAL[file][:20_000]
    assert len(text) > 2000
    for trim in (True, False):
        assert_same_chunks(text, name, size, overlap, trim)


def test_real_files_are_split_at_their_structure() -> None:
    """The Markdown preset cuts the README at headings (a planted literal-matching preset
    would cut nowhere there: no chunk would start with a heading)."""
    text = REAL["README.md"]
    spans = split_spans(text, preset_settings("markdown", 300, 0, True))
    assert sum(text[s.start : s.end].startswith("#") for s in spans) >= 5


# ------------------------------------------------------------------ typed separators


REGEX_LOOKALIKES = ("\n#{1,6} ", "a+", ".", "$", "(x|y)", "[ab]", "\\d", "")


def test_typed_separators_that_look_like_regexes_stay_literal() -> None:
    text = "one.two$three a+b\n#{1,6} Head (x|y) [ab] \\d x aaa y 7"
    settings = Settings(chunk_size=8, chunk_overlap=0, separators=REGEX_LOOKALIKES)
    expected = RecursiveCharacterTextSplitter(
        separators=list(REGEX_LOOKALIKES),
        keep_separator="start",
        is_separator_regex=False,
        chunk_size=8,
        chunk_overlap=0,
    ).split_text(text)
    ours = [text[s.start : s.end] for s in split_spans(text, settings)]
    assert ours == expected
    as_regexes = RecursiveCharacterTextSplitter(
        separators=list(REGEX_LOOKALIKES),
        is_separator_regex=True,
        chunk_size=8,
        chunk_overlap=0,
    ).split_text(text)
    assert ours != as_regexes  # the case tells the two readings apart
    assert ours[:3] == ["one", ".two", "$three"]  # cut at the literal "." and "$" only


@pytest.mark.parametrize(
    ("separator", "text", "pieces"),
    [
        (".", "ab.cd", ["ab", ".cd"]),  # as a regex: every code point
        ("a+", "xaay", ["xaay"]),  # as a regex: splits before "aa"
        ("a+", "xa+y", ["x", "a+y"]),
        ("$", "ab\ncd", ["ab\ncd"]),  # as a regex: an empty match before "\n"
        ("\\d", "a1b\\dc", ["a1b", "\\dc"]),
        ("[ab]", "xaby", ["xaby"]),
    ],
)
def test_one_typed_separator_is_matched_literally(
    separator: str, text: str, pieces: list[str]
) -> None:
    settings = Settings(chunk_size=len(text) - 1, chunk_overlap=0, separators=(separator,))
    assert [text[s.start : s.end] for s in split_spans(text, settings)] == pieces


def test_typed_copy_of_a_preset_list_is_literal() -> None:
    """The Markdown preset's patterns typed into Separators match only their literal text."""
    text = "intro text\n## H\nbody"
    typed = Settings(chunk_size=16, chunk_overlap=0, separators=PRESETS["markdown"])
    preset = preset_settings("markdown", 16, 0, True)
    assert [text[s.start : s.end] for s in split_spans(text, preset)] == [
        "intro text",
        "## H\nbody",
    ]
    assert [text[s.start : s.end] for s in split_spans(text, typed)] == [
        "intro text\n## H",
        "body",
    ]

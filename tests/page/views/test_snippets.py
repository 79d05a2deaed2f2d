"""Copy as code (app/snippets.py) in CPython: each snippet, run as written on a saved
document, gives exactly chunker_py's records (JSONL) or, for LangChain, its chunk texts.

The browser test (tests/page/panels/test_chunk_map.py) runs the snippets the page copies; this
one covers every mode and every LangChain preset quickly, without a browser.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import shlex
import sys
from pathlib import Path

import langchain_text_splitters as langchain
import pytest
import tiktoken
import tokenizers

from chunker_py import Settings, analyse, to_jsonl
from chunker_py.engine.presets import PRESETS
from chunker_py.io.cli import run
from chunker_py.tokenizers import add_tokenizer_json
from tests.core.hf_golden import HF_GOLDEN
from tests.core.token_references import TOKENIZER_JSON, tiktoken_encoding

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "app"))

import snippets  # noqa: E402  (app/ is not a package: the page imports its modules flat)

SAMPLE = (ROOT / "static" / "sample.txt").read_text("utf-8")
CRLF = "Intro 😀 line.\r\n\r\n# Head\r\n\r\nSecond 👩‍👩‍👧 para. It ends.\r\n\r\n" * 6

SETTINGS = [
    Settings(),
    Settings(chunk_size=40, chunk_overlap=10, edges="preserve"),
    Settings(chunk_size=30, chunk_overlap=0, separators=("\n", " ")),
    Settings(mode="fixed", chunk_size=25, chunk_overlap=5, source_name='it\'s "quoted"'),
    Settings(mode="markdown", chunk_size=60, heading_level=1, breadcrumb=False),
    Settings(mode="sentence", chunk_size=50, chunk_overlap=20, abbreviations=("Vgl.",)),
]


@pytest.fixture(autouse=True)
def _quiet_langchain(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)  # it logs a warning for each oversized chunk


def saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    (tmp_path / snippets.DOCUMENT).write_bytes(text.encode("utf-8"))
    monkeypatch.chdir(tmp_path)


def run_code(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__main__"})
    return out.getvalue()


@pytest.mark.parametrize("settings", SETTINGS, ids=repr)
@pytest.mark.parametrize("text", [SAMPLE, CRLF], ids=["sample", "crlf"])
def test_command_line_and_library_code_give_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settings: Settings, text: str
) -> None:
    saved(tmp_path, monkeypatch, text)
    expected = to_jsonl(analyse(text, settings))
    words = shlex.split(snippets.cli_command(settings))
    assert words[:3] == ["python", "-m", "chunker_py"]
    assert run(words[3:]) == expected
    assert run_code(snippets.library_code(settings)) == expected


@pytest.mark.parametrize("preset", ["generic", *PRESETS])
@pytest.mark.parametrize("text", [SAMPLE, CRLF], ids=["sample", "crlf"])
def test_langchain_code_gives_the_chunk_texts_for_every_preset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, preset: str, text: str
) -> None:
    saved(tmp_path, monkeypatch, text)
    for settings in (
        Settings(chunk_size=60, chunk_overlap=15, preset=preset),
        Settings(chunk_size=25, chunk_overlap=0, edges="preserve", preset=preset),
    ):
        code = snippets.langchain_code(settings)
        assert code is not None
        texts = [json.loads(line) for line in run_code(code).splitlines()]
        assert texts == [c.text for c in analyse(text, settings).chunks]


def test_every_preset_names_a_langchain_language() -> None:
    for preset in PRESETS:
        assert langchain.Language[preset.upper()].value == preset


def test_modes_without_an_exact_langchain_splitter_say_why() -> None:
    """Such a note names the code that does reproduce the chunks."""
    for settings in SETTINGS:
        note = snippets.langchain_note(settings)
        if settings.mode == "recursive":
            assert snippets.langchain_code(settings) is not None
        else:
            assert snippets.langchain_code(settings) is None
            assert note.startswith(f"No exact LangChain equivalent for {settings.mode_info.label}")
            assert note.endswith(
                "The command line and the chunker_py code give exactly these chunks."
            )


class OfflineHub:
    """``tokenizers.Tokenizer`` as the snippets call it, with ``from_pretrained`` answered
    by the all-MiniLM-L6-v2 tokenizer.json the build extracts (nothing is downloaded)."""

    @staticmethod
    def from_pretrained(name: str) -> tokenizers.Tokenizer:
        assert name == snippets.WORDPIECE_HUB_NAME
        return tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))

    from_file = staticmethod(tokenizers.Tokenizer.from_file)


@pytest.fixture
def offline_references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tiktoken, "get_encoding", tiktoken_encoding)
    monkeypatch.setattr(tokenizers, "Tokenizer", OfflineHub)


def loaded_tokenizer(tmp_path: Path, family: str) -> str:
    """A small trained tokenizer.json saved in the working folder and loaded by name."""
    content = json.dumps(json.loads(HF_GOLDEN.read_text("utf-8"))[family]["tokenizer.json"])
    (tmp_path / "tokenizer.json").write_text(content, "utf-8")
    return add_tokenizer_json(content, "tokenizer.json")


UNITS = [
    "code-points",
    "cl100k_base",
    "o200k_base",
    "wordpiece",
    "words",
    "WordPiece cased",
    "byte-level BPE (Llama 3)",
]
# one preset of each family: literal separators, Markdown, a programming language
PRESET_FAMILIES = ["generic", "markdown", "python"]


@pytest.mark.usefixtures("offline_references")
@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("preset", PRESET_FAMILIES)
@pytest.mark.parametrize("text", [SAMPLE, CRLF], ids=["sample", "crlf"])
def test_langchain_code_gives_the_chunk_texts_in_every_unit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unit: str, preset: str, text: str
) -> None:
    """The copied LangChain code counts the size as the page does in every unit (tiktoken
    for the OpenAI encodings, HF tokenizers for WordPiece and a loaded tokenizer.json), so
    its chunks are the page's; the note claims exactness only for such code."""
    saved(tmp_path, monkeypatch, text)
    if unit == "code-points":
        sizing: dict[str, str] = {}
    elif unit in TOKENIZER_NAMES:
        sizing = {"size_unit": "tokens", "tokenizer": unit}
    else:
        sizing = {"size_unit": "tokens", "tokenizer": loaded_tokenizer(tmp_path, unit)}
    for size, overlap, edges in ((24, 6, "trim"), (9, 0, "preserve")):
        settings = Settings(
            chunk_size=size, chunk_overlap=overlap, edges=edges, preset=preset, **sizing
        )
        code = snippets.langchain_code(settings)
        assert code is not None
        assert "exactly these chunk texts" in snippets.langchain_note(settings)
        texts = [json.loads(line) for line in run_code(code).splitlines()]
        assert texts == [c.text for c in analyse(text, settings).chunks], code


TOKENIZER_NAMES = ["cl100k_base", "o200k_base", "wordpiece", "words"]

"""Copy as code: the current settings as a command line, chunker_py code and LangChain code.

Pure Python with no DOM (app/copycode.py puts the text on the page), so the tests run every
snippet in CPython on the sample text and compare its chunks with the page's records.
Each snippet reads the document from ``DOCUMENT`` (UTF-8; line endings kept as they are).
"""

from __future__ import annotations

import re
import shlex

from chunker_py import FIELDS, MODES, Settings

DOCUMENT = "document.txt"


def _used(settings: Settings) -> list[str]:
    """The fields that take part in the result, in FIELDS order (source name last)."""
    return [key for key in FIELDS if key != "source_name" and settings.relevant(key)]


def cli_command(settings: Settings, document: str = DOCUMENT) -> str:
    """``python -m chunker_py`` with the settings as flags (POSIX shell quoting).

    The mode, size and, where used, overlap and edges are always written, so the command
    means the same if a default ever changes; mode options only when they differ.
    """
    words = ["python", "-m", "chunker_py", document]
    for key in _used(settings):
        field, value = FIELDS[key], settings.get(key)
        if not field.always_written and value == field.default:
            continue
        if field.kind == "flag":
            words.append(field.flag)
        else:
            words += [field.flag, field.text(value)]
    if settings.source_name:
        words += [FIELDS["source_name"].flag, settings.source_name]
    return shlex.join(words)


def _settings_call(settings: Settings) -> str:
    args = []
    for key in _used(settings):
        value = settings.get(key)
        if not FIELDS[key].always_written and value == FIELDS[key].default:
            continue
        args.append(f"{key}={value!r}")
    if settings.source_name:
        args.append(f"source_name={settings.source_name!r}")
    return "Settings(\n" + "".join(f"    {a},\n" for a in args) + ")"


def library_code(settings: Settings, document: str = DOCUMENT) -> str:
    """A chunker_py script printing the records as JSON Lines (the page's JSONL download)."""
    return f"""\
import sys
from pathlib import Path

from chunker_py import Settings, analyse, decode_document, to_jsonl

text = decode_document(Path({document!r}).read_bytes())
settings = {_settings_call(settings)}
result = analyse(text, settings)
if result.error is not None:
    sys.exit(result.error.message)
# result.chunks: .text, .start, .end (code points), .overlap ... for your pipeline
sys.stdout.write(to_jsonl(result))
"""


# Where the WordPiece tokenizer's tokenizer.json is published (all-MiniLM-L6-v2's)
WORDPIECE_HUB_NAME = "sentence-transformers/all-MiniLM-L6-v2"
_TIKTOKEN = ("cl100k_base", "o200k_base")


def _loaded_file(tokenizer: str) -> str:
    """The file name of a loaded tokenizer.json (``file:NAME``, ``file:NAME (2)``, ...)."""
    return re.sub(r" \(\d+\)$", "", tokenizer.removeprefix("file:"))


def _length_function(settings: Settings) -> tuple[list[str], str, str]:
    """(imports, lines before the splitter, the ``length_function`` argument line) counting
    the size as the page does; for tiktoken encodings ``from_tiktoken_encoder`` counts."""
    if settings.size_unit != "tokens":
        return [], "", "    length_function=len,  # code points, as the page counts\n"
    name = settings.tokenizer
    if name == "words":
        setup = 'WORD = regex.compile(r"[^\\p{White_Space}]+")  # Unicode White_Space\n\n\n'
        function = "def length(text):\n    return len(WORD.findall(text))\n\n\n"
        return ["import regex"], setup + function, "    length_function=length,  # words\n"
    if name in _TIKTOKEN:
        return [], "", ""
    if name == "wordpiece":
        load = f"Tokenizer.from_pretrained({WORDPIECE_HUB_NAME!r})"
    else:
        load = f"Tokenizer.from_file({_loaded_file(name)!r})"
    setup = (
        f"tokenizer = {load}\n"
        "tokenizer.no_truncation()  # count every token, as the page does\n"
        "tokenizer.no_padding()\n\n\n"
        "def length(text):\n"
        "    return len(tokenizer.encode(text, add_special_tokens=False).ids)\n\n\n"
    )
    return ["from tokenizers import Tokenizer"], setup, "    length_function=length,  # tokens\n"


def langchain_code(settings: Settings, document: str = DOCUMENT) -> str | None:
    """``langchain_text_splitters`` code giving the same chunk texts, or None where no
    LangChain splitter is exact (see ``langchain_note``). The size is counted as the page
    counts it: ``len`` for code points, ``from_tiktoken_encoder`` for the OpenAI encodings
    (special tokens read as text, as ``encode_ordinary`` does), HF tokenizers for WordPiece
    and a loaded tokenizer.json, whitespace-separated words with ``regex``."""
    if settings.mode == "semantic":
        from semantic import langchain_code as semantic_code

        return semantic_code(settings, document)
    if settings.mode != "recursive":
        return None
    imports, setup, length = _length_function(settings)
    if settings.preset == "generic":
        separators = f"    separators={list(settings.separators)!r},  # matched literally\n"
        names = ["RecursiveCharacterTextSplitter"]
    else:
        separators = (
            "    separators=RecursiveCharacterTextSplitter.get_separators_for_language(\n"
            f"        Language.{settings.preset.upper()}\n"
            "    ),\n"
            "    is_separator_regex=True,\n"
        )
        names = ["Language", "RecursiveCharacterTextSplitter"]
    if settings.size_unit == "tokens" and settings.tokenizer in _TIKTOKEN:
        make = (
            "RecursiveCharacterTextSplitter.from_tiktoken_encoder(\n"
            f"    encoding_name={settings.tokenizer!r},\n"
            "    disallowed_special=(),  # <|endoftext|> and the like count as text\n"
        )
    else:
        make = "RecursiveCharacterTextSplitter(\n"
    imports.append(f"from langchain_text_splitters import {', '.join(names)}")
    return f"""\
import json

{chr(10).join(sorted(imports, key=lambda line: (line.startswith("from"), line)))}

# newline="" keeps CR LF line endings as they are; utf-8-sig drops a leading BOM
with open({document!r}, encoding="utf-8-sig", newline="") as file:
    text = file.read()
{setup}splitter = {make}{separators}\
    chunk_size={settings.chunk_size},
    chunk_overlap={settings.overlap},
    keep_separator="start",
    strip_whitespace={settings.trim},
{length})
for chunk in splitter.split_text(text):
    print(json.dumps(chunk, ensure_ascii=False))
"""


def _counted_by(settings: Settings) -> str:
    """How the LangChain snippet counts the size, for the note."""
    if settings.size_unit != "tokens":
        return "len (code points)"
    name = settings.tokenizer
    if name in _TIKTOKEN:
        return f"tiktoken's {name} (from_tiktoken_encoder)"
    if name == "wordpiece":
        return f"HF tokenizers with {WORDPIECE_HUB_NAME}'s tokenizer.json"
    if name == "words":
        return "whitespace-separated words (the regex package)"
    return f"HF tokenizers with {_loaded_file(name)} (put it beside the document)"


def langchain_note(settings: Settings) -> str:
    """What the LangChain snippet is and how it counts, or why there is none; either way
    which code gives exactly these chunks."""
    mode = MODES[settings.mode]
    if settings.mode == "semantic":
        from semantic import LANGCHAIN_NOTE

        return LANGCHAIN_NOTE
    if mode.langchain_exact:
        return f"{mode.langchain} Its size counts {_counted_by(settings)}."
    return (
        f"No exact LangChain equivalent for {mode.label}: {mode.langchain} "
        "The command line and the chunker_py code give exactly these chunks."
    )

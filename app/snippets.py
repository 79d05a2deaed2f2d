"""Copy as code: the current settings as a command line, chunker_py code and LangChain code.

Pure Python with no DOM (app/copycode.py puts the text on the page), so the tests run every
snippet in CPython on the sample text and compare its chunks with the page's records.
Each snippet reads the document from ``DOCUMENT`` (UTF-8; line endings kept as they are).
"""

from __future__ import annotations

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


def langchain_code(settings: Settings, document: str = DOCUMENT) -> str | None:
    """``langchain_text_splitters`` code giving the same chunk texts, or None where no
    LangChain splitter is exact (see ``langchain_note``)."""
    if settings.mode != "recursive":
        return None
    common = (
        f"    chunk_size={settings.chunk_size},\n"
        f"    chunk_overlap={settings.overlap},\n"
        '    keep_separator="start",\n'
        f"    strip_whitespace={settings.trim},\n"
        "    length_function=len,  # code points, as the page counts\n"
    )
    if settings.preset == "generic":
        imports = "from langchain_text_splitters import RecursiveCharacterTextSplitter"
        make = (
            "splitter = RecursiveCharacterTextSplitter(\n"
            f"    separators={list(settings.separators)!r},  # matched literally\n"
            f"{common})"
        )
    else:
        imports = "from langchain_text_splitters import Language, RecursiveCharacterTextSplitter"
        make = (
            "splitter = RecursiveCharacterTextSplitter.from_language(\n"
            f"    Language.{settings.preset.upper()},\n"
            f"{common})"
        )
    return f"""\
import json

{imports}

# newline="" keeps CR LF line endings as they are; utf-8-sig drops a leading BOM
with open({document!r}, encoding="utf-8-sig", newline="") as file:
    text = file.read()
{make}
for chunk in splitter.split_text(text):
    print(json.dumps(chunk, ensure_ascii=False))
"""


def langchain_note(settings: Settings) -> str:
    """One sentence on what the LangChain snippet is, or why there is none."""
    mode = MODES[settings.mode]
    if mode.langchain_exact:
        return mode.langchain
    return f"No exact LangChain equivalent for {mode.label}: {mode.langchain}"

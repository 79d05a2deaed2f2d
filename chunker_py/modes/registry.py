"""The registry of splitting modes: a new mode is a new module plus one entry here.

A mode module provides ``Options`` (a small frozen dataclass of its own settings),
``FIELDS`` (their definitions: label, bounds, default, help) and ``feed(job, options)``,
which sends the text's chunks to ``job.sink``. Everything else — the page's controls, the
CLI, share links, records, tests — is generated from this registry and those fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..engine.fields import Field
from ..engine.merge import Job
from . import fixed, markdown, recursive, sentence, token_window


@dataclass(frozen=True)
class Mode:
    name: str
    label: str
    help: str
    feed: Callable[[Job, Any], None]
    options: type[Any]
    fields: tuple[Field, ...] = ()
    uses_overlap: bool = True  # False: chunks never overlap; records show 0
    uses_edges: bool = True  # False: the mode's chunks never start or end with whitespace
    # chunk fields the mode sets, added to its records (JSONL keys, and CSV "heading_path")
    record_keys: tuple[str, ...] = ()
    tokens_only: bool = False  # True: sizes are always in tokens (the size unit is ignored)


def _mode(name: str, module: Any, label: str, help: str, **flags: Any) -> Mode:
    fields = tuple(f if f.modes else replace(f, modes=(name,)) for f in module.FIELDS)
    return Mode(name, label, help, module.feed, module.Options, fields, **flags)


MODES: dict[str, Mode] = {
    m.name: m
    for m in (
        _mode(
            "recursive",
            recursive,
            "Recursive",
            "Splits at the first separator found (paragraphs, then lines, then spaces, then "
            "single code points) and merges pieces up to the chunk size, as LangChain does.",
        ),
        _mode(
            "fixed",
            fixed,
            "Fixed size",
            "Windows of exactly the chunk size, each starting chunk size minus overlap after "
            "the previous one.",
        ),
        _mode(
            "markdown",
            markdown,
            "Markdown structure",
            "Sections at headings, whole blocks packed up to the chunk size: code blocks, "
            "tables, lists and quotes stay whole while they fit; no overlap.",
            uses_overlap=False,
            uses_edges=False,
            record_keys=("heading_path", "prefix"),
        ),
        _mode(
            "sentence",
            sentence,
            "Sentence",
            "Whole sentences packed up to the chunk size; overlap repeats whole sentences.",
            uses_edges=False,
        ),
        _mode(
            "token-window",
            token_window,
            "Token window",
            "Encodes the text once with the Tokenizer and cuts every chunk size tokens, each "
            "window starting chunk size minus overlap tokens after the previous one; a cut "
            "inside a character moves to the character's end.",
            tokens_only=True,
        ),
    )
}


def option_fields() -> tuple[Field, ...]:
    """Every mode's own fields, in registry order."""
    return tuple(f for mode in MODES.values() for f in mode.fields)

"""The registry of splitting modes: a new mode is a new module plus one entry here.

A mode module provides ``Options`` (a small frozen dataclass of its own settings),
``FIELDS`` (their definitions: label, bounds, default, help) and ``feed(job, options)``,
which sends the text's chunks to ``job.sink``. Everything else — the page's controls, the
CLI, share links, records, tests — is generated from this registry and those fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..engine.fields import Field
from ..engine.merge import Job
from ..engine.presets import GENERIC
from . import fixed, markdown, recursive, semantic, sentence, token_window


@dataclass(frozen=True)
class CompareRow:
    """A row this mode adds to the splitter comparison (docs/decisions.md "Comparison"): every field
    it does not name is the current settings' one."""

    key: str
    label: str
    position: int  # the row's place in the table, which is not the registry's order
    options: tuple[tuple[str, object], ...] = ()  # the row's own field values
    # "current": the current overlap; "none": 0; "some": the current one, or size/5 if 0
    overlap: Literal["current", "none", "some"] = "current"


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
    compare_rows: tuple[CompareRow, ...] = ()
    # LangChain: the exact equivalent (a sentence), or why there is none
    langchain: str = "LangChain has no splitter that matches it."
    langchain_exact: bool = False
    # Why chunks exceed the size, from the mode's options, for modes whose chunks carry no
    # note saying so (the over-size warning); the module's ``over_size``, if it has one.
    over_size: Callable[[Any], str] | None = None
    # True: the mode cuts the Markdown parse's blocks (a long text's parse is paced apart)
    parses_markdown: bool = False
    # True: sized in tokens, the mode cuts windows of tokens (each window counted apart)
    token_windows: bool = False
    # How a stream is cut into segments for this mode (io/stream.py): after the buffer's
    # last space, at its last separator, or at its last sentence; None: not streamable
    stream_seam: Literal["space", "separator", "sentence"] | None = None


def _mode(
    name: str, module: Any, label: str, help: str, shared: tuple[Field, ...] = (), **flags: Any
) -> Mode:
    """``shared``: fields another mode defines that this one uses too (the same setting)."""
    own = tuple(f if f.modes else replace(f, modes=(name,)) for f in module.FIELDS)
    fields = tuple(f for f in own if f.key not in {s.key for s in shared}) + shared
    over_size = getattr(module, "over_size", None)
    return Mode(
        name, label, help, module.feed, module.Options, fields, over_size=over_size, **flags
    )


# Sentence mode's sentence settings, which Semantic mode's sentences follow too
_SENTENCE_RULES = tuple(replace(f, modes=("sentence", "semantic")) for f in sentence.FIELDS)

MODES: dict[str, Mode] = {
    m.name: m
    for m in (
        _mode(
            "recursive",
            recursive,
            "Recursive",
            "Splits at the first separator found (paragraphs, then lines, then spaces, then "
            "single code points) and merges pieces up to the chunk size, as LangChain does.",
            compare_rows=(
                CompareRow("recursive", "Recursive (generic)", 1, (("preset", GENERIC),)),
                CompareRow(
                    "recursive-markdown",
                    "Recursive (Markdown preset)",
                    2,
                    (("preset", "markdown"),),
                ),
            ),
            langchain="LangChain: RecursiveCharacterTextSplitter gives exactly these chunk texts "
            "(it does not report offsets).",
            langchain_exact=True,
            stream_seam="separator",
        ),
        _mode(
            "fixed",
            fixed,
            "Fixed size",
            "Windows of exactly the chunk size, each starting chunk size minus overlap after "
            "the previous one.",
            compare_rows=(
                CompareRow("fixed", "Fixed (overlap 0)", 5, overlap="none"),
                CompareRow("fixed-overlap", "Fixed with overlap", 6, overlap="some"),
            ),
            langchain="LangChain has no splitter that cuts fixed windows of code points "
            "(CharacterTextSplitter merges pieces at one separator; TokenTextSplitter counts "
            "tokens).",
            token_windows=True,
            stream_seam="space",
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
            compare_rows=(CompareRow("markdown", "Markdown structure", 3),),
            langchain="LangChain's Markdown splitters cut at headings but do not pack whole "
            "CommonMark blocks up to a size as Markdown structure does.",
            parses_markdown=True,
        ),
        _mode(
            "sentence",
            sentence,
            "Sentence",
            "Whole sentences packed up to the chunk size; overlap repeats whole sentences.",
            _SENTENCE_RULES,
            uses_edges=False,
            compare_rows=(CompareRow("sentence", "Sentence", 4),),
            langchain="LangChain's sentence splitters (NLTK, spaCy) use other sentence rules "
            "than Sentence mode.",
            stream_seam="sentence",
        ),
        _mode(
            "token-window",
            token_window,
            "Token window",
            "Encodes the text once with the Tokenizer and cuts every chunk size tokens, each "
            "window starting chunk size minus overlap tokens after the previous one; a cut "
            "inside a character moves to the character's end.",
            tokens_only=True,
            token_windows=True,
            langchain="LangChain's TokenTextSplitter decodes each window of token ids, so a "
            "window cut inside a character ends in U+FFFD where Token window moves the cut to "
            "the character's end.",
            stream_seam="space",
            # the chunk-damage study's token window: the same size and overlap, counted in tokens
            compare_rows=(CompareRow("token-window", "Token window", 7),),
        ),
        _mode(
            "semantic",
            semantic,
            "Semantic",
            "Cuts where the meaning of neighbouring sentences shifts (the embedding "
            "model's distance between sentence windows above a threshold, as LangChain's "
            "SemanticChunker), then cuts any chunk over the size at its largest distance; "
            "no overlap.",
            _SENTENCE_RULES,
            uses_overlap=False,
            uses_edges=False,
            compare_rows=(CompareRow("semantic", "Semantic", 8),),
            langchain="LangChain: SemanticChunker finds the same breakpoints from the same "
            "sentences and vectors, but splits sentences with its own regex, has no maximum "
            "size and joins a chunk's sentences with single spaces (no offsets).",
        ),
    )
}


def comparison_rows() -> tuple[tuple[Mode, CompareRow], ...]:
    """Every mode's comparison rows with their mode, in the table's order."""
    rows = ((mode, row) for mode in MODES.values() for row in mode.compare_rows)
    return tuple(sorted(rows, key=lambda pair: pair[1].position))


def option_fields() -> tuple[Field, ...]:
    """Every mode's own fields, in registry order (a field shared by modes once)."""
    unique = {f.key: f for mode in MODES.values() for f in mode.fields}
    return tuple(unique.values())

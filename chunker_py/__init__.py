"""chunker_py: exact, offset-preserving text chunking for retrieval.

Pure Python; the same code runs in CPython and, through Pyodide, in the Chunk Inspector
page. Every chunk is a code-point span of the text (``text[start:end]``).

Start here::

    from chunker_py import Settings, analyse, to_jsonl

    result = analyse("Some text. More text.", Settings(mode="sentence", chunk_size=40))
    for chunk in result.chunks:
        print(chunk.start, chunk.end, chunk.text)
    print(to_jsonl(result), end="")

The public API, by task:

- settings: ``Settings`` (one validated, immutable value; ``MODES`` lists the splitting
  modes and ``FIELDS`` describes every setting), ``parse_settings`` (from plain values).
- split: ``split_spans(text, settings)`` -> the chunks' ``(start, end)`` spans;
  ``sentence_spans(text)``; ``decode_document(data)`` reads bytes as the page does.
- analyse: ``analyse(text, settings)`` -> ``Analysis`` (``chunks``, ``summary``,
  ``warnings``, ``damage``, ``error``); a ``Chunk`` is one record's worth.
- records: ``to_jsonl(analysis)``, ``to_csv(analysis)``.
- compare: ``compare(text, settings)`` -> a ``Row`` per LangChain-equivalent splitter and
  preset; ``damage_by_size`` -> the current splitter at each trade-off size.
- evidence: ``evidence_of(analysis, questions)`` with ``Question`` and ``Excerpt`` (the
  Evidence check: do the top-k chunks hold each question's excerpts).
- stream: ``iter_records(file, settings)`` -> records of a text of any length, in
  bounded memory.
- corpus: ``cut_corpus(tasks, output, executor)`` over ``Task`` and ``Output`` (one
  file's whole output per task, in order, on any ``concurrent.futures`` executor);
  ``main(argv)`` is the command line (``python -m chunker_py --help``).
- tokenizers: ``TOKENIZERS`` (name -> label), ``get_tokenizer(name)``,
  ``add_tokenizer_json(data, file_name)`` (a Hugging Face tokenizer.json), ``Tokenizer``.
- errors: ``ChunkerError`` (a ``ValueError``) with a sentence a user can act on, and
  beneath it ``SettingError`` (a setting, named by ``.field``), ``DocumentError`` (the
  input) and ``ResultError`` (a result over a limit).

The page's stepwise variants of the long calls live in ``chunker_py.stepwise``; everything
else is in the sub-packages, layered from ``engine`` (spans, merging) up to ``io``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .config.settings import FIELDS, Settings, parse_settings
from .engine.errors import ChunkerError, DocumentError, ResultError, SettingError
from .io.records import to_csv, to_jsonl
from .modes.registry import MODES
from .pipeline.analysis import Analysis, analyse, split_spans
from .pipeline.compare import Row, compare, damage_by_size
from .pipeline.results import Chunk
from .text.documents import decode_document
from .text.sentences import sentence_spans
from .tokenizers import TOKENIZERS, Tokenizer, add_tokenizer_json, get_tokenizer

if TYPE_CHECKING:
    from .io.cli import main
    from .io.corpus import Output, Task, cut_corpus
    from .io.stream import iter_records
    from .measures.evidence import Excerpt, Question, evidence_of

__version__ = "0.2.0"

__all__ = [
    "FIELDS",
    "MODES",
    "TOKENIZERS",
    "Analysis",
    "Chunk",
    "ChunkerError",
    "DocumentError",
    "Excerpt",
    "Output",
    "Question",
    "ResultError",
    "Row",
    "SettingError",
    "Settings",
    "Task",
    "Tokenizer",
    "add_tokenizer_json",
    "analyse",
    "compare",
    "cut_corpus",
    "damage_by_size",
    "decode_document",
    "evidence_of",
    "get_tokenizer",
    "iter_records",
    "main",
    "parse_settings",
    "sentence_spans",
    "split_spans",
    "to_csv",
    "to_jsonl",
]

# Loaded on first use, so that a page or a run that never asks questions, streams or cuts
# a corpus does not import them.
_LAZY = {
    "main": "io.cli",
    "Output": "io.corpus",
    "Task": "io.corpus",
    "cut_corpus": "io.corpus",
    "iter_records": "io.stream",
    "Excerpt": "measures.evidence",
    "Question": "measures.evidence",
    "evidence_of": "measures.evidence",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})

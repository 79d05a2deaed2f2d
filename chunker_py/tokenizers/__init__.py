"""Token counts, in pure Python, equal to the reference tokenizers.

    cl100k_base   CPython tiktoken's encode_ordinary (OpenAI text-embedding-3, GPT-4)
    o200k_base    the same for o200k_base (GPT-4o and later)
    wordpiece     HF tokenizers, BERT uncased (all-MiniLM-L6-v2, BGE-small), no [CLS]/[SEP]
    words         whitespace-separated units

Character classes come from frozen tables (never ``unicodedata``, whose Unicode version
differs between CPython and Pyodide); rank files and the vocabulary are package data,
read on first use of their encoding.

In CPython with the tiktoken package installed, cl100k_base and o200k_base count with it
by default (``native.py``: the same counts, a fraction of the time); the page, and CPython
without tiktoken, count in pure Python. ``use_tiktoken(False)`` chooses the pure counts.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Generator

from ..engine.errors import SettingError
from ..engine.steps import finish
from .base import Tokenizer

TOKENIZERS: dict[str, str] = {
    "cl100k_base": "cl100k_base (OpenAI text-embedding-3, GPT-4)",
    "o200k_base": "o200k_base (OpenAI GPT-4o, o1, o3)",
    "wordpiece": "WordPiece (BERT uncased: all-MiniLM-L6-v2, BGE-small)",
    "words": "Words (whitespace-separated)",
}


def _bpe(name: str) -> Tokenizer:
    if tiktoken_counts():
        from .native import NativeBpeTokenizer

        return NativeBpeTokenizer(name)
    from .bpe import BpeTokenizer

    return BpeTokenizer(name)


def _wordpiece(name: str) -> Tokenizer:
    from .wordpiece import WordPieceTokenizer

    return WordPieceTokenizer(name)


def _words(name: str) -> Tokenizer:
    from .words import WordsTokenizer

    return WordsTokenizer(name)


# Modules import lazily: the page pays for a tokenizer's tables only when it is chosen.
_FACTORIES: dict[str, Callable[[str], Tokenizer]] = {
    "cl100k_base": _bpe,
    "o200k_base": _bpe,
    "wordpiece": _wordpiece,
    "words": _words,
}
_CACHE: dict[str, Tokenizer] = {}
# whether tiktoken counts cl100k_base and o200k_base (None: not decided yet, see
# ``tiktoken_counts``)
_TIKTOKEN: dict[str, bool] = {}
_FILES: dict[str, bytes] = {}  # the contents of each tokenizer.json added


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name`` (one shared instance per name, with its caches)."""
    tokenizer = _CACHE.get(name)
    if tokenizer is None:
        if name not in _FACTORIES:
            choices = ", ".join(TOKENIZERS)
            raise SettingError(f"Tokenizer must be {choices} (got {name!r}).", field="tokenizer")
        tokenizer = _CACHE[name] = _FACTORIES[name](name)
    return tokenizer


def add_tokenizer_json(data: bytes | str, file_name: str) -> str:
    """Make a Hugging Face tokenizer.json a tokenizer until the process ends, and return
    its name: ``file:<file_name>`` (the same in the page and the CLI, so their downloads
    agree; another file of the same name gets " (2)", ...). A SettingError naming what the
    reader cannot count exactly, if anything."""
    return finish(add_tokenizer_json_in_steps(data, file_name))


def add_tokenizer_json_in_steps(data: bytes | str, file_name: str) -> Generator[float, None, str]:
    """``add_tokenizer_json`` as a generator yielding the fraction done (0 to 1) between
    slices of work, so the page can paint and take keys while a large file loads; it
    returns the name. Nothing is registered until the last step: a load dropped half-way
    (a newer file chosen) leaves no trace."""
    from .hf.tokenizer import load_in_steps

    content = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    base = name = f"file:{file_name}"
    copy = 1
    while name in _FILES and _FILES[name] != content:
        copy += 1
        name = f"{base} ({copy})"
    if name not in _FILES:
        tokenizer = yield from load_in_steps(content, name)
        if name in _FILES:  # another load of the same name finished meanwhile
            return (yield from add_tokenizer_json_in_steps(content, file_name))
        TOKENIZERS[name] = f"{file_name}{name[len(base) :]} ({tokenizer.family})"
        _CACHE[name] = tokenizer
        _FILES[name] = content
    return name


def check_tokenizer_size(size: int) -> None:
    """Refuse a tokenizer.json of ``size`` bytes before reading it, if it is too large."""
    from .hf.tokenizer import check_tokenizer_size as check

    check(size)


def tiktoken_installed() -> bool:
    """Whether the tiktoken package can count here (CPython with it installed; never in
    Pyodide, where the page keeps its pure-Python tokenizers)."""
    return sys.platform != "emscripten" and importlib.util.find_spec("tiktoken") is not None


def tiktoken_counts() -> bool:
    """Whether cl100k_base and o200k_base count with the tiktoken package: by default
    exactly when it is installed (``tiktoken_installed``), unless ``use_tiktoken`` said."""
    chosen = _TIKTOKEN.get("chosen")
    if chosen is None:
        chosen = _TIKTOKEN["chosen"] = tiktoken_installed()
    return chosen


def use_tiktoken(enabled: bool = True) -> None:
    """Count cl100k_base and o200k_base with the tiktoken package (``enabled``, the default
    in CPython when it is installed; the CLI's ``--tiktoken``) or in pure Python, as the
    page does (``--no-tiktoken``), from now on, in this process and the processes it
    forks. The same counts either way; token ends stay pure Python. A SettingError when
    tiktoken is asked for and not installed."""
    if enabled and not tiktoken_installed():
        raise SettingError(
            "--tiktoken needs the tiktoken package: pip install tiktoken (or leave the "
            "option out: the pure-Python counts are the same).",
            field="tokenizer",
        )
    _TIKTOKEN["chosen"] = enabled
    for name in ("cl100k_base", "o200k_base"):
        _CACHE.pop(name, None)


def tokenizer_loaded(name: str) -> bool:
    """Whether ``name`` is ready to count without loading its tables (the page says
    "loading" rather than wait for a rank file on the first result)."""
    return name in _CACHE


__all__ = [
    "TOKENIZERS",
    "Tokenizer",
    "add_tokenizer_json",
    "add_tokenizer_json_in_steps",
    "check_tokenizer_size",
    "get_tokenizer",
    "tiktoken_counts",
    "tiktoken_installed",
    "tokenizer_loaded",
    "use_tiktoken",
]

"""Settings: one frozen, validated object, and the field definitions every front end uses.

The common fields live here; each mode's own fields live in its module and reach
``FIELDS`` through the mode registry. The page, the CLI and share links all parse raw
values through ``parse_settings``, so a value is accepted or refused with the same message
everywhere.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from typing import Any

from ..engine.errors import SettingError
from ..engine.fields import (
    Field,
    choice_reader,
    optional_whole_reader,
    range_message,
    read_whole,
    whole_reader,
)
from ..engine.limits import MAX_BUDGET, MAX_CHUNK_SIZE, MAX_SOURCE_NAME, MAX_TOP_K
from ..engine.presets import GENERIC
from ..engine.separators import DEFAULT_SEPARATORS, check_separators, parse_separators
from ..modes.registry import MODES, Mode, option_fields
from ..tokenizers import TOKENIZERS

EDGES = {"trim": "Trim edge whitespace", "preserve": "Preserve edge whitespace"}
SIZE_UNITS = {"code-points": "Code points", "tokens": "Tokens"}
_OVERLAP_EXTRA = ", smaller than Chunk size"


def check_source_name(value: object) -> str:
    """A source name: at most 200 code points, no control characters or lone surrogates."""
    key = "source_name"
    if not isinstance(value, str):
        raise SettingError("Source name must be text.", field=key)
    if len(value) > MAX_SOURCE_NAME:
        raise SettingError(
            f"Source name has {len(value):,} code points; the limit is {MAX_SOURCE_NAME}.",
            field=key,
        )
    for position, char in enumerate(value):
        if unicodedata.category(char) in ("Cc", "Cs"):
            raise SettingError(
                f"Source name contains U+{ord(char):04X} at position {position}; "
                "remove control characters and line breaks.",
                field=key,
            )
    return value


def _modes_where(flag: str) -> tuple[str, ...]:
    return tuple(name for name, mode in MODES.items() if getattr(mode, flag))


_MODE_LABELS = {name: mode.label for name, mode in MODES.items()}

COMMON_FIELDS = (
    Field(
        "mode",
        "Mode",
        "choice",
        "recursive",
        choice_reader("mode", "Mode", _MODE_LABELS),
        choices=_MODE_LABELS,
        widget="radio",
        cli_help="splitting mode",
        always_written=True,
    ),
    Field(
        "chunk_size",
        "Chunk size",
        "whole",
        300,
        whole_reader("chunk_size", "Chunk size", 1, MAX_CHUNK_SIZE),
        link="size",
        cli="--size",
        cli_help=f"chunk size in code points (1-{MAX_CHUNK_SIZE}, default 300)",
        low=1,
        high=MAX_CHUNK_SIZE,
        widget="number",
        slider=True,
        always_written=True,
    ),
    Field(
        "chunk_overlap",
        "Requested overlap",
        "whole",
        50,
        whole_reader("chunk_overlap", "Requested overlap", 0, MAX_CHUNK_SIZE - 1),
        link="overlap",
        cli="--overlap",
        cli_help="requested overlap in code points, smaller than the size (default 50)",
        low=0,
        high=MAX_CHUNK_SIZE - 1,
        modes=_modes_where("uses_overlap"),
        widget="number",
        slider=True,
        always_written=True,
    ),
    Field(
        "edges",
        "Chunk edges",
        "choice",
        "trim",
        choice_reader("edges", "Chunk edges", EDGES),
        choices=EDGES,
        modes=_modes_where("uses_edges"),
        widget="radio",
        cli_help="trim (default) or preserve edge whitespace",
        always_written=True,
    ),
    Field(
        "size_unit",
        "Size unit",
        "choice",
        "code-points",
        choice_reader("size_unit", "Size unit", SIZE_UNITS),
        help="What chunk size and overlap count: code points, or tokens of the Tokenizer "
        "(Token window always counts tokens).",
        choices=SIZE_UNITS,
        link="unit",
        # Token window always counts tokens (Fixed size in tokens gives its windows).
        modes=tuple(n for n, m in MODES.items() if not m.tokens_only),
        widget="radio",
        cli_help="code-points (default) or tokens of --tokenizer",
    ),
    Field(
        "tokenizer",
        "Tokenizer",
        "choice",
        "cl100k_base",
        choice_reader("tokenizer", "Tokenizer", TOKENIZERS),
        help="Counts every chunk's tokens, and sizes chunks when Size unit is tokens.",
        choices=TOKENIZERS,
        link="tok",
        widget="select",
        cli_help="cl100k_base (default), o200k_base, wordpiece or words",
    ),
)
# The Evidence check's retrieval depth: a setting (it travels in links), not a splitting
# one, so records do not carry it.
TOP_K = Field(
    "top_k",
    "Chunks retrieved",
    "whole",
    5,
    whole_reader("top_k", "Chunks retrieved", 1, MAX_TOP_K),
    help="Evidence check: how many chunks the lexical retrieval (BM25) returns per question.",
    link="k",
    cli_help=f"Evidence check: chunks retrieved per question (1-{MAX_TOP_K}, default 5)",
    low=1,
    high=MAX_TOP_K,
    group="advanced",
    widget="number",
    recorded=False,
)
# The Evidence check's ranking (docs/decisions.md "Retrieval choices"): BM25, the embedding
# model, or both fused; not a splitting setting, so records do not carry it.
RETRIEVALS = {
    "bm25": "Lexical (BM25)",
    "dense": "Semantic (all-MiniLM-L6-v2)",
    "hybrid": "Hybrid (reciprocal rank fusion)",
}
RETRIEVAL = Field(
    "retrieval",
    "Retrieval",
    "choice",
    "bm25",
    choice_reader("retrieval", "Retrieval", RETRIEVALS),
    help="Evidence check: how chunks are ranked for a question: BM25 (lexical), the "
    "all-MiniLM-L6-v2 embedding model (semantic, run on this machine), or reciprocal rank "
    "fusion of the two (hybrid).",
    link="ret",
    cli_help="Evidence check: bm25 (default), dense (all-MiniLM-L6-v2 embeddings) or hybrid "
    "(reciprocal rank fusion of the two)",
    choices=RETRIEVALS,
    group="advanced",
    widget="select",
    recorded=False,
)
# The Evidence check's context budget: when set, retrieval takes chunks in rank order up to
# this many tokens instead of the top k (docs/decisions.md "Context budget"); empty: top k.
BUDGET = Field(
    "budget",
    "Budget",
    "whole",
    None,
    optional_whole_reader("budget", "Budget", 1, MAX_BUDGET),
    help="Evidence check: retrieve chunks in rank order while their tokens (Tokenizer) add "
    f"up to at most this many, the first always; replaces Chunks retrieved. 1-{MAX_BUDGET:,}; "
    "empty: Chunks retrieved.",
    link="budget",
    cli_help=f"Evidence check: retrieve up to B tokens per question instead of the top k "
    f"(1-{MAX_BUDGET}; the first-ranked chunk always)",
    low=1,
    high=MAX_BUDGET,
    group="advanced",
    widget="number",
    recorded=False,
)
SOURCE_NAME = Field(
    "source_name",
    "Source name",
    "text",
    "",
    check_source_name,
    help="Labels the records (ids, JSONL, CSV) without changing boundaries. It is included "
    "in shared settings links.",
    link="name",
    cli_help="labels the records (default: none)",
    group="advanced",
)

# Every setting, in the order the page shows them and links write them.
FIELDS: dict[str, Field] = {
    f.key: f for f in (*COMMON_FIELDS, *option_fields(), TOP_K, BUDGET, RETRIEVAL, SOURCE_NAME)
}
OPTION_KEYS = tuple(f.key for f in option_fields())
# A field that matters only while another field has a given value.
DEPENDS: dict[str, tuple[str, Any]] = {"separators": ("preset", GENERIC)}


class Settings:
    """Validated splitting settings, immutable. Construction raises ``SettingError`` on a
    bad value. Mode options are keyword arguments and attributes too
    (``Settings(mode="markdown", heading_level=2).heading_level``)."""

    __slots__ = ("_values",)
    _values: Mapping[str, Any]

    def __init__(
        self,
        mode: str = "recursive",
        chunk_size: int = 300,
        chunk_overlap: int = 50,
        edges: str = "trim",
        separators: tuple[str, ...] = DEFAULT_SEPARATORS,  # positional, as before modes grew
        source_name: str = "",
        *,
        size_unit: str = "code-points",
        tokenizer: str = "cl100k_base",
        top_k: int = 5,
        budget: int | None = None,
        retrieval: str = "bm25",
        **options: Any,
    ) -> None:
        options["separators"] = separators
        values: dict[str, Any] = {"mode": FIELDS["mode"].read(mode)}
        _check_whole(chunk_size, "chunk_size", 1, MAX_CHUNK_SIZE)
        values["chunk_size"] = chunk_size
        if MODES[mode].uses_overlap:
            _check_whole(chunk_overlap, "chunk_overlap", 0, chunk_size - 1, _OVERLAP_EXTRA)
        else:  # kept for the modes that use it; this mode's chunks never overlap
            _check_whole(chunk_overlap, "chunk_overlap", 0, MAX_CHUNK_SIZE - 1)
        values["chunk_overlap"] = chunk_overlap
        values["edges"] = FIELDS["edges"].read(edges)
        values["size_unit"] = FIELDS["size_unit"].read(size_unit)
        values["tokenizer"] = FIELDS["tokenizer"].read(tokenizer)
        _check_whole(top_k, "top_k", 1, MAX_TOP_K)
        values["top_k"] = top_k
        if budget is not None:
            _check_whole(budget, "budget", 1, MAX_BUDGET)
        values["budget"] = budget
        values["retrieval"] = FIELDS["retrieval"].read(retrieval)
        for key in OPTION_KEYS:
            field = FIELDS[key]
            values[key] = field.read(options.pop(key)) if key in options else field.default
        if options:
            raise TypeError(f"Settings got unknown options: {', '.join(sorted(options))}")
        values["source_name"] = check_source_name(source_name)
        object.__setattr__(self, "_values", values)

    # -- the common fields, typed
    @property
    def mode(self) -> str:
        return str(self._values["mode"])

    @property
    def chunk_size(self) -> int:
        return int(self._values["chunk_size"])

    @property
    def chunk_overlap(self) -> int:
        return int(self._values["chunk_overlap"])

    @property
    def edges(self) -> str:
        return str(self._values["edges"])

    @property
    def source_name(self) -> str:
        return str(self._values["source_name"])

    @property
    def size_unit(self) -> str:
        return str(self._values["size_unit"])

    @property
    def tokenizer(self) -> str:
        return str(self._values["tokenizer"])

    @property
    def top_k(self) -> int:
        return int(self._values["top_k"])

    @property
    def retrieval(self) -> str:
        return str(self._values["retrieval"])

    @property
    def budget(self) -> int | None:
        """The context budget in tokens, or None: retrieve the top k."""
        value = self._values["budget"]
        return None if value is None else int(value)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Settings are immutable; use .replace(...)")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Settings) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(self._values.items()))

    def __repr__(self) -> str:
        changed = (f"{k}={v!r}" for k, v in self.items() if v != FIELDS[k].default)
        return f"Settings({', '.join(changed)})"

    def items(self) -> Iterator[tuple[str, Any]]:
        return iter(self._values.items())

    def get(self, key: str) -> Any:
        return self._values[key]

    def replace(self, **changes: Any) -> Settings:
        return Settings(**{**self._values, **changes})

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled by value, so settings travel to worker processes (the corpus run)
        return (_settings_of, (dict(self._values),))

    # -- derived
    @property
    def mode_info(self) -> Mode:
        return MODES[self.mode]

    @property
    def trim(self) -> bool:
        """Trim chunk edges (modes without the edges choice never keep edge whitespace)."""
        return self.edges == "trim" or not self.mode_info.uses_edges

    @property
    def overlap(self) -> int:
        """The overlap the mode uses: the requested one, or 0 where chunks never overlap."""
        return self.chunk_overlap if self.mode_info.uses_overlap else 0

    def options(self) -> Any:
        """The current mode's own options object."""
        mode = self.mode_info
        return mode.options(**{f.key: self._values[f.key] for f in mode.fields})

    def relevant(self, key: str) -> bool:
        """Whether a field takes part in the current mode's result."""
        if not FIELDS[key].used_by(self.mode):
            return False
        depends = DEPENDS.get(key)
        return depends is None or self._values[depends[0]] == depends[1]

    def record_settings(self) -> dict[str, Any]:
        """The settings stored in every JSONL record: those the mode uses."""
        out: dict[str, Any] = {}
        for key, field in FIELDS.items():
            if not field.recorded or key == "source_name" or not self.relevant(key):
                continue
            value = self._values[key]
            out[key] = list(value) if field.kind == "list" else value
        if not self.mode_info.uses_overlap:
            out["chunk_overlap"] = 0
        return {k: out[k] for k in ("mode", "chunk_size", "chunk_overlap", *out) if k in out}


def _check_whole(value: object, key: str, low: int, high: int, extra: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SettingError(range_message(FIELDS[key].label, low, high, value, extra), field=key)


def parse_whole(raw: object, key: str, low: int, high: int) -> int:
    """Read a whole number typed by a user: ASCII digits only, within ``[low, high]``."""
    extra = _OVERLAP_EXTRA if key == "chunk_overlap" else ""
    return read_whole(raw, key, FIELDS[key].label, low, high, extra)


def read_overlap(raw: object, size: int, mode: str) -> int:
    if MODES[mode].uses_overlap:
        return parse_whole(raw, "chunk_overlap", 0, size - 1)
    return parse_whole(raw, "chunk_overlap", 0, MAX_CHUNK_SIZE - 1)


def _settings_of(values: dict[str, Any]) -> Settings:
    return Settings(**values)


def parse_settings(raw: Mapping[str, object]) -> Settings:
    """Build ``Settings`` from raw values (strings from a form, link or command line).

    Missing keys take their defaults. Fields the chosen mode uses are checked and the
    first invalid one raises ``SettingError``; a field the mode does not use keeps its
    value when it is valid and its default otherwise, so switching modes loses nothing.
    """

    def given(key: str) -> object:
        return raw.get(key, FIELDS[key].default)

    mode = FIELDS["mode"].read(given("mode"))
    size = FIELDS["chunk_size"].read(given("chunk_size"))
    values: dict[str, Any] = {"mode": mode, "chunk_size": size}
    values["chunk_overlap"] = read_overlap(given("chunk_overlap"), size, mode)
    for key, field in FIELDS.items():
        if key in values:
            continue
        depends = DEPENDS.get(key)
        needed = field.used_by(mode) and (depends is None or values[depends[0]] == depends[1])
        try:
            values[key] = field.read(given(key))
        except SettingError:
            if needed:
                raise
            values[key] = field.default
    return Settings(**values)


__all__ = [
    "DEFAULT_SEPARATORS",
    "EDGES",
    "FIELDS",
    "SIZE_UNITS",
    "Settings",
    "check_separators",
    "check_source_name",
    "parse_separators",
    "parse_settings",
    "parse_whole",
]

"""chunker_py: exact, offset-preserving text chunking for retrieval.

Pure Python; the same code runs in CPython and, through Pyodide, in the Chunk Inspector
page. Everything is computed from code-point spans. Splitting modes are registered in
``MODES``; every setting is described in ``FIELDS``.
"""

from ._analysis import (
    Analysis,
    Chunk,
    Summary,
    TokenSummary,
    Tradeoff,
    analyse,
    build_chunks,
    check_document,
    comparison_sizes,
    count_chunks,
    damage_of,
    output_budget,
    size_unit_name,
    sizer_for,
    split_spans,
    summarise,
    text_index,
    tradeoffs,
)
from ._compare import (
    Row,
    compare,
    compare_rows,
    damage_by_size,
    damage_by_size_rows,
    row_settings,
)
from ._damage import ChunkDamage, Damage
from ._document import decode_document
from ._engine import Span, SpanMeta, window_count
from ._errors import ChunkerError, DocumentError, ResultError, SettingError
from ._fields import Field, read_whole
from ._limits import MAX_CHUNK_SIZE, MAX_CHUNKS, MAX_CODE_POINTS, MAX_IMPORT_BYTES
from ._links import settings_from_fragment, settings_to_fragment
from ._modes import MODES, Mode
from ._presets import PRESET_LABELS, PRESETS
from ._records import download_name, record, to_csv, to_jsonl
from ._sentences import sentence_spans
from ._settings import (
    DEFAULT_SEPARATORS,
    DEPENDS,
    EDGES,
    FIELDS,
    Settings,
    parse_separators,
    parse_settings,
)

__version__ = "0.2.0"

from ._tokenizers import TOKENIZERS, Tokenizer, get_tokenizer, tokenizer_loaded

__all__ = [
    "DEFAULT_SEPARATORS",
    "DEPENDS",
    "EDGES",
    "FIELDS",
    "MAX_CHUNKS",
    "MAX_CHUNK_SIZE",
    "MAX_CODE_POINTS",
    "MAX_IMPORT_BYTES",
    "MODES",
    "PRESETS",
    "PRESET_LABELS",
    "TOKENIZERS",
    "Analysis",
    "Chunk",
    "ChunkDamage",
    "ChunkerError",
    "Damage",
    "DocumentError",
    "Field",
    "Mode",
    "ResultError",
    "Row",
    "SettingError",
    "Settings",
    "Span",
    "SpanMeta",
    "Summary",
    "TokenSummary",
    "Tokenizer",
    "Tradeoff",
    "analyse",
    "build_chunks",
    "check_document",
    "compare",
    "compare_rows",
    "comparison_sizes",
    "count_chunks",
    "damage_by_size",
    "damage_by_size_rows",
    "damage_of",
    "decode_document",
    "download_name",
    "get_tokenizer",
    "output_budget",
    "parse_separators",
    "parse_settings",
    "read_whole",
    "record",
    "row_settings",
    "sentence_spans",
    "settings_from_fragment",
    "settings_to_fragment",
    "size_unit_name",
    "sizer_for",
    "split_spans",
    "summarise",
    "text_index",
    "to_csv",
    "to_jsonl",
    "tokenizer_loaded",
    "tradeoffs",
    "window_count",
]

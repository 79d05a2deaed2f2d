"""chunker_py: exact, offset-preserving text chunking for retrieval.

Pure Python with no dependencies; the same code runs in CPython and, through Pyodide, in
the Chunk Inspector page. Everything is computed from code-point spans.
"""

from ._analysis import (
    MAX_CHUNKS,
    MAX_CODE_POINTS,
    Analysis,
    Chunk,
    Summary,
    Tradeoff,
    analyse,
    build_chunks,
    check_document,
    comparison_sizes,
    count_chunks,
    split_spans,
    summarise,
    tradeoffs,
)
from ._document import MAX_IMPORT_BYTES, decode_document
from ._engine import Span, window_count
from ._errors import ChunkerError, DocumentError, ResultError, SettingError
from ._links import settings_from_fragment, settings_to_fragment
from ._modes import MODES, Mode
from ._records import download_name, record, to_csv, to_jsonl
from ._settings import (
    DEFAULT_SEPARATORS,
    EDGES,
    FIELDS,
    MAX_CHUNK_SIZE,
    Settings,
    parse_separators,
    parse_settings,
)

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SEPARATORS",
    "EDGES",
    "FIELDS",
    "MAX_CHUNKS",
    "MAX_CHUNK_SIZE",
    "MAX_CODE_POINTS",
    "MAX_IMPORT_BYTES",
    "MODES",
    "Analysis",
    "Chunk",
    "ChunkerError",
    "DocumentError",
    "Mode",
    "ResultError",
    "SettingError",
    "Settings",
    "Span",
    "Summary",
    "Tradeoff",
    "analyse",
    "build_chunks",
    "check_document",
    "comparison_sizes",
    "count_chunks",
    "decode_document",
    "download_name",
    "parse_separators",
    "parse_settings",
    "record",
    "settings_from_fragment",
    "settings_to_fragment",
    "split_spans",
    "summarise",
    "to_csv",
    "to_jsonl",
    "tradeoffs",
    "window_count",
]

"""chunker_py: exact, offset-preserving text chunking for retrieval.

Pure Python; the same code runs in CPython and, through Pyodide, in the Chunk Inspector
page. Everything is computed from code-point spans. Splitting modes are registered in
``MODES``; every setting is described in ``FIELDS``.
"""

from .config.links import settings_from_fragment, settings_to_fragment
from .config.settings import (
    DEFAULT_SEPARATORS,
    DEPENDS,
    EDGES,
    FIELDS,
    Settings,
    parse_separators,
    parse_settings,
)
from .engine.errors import ChunkerError, DocumentError, ResultError, SettingError
from .engine.fields import Field, read_whole
from .engine.limits import MAX_CHUNK_SIZE, MAX_CHUNKS, MAX_CODE_POINTS, MAX_IMPORT_BYTES
from .engine.presets import PRESET_LABELS, PRESETS
from .engine.spans import Span, SpanMeta, window_count
from .io.records import download_name, record, to_csv, to_jsonl
from .measures.damage import ChunkDamage, Damage
from .modes.registry import MODES, Mode
from .pipeline.analysis import (
    Analysis,
    analyse,
    comparison_sizes,
    count_chunks,
    damage_of,
    split_spans,
    summarise,
    tradeoffs,
)
from .pipeline.cache import text_index
from .pipeline.checks import output_budget
from .pipeline.compare import (
    Row,
    compare,
    compare_row_steps,
    compare_rows,
    damage_by_size,
    damage_by_size_row_steps,
    damage_by_size_rows,
    prepare_steps,
    row_settings,
)
from .pipeline.location import build_chunks
from .pipeline.results import Chunk, Summary, TokenSummary, Tradeoff
from .pipeline.units import size_unit_name, sizer_for
from .text.documents import check_document, decode_document
from .text.sentences import sentence_spans

__version__ = "0.2.0"

from .tokenizers import (
    TOKENIZERS,
    Tokenizer,
    add_tokenizer_json,
    add_tokenizer_json_in_steps,
    check_tokenizer_size,
    get_tokenizer,
    tokenizer_loaded,
)

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
    "add_tokenizer_json",
    "add_tokenizer_json_in_steps",
    "analyse",
    "build_chunks",
    "check_document",
    "check_tokenizer_size",
    "compare",
    "compare_row_steps",
    "compare_rows",
    "comparison_sizes",
    "count_chunks",
    "damage_by_size",
    "damage_by_size_row_steps",
    "damage_by_size_rows",
    "damage_of",
    "decode_document",
    "download_name",
    "get_tokenizer",
    "output_budget",
    "parse_separators",
    "parse_settings",
    "prepare_steps",
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

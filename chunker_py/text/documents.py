"""Documents: what text the page and imports accept (within the code-point limit, no lone
surrogates) and strict UTF-8 files within the byte limit."""

from __future__ import annotations

from ..engine.errors import DocumentError
from ..engine.fields import LONE_SURROGATE
from ..engine.limits import MAX_CODE_POINTS, MAX_IMPORT_BYTES


def decode_document(
    data: bytes,
    *,
    name: str = "The file",
    max_bytes: int | None = MAX_IMPORT_BYTES,
    max_code_points: int | None = MAX_CODE_POINTS,
    kind: str = "text (TXT or Markdown)",
    field: str = "file",
) -> str:
    """Decode an imported file as UTF-8 text, or refuse it with a message naming why.

    A leading UTF-8 BOM is dropped, as browsers' ``TextDecoder`` does; a U+FEFF anywhere
    else stays. Invalid UTF-8 is refused, never repaired. ``kind`` names what the file
    should be in the messages (a questions file is CSV, JSON or JSONL).
    """
    if max_bytes is not None and len(data) > max_bytes:
        raise DocumentError(
            f"{name} has {len(data):,} bytes; imports accept at most {max_bytes:,} bytes.",
            field=field,
        )
    if not data:
        raise DocumentError(f"{name} is empty; choose a file with text in it.", field=field)
    not_text = f"{name} is not a UTF-8 text file; save it as UTF-8 {kind} and import it again."
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise DocumentError(not_text, field=field)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError(
            f"{not_text} (invalid UTF-8 at byte {exc.start:,})", field=field
        ) from None
    text = text.removeprefix("\ufeff")
    check_document(text, max_code_points=max_code_points)
    return text


def check_length(text: str, max_code_points: int | None = MAX_CODE_POINTS) -> None:
    """Refuse text over the code-point limit (code points, not UTF-16 units)."""
    if max_code_points is not None and len(text) > max_code_points:
        raise DocumentError(
            f"The text has {len(text):,} code points; the limit is {max_code_points:,}. "
            "Shorten it or split it into several documents.",
            field="text",
        )


def check_document(text: str, *, max_code_points: int | None = MAX_CODE_POINTS) -> None:
    """What the page and imports accept: within the limit and free of lone surrogates.

    The splitting itself handles lone surrogates exactly (JSONL escapes them), but no UTF-8
    file or download can hold one, so text typed or pasted with one is refused.
    """
    check_length(text, max_code_points)
    bad = LONE_SURROGATE.search(text)
    if bad:
        raise DocumentError(
            f"The text contains a lone surrogate (U+{ord(bad.group()):04X}) at code point "
            f"{bad.start():,}; it cannot be saved as UTF-8. Remove or repair that character.",
            field="text",
        )

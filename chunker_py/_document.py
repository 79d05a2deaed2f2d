"""Importing documents: strict UTF-8 files within the byte and code-point limits."""

from __future__ import annotations

from ._analysis import check_document
from ._errors import DocumentError
from ._limits import MAX_CODE_POINTS, MAX_IMPORT_BYTES


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

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
) -> str:
    """Decode an imported file as UTF-8 text, or refuse it with a message naming why.

    A leading UTF-8 BOM is dropped, as browsers' ``TextDecoder`` does; a U+FEFF anywhere
    else stays. Invalid UTF-8 is refused, never repaired.
    """
    if max_bytes is not None and len(data) > max_bytes:
        raise DocumentError(
            f"{name} has {len(data):,} bytes; imports accept at most {max_bytes:,} bytes.",
            field="file",
        )
    if not data:
        raise DocumentError(f"{name} is empty; choose a file with text in it.", field="file")
    not_text = (
        f"{name} is not a UTF-8 text file; save it as UTF-8 text (TXT or Markdown) "
        "and import it again."
    )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise DocumentError(not_text, field="file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DocumentError(
            f"{not_text} (invalid UTF-8 at byte {exc.start:,})", field="file"
        ) from None
    text = text.removeprefix("\ufeff")
    check_document(text, max_code_points=max_code_points)
    return text

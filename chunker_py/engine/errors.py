"""The error family of chunker_py.

Every error a user can cause derives from one root, so callers catch a single type and show
its message as is::

    ChunkerError (ValueError)
    ├── SettingError      a setting is out of bounds or unreadable; ``field`` names it
    ├── DocumentError     the document cannot be split (too long, not UTF-8 text, ...)
    └── ResultError       valid settings whose result is unusable (too many chunks, no text)

Anything else raised by the package is a bug, not a user error.
"""

from __future__ import annotations


class ChunkerError(ValueError):
    """Root of every error a user can act on. ``message`` is a complete sentence."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class SettingError(ChunkerError):
    """A setting (size, overlap, mode, edges, separators, source name) is invalid."""


class DocumentError(ChunkerError):
    """The document itself cannot be accepted."""


class ResultError(ChunkerError):
    """The settings are valid but the result is unusable; ``count`` is the chunk count."""

    def __init__(self, message: str, *, count: int, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.count = count

"""Recursive mode: the guide's five-step separator recursion, as spans.

Piece for piece this is LangChain's ``RecursiveCharacterTextSplitter(keep_separator="start")``
with the sizer as the length function: separators are kept at the start of the following
piece and count toward the size. Typed separators are matched literally; a preset's are
LangChain's ``from_language`` regular expressions (``presets.py``). The splitting itself
is ``engine/separators.py``, shared with Markdown structure mode.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..engine.errors import SettingError
from ..engine.fields import LONE_SURROGATE, Field, choice_reader, json_list
from ..engine.limits import MAX_SEPARATOR_LENGTH, MAX_SEPARATORS
from ..engine.merge import Job
from ..engine.separators import Separator, split_range
from .presets import GENERIC, PRESET_LABELS, PRESETS

DEFAULT_SEPARATORS: tuple[str, ...] = ("\n\n", "\n", " ", "")


@dataclass(frozen=True)
class Options:
    separators: tuple[str, ...] = DEFAULT_SEPARATORS
    preset: str = GENERIC


def check_separators(value: object) -> tuple[str, ...]:
    """Validate an ordered separator list and return it as a tuple."""
    key = "separators"
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise SettingError("Separators must be a list of strings.", field=key)
    seps = tuple(value)
    if not seps:
        raise SettingError(
            'Separators must list at least one separator, e.g. ["\\n\\n", "\\n", " ", ""].',
            field=key,
        )
    if len(seps) > MAX_SEPARATORS:
        raise SettingError(
            f"Separators can list at most {MAX_SEPARATORS} entries (got {len(seps)}).",
            field=key,
        )
    seen: set[str] = set()
    for number, sep in enumerate(seps, 1):
        if not isinstance(sep, str):
            raise SettingError(f"Separator {number} must be a string.", field=key)
        if len(sep) > MAX_SEPARATOR_LENGTH:
            raise SettingError(
                f"Separator {number} has {len(sep)} code points; the limit is "
                f"{MAX_SEPARATOR_LENGTH}.",
                field=key,
            )
        if LONE_SURROGATE.search(sep):
            raise SettingError(f"Separator {number} contains a lone surrogate.", field=key)
        if sep in seen:
            raise SettingError(
                f"Separator {number} ({json.dumps(sep)}) is listed twice; remove the duplicate.",
                field=key,
            )
        if sep == "" and number != len(seps):
            raise SettingError(
                'Separators: the empty separator "" (split into single code points) must be '
                "the last entry.",
                field=key,
            )
        seen.add(sep)
    return seps


def parse_separators(raw: object) -> tuple[str, ...]:
    """Read separators given as a JSON list such as ``["\\n\\n", "\\n", " ", ""]``."""
    message = 'Separators must be a JSON list of strings, e.g. ["\\n\\n", "\\n", " ", ""].'
    if isinstance(raw, str):
        return check_separators(json_list(raw, "separators", message))
    return check_separators(raw)


FIELDS = (
    Field(
        "preset",
        "Separators preset",
        "choice",
        GENERIC,
        choice_reader("preset", "Separators preset", PRESET_LABELS),
        help=(
            "Generic uses the Separators field (matched literally). A language preset uses "
            "LangChain's from_language separators for that language, as regular expressions."
        ),
        cli_help="generic (the --separators list) or a LangChain Language value",
        choices=PRESET_LABELS,
        modes=("recursive",),
        widget="select",
    ),
    Field(
        "separators",
        "Separators",
        "list",
        DEFAULT_SEPARATORS,
        parse_separators,
        help=(
            'A JSON list, tried in order and matched literally (not regular expressions). "" '
            "splits between single code points and may only come last."
        ),
        link="sep",
        cli_help='JSON list, e.g. ["\\n\\n", "\\n", " ", ""]',
        modes=("recursive",),
        group="advanced",
    ),
)


@lru_cache(maxsize=64)
def _separators(options: Options) -> tuple[Separator, ...]:
    if options.preset == GENERIC:
        return tuple(Separator(s) for s in options.separators)
    return tuple(Separator(s, re.compile(s) if s else None) for s in PRESETS[options.preset])


def over_size(options: Options) -> str:
    """Why a chunk is longer than the size (the over-size warning's reason)."""
    if options.preset == GENERIC and "" not in options.separators:
        return (
            'no remaining separator could split them. Add the empty separator "" as the '
            "last separator to allow splitting between single code points"
        )
    return "no separator could split them further"


def feed(job: Job, options: Options) -> None:
    """Send the chunks of the text to the sink in source order."""
    if job.text:
        split_range(job, 0, len(job.text), _separators(options))

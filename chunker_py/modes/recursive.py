"""Recursive mode: the guide's five-step separator recursion, as spans.

Piece for piece this is LangChain's ``RecursiveCharacterTextSplitter(keep_separator="start")``
with the sizer as the length function: separators are kept at the start of the following
piece and count toward the size. Typed separators are matched literally; a preset's are
LangChain's ``from_language`` regular expressions (``engine/presets.py``). The splitting
itself and the check of a separator list are ``engine/separators.py``, shared with Markdown
structure mode and the settings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..engine.fields import Field, choice_reader
from ..engine.merge import Job
from ..engine.presets import GENERIC, PRESET_LABELS, PRESETS
from ..engine.separators import DEFAULT_SEPARATORS, Separator, parse_separators, split_range


@dataclass(frozen=True)
class Options:
    separators: tuple[str, ...] = DEFAULT_SEPARATORS
    preset: str = GENERIC


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
def separators(options: Options) -> tuple[Separator, ...]:
    """The separators the options split by, in order (a preset's compiled as regexes);
    ``--stream`` cuts a document bigger than memory at the same separators."""
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
        split_range(job, 0, len(job.text), separators(options))

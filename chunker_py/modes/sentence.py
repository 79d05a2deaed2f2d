"""Sentence mode (after FluentChunker's sentence-aware chunking): whole sentences packed
up to the chunk size.

Sentences come from ``text.sentences`` (cached per text). The whitespace between sentences is
kept inside a chunk; overlap repeats whole trailing sentences that fit in it. A sentence
longer than the chunk size is cut into fixed windows without overlap and flagged.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import SettingError
from ..engine.fields import LONE_SURROGATE, Field, choice_reader, json_list
from ..engine.limits import MAX_ABBREVIATION_LENGTH, MAX_ABBREVIATIONS
from ..engine.merge import Job, pack_units
from ..engine.spans import SpanMeta
from ..text.sentences import LANGUAGES, sentences

FALLBACK = SpanMeta(note="sentence longer than the chunk size, cut into fixed windows")


@dataclass(frozen=True)
class Options:
    abbreviations: tuple[str, ...] = ()
    sentence_language: str = "auto"


def parse_abbreviations(raw: object) -> tuple[str, ...]:
    """A JSON list of abbreviations such as ``["Vgl.", "sog."]`` (trailing dot optional)."""
    key = "abbreviations"
    message = 'Abbreviations must be a JSON list of strings, e.g. ["Vgl.", "sog."].'
    if isinstance(raw, str) and not raw.strip():
        return ()  # an empty field: no abbreviations of one's own
    items = json_list(raw, key, message) if isinstance(raw, str) else raw
    if not isinstance(items, list | tuple):
        raise SettingError(message, field=key)
    if len(items) > MAX_ABBREVIATIONS:
        raise SettingError(
            f"Abbreviations can list at most {MAX_ABBREVIATIONS} entries (got {len(items)}).",
            field=key,
        )
    for number, item in enumerate(items, 1):
        if not isinstance(item, str) or not item.strip(". ") or any(c.isspace() for c in item):
            raise SettingError(
                f'Abbreviation {number} must be one word such as "Vgl." (got {item!r}).',
                field=key,
            )
        if len(item) > MAX_ABBREVIATION_LENGTH or LONE_SURROGATE.search(item):
            raise SettingError(
                f"Abbreviation {number} must be at most {MAX_ABBREVIATION_LENGTH} code points "
                "of valid text.",
                field=key,
            )
    return tuple(items)


FIELDS = (
    Field(
        "abbreviations",
        "Abbreviations",
        "list",
        (),
        parse_abbreviations,
        help=(
            'Your own abbreviations as a JSON list, e.g. ["Vgl.", "sog."]; a dot after them '
            "never ends a sentence. They go on top of the built-in lists of the Sentence "
            "language (Dr, Mr, No, St, etc, e.g, z.B, bzw, Mme, Sra and many more)."
        ),
        link="abbr",
        cli_help='JSON list, e.g. ["Vgl.", "sog."]',
        modes=("sentence",),
    ),
    Field(
        "sentence_language",
        "Sentence language",
        "choice",
        "auto",
        choice_reader("sentence_language", "Sentence language", LANGUAGES),
        help=(
            "Whose abbreviations, sentence starters and ordinals the sentence rules use. "
            "Automatic chooses from the text's script and, for Latin script, its most "
            "common words; every script's own full stops count whatever is chosen."
        ),
        link="slang",
        cli_help="auto or a language code (en, de, fr, es, ...)",
        choices=LANGUAGES,
        modes=("sentence",),
        widget="select",
    ),
)


def feed(job: Job, options: Options) -> None:
    units = sentences(job.index, options.abbreviations, options.sentence_language)
    sink, size, measure = job.sink, job.size, job.sizer
    text = job.text

    def length(a: int, b: int) -> int:
        return measure.length(text, a, b)

    run = 0
    for i, (start, end) in enumerate(units):
        if length(start, end) > size:
            pack_units(units, run, i, size, job.overlap, length, sink.finished)
            sink.windows(start, end, size, 0, FALLBACK)
            run = i + 1
    pack_units(units, run, len(units), size, job.overlap, length, sink.finished)

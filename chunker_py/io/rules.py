"""A splitter per document (RagBuilder's per-document splitter): ``--rules FILE``.

The file is TOML, a list of rules tried in order; the first whose glob matches a file's
path (see ``sources.matches``) gives its settings, and files no rule matches get the
command line's::

    [[rule]]
    glob = "readme.md"
    mode = "markdown"
    chunk_size = 600

    [[rule]]
    glob = "**/data/*.txt"
    link = "#v=1&mode=recursive&size=300&overlap=30"   # a share link copied from the page

A rule's settings are whole on their own: the defaults, then its ``link``, then its keys
(the keys of a record's ``settings``: ``mode``, ``chunk_size``, ``chunk_overlap``,
``edges``, ``size_unit``, ``tokenizer``, ``preset``, ``separators``, ``heading_level``,
``breadcrumb``, ``abbreviations``), or ``tokenizer_file``: a Hugging Face tokenizer.json
for that rule's files (a path relative to the rules file's folder; the records name it
``file:<file name>``, as ``--tokenizer-file`` does). Command-line setting flags do not
change them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..config.links import settings_from_fragment
from ..config.settings import FIELDS, Settings, parse_settings
from ..engine.errors import SettingError
from .sources import matches

_NOT_SETTINGS = ("source_name",)


@dataclass(frozen=True)
class Rule:
    glob: str
    settings: Settings


TokenizerFiles = Callable[[str], str]  # a rule's tokenizer_file -> its tokenizer's name


def read_rules(
    data: bytes, name: str, tokenizer_file: TokenizerFiles | None = None
) -> tuple[Rule, ...]:
    """The rules of a rules file's bytes; ``SettingError`` naming the rule and key.
    ``tokenizer_file`` registers a rule's tokenizer.json (without it, the key is refused)."""
    import tomllib  # here: only a run with --rules reads TOML

    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SettingError(
            f"The rules file {name} is not valid TOML: {exc}.", field="rules"
        ) from None
    unknown = sorted(set(table) - {"rule"})
    if unknown:
        raise SettingError(
            f"The rules file {name} has {unknown[0]!r} at the top; write each rule as a "
            "[[rule]] table.",
            field="rules",
        )
    entries = table.get("rule", [])
    if not isinstance(entries, list):
        raise SettingError(f"In {name}, write each rule as a [[rule]] table.", field="rules")
    return tuple(
        _rule(entry, number, name, tokenizer_file) for number, entry in enumerate(entries, 1)
    )


def _rule(entry: Any, number: int, name: str, tokenizer_file: TokenizerFiles | None) -> Rule:
    where = f"Rule {number} of {name}"
    if not isinstance(entry, dict):
        raise SettingError(f"{where} is not a table.", field="rules")
    glob = entry.get("glob")
    if not isinstance(glob, str) or not glob:
        raise SettingError(f'{where} needs a glob (glob = "*.md").', field="rules")
    keys = set(entry) - {"glob", "link", "tokenizer_file"}
    unknown = sorted(k for k in keys if k not in FIELDS or k in _NOT_SETTINGS)
    if "tokenizer_file" in entry and tokenizer_file is None:
        unknown.insert(0, "tokenizer_file")
    if unknown:
        known = ", ".join(k for k in FIELDS if k not in _NOT_SETTINGS)
        with_file = ", tokenizer_file" if tokenizer_file is not None else ""
        raise SettingError(
            f"{where} has an unknown key {unknown[0]!r}; use glob, link{with_file} or {known}.",
            field="rules",
        )
    raw: dict[str, Any] = {}
    link = entry.get("link")
    if link is not None:
        if not isinstance(link, str):
            raise SettingError(f"{where}: link must be a string.", field="rules")
        base, notes = settings_from_fragment(link)
        if notes:
            raise SettingError(f"{where}: {' '.join(notes)}", field="rules")
        raw.update(base.items())
    try:
        for key in sorted(keys):
            if key != "chunk_overlap":
                FIELDS[key].read(entry[key])  # a key is checked even where the mode ignores it
            raw[key] = entry[key]
        if "tokenizer_file" in entry and tokenizer_file is not None:
            raw["tokenizer"] = _tokenizer(entry, tokenizer_file)
        settings = parse_settings(raw)
    except SettingError as exc:
        raise SettingError(f"{where}: {exc.message}", field="rules") from None
    return Rule(glob, settings)


def _tokenizer(entry: dict[str, Any], tokenizer_file: TokenizerFiles) -> str:
    path = entry["tokenizer_file"]
    if "tokenizer" in entry:
        raise SettingError("give tokenizer or tokenizer_file, not both.", field="tokenizer")
    if not isinstance(path, str) or not path:
        raise SettingError(
            "tokenizer_file must be the path of a tokenizer.json.", field="tokenizer"
        )
    return tokenizer_file(path)


def settings_for(path: str, rules: Sequence[Rule], default: Settings) -> Settings:
    """The first matching rule's settings (with ``default``'s source name), else
    ``default``."""
    for rule in rules:
        if matches(rule.glob, path):
            return rule.settings.replace(source_name=default.source_name)
    return default

"""Every registered mode reaches every front end generated from the registry: the CLI's
``--help`` (mode choice and each option's flag), share links (a round trip with each
option at a non-default value) and the property tests' ``settings_strategy()``.

A new mode is one module plus one registry entry: the last test does exactly that to a
copy of the package and checks, in a fresh interpreter, that the new mode and its option
appear in the CLI help, travel in a link, split text from the CLI and are drawn by the
strategies, with no other change.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, find
from hypothesis import settings as hypothesis_settings

from chunker_py import FIELDS, MODES, Settings, analyse
from chunker_py.config.links import settings_from_fragment, settings_to_fragment
from chunker_py.io.cli import main
from chunker_py.modes.registry import comparison_rows
from chunker_py.pipeline.compare import row_settings

from ..conftest import COMPARISON, field_values, settings_strategy

ROOT = Path(__file__).resolve().parents[3]
FIND = hypothesis_settings(
    max_examples=2000, database=None, suppress_health_check=list(HealthCheck)
)
MODE_NAMES = list(MODES)


def non_default(key: str) -> Any:
    """A valid value of the field other than its default (from the tests' strategies)."""
    default = FIELDS[key].default
    return find(field_values(key), lambda value: value != default, settings=FIND)


def help_text(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_every_mode_and_its_options_are_in_cli_help(
    mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = help_text(capsys)
    choices = shown.split("--mode {", 1)[1].split("}", 1)[0].split(",")
    assert mode in choices
    assert f"{mode}: {' '.join(MODES[mode].help.split())}" in shown
    for field in MODES[mode].fields:
        assert field.flag in shown


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_every_mode_round_trips_through_a_share_link(mode: str) -> None:
    fields = MODES[mode].fields
    everything = {f.key: non_default(f.key) for f in fields}
    cases = [{}, everything, *({f.key: everything[f.key]} for f in fields)]
    for options in cases:
        settings = Settings(mode=mode, chunk_size=120, chunk_overlap=7, **options)
        fragment = settings_to_fragment(settings)
        assert f"mode={mode}" in fragment
        for key in options:
            assert f"&{FIELDS[key].link_key}=" in fragment
        back, notes = settings_from_fragment(fragment)
        assert notes == []
        assert back == settings


@pytest.mark.parametrize("mode", MODE_NAMES)
def test_every_mode_and_option_is_drawn_by_the_settings_strategy(mode: str) -> None:
    found = find(settings_strategy(), lambda s: s.mode == mode, settings=FIND)
    assert found.mode == mode
    for field in MODES[mode].fields:
        default = field.default
        found = find(
            settings_strategy(),
            lambda s, key=field.key, default=default: s.mode == mode and s.get(key) != default,
            settings=FIND,
        )
        assert found.get(field.key) != default


def test_the_comparison_rows_and_the_compare_help_come_from_the_modes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each mode declares its rows; the table, its order and ``--format compare``'s help
    (which once named six of the seven rows) are generated from them."""
    rows = [(mode.name, row) for mode, row in comparison_rows()]
    assert [row.label for _name, row in rows] == COMPARISON
    assert {name for name, _row in rows} == set(MODES)
    built = row_settings(Settings(chunk_size=100, chunk_overlap=10))
    assert [key for key, _label, _s in built] == [row.key for _name, row in rows]
    assert [s.mode for _key, _label, s in built] == [name for name, _row in rows]
    assert [s.chunk_overlap for _key, _label, s in built] == [10, 10, 10, 10, 0, 10, 10, 10]
    shown = help_text(capsys).split("--format", 2)[2]
    assert all(label in shown for label in COMPARISON)


NO_EMPTY_SEPARATOR = (
    ': no remaining separator could split them. Add the empty separator "" as the last '
    "separator to allow splitting between single code points."
)


@pytest.mark.parametrize(
    ("text", "settings", "expected"),
    [
        (
            "abcdefgh ijklmnop",
            Settings(chunk_size=4, chunk_overlap=0, separators=(" ",)),
            "2 chunk(s) exceed the chunk size of 4 code points (index 0, 1; the longest has "
            "9 code points)" + NO_EMPTY_SEPARATOR,  # the space starts the second piece
        ),
        (
            "\U0001d518\U0001d518",  # each 3 cl100k_base tokens, one code point
            Settings(chunk_size=1, chunk_overlap=0, size_unit="tokens"),
            "2 chunk(s) exceed the chunk size of 1 cl100k_base tokens (index 0, 1; the longest "
            "has 3 cl100k_base tokens): no separator could split them further.",
        ),
        ("abcdefgh ijklmnop", Settings(mode="fixed", chunk_size=4, chunk_overlap=0), None),
    ],
)
def test_the_over_size_warning_gives_the_reason_its_mode_declares(
    text: str, settings: Settings, expected: str | None
) -> None:
    """Recursive mode says why a chunk stays over the size (docs/decisions.md: pieces no remaining
    separator can split are emitted whole); Fixed size is never over it."""
    assert analyse(text, settings).warnings == (() if expected is None else (expected,))


# ------------------------------------------------------------------ a mode added as documented

FAKE_MODULE = '''
"""A test-only mode: windows of ``stride`` code points, whatever the chunk size."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.merge import Job
from ..engine.fields import Field, whole_reader


@dataclass(frozen=True)
class Options:
    stride: int = 2


FIELDS = (
    Field(
        "stride",
        "Stride",
        "whole",
        2,
        whole_reader("stride", "Stride", 1, 9),
        help="Window length.",
        link="stride",
        cli_help="window length, 1-9",
        low=1,
        high=9,
        widget="number",
    ),
)


def feed(job: Job, options: Options) -> None:
    job.sink.windows(0, len(job.text), options.stride, 0)
'''

FAKE_ENTRY = """
        _mode(
            "fake",
            fake,
            "Fake stride",
            "A test-only mode registered by tests/core/modes/test_registry.py.",
            compare_rows=(CompareRow("fake", "Fake stride (3)", 9, (("stride", 3),)),),
            langchain="LangChain has no stride splitter.",
        ),
"""

CHECK = """
import json
import sys

from hypothesis import HealthCheck, find, settings

from chunker_py import Settings, analyse, compare
from chunker_py.config.links import settings_from_fragment, settings_to_fragment
from chunker_py.io.cli import run
from tests.core.conftest import settings_strategy

out = {}
try:
    run(["--help"])
except SystemExit:
    pass
link = settings_to_fragment(Settings(mode="fake", stride=5))
back, notes = settings_from_fragment(link)
out["link"] = link
out["round_trip"] = back == Settings(mode="fake", stride=5) and notes == []
out["chunks"] = [c.text for c in analyse("abcdefg", Settings(mode="fake", stride=3)).chunks]
rows = compare("abcdefg", Settings(chunk_size=5, chunk_overlap=1))
out["compare"] = [(r.key, r.count) for r in rows]
quick = settings(max_examples=2000, database=None, suppress_health_check=list(HealthCheck))
drawn = find(settings_strategy(), lambda s: s.mode == "fake" and s.stride != 2, settings=quick)
out["drawn"] = [drawn.mode, drawn.stride]
print("RESULT " + json.dumps(out))
"""


def package_with_fake_mode(tmp_path: Path) -> Path:
    """A copy of chunker_py with one new module and one registry entry, nothing else."""
    package = tmp_path / "chunker_py"
    shutil.copytree(ROOT / "chunker_py", package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "modes" / "fake.py").write_text(FAKE_MODULE, encoding="utf-8")
    registry = (package / "modes" / "registry.py").read_text(encoding="utf-8")
    imports = "from . import fixed, markdown, recursive, semantic, sentence, token_window\n"
    end_of_entries = "    )\n}\n"
    assert registry.count(imports) == 1 and registry.count(end_of_entries) == 1
    registry = registry.replace(imports, imports.replace("fixed,", "fake, fixed,", 1))
    registry = registry.replace(end_of_entries, FAKE_ENTRY.lstrip("\n") + end_of_entries)
    (package / "modes" / "registry.py").write_text(registry, encoding="utf-8")
    return tmp_path


@pytest.mark.subprocess
def test_a_mode_added_as_one_module_and_one_entry_reaches_every_front_end(
    tmp_path: Path,
) -> None:
    copy = package_with_fake_mode(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(copy), str(ROOT)])}

    def run_in_copy(*argv: str, stdin: str | None = None) -> str:
        """The stdout of Python run with the copy first on its path."""
        return subprocess.run(
            [sys.executable, *argv],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=tmp_path,
        ).stdout

    def cli_of_copy(*args: str, stdin: str | None = None) -> str:
        return run_in_copy("-m", "chunker_py", *args, stdin=stdin)

    shown = cli_of_copy("--help")
    shown = " ".join(shown.split())
    assert "fake" in shown.split("--mode {", 1)[1].split("}", 1)[0].split(",")
    assert "--stride N window length, 1-9 [fake]" in shown
    assert "fake: A test-only mode registered" in shown
    cli = cli_of_copy("-", "--mode", "fake", "--stride", "4", stdin="abcdefghij")
    assert [line.split('"text":"')[1].split('"')[0] for line in cli.splitlines()] == [
        "abcd",
        "efgh",
        "ij",
    ]
    result = run_in_copy("-c", textwrap.dedent(CHECK))
    out = json.loads(result.split("RESULT ", 1)[1])
    assert "mode=fake" in out["link"] and "stride=5" in out["link"]
    assert out["round_trip"] is True
    assert out["chunks"] == ["abc", "def", "g"]
    assert out["compare"][-1] == ["fake", 3] and len(out["compare"]) == 9
    assert "Fake stride (3)" in shown  # --format compare's help names the new row
    assert out["drawn"][0] == "fake" and out["drawn"][1] != 2

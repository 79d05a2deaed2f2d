"""A rules file's ``tokenizer_file`` key (a model's own tokenizer in a rules file): the files a
rule matches are sized in that tokenizer.json's tokens, counted as HF tokenizers counts
them; the others keep the command line's tokenizer; a bad key stops the run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from chunker_py import ChunkerError
from chunker_py.io.cli import execute

from ..token_references import TOKENIZER_JSON

tokenizers = pytest.importorskip("tokenizers")  # never skipped: requirements-test.txt pins it
pytestmark = pytest.mark.cpython_only

TEXTS = {
    "guide/intro.md": "# Guide\n\nTokenizers differ: naïve café, 東京, 😀, it's 2026.\n" * 6,
    "notes/data.txt": "alpha beta gamma delta epsilon zeta eta theta iota kappa\n" * 5,
}
RULES = """
[[rule]]
glob = "guide/*.md"
tokenizer_file = "models/minilm.json"   # relative to this rules file's folder
size_unit = "tokens"
chunk_size = 20
chunk_overlap = 0
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    for relative, text in TEXTS.items():
        path = tmp_path / "docs" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "config" / "models").mkdir(parents=True)
    shutil.copy(TOKENIZER_JSON, tmp_path / "config" / "models" / "minilm.json")
    return tmp_path


def run(*argv: str) -> list[dict[str, Any]]:
    out: list[str] = []
    execute(list(argv), out.append, lambda _message: None)
    return [json.loads(line) for line in "".join(out).splitlines()]


@pytest.mark.usefixtures("restored_registry")
def test_a_rule_s_tokenizer_file_sizes_its_files_in_hf_tokens(corpus: Path) -> None:
    rules = corpus / "config" / "rules.toml"
    rules.write_text(RULES, encoding="utf-8")
    records = run(str(corpus / "docs"), "--rules", str(rules), "--size-unit", "tokens",
                  "--size", "30", "--overlap", "0", "--tokenizer", "cl100k_base")  # fmt: skip
    hf = tokenizers.Tokenizer.from_file(str(TOKENIZER_JSON))
    hf.no_truncation()  # the file truncates and pads to 128: a chunk counts as it is
    hf.no_padding()
    guide = [r for r in records if r["source"] == "guide/intro.md"]
    notes = [r for r in records if r["source"] == "notes/data.txt"]
    assert guide and notes
    assert {r["settings"]["tokenizer"] for r in guide} == {"file:minilm.json"}
    assert {r["settings"]["tokenizer"] for r in notes} == {"cl100k_base"}
    counts = [len(hf.encode(r["text"], add_special_tokens=False).ids) for r in guide]
    assert [r["tokens"] for r in guide] == counts
    assert max(counts) <= 20 < sum(counts)  # sized in the file's tokens, cut by them


@pytest.mark.usefixtures("restored_registry")
@pytest.mark.parametrize(
    ("key", "message"),
    [
        ('tokenizer_file = "models/minilm.json"\ntokenizer = "words"', "not both"),
        ('tokenizer_file = "models/missing.json"', "Rule 1 of .*Cannot read"),
        ('tokenizer_file = "models/broken.json"', "Rule 1 of .*not JSON"),
        ("tokenizer_file = 3", "Rule 1 of .*path of a tokenizer.json"),
    ],
)
def test_a_bad_tokenizer_file_key_stops_the_run(corpus: Path, key: str, message: str) -> None:
    (corpus / "config" / "models" / "broken.json").write_text('{"model": {', encoding="utf-8")
    rules = corpus / "config" / "rules.toml"
    rules.write_text(f'[[rule]]\nglob = "*"\n{key}\n', encoding="utf-8")
    with pytest.raises(ChunkerError, match=message):
        run(str(corpus / "docs"), "--rules", str(rules))

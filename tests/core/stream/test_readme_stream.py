"""The documentation's streaming examples run as written and print what they say."""

from __future__ import annotations

import ast
import re

from tests.documentation import everything

DOCUMENTATION = everything()


def python_blocks(marker: str) -> list[str]:
    blocks = re.findall(r"^```python\n(.*?)^```", DOCUMENTATION, flags=re.M | re.S)
    return [block for block in blocks if marker in block]


def run_with_results(block: str) -> None:
    """Run ``block``; an expression followed by a ``# value`` comment must equal it."""
    names: dict[str, object] = {}
    lines = block.splitlines()
    source: list[str] = []
    for line, following in zip(lines, [*lines[1:], ""], strict=True):
        if line.startswith("# "):
            continue
        if following.startswith("# "):
            exec("\n".join(source), names)
            source = []
            assert eval(line, names) == ast.literal_eval(following[2:]), line
        else:
            source.append(line)
    exec("\n".join(source), names)


def test_the_streaming_example_gives_the_records_it_shows() -> None:
    (block,) = python_blocks("from chunker_py.io.stream import iter_records")
    assert "# [" in block
    run_with_results(block)

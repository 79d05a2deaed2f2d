"""Write the Markdown-mode golden files: ``python tests/data/make_golden.py``.

Run it only after a change that is meant to move chunk boundaries, then read the diff of
``tests/data/golden/`` before committing it. The documents and settings are those of
``tests/core/modes/test_markdown_mode.py`` (every ``GOLDEN_DOCS`` at every ``GOLDEN_SETTINGS``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.core.modes.test_markdown_mode import (  # noqa: E402
    DATA,
    GOLDEN_DOCS,
    GOLDEN_SETTINGS,
    golden_jsonl,
)


def main() -> None:
    out = DATA / "golden"
    out.mkdir(exist_ok=True)
    for doc in GOLDEN_DOCS:
        for name in GOLDEN_SETTINGS:
            path = out / f"{doc}.{name}.jsonl"
            path.write_text(golden_jsonl(doc, name), encoding="utf-8", newline="")
            print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()

"""Damage figures and the splitter comparison at 20,000 code points of Markdown, against the
split itself in the same run (CPython).

    python bench/bench_damage.py [--quick]

"split" is ``analyse`` without trade-offs (split + summary); "damage" is the damage of its
spans; "compare" is the six comparison rows given the current analysis (as the page calls
it). Warm = the text's caches (pieces, Markdown parse, sentences) already filled, as after a
settings change on the page; cold = a new text, as after an edit: the split runs first
(untimed) and the damage or comparison pays for whatever the split did not parse. Ratios
are against the split of the same case in the same state (warm or cold).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import chunker_py.pipeline.cache as text_cache  # noqa: E402
from chunker_py import Settings, analyse, compare  # noqa: E402
from chunker_py.pipeline.analysis import damage_of  # noqa: E402

TABLE = "| key | value | note |\n|---|---|---|\n" + "".join(
    f"| k{i} | {i * 7} | row {i} of the table |\n" for i in range(30)
)


def markdown(code_points: int) -> str:
    """A long README (fences, lists, headings; this project's, frozen) with a 30-row table,
    repeated to the length."""
    unit = (
        (ROOT / "bench" / "data" / "README-6f5a5e5.md").read_text("utf-8") + "\n\n" + TABLE + "\n"
    )
    return (unit * (code_points // len(unit) + 1))[:code_points]


def timed(
    fn: Callable[[], object], repeat: int, setup: Callable[[], object] | None = None
) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)  # best of n: the machine is shared, and the work is CPU-bound


def forget() -> None:
    """A new text for chunker_py: its index (pieces, parse, sentences) is built again."""
    text_cache._recent.clear()


def case(name: str, text: str, settings: Settings, repeat: int) -> None:
    result = analyse(text, settings, with_tradeoffs=False)
    spans = result.spans

    def split() -> object:
        return analyse(text, settings, with_tradeoffs=False)

    def damage() -> object:
        return damage_of(text, spans, settings)

    def split_untimed() -> None:
        forget()
        split()

    def rows() -> object:
        return compare(text, settings, known=result)

    warm_split = timed(split, repeat)
    warm_damage = timed(damage, repeat)
    cold_split = timed(split, repeat, forget)
    cold_damage = timed(damage, repeat, split_untimed)  # after an edit: split, then damage
    warm_compare = timed(rows, repeat)
    cold_compare = timed(rows, max(3, repeat // 3), split_untimed)
    print(
        f"{name:<24} chunks {result.count:>4} | split warm {warm_split * 1e3:5.2f} ms "
        f"cold {cold_split * 1e3:5.2f} ms | damage warm {warm_damage * 1e3:5.2f} ms "
        f"({warm_damage / warm_split:4.2f}x) cold {cold_damage * 1e3:5.2f} ms "
        f"({cold_damage / cold_split:5.2f}x) | compare warm {warm_compare * 1e3:5.1f} ms "
        f"({warm_compare / warm_split:5.1f}x) cold {cold_compare * 1e3:5.1f} ms "
        f"({cold_compare / cold_split:5.1f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 5 if args.quick else 21
    text = markdown(20_000)
    print(f"Python {sys.version.split()[0]}; {len(text):,} code points of Markdown; best of n")
    case("recursive 300/50", text, Settings(), repeat)
    case("recursive 100/20", text, Settings(chunk_size=100, chunk_overlap=20), repeat)
    case("markdown structure 300", text, Settings(mode="markdown"), repeat)
    case("sentence 300/50", text, Settings(mode="sentence"), repeat)
    case("fixed 50/0", text, Settings(mode="fixed", chunk_size=50, chunk_overlap=0), repeat)


if __name__ == "__main__":
    main()

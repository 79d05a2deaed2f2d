"""Core benchmark: chunker_py's full recompute against LangChain's bare split, same run.

Full recompute = validate settings + split + summary + trade-off counts (what the page
does on every keystroke; chunk records are built later, only for the rows a view shows).
LangChain's figure is only its ``split_text``.
Prints ratios (LangChain time / ours): above 1 means chunker_py is faster.

    python bench/bench_core.py [--quick]
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langchain_text_splitters import RecursiveCharacterTextSplitter  # noqa: E402

from chunker_py import analyse, parse_settings, split_spans  # noqa: E402

logging.disable(logging.WARNING)  # LangChain logs a warning per oversized chunk


DOCS = {
    "handbook": ROOT / "static" / "sample.txt",  # short paragraphs
    "guide": ROOT / "tests" / "data" / "user_guide.txt",  # the user guide: long paragraphs
}


def prose(code_points: int, doc: str = "guide") -> str:
    sample = DOCS[doc].read_text(encoding="utf-8")
    return (sample * (code_points // len(sample) + 1))[:code_points]


def timed(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def case(name: str, text: str, size: int, overlap: int, repeat: int, limits: bool = True) -> None:
    def ours() -> object:
        settings = parse_settings({"chunk_size": str(size), "chunk_overlap": str(overlap)})
        kw = {} if limits else {"max_chunks": None, "max_code_points": None}
        return analyse(text, settings, **kw)  # type: ignore[arg-type]

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, keep_separator="start", length_function=len
    )
    lc_repeat = max(1, repeat // 10) if len(text) > 100_000 or overlap > 1000 else repeat
    settings = parse_settings({"chunk_size": str(size), "chunk_overlap": str(overlap)})
    t_ours = timed(ours, repeat)
    t_split = timed(lambda: split_spans(text, settings), repeat)
    t_lc = timed(lambda: splitter.split_text(text), lc_repeat)
    result = ours()
    print(
        f"{name:<40} full {t_ours * 1e3:8.2f} ms ({t_lc / t_ours:7.2f}x)   "
        f"split only {t_split * 1e3:8.2f} ms ({t_lc / t_split:7.2f}x)   "
        f"langchain {t_lc * 1e3:9.2f} ms   chunks {result.count:,}"  # type: ignore[attr-defined]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    r = 5 if args.quick else 21
    print(f"Python {sys.version.split()[0]}; medians; (ratio) = LangChain time / ours")
    print("full = validate + split + summary + trade-off counts at 4 sizes; split only = spans")
    case("guide prose 20,000 cp, 300/50", prose(20_000, "guide"), 300, 50, r)
    case("handbook prose 20,000 cp, 300/50", prose(20_000, "handbook"), 300, 50, r)
    case('"x" * 20,000, 10,000/9,999', "x" * 20_000, 10_000, 9_999, max(3, r // 4))
    case('"x" * 20,000, 2,000/1,999', "x" * 20_000, 2_000, 1_999, max(3, r // 4))
    case("guide prose 2 MB, 300/50, no limits", prose(2_000_000), 300, 50, 3, limits=False)
    print("pathological single line (BAD-INPUT 17), 1,000/999, every span built (no limit):")
    for mode in ("recursive", "fixed"):
        settings = parse_settings({"mode": mode, "chunk_size": "1000", "chunk_overlap": "999"})
        small = timed(partial(analyse, "x" * 2_000, settings, max_chunks=None), r)
        large = timed(partial(analyse, "x" * 20_000, settings, max_chunks=None), r)
        print(
            f"  {mode:<9} 20,000 vs 2,000 cp: {large / small:6.1f}x the time "
            "(19x the chunks: linear work is about 19x, quadratic about 360x)"
        )
    print("linearity (prose, 300/50, limits lifted):")
    for n in (250_000, 500_000, 1_000_000, 2_000_000):
        text = prose(n)
        settings = parse_settings({})
        t = timed(partial(analyse, text, settings, max_chunks=None, max_code_points=None), 3)
        print(f"  {n:>9,} cp  {t * 1e3:8.1f} ms  {t / n * 1e9:6.1f} ns/cp")


if __name__ == "__main__":
    main()

"""Core benchmark: chunker_py's full recompute against LangChain's bare split, same run.

Full recompute = validate settings + split + summary + trade-off counts (what the page
does on every keystroke; chunk records are built later, only for the rows a view shows).
LangChain's figure is only its ``split_text``.
Prints ratios (LangChain time / ours): above 1 means chunker_py is faster.

    python bench/bench_core.py [--quick] [--new-modes]
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

from langchain_text_splitters import Language, RecursiveCharacterTextSplitter  # noqa: E402

from chunker_py import Settings, analyse, parse_settings, split_spans  # noqa: E402

logging.disable(logging.WARNING)  # LangChain logs a warning per oversized chunk


DOCS = {
    "handbook": ROOT / "static" / "sample.txt",  # short paragraphs
    "guide": ROOT / "tests" / "data" / "user_guide.txt",  # the user guide: long paragraphs
}


MARKDOWN = (
    ROOT / "bench" / "data" / "README-6f5a5e5.md",
    ROOT / "tests" / "data" / "markdown-it-py-README.md",
    ROOT / "tests" / "data" / "annotated-types-README.md",
)


def markdown(code_points: int) -> str:
    """Real READMEs (headings, fences, lists, tables) repeated to ``code_points``."""
    sample = "\n\n".join(p.read_text(encoding="utf-8") for p in MARKDOWN)
    return (sample * (code_points // len(sample) + 1))[:code_points]


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


def mode_case(
    name: str, text: str, settings: Settings, reference: Callable[[], object], repeat: int
) -> None:
    """A new mode's full recompute (analyse, records included) against a LangChain split."""

    def ours() -> object:
        analysis = analyse(text, settings)
        return analysis.chunks

    t_ours = timed(ours, repeat)
    t_lc = timed(reference, repeat)
    result = analyse(text, settings)
    print(
        f"{name:<40} full {t_ours * 1e3:8.2f} ms ({t_lc / t_ours:7.2f}x)   "
        f"langchain {t_lc * 1e3:9.2f} ms   chunks {result.count:,}"
    )


def full(text: str, settings: Settings) -> int:
    """What the page computes on an update: the analysis and its chunk records."""
    return len(analyse(text, settings).chunks)


def keystroke_case(name: str, text: str, settings: Settings, repeat: int) -> None:
    """Per-keystroke cost: the first analyse of a text (a typed character: parse, sentence
    scan and piece bounds computed) against a second with one setting changed (the
    text's facts come from ``text_index``'s cache)."""
    cold, warm = [], []
    for i in range(repeat):  # interleaved, so load from elsewhere hits both alike
        variant = text[:-2] + chr(0x41 + i // 26 % 26) + chr(0x41 + i % 26)  # new every time
        t0 = time.perf_counter()
        full(variant, settings)
        cold.append(time.perf_counter() - t0)
        changed = settings.replace(chunk_size=settings.chunk_size + 1 + i)
        t0 = time.perf_counter()
        full(variant, changed)
        warm.append(time.perf_counter() - t0)
    t_cold, t_warm = statistics.median(cold), statistics.median(warm)
    print(
        f"{name:<40} new text {t_cold * 1e3:8.2f} ms   settings change {t_warm * 1e3:8.2f} ms"
        f"   ({t_cold / t_warm:5.2f}x cheaper)"
    )


def new_modes(repeat: int) -> None:
    md, text = markdown(20_000), prose(20_000)
    lc_markdown = RecursiveCharacterTextSplitter.from_language(
        Language.MARKDOWN, chunk_size=300, chunk_overlap=50
    )
    lc_plain = RecursiveCharacterTextSplitter(
        chunk_size=300, chunk_overlap=50, keep_separator="start"
    )
    print("new modes, 20,000 cp, 300/50; (ratio) = LangChain split time / our full recompute")
    print("(full = analyse + records + trade-offs, the text's parse cached as on the page)")
    mode_case(
        "markdown structure, READMEs",
        md,
        Settings(mode="markdown"),
        lambda: lc_markdown.split_text(md),
        repeat,
    )
    mode_case(
        "recursive markdown preset, READMEs",
        md,
        Settings(preset="markdown"),
        lambda: lc_markdown.split_text(md),
        repeat,
    )
    mode_case(
        "sentence, guide prose",
        text,
        Settings(mode="sentence"),
        lambda: lc_plain.split_text(text),
        repeat,
    )
    mode_case(
        "sentence, READMEs",
        md,
        Settings(mode="sentence"),
        lambda: lc_plain.split_text(md),
        repeat,
    )
    print("per keystroke (analyse + records), 20,000 cp, medians:")
    keystroke_case("markdown structure, READMEs", md, Settings(mode="markdown"), repeat)
    keystroke_case("sentence, guide prose", text, Settings(mode="sentence"), repeat)
    keystroke_case("recursive markdown preset, READMEs", md, Settings(preset="markdown"), repeat)
    keystroke_case("recursive generic, guide prose", text, Settings(), repeat)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--new-modes",
        action="store_true",
        help="only the Token window, Sentence and Markdown structure modes",
    )
    args = parser.parse_args()
    r = 5 if args.quick else 21
    if args.new_modes:
        new_modes(r)
        return
    print(f"Python {sys.version.split()[0]}; medians; (ratio) = LangChain time / ours")
    print("full = validate + split + summary + trade-off counts at 4 sizes; split only = spans")
    case("guide prose 20,000 cp, 300/50", prose(20_000, "guide"), 300, 50, r)
    case("handbook prose 20,000 cp, 300/50", prose(20_000, "handbook"), 300, 50, r)
    case('"x" * 20,000, 10,000/9,999', "x" * 20_000, 10_000, 9_999, max(3, r // 4))
    case('"x" * 20,000, 2,000/1,999', "x" * 20_000, 2_000, 1_999, max(3, r // 4))
    case("guide prose 2 MB, 300/50, no limits", prose(2_000_000), 300, 50, 3, limits=False)
    print("pathological single line (bad input 17), 1,000/999, every span built (no limit):")
    for mode in ("recursive", "fixed"):
        settings = parse_settings({"mode": mode, "chunk_size": "1000", "chunk_overlap": "999"})
        small = timed(partial(analyse, "x" * 2_000, settings, max_chunks=None), r)
        large = timed(partial(analyse, "x" * 20_000, settings, max_chunks=None), r)
        print(
            f"  {mode:<9} 20,000 vs 2,000 cp: {large / small:6.1f}x the time "
            "(19x the chunks: linear work is about 19x, quadratic about 360x)"
        )
    new_modes(r)
    print("linearity (prose, 300/50, limits lifted):")
    for n in (250_000, 500_000, 1_000_000, 2_000_000):
        text = prose(n)
        settings = parse_settings({})
        t = timed(partial(analyse, text, settings, max_chunks=None, max_code_points=None), 3)
        print(f"  {n:>9,} cp  {t * 1e3:8.1f} ms  {t / n * 1e9:6.1f} ns/cp")


if __name__ == "__main__":
    main()

"""The sweep at 20,000 code points with 50 questions, as a ratio to one comparison in the
same run (CPython).

    python bench/bench_sweep.py [--quick]

"comparison" is the seven comparison rows with the Evidence check of every row (top k),
given the current analysis, as the CLI's ``--format compare --questions`` computes them;
"sweep" is ``sweep`` over the same text and questions (every row x five sizes x overlap 0
and the row's own, retrieval within the budget), the text's pieces and parse cached as
after the comparison (warm) or built again (cold). "steps" counts ``sweep_steps``' pauses
and times the longest step, the page's unit of work.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_damage import forget, timed  # noqa: E402  (the same as there)
from bench_evidence import prose, questions  # noqa: E402  (the same text and questions)

from chunker_py import Settings, analyse, compare  # noqa: E402
from chunker_py.measures.evidence import evidence_of  # noqa: E402
from chunker_py.pipeline.sweep import Document, configurations, sweep, sweep_steps  # noqa: E402


def longest_step(document: Document, settings: Settings) -> tuple[int, float]:
    """(pauses, the longest step in seconds) of ``sweep_steps``."""
    steps = sweep_steps([document], settings)
    longest = 0.0
    count = 0
    while True:
        t0 = time.perf_counter()
        try:
            next(steps)
        except StopIteration:
            break
        longest = max(longest, time.perf_counter() - t0)
        count += 1
    return count, longest


def case(name: str, text: str, settings: Settings, repeat: int) -> None:
    asked = questions(text, 50)
    document = Document(None, text, tuple(asked))
    result = analyse(text, settings, with_tradeoffs=False)
    result.tokens  # noqa: B018 - the page has counted every chunk's tokens by then

    def comparison() -> object:
        rows = compare(text, settings, known=result)
        return [evidence_of(r.analysis, asked) for r in rows if r.analysis is not None]

    def swept() -> object:
        return sweep([document], settings)

    one = timed(comparison, repeat)
    warm = timed(swept, max(2, repeat // 3))
    cold = timed(swept, max(2, repeat // 3), forget)
    pauses, longest = longest_step(document, settings)
    print(
        f"{name:<18} {len(configurations(settings))} configurations | comparison "
        f"{one * 1e3:7.1f} ms | sweep warm {warm * 1e3:7.1f} ms ({warm / one:5.1f}x) cold "
        f"{cold * 1e3:7.1f} ms ({cold / one:5.1f}x) | steps {pauses}, longest "
        f"{longest * 1e3:5.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 2 if args.quick else 5
    text = prose(20_000)
    print(
        f"Python {sys.version.split()[0]}; {len(text):,} code points; 50 questions; "
        "budget 1,000 tokens; best of n"
    )
    case("recursive 300/50", text, Settings(), repeat)
    case("recursive 600/100", text, Settings(chunk_size=600, chunk_overlap=100), repeat)


if __name__ == "__main__":
    main()

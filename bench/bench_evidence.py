"""The Evidence check at 20,000 code points with 50 questions, against the split itself in
the same run (CPython).

    python bench/bench_evidence.py [--quick]

"split" is ``analyse`` without trade-offs (warm: the text's pieces cached, as after a
settings change; cold: a new text); "evidence" is ``evidence_of`` for 50 questions
(1-3 excerpts each) on that result: cold = a new result (the BM25 index of its chunks is
built, the retrieved chunks' tokens counted), warm = the same result again (index kept, as
when only the questions change). "compare" is the seven comparison rows given the current
analysis; "compare + evidence" adds the Evidence check of every row, as the CLI's
``--format compare --questions`` and the page's comparison compute it. Ratios are against
the warm split of the same case unless said.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_damage import forget, timed  # noqa: E402  (the same as there)

from chunker_py import Settings, analyse, compare  # noqa: E402
from chunker_py.measures.evidence import Excerpt, Question, evidence_of  # noqa: E402


def prose(code_points: int) -> str:
    """A long README (this project's, frozen) and the user guide, repeated to the length."""
    unit = (ROOT / "bench" / "data" / "README-6f5a5e5.md").read_text("utf-8") + "\n\n"
    unit += (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8")
    return (unit * (code_points // len(unit) + 1))[:code_points]


def questions(text: str, count: int, seed: int = 19) -> list[Question]:
    """``count`` questions, each 1-3 sentences of the text as excerpts and a question made
    of some of their words (so BM25 has something to find)."""
    rng = random.Random(seed)
    sentences = [m.span() for m in re.finditer(r"[^.!?\n]{20,200}[.!?]", text)]
    out = []
    for _ in range(count):
        picked = rng.sample(sentences, rng.randint(1, 3))
        excerpts = tuple(Excerpt(text[s:e], s, e) for s, e in sorted(picked))
        words = [w for s, e in picked for w in text[s:e].split()]
        out.append(Question(" ".join(rng.sample(words, min(8, len(words)))) + "?", excerpts))
    return out


def case(name: str, text: str, settings: Settings, asked: list[Question], repeat: int) -> None:
    state: dict[str, object] = {}

    def split() -> object:
        return analyse(text, settings, with_tradeoffs=False)

    def fresh() -> None:
        state["a"] = split()

    def evidence() -> object:
        return evidence_of(state["a"], asked)

    result = split()
    result.tokens  # noqa: B018 - the page has counted every chunk's tokens by then
    warm_split = timed(split, repeat)
    cold_split = timed(split, repeat, forget)  # a new text: pieces and parse built again
    cold = timed(evidence, repeat, fresh)
    state["a"] = result
    evidence()
    warm = timed(evidence, repeat)

    def rows() -> object:
        return compare(text, settings, known=result)

    def rows_with_evidence() -> object:
        out = compare(text, settings, known=result)
        return [evidence_of(r.analysis, asked) for r in out if r.analysis is not None]

    only_rows = timed(rows, max(3, repeat // 3))
    with_evidence = timed(rows_with_evidence, max(3, repeat // 3))
    print(
        f"{name:<18} chunks {result.count:>4} | split warm {warm_split * 1e3:5.2f} ms cold "
        f"{cold_split * 1e3:5.2f} ms | evidence cold {cold * 1e3:6.2f} ms "
        f"({cold / cold_split:5.2f}x cold split) warm {warm * 1e3:6.2f} ms "
        f"({warm / warm_split:5.2f}x) | compare {only_rows * 1e3:6.1f} ms "
        f"({only_rows / warm_split:5.1f}x) + evidence {with_evidence * 1e3:6.1f} ms "
        f"({with_evidence / warm_split:5.1f}x; evidence adds "
        f"{(with_evidence - only_rows) / only_rows:4.0%} to the comparison)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 11
    text = prose(20_000)
    asked = questions(text, 50)
    excerpts = sum(len(q.excerpts) for q in asked)
    print(
        f"Python {sys.version.split()[0]}; {len(text):,} code points; {len(asked)} questions, "
        f"{excerpts} excerpts; k = 5; best of n"
    )
    case("recursive 300/50", text, Settings(), asked, repeat)
    case("recursive 100/20", text, Settings(chunk_size=100, chunk_overlap=20), asked, repeat)
    case("sentence 300/50", text, Settings(mode="sentence"), asked, repeat)
    case("fixed 50/0", text, Settings(mode="fixed", chunk_size=50, chunk_overlap=0), asked, repeat)


if __name__ == "__main__":
    main()

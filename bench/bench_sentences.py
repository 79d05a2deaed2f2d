"""Sentence boundaries against pySBD and sentencex in the same run (CPython), and their
accuracy on the same cases.

    python bench/bench_sentences.py [--quick] [--accuracy] [--pyodide]

Speed: 20,000 code points of English prose (the user guide, repeated), of Chinese and
Japanese text, and of Markdown (the README, repeated: a frozen copy in ``bench/data/``, so
that neither the figures nor the identity gate move when the README is edited); ours is
``sentence_spans`` on a new string each time (so the automatic language is chosen again,
as on a keystroke), pySBD is ``Segmenter(clean=False, char_span=True)`` (spans, as ours),
sentencex is ``segment``.
Times are CPU time (they hold on a busy machine), the best of several runs; the ratios
are the references' time over ours.

``--pyodide`` times ours and pySBD inside Node's Pyodide instead (wall time: one thread):
pySBD and the core's dependencies (pure Python) are installed into ``.cache/pyodide-bench``
once; ``node_modules`` must hold Pyodide (``python build.py`` installs it).

Accuracy (``--accuracy``): the share of cases whose sentences all three find exactly as
expected, per source: the rule tables of tests/core/sentences/test_sentence_rules.py and
the test cases of pySBD and sentencex (tests/data/sentence_cases.json). pySBD gets the
case's language when it has it (else English), sentencex gets it always.
"""

# ruff: noqa: RUF001  (Chinese and Japanese punctuation on purpose)

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunker_py import sentence_spans  # noqa: E402

CODE_POINTS = 20_000
# the README of commit 6f5a5e5 (tracker numbers since replaced by names), frozen: the live
# README.md changes with every edit, and the identity gate's count and hash are taken on it
README = ROOT / "bench" / "data" / "README-6f5a5e5.md"

CJK_SENTENCES = [
    "我们明天一起去看《摔跤吧！爸爸》好吗？",
    "好！",
    "安永已聯繫周怡安親屬，協助辦理簽證相關事宜。",
    "他说：“你好。”然后走了。",
    "这个模型把文本切成小块，再把每一块变成向量。",
    "检索的时候，系统先找最相似的几块。",
    "如果一句话被切断，答案就可能不完整！",
    "これはペンです。",
    "それは何ですか？",
    "引き下げ幅は３．２９％以上を目指すことになる。",
    "彼は「そうですね。」と言った。",
    "『終わり。』次の章へ進みます。",
    "文書を小さな塊に分けて、それぞれを埋め込みます。",
]


def repeated(unit: str, code_points: int = CODE_POINTS) -> str:
    return (unit * (code_points // len(unit) + 1))[:code_points]


def texts() -> dict[str, tuple[str, str]]:
    """name -> (text, language for the references)"""
    guide = (ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8")
    readme = README.read_text("utf-8")
    cjk = "".join(CJK_SENTENCES[i % len(CJK_SENTENCES)] for i in range(7 * len(CJK_SENTENCES)))
    return {
        "English prose": (repeated(guide + "\n\n"), "en"),
        "Chinese and Japanese": (repeated(cjk), "zh"),
        "Markdown (README)": (repeated(readme + "\n\n"), "en"),
    }


def cpu(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def speed(quick: bool) -> None:
    import pysbd
    import sentencex

    print(f"{'case':22} {'ours ms':>8} {'pySBD ms':>9} {'sentencex ms':>13} {'pySBD/ours':>11} "
          f"{'sentencex/ours':>15}")  # fmt: skip
    for name, (text, language) in texts().items():
        segmenter = pysbd.Segmenter(language=language, clean=False, char_span=True)
        fresh = [text[:-1] + text[-1] for _ in range(40)]  # new objects: no cached language
        runs = 10 if quick else 30
        ours_s = cpu(lambda fresh=fresh: sentence_spans(fresh.pop()), runs)
        pysbd_s = cpu(lambda s=segmenter, t=text: s.segment(t), 1 if quick else 3)
        sentencex_s = cpu(lambda c=language, t=text: list(sentencex.segment(c, t)), runs)
        print(
            f"{name:22} {ours_s * 1e3:8.2f} {pysbd_s * 1e3:9.1f} {sentencex_s * 1e3:13.2f} "
            f"{pysbd_s / ours_s:10.0f}x {sentencex_s / ours_s:14.2f}x"
        )


SITE = ROOT / ".cache" / "pyodide-bench"


def wall(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def measure_in_pyodide() -> dict[str, list[float]]:
    """Run inside Pyodide by bench_sentences_runner.mjs: ours and pySBD per case, seconds."""
    import pysbd

    out = {}
    for name, (text, language) in texts().items():
        segmenter = pysbd.Segmenter(language=language, clean=False, char_span=True)
        fresh = [text[:-1] + text[-1] for _ in range(20)]
        ours_s = wall(lambda fresh=fresh: sentence_spans(fresh.pop()), 15)
        pysbd_s = wall(lambda s=segmenter, t=text: s.segment(t), 2)
        out[name] = [ours_s, pysbd_s]
    return out


def speed_in_pyodide() -> None:
    import subprocess

    pins = dict(
        line.split("==", 1)
        for line in (ROOT / "requirements-test.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    )
    if not (SITE / "pysbd").is_dir():
        wanted = [f"{name}=={pins[name]}" for name in ("pysbd", "markdown-it-py", "mdurl")]
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
             str(SITE), *wanted],
            check=True,
        )  # fmt: skip
    runner = ROOT / "bench" / "bench_sentences_runner.mjs"
    done = subprocess.run(
        ["node", str(runner), str(ROOT), str(SITE)], capture_output=True, text=True, check=True
    )
    results = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{'case (Pyodide)':22} {'ours ms':>8} {'pySBD ms':>9} {'pySBD/ours':>11}")
    for name, (ours_s, pysbd_s) in results.items():
        print(f"{name:22} {ours_s * 1e3:8.2f} {pysbd_s * 1e3:9.1f} {pysbd_s / ours_s:10.0f}x")


def rule_cases() -> list[tuple[str, str, list[str]]]:
    """(family, text, expected) of the rule tables (user abbreviations left out)."""
    sys.path.insert(0, str(ROOT / "tests" / "core" / "sentences"))
    import test_sentence_rules as rules

    out = []
    for name in ("TERMINATORS", "RUNS", "ABBREVIATIONS", "CONTEXT", "NUMBERS", "LISTS",
                 "ADDRESSES", "ELLIPSES", "QUOTES", "NO_SPACE", "SCRIPTS", "BREAKS"):  # fmt: skip
        out += [(name, text, expected) for text, expected in getattr(rules, name)]
    return out


def accuracy() -> None:
    import pysbd
    import sentencex

    known = set(pysbd.languages.LANGUAGE_CODES)
    segmenters: dict[str, pysbd.Segmenter] = {}

    def by_pysbd(text: str, language: str) -> list[str]:
        code = language if language in known else "en"
        if code not in segmenters:
            segmenters[code] = pysbd.Segmenter(language=code, clean=False)
        return [s.strip() for s in segmenters[code].segment(text) if s.strip()]

    def by_sentencex(text: str, language: str) -> list[str]:
        code = "en" if language == "lists" else language
        return [s.strip() for s in sentencex.segment(code, text) if s.strip()]

    def by_ours(text: str, _language: str) -> list[str]:
        return [text[a:b] for a, b in sentence_spans(text)]

    cases: dict[str, list[tuple[str, str, list[str]]]] = {"rule tables (ours)": []}
    for _family, text, expected in rule_cases():
        # the rule tables state no language: the references get the detected one
        from chunker_py.text.sentence_language import detect_language

        cases["rule tables (ours)"].append((detect_language(text), text, expected))
    for case in json.loads((ROOT / "tests" / "data" / "sentence_cases.json").read_text("utf-8")):
        source = "pySBD tests" if case["source"].startswith("pySBD") else "sentencex tests"
        cases.setdefault(source, []).append((case["language"], case["text"], case["expected"]))
    print(f"{'cases':22} {'n':>4} {'ours':>7} {'pySBD':>7} {'sentencex':>10}")
    total = [0, 0, 0, 0]
    for source, items in cases.items():
        scores = [0, 0, 0]
        for language, text, expected in items:
            for i, segment in enumerate((by_ours, by_pysbd, by_sentencex)):
                # a reference that fails on a case misses it
                with contextlib.suppress(Exception):
                    scores[i] += segment(text, language) == expected
        n = len(items)
        total = [total[0] + n, *(t + s for t, s in zip(total[1:], scores, strict=True))]
        print(f"{source:22} {n:4} " + " ".join(f"{s / n:7.1%}" for s in scores))
    n = total[0]
    print(f"{'all':22} {n:4} " + " ".join(f"{s / n:7.1%}" for s in total[1:]))


IDENTITY_ATOMS = [
    "我们", "明天", "去", "好", "これは", "ペン", "です", "と", "っ", "言った", "３", "２９",
    "3", "42",
    "。", "！", "？", "｡", "．", ".", "!", "?", "…", "...", ";", ":", "、", "，", " ", "  ", "\n",
    "\n\n", "\r\n", "\t", "\u3000", "“", "”", "„", "«", "»", "‹", "›", "「", "」", "『", "』",
    "（", "）", "《", "》", "【", "】", "(", ")", "[", "]", '"', "'", "’", "ד", "ר", "The", "It",
    "word", "Dr", "No", "e.g", "U.S", "St", "i", "ii", "1", "2", "a", "b", "- ", "* ", "• ",
    "1. ", "2. ", "a) ", "b) ", "# ", "```", "| ", "Σ", "ն", "ก", "ไทย", "।", "؟", "۔", "։", "።",
]  # fmt: skip


def identity_texts() -> list[str]:
    """Texts whose sentences must not change when the segmenter is only made faster: the
    accuracy cases, the repository's documents (whole, per paragraph and in windows), the
    speed texts and random strings of the characters the rules look at (seeded)."""
    import random

    out = [text for _family, text, _expected in rule_cases()]
    cases = json.loads((ROOT / "tests" / "data" / "sentence_cases.json").read_text("utf-8"))
    out += [case["text"] for case in cases]
    documents = [README.read_text("utf-8")]
    documents += [
        path.read_text("utf-8") for path in sorted((ROOT / "tests" / "data").glob("*.md"))
    ]
    documents.append((ROOT / "tests" / "data" / "user_guide.txt").read_text("utf-8"))
    for document in documents:
        out.append(document)
        out += document.split("\n\n")
        out += [document[i : i + 700] for i in range(0, len(document), 350)]
    out += [text[:4000] for text, _language in texts().values()]
    cjk = "".join(CJK_SENTENCES)
    out += [cjk[i:] for i in range(len(cjk))]
    rng = random.Random(20)
    for size in (5, 20, 60, 200):
        out += ["".join(rng.choices(IDENTITY_ATOMS, k=size)) for _ in range(600)]
    # and of the characters of Chinese and Japanese text only (no Latin terminator, no
    # straight quote: the texts of the segmenter's fast path)
    cjk_atoms = [atom for atom in IDENTITY_ATOMS if not set(atom) & set('.!?…"\n')]
    cjk_atoms += [
        "。」と",
        "。」",
        "”",
        "。“",
        "３．",
        "．２",
        "（注。）",
        "「はい。」と",
        "“好。”",
    ]
    for size in (5, 20, 60, 200):
        out += ["".join(rng.choices(cjk_atoms, k=size)) for _ in range(1000)]
    return out


def identity() -> None:
    """The count and sha256 of every sentence of the identity texts (a speed-up must keep
    both: 153,568 sentences, sha256 0a0a0c14...4988 on the frozen README as it is now)."""
    import hashlib

    digest = hashlib.sha256()
    count = 0
    all_texts = identity_texts()
    for text in all_texts:
        for language in ("auto", "ja", "en"):
            spans = sentence_spans(text, language=language)
            count += len(spans)
            digest.update(repr(spans).encode())
    print(f"{count} sentences of {len(all_texts)} texts, sha256 {digest.hexdigest()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument("--accuracy", action="store_true", help="also the accuracy table")
    parser.add_argument("--pyodide", action="store_true", help="time inside Pyodide instead")
    parser.add_argument("--identity", action="store_true", help="only the sentences' sha256")
    args = parser.parse_args()
    if args.identity:
        identity()
        return
    if args.pyodide:
        speed_in_pyodide()
        return
    speed(args.quick)
    if args.accuracy:
        print()
        accuracy()


if __name__ == "__main__":
    main()

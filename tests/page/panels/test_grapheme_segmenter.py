"""Grapheme boundaries against the test browser's ``Intl.Segmenter`` (docs/decisions.md "Damage":
the browser is the oracle) on a generated corpus and on the repository's documents.

Chromium's ICU follows Unicode 17, whose GB9c asks for a consonant before the virama;
chunker_py follows Unicode 18 (``Linker Extend* (no break) Consonant``). Positions where Unicode
18's GB9c joins are the only ones allowed to differ, and the test checks that the corpus
has such positions, so the excuse is exercised rather than assumed.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from chunker_py.text.graphemes import CONSONANT, Graphemes, boundaries, properties

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
# a long README (this project's, frozen at an earlier commit) and the test documents
DOCUMENTS = [
    ROOT / "bench" / "data" / "README-6f5a5e5.md",
    *sorted((ROOT / "tests" / "data").glob("*.txt")),
]

POOL = [
    "a", "Z", "1", " ", "\t", "\r", "\n", "\x00", "\u00ad", "\u200b",
    "e", "\u0301", "\u0308", "\u20e3",  # combining marks
    "\u200d", "\U0001f469", "\U0001f467", "\U0001f600", "\u2764", "\u00a9",  # ZWJ emoji
    "\U0001f3fb", "\U0001f3ff", "\ufe0f", "\ufe0e",  # skin tones, variation selectors
    "\U0001f1e9", "\U0001f1ea", "\U0001f1eb", "\U0001f1f7",  # flags
    "\u1100", "\u1161", "\u11a8", "\uac00", "\uac01",  # Hangul
    "\u0600", "\u0903", "\u093e", "\u0e33",  # Prepend, SpacingMark
    "\u0915", "\u0937", "\u094d", "\u093c", "\u0905", "\u25cc",  # Indic conjuncts
]  # fmt: skip
WHOLE = [
    "e\u0301",
    "\U0001f469\u200d\U0001f469\u200d\U0001f467",
    "\U0001f44d\U0001f3fd",
    "\U0001f1e9\U0001f1ea",
    "\u2764\ufe0f",
    "\r\n",
    "\u1100\u1161\u11a8",
    "\ud55c\uad6d\uc5b4",
    "\u0915\u094d\u0937",
    "\U0001f3f3\ufe0f\u200d\U0001f308",
    "1\ufe0f\u20e3",
]

SEGMENT = """(texts) => {
  const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
  return texts.map((text) => {
    const out = [0];
    let position = 0;
    for (const { segment } of segmenter.segment(text)) {
      position += [...segment].length;  // code points, as Python counts
      out.push(position);
    }
    return text ? out : [0];
  });
}"""


def corpus() -> list[str]:
    rng = random.Random(29)
    texts = ["".join(rng.choices(POOL, k=rng.randint(1, 14))) for _ in range(3000)]
    texts += ["".join(rng.choices(WHOLE + POOL[:6], k=rng.randint(1, 10))) for _ in range(500)]
    texts += [path.read_text("utf-8") for path in DOCUMENTS]
    return texts


def unicode18_conjunct(text: str, p: int) -> bool:
    """Whether Unicode 18's GB9c joins at ``p`` (where Unicode 17 may break)."""
    g = Graphemes(text)
    return 0 < p < len(text) and bool(properties(text[p]) & CONSONANT) and g._after_linker(p)


def test_boundaries_match_intl_segmenter(browser: Browser) -> None:
    texts = corpus()
    page = browser.new_page()
    try:
        expected = page.evaluate(SEGMENT, texts)
    finally:
        page.close()
    compared = excused = 0
    for text, theirs in zip(texts, expected, strict=True):
        ours = boundaries(text)
        compared += len(text) + 1
        if ours == theirs:
            continue
        differ = set(ours) ^ set(theirs)
        assert all(unicode18_conjunct(text, p) for p in differ), (
            [f"U+{ord(c):04X}" for c in text[:40]],
            sorted(differ)[:10],
        )
        excused += len(differ)
    assert compared > 50_000
    assert excused > 0  # the corpus reaches the one known version difference


CHUNK_MAP = ROOT / "static" / "chunkmap.js"
# static/chunkmap.js's graphemeBoundary asked at every position of each text in order, with
# the full text's Intl.Segmenter answer; and the longest text it handed to the segmenter
ASK_IN_ORDER = """([texts, stride]) => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const handed = [];
  const segment = Intl.Segmenter.prototype.segment;
  Intl.Segmenter.prototype.segment = function (input) {
    handed.push(input.length);
    return segment.call(this, input);
  };
  const out = texts.map((text) => {
    const whole = segment.call(segmenter, text);
    const boundary = globalThis.ciChunkMap.graphemeBoundary(text);
    const differ = [];
    for (let at = 0; at <= text.length; at += stride) {
      const oracle = at <= 0 || at >= text.length || whole.containing(at).index === at;
      if (boundary(at) !== oracle) differ.push(at);
    }
    return differ;
  });
  Intl.Segmenter.prototype.segment = segment;
  return [out, handed.reduce((a, b) => Math.max(a, b), 0)];
}"""


def test_the_chunk_maps_boundaries_asked_in_order_match_the_whole_texts(browser: Browser) -> None:
    """The chunk map asks whether each long block's end is a cluster boundary, in order;
    it segments only from the last cluster start it found (so no task runs long: on the
    whole text, 20,000 code points of ZWJ emoji took ~30 ms an edit), with the answers
    of the whole text's segmentation, here at every position of long mixed texts."""
    rng = random.Random(18)
    pieces = corpus()[:3500]
    texts = ["".join(rng.choices(pieces, k=1_500)) for _ in range(6)]
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
    texts += [family * 2_857, "\U0001f1e9\U0001f1ea\U0001f1eb" * 3_000, "\u0915\u094d" * 5_000]
    page = browser.new_page()
    try:
        page.add_script_tag(path=str(CHUNK_MAP))
        every, _ = page.evaluate(ASK_IN_ORDER, [texts, 1])
        # as the map asks, every 1,000 units or so, on the emoji and the flags: no question
        # hands the segmenter the whole text (the conjuncts are one cluster: each question
        # segments it from its start, the only cluster start there is)
        _, longest = page.evaluate(ASK_IN_ORDER, [texts[-3:-1], 1_000])
    finally:
        page.close()
    assert every == [[]] * len(texts)
    assert sum(len(t.encode("utf-16-le")) // 2 for t in texts) > 120_000
    assert longest <= 1_000 + 32 + 32  # the stride, AFTER_UNITS and one cluster

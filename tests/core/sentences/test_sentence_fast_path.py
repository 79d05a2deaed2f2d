"""The fast path for paragraphs of Chinese, Japanese and the other scripts whose
terminators end a sentence wherever they stand finds the same sentences as the general
rules (``_paragraph``), for any text of the characters those rules look at there:
terminators, closers, quotation and bracket pairs, quotative particles, digits, white
space. The general rules stand in for the fast path when it is switched off."""

# ruff: noqa: RUF001  (Chinese and Japanese punctuation on purpose)

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chunker_py.text import segmenter

ATOMS = st.sampled_from(
    [
        *"我好これ ３２9。！？．“”„«»‹›「」『』（）《》【】()[]'’とっ\u3000\t\n",
        *[
            "。」と",
            "。”",
            "。“",
            "３．",
            "．２",
            "（注。）",
            "「はい。」と",
            "“好。”",
            "『終わり。』次",
        ],
        *["\n\n", "a", ".", '"', "ก ข", "Σ;", "։"],
    ]
)
TEXTS = st.lists(ATOMS, max_size=80).map("".join)


def general(text: str, language: str) -> list[tuple[int, int]]:
    languages = segmenter._FAST_LANGUAGES
    try:
        segmenter._FAST_LANGUAGES = frozenset()
        return segmenter.sentence_spans(text, language=language)
    finally:
        segmenter._FAST_LANGUAGES = languages


@settings(max_examples=400, deadline=None)
@given(TEXTS, st.sampled_from(["zh", "ja"]))
@example("他说：“你好。”然后走了。", "zh")
@example("彼は「そうですね。」と言った。", "ja")
@example("引き下げ幅は３．２９％以上。次。", "ja")
@example("好。“对。”他说。", "zh")
@example("《摔跤吧！爸爸》好吗？好！", "zh")
@example("「a。」“b。c。”d。", "ja")
@example("3．」4。好。", "ja")
def test_fast_path_finds_the_general_rules_sentences(text: str, language: str) -> None:
    assert segmenter.sentence_spans(text, language=language) == general(text, language)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("他说：“你好。”然后走了。", ["他说：“你好。”", "然后走了。"]),
        ("彼は「そうですね。」と言った。次。", ["彼は「そうですね。」と言った。", "次。"]),
        ("引き下げ幅は３．２９％以上。次。", ["引き下げ幅は３．２９％以上。", "次。"]),
        ("《摔跤吧！爸爸》好吗？ 好！", ["《摔跤吧！爸爸》好吗？", "好！"]),
        ("（注。）続く。", ["（注。）", "続く。"]),
    ],
)
def test_fast_path_sentences(text: str, expected: list[str]) -> None:
    assert text in _fast_texts(text)
    assert [text[a:b] for a, b in segmenter.sentence_spans(text, language="ja")] == expected


def _fast_texts(text: str) -> list[str]:
    """The paragraphs of ``text`` the fast path takes (the test above is about it)."""
    taken: list[str] = []
    original = segmenter._fast_paragraph

    def spy(text: str, start: int, end: int, *rest: object) -> bool:
        done = original(text, start, end, *rest)  # type: ignore[arg-type]
        if done:
            taken.append(text[start:end])
        return done

    segmenter._fast_paragraph = spy  # type: ignore[assignment]
    try:
        segmenter.sentence_spans(text, language="ja")
    finally:
        segmenter._fast_paragraph = original
    return taken

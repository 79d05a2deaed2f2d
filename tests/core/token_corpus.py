"""Texts that stress the tokenizers, shared by the golden file and the Hypothesis tests."""

# ruff: noqa: RUF001  (look-alike characters are the point here)

from __future__ import annotations

import random

from hypothesis import strategies as st

TOKENIZER_NAMES = ["cl100k_base", "o200k_base", "wordpiece", "words"]

# Named samples: every script and edge the tokenizers must handle, plus what the patterns hinge on
# (contractions, digit runs, whitespace before a newline, long pieces, special tokens).
CORPUS: dict[str, str] = {
    "english": "Reset your password, then keep the backup codes. It's what we'd advise; "
    "they'll say you've 3 attempts (1234567 in all).",
    "contractions": "I'M sure it'S he'LL 'd 'Re 'VE 'ſ 'K x's don't",
    "special tokens": "<|endoftext|> <|fim_prefix|>a<|endofprompt|> [CLS] x [SEP]y[MASK] [UNK]",
    "cjk": "日本語のテキストを分割します。中文文本，한국어 텍스트도 있습니다。",
    "thai": "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ แต่มีระหว่างประโยค",
    "devanagari": "नमस्ते दुनिया। क्षत्रिय ज्ञान श्री",
    "arabic marks": "مَرْحَبًا بِكُمْ فِي الْعَالَمِ، وَالسَّلَامُ عَلَيْكُمْ",
    "emoji": "👩‍💻 👨‍👩‍👧‍👦 🇫🇷🇯🇵 👍🏽 ❤️ 🏳️‍🌈 a😀b",
    "crlf code": "def f(x):\r\n    return x  \r\n\r\n\tif x:\r\n\t\tpass\r\n",
    "odd spaces": "a\u0085b\ufeffc\u00a0d\u2028e\u2029f\u200bg\u3000h\u202fi\u1680j \u000b\u000ck",
    "accents": "Ünïcödé CAFÉ İstanbul ΣΊΣΥΦΟΣ straße ǅemal ﬁne Å Å",
    "unicode 15 and 16": "\U0001fae8 \U0001fa89 \U0001fabf \u1c89\u1c8a \U00010d40 \U0001e5d0 "
    "\U00011f00\U00011f02 \U000105c0 \U0001ccfa \u0897",
    "unicode 17": "\u088f \ua7ce\ua7cf \U00010940 \U0001e6c0",
    "digits": "3.14159 2026-11-30 ١٢٣٤ ४२ 一二三 ⅫⅣ ①②",
    "whitespace runs": "x   \n\n   y\t\t\n \n  ",
    "trailing newline": "ends with a newline\n",
    "long piece": "a" * 300 + " " + "🙂" * 80 + " " + "ก" * 200,
    "marks": "e\u0301\u0302 a\u0323\u0301 q\u0307\u0323 \u0f39 \U0001d165\U0001d16d "
    "x\u0898\u0899 \u302e \u0d3b\u0301",
    "symbols": "→ ≥ ∑ «quotes» „low“ ¿qué? ¡sí! — – … © ® ™ $€£¥ @#%&*",
    "controls": "a\x00b\x01c\x7fd\ufffde\u200ef\u202eg",
    "url and json": 'https://example.test/a/b?c=1&d=2 {"key": [1, 2.5, null]}',
    "markdown": "# Title\n\n- item one\n- item two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
    "```py\nx=1\n```",
    "long word": "supercalifragilisticexpialidocious" * 4 + " pneumonoultramicroscopic",
    "mixed": "Café 東京 👍 ok. Σ σ ς. ½ ⅓ x²",
}

# Atoms for random texts: words, scripts, marks, every kind of whitespace and break.
ATOMS = [
    "a", "The", "word", "it's", "'S", "123", "4567", " ", "  ", "\n", "\r\n", "\r", "\t",
    "\u00a0", "\u0085", "\ufeff", "\u2028", "\u200b", ".", ",", "!?", "/", "<|endoftext|>",
    "[SEP]", "日本", "語", "한국", "ภาษา", "नम", "स्ते", "مَرْ", "ئ", "😀", "👩\u200d💻", "🇫🇷",
    "👍🏽", "e\u0301", "\u0301", "İ", "ß", "Σ", "\U0001fae8", "\u1c89", "\u0898", "\u088f",
    "\x00", "\x7f", "\ufffd", "ſ", "½", "١٢",
]  # fmt: skip

token_texts = st.one_of(
    st.lists(st.sampled_from(ATOMS), max_size=30).map("".join),
    st.text(max_size=40),
    st.text(st.characters(codec="utf-8"), max_size=40),
)


def random_texts(count: int, seed: int = 9) -> list[str]:
    """Deterministic random texts from ATOMS and random code points, for the golden file."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 25)):
            if rng.random() < 0.8:
                parts.append(rng.choice(ATOMS))
            else:
                code = rng.randrange(0x110000)
                parts.append(chr(code) if not 0xD800 <= code <= 0xDFFF else "x")
        texts.append("".join(parts))
    return texts

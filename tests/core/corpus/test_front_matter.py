"""Front matter as flat metadata (FluentChunker's document-level metadata): equal to
PyYAML's safe loader on the flat subset it reads, and nothing guessed outside it."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker_py.text.front_matter import front_matter

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
WORD = st.builds(
    str.__add__, st.sampled_from(LETTERS), st.text(LETTERS + "0123456789_-", max_size=8)
).filter(
    # words YAML reads as something else than a string
    lambda w: w.lower() not in {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}
)
PLAIN = st.lists(WORD, min_size=1, max_size=3).map(" ".join)
VALUE = st.one_of(
    PLAIN,
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(["true", "false"]),
    PLAIN.map(lambda v: f'"{v}"'),
    PLAIN.map(lambda v: f"'{v}'"),
    st.lists(WORD, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
)
KEY = st.builds(str.__add__, st.sampled_from("abcxyz"), st.text("abcz019_", max_size=10))


@settings(max_examples=150)
@given(st.dictionaries(KEY, VALUE, min_size=1, max_size=6), st.sampled_from(["\n", "\r\n"]))
def test_flat_front_matter_equals_pyyaml(pairs: dict[str, str], newline: str) -> None:
    header = newline.join(f"{k}: {v}" for k, v in pairs.items())
    text = f"---{newline}{header}{newline}---{newline}# Title{newline}"
    assert front_matter(text) == yaml.safe_load(header)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# No front matter\n", {}),
        ("---\ntitle: A\n", {}),  # never closed: text, not front matter
        ("\ufeff---\ntitle: A\n...\nbody", {"title": "A"}),
        ("---\ntitle: A # a comment\n# a comment line\n---\n", {"title": "A"}),
        ("---\nurl: http://x.org/a#b\n---\n", {"url": "http://x.org/a#b"}),
        # nested values, block lists, block scalars, anchors and tags are left out, not guessed
        ("---\nauthor:\n  name: B\ntitle: A\n---\n", {"title": "A"}),
        ("---\ntags:\n- a\n- b\ntitle: A\n---\n", {"title": "A"}),
        ("---\nabstract: |\n  long\ntitle: A\n---\n", {"title": "A"}),
        ("---\nbase: &x 1\nref: *x\nt: !!str 5\n---\n", {}),
        ('---\nescaped: "a\\tb"\n---\n', {}),
        ("---\nwrapped: first\n  second\nnext: 1\n---\n", {"next": 1}),
    ],
)
def test_what_is_read_and_what_is_left_out(text: str, expected: dict[str, object]) -> None:
    assert front_matter(text) == expected

"""The block parser with its rules dispatched by first character (``text/block_rules.py``)
gives markdown-it-py's token stream exactly: on Markdown generated from a grammar of the
block constructs, on CommonMark edge cases written here, and on every Markdown and text
document of the repository. The damage figures' block ranges (``outline``) and the Markdown
mode's blocks come from those tokens, so they are compared too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import markdown_it
import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from chunker_py.text import block_rules, blocks

ROOT = Path(__file__).resolve().parents[3]


def plain_parser() -> MarkdownIt:
    """markdown-it as ``blocks`` configures it, without the dispatch."""
    md = MarkdownIt("commonmark").enable("table")
    md.disable("inline")
    return md


PLAIN = plain_parser()


def stream(tokens: list[Any]) -> list[tuple[Any, ...]]:
    fields = ("type", "tag", "nesting", "level", "map", "content", "markup", "info", "hidden")
    fields += ("block", "meta", "attrs", "children")
    return [tuple(getattr(t, name) for name in fields) for t in tokens]


def assert_same(text: str, fast: MarkdownIt | None = None) -> None:
    expected = PLAIN.parse(text)
    got = blocks.parse_tokens(text) if fast is None else fast.parse(text)
    assert stream(got) == stream(expected), repr(text)
    assert blocks.outline(text, got) == blocks.outline(text, expected)
    assert blocks.parse_blocks(text, got) == blocks.parse_blocks(text, expected)


# CommonMark and GFM-table cases where a rule's first-character test matters: markers that
# almost match, markers behind indents, tabs and containers, paragraphs interrupted (or not)
# by each block, tables whose delimiter row is the only clue, lazy continuation.
EDGE_CASES = [
    "",
    "\n",
    "   ",
    "a",
    "# h\ntext\n## h2 ##\n####### seven\n#no space\n #  one space",
    "para\n# heading interrupts\npara\n    not code (lazy)\n",
    "para\n```\ncode\n```\n~~~ info\n~~~\n``` a`b\n``",
    "````\n```\n````\n",
    "```\nunclosed fence\n\n\n",
    "> quote\nlazy\n> > nested\n>\n> - item\n>   - sub\n> ```\n> code\n",
    ">quote without space\n>\tquote with tab",
    "***\n---\n___\n* * *\n- - -\n_ _ _\n**\n--\n__\n",
    "para\n---\npara\n===\n  ===  \n\n---\n",
    "para\n***\npara\n* * *\n",
    "- a\n- b\n\n  para in b\n\n      code in b\n- c\n+ other list\n* third\n",
    "1. one\n2. two\n10) ten\n1234567890. too long\n",
    "para\n2. does not interrupt\npara\n1. does interrupt\npara\n- \npara\n-\n",
    "- a\n - b\n  - c\n   - d\n    - e (paragraph continuation)\n",
    "-\tlist with tab\n*\ttab\n1.\ttab\n",
    "- [ ] task\n- [x] done\n",
    "[ref]: /url\n[ref2]:\n  /url2\n  'title'\n\n[not a ref]\n[a]: <b> \"c\"\npara\n",
    "para\n[ref]: /url (a ref cannot interrupt a paragraph)\n",
    "[\nref\n]: /url\n",
    "<div>\nhtml\n</div>\n\n<!-- comment\n\nstill -->\n<script>\nx\n</script>\npara\n",
    "para\n<div>interrupts</div>\npara\n<a href='x'>does not</a>\n<?php ?>\n<!DOCTYPE html>\n",
    "<![CDATA[\nx\n]]>\n<custom-tag>\n\n<pre>\n\n</pre>",
    "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |\n\npara",
    "a | b\n--- | ---\n1 | 2\n",
    "|a|\n|:-:|\n|b|\n> quote ends table",
    "| a |\n| - |\n",
    "| a | b |\n| --- |\n",
    "para\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    "- | a | b |\n  |---|---|\n  | 1 | 2 |\n",
    "> | a |\n> |---|\n> | b |\n",
    "| a \\| b |\n|---|\n| `c | d` |\n",
    "|---|\n|---|\n",
    "-|-\n-|-\n",
    ":-\n:-\n",
    "    code\n\tcode with tab\n\n    more\npara\n    lazy",
    " \t# heading after space and tab\n\t- list after tab\n  \t```\n",
    "- a\n\n      code in item\n\n  - b\n\n        code in b\n",
    "> ```\n> code\nlazy ends fence\n```\n",
    "1. a\n\n   > quote\n   > - x\n   >   ```\n   >   c\n",
    "* a\n*\n* c\n\n*\n  b\n",
    "\u2028 line separator is not a break\n# h\u2028x\n",
    "a\r\nb\r\n# h\r\n---\r\n| a |\r\n|---|\r\n",
    "a\rb\r# h\r\r- x\r",
    "\ufeff# heading after BOM\n",
    "\x00# NUL\n\x00\n",
    "# 😀\n> 👩\u200d💻\n- e\u0301\n",
    "\u00a0# nbsp is not an indent\n\u3000- ideographic space\n",
    "\v# vertical tab\n\f- form feed\n",
    "text\n\n\n\n",
    "  \n \n\t\n",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_give_markdown_its_tokens(text: str) -> None:
    assert_same(text)


LINE_ENDINGS = ("\n", "\r\n", "\r")


@pytest.mark.parametrize("ending", LINE_ENDINGS)
def test_edge_cases_with_other_line_breaks(ending: str) -> None:
    assert_same(ending.join(EDGE_CASES).replace("\n", ending))


def repository_documents() -> list[Path]:
    found = [*ROOT.glob("*.md"), *(ROOT / "tests" / "data").glob("*.md")]
    found += (ROOT / "tests" / "data").glob("*.txt")
    found += (ROOT / "static").glob("*.txt")
    return sorted(p for p in found if p.is_file())


def test_every_markdown_file_of_the_repository() -> None:
    paths = repository_documents()
    assert len(paths) >= 4, paths  # README, CHANGELOG and the test documents at least
    for path in paths:
        assert_same(path.read_text(encoding="utf-8", errors="replace"))


# Lines from a grammar of the block constructs, each behind a random indent or container
# prefix, so markers land at every column and in every context.
MARKERS = [
    "# ", "## ", "###### ", "####### ", "#", "> ", ">", "- ", "* ", "+ ", "-", "1. ", "2) ",
    "10. ", "```", "~~~", "````", "``` py", "***", "---", "___", "===", "- - -", "[a]: /u",
    "[a]:", "[", "<div>", "</div>", "<!--", "-->", "<script>", "</script>", "<a href=x>",
    "<?", "?>", "| a | b |", "|---|---|", "| - |", "a | b", "--- | ---", ":-:", "|", "\\|",
]  # fmt: skip
PREFIXES = ["", "", "", " ", "  ", "   ", "    ", "\t", " \t", "> ", "- ", "1. ", "  - ", ">> "]
WORDS = ["text", "a", "`x`", "*em*", "|", "\\", "😀", "'t'", '"u"', "(v)", "-", "#"]
lines = st.builds(
    lambda prefix, marker, words: prefix + marker + " ".join(words),
    st.sampled_from(PREFIXES),
    st.sampled_from(["", "", *MARKERS]),
    st.lists(st.sampled_from(WORDS), max_size=3),
)
# a table: a header row, a delimiter row, body rows (cells or not, indented or not)
ROWS = ["| a | b |", "a | b", "|a|", "| a |", "a", "| `x|y` | \\| |", "> | a |", "- | a |"]
DELIMITERS = ["|---|---|", "--- | ---", "|:-:|", "| - |", ":-", "-|-", "|---|", "| --- |"]
tables = st.builds(
    lambda prefix, header, delimiter, body: [prefix + header, prefix + delimiter, *body],
    st.sampled_from(PREFIXES),
    st.sampled_from(ROWS),
    st.sampled_from(DELIMITERS),
    st.lists(st.one_of(st.sampled_from(ROWS), lines), max_size=4),
)
documents = st.builds(
    lambda parts, ending: ending.join(line for part in parts for line in part),
    st.lists(st.one_of(lines.map(lambda line: [line]), st.just([""]), tables), max_size=25),
    st.sampled_from(LINE_ENDINGS),
)


@given(documents)
def test_generated_markdown_gives_markdown_its_tokens(text: str) -> None:
    assert_same(text)


@given(st.lists(st.sampled_from(EDGE_CASES), min_size=1, max_size=6).map("\n".join))
def test_edge_cases_joined_give_markdown_its_tokens(text: str) -> None:
    assert_same(text)


def test_the_dispatch_is_in_use() -> None:
    ruler = blocks._parser().block.ruler
    chains = ("", "paragraph", "blockquote", "list", "reference")
    assert all(len(ruler.getRules(chain)) == 1 for chain in chains)
    assert len(PLAIN.block.ruler.getRules("")) == 11


def test_a_wrong_first_character_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: a dispatch that skips the fence rule before a tilde gives
    other tokens on the edge cases."""
    monkeypatch.setitem(block_rules.FIRST, "fence", frozenset("`"))
    broken = plain_parser()
    assert block_rules.rule_dispatch(broken)
    with pytest.raises(AssertionError):
        for text in EDGE_CASES:
            assert_same(text, broken)


def test_another_markdown_it_version_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(markdown_it, "__version__", "9.9.9")
    md = plain_parser()
    assert not block_rules.rule_dispatch(md)
    assert len(md.block.ruler.getRules("paragraph")) == len(PLAIN.block.ruler.getRules("paragraph"))


def test_an_unknown_rule_is_left_as_it_is() -> None:
    md = plain_parser()
    md.block.ruler.before("paragraph", "mine", lambda state, start, end, silent: False)
    assert not block_rules.rule_dispatch(md)

"""markdown-it-py's block rules, each called only on a line where it can match.

markdown-it tries every block rule, in order, on every line it starts a block at, and every
rule that may interrupt a paragraph on every line of a paragraph (twice: the setext-heading
rule scans the paragraph first). Most of those calls return ``False`` at once because the
line's first character (after its indent) is not the rule's marker. ``rule_dispatch`` puts
one function in place of each chain's rule list that looks at that character and calls only
the rules that can match, in their order. The token stream is the same, token for token.

Why the skipped calls are exactly the ones returning ``False`` (markdown-it-py 4.3.0; read
from its ``rules_block`` sources, which are pinned for both doors):
- ``fence``, ``blockquote``, ``hr``, ``list``, ``reference``, ``html_block`` and
  ``heading`` each return ``False`` when ``state.is_code_block(line)`` holds or when the
  character at ``bMarks[line] + tShift[line]`` is not one of ``FIRST[rule]``, and before
  either check they only read the state (the list rule's paragraph test is a local).
- ``code`` returns ``False`` first thing when the line is not a code block.
- ``table`` returns ``False``, after checks that only read, when the next line's first
  character (at ``bMarks + tShift``, before ``eMarks``) is not ``|``, ``-`` or ``:``.
- ``lheading`` and ``paragraph`` are always called (``lheading`` changes
  ``state.parentType`` even when it does not match; that stays as it was).
Anything else (another version, another rule set, a position past the end of the text)
runs the rules as markdown-it does. ``tests/core/text/test_block_rules.py`` compares the
token streams on generated Markdown, CommonMark edge cases and every Markdown file here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# The version whose rules the list above was read from.
VERSION = "4.3.0"

# rule -> the characters its line must start with (after the indent) for it to match
FIRST = {
    "fence": frozenset("`~"),
    "blockquote": frozenset(">"),
    "hr": frozenset("*-_"),
    "list": frozenset("*-+0123456789"),
    "reference": frozenset("["),
    "html_block": frozenset("<"),
    "heading": frozenset("#"),
}
_MARKERS = frozenset().union(*FIRST.values())
_TABLE_DELIMITER = frozenset("|-:")
_KNOWN = {*FIRST, "table", "code", "lheading", "paragraph"}

Rule = Callable[[Any, int, int, bool], bool]


def _dispatcher(entries: Sequence[tuple[str, Rule]]) -> Rule:
    """One rule standing for the chain ``entries`` (name and function, in order)."""
    every = tuple(fn for _name, fn in entries)
    plans: dict[tuple[str | None, bool], tuple[tuple[bool, Rule], ...]] = {}

    def plan(first: str | None, code: bool) -> tuple[tuple[bool, Rule], ...]:
        """The rules that can match a line starting with ``first`` (``None``: no marker);
        each with whether it is the table rule (which looks at the next line)."""
        out = []
        for name, fn in entries:
            if name in FIRST:
                if code or first is None or first not in FIRST[name]:
                    continue
            elif name == "code" and not code:
                continue
            out.append((name == "table", fn))
        return tuple(out)

    def dispatch(state: Any, line: int, end_line: int, silent: bool) -> bool:
        src = state.src
        pos = state.bMarks[line] + state.tShift[line]
        if pos >= len(src):
            return any(fn(state, line, end_line, silent) for fn in every)
        char = src[pos]
        key = (
            char if char in _MARKERS else None,
            state._code_enabled and state.sCount[line] - state.blkIndent >= 4,
        )
        rules = plans.get(key)
        if rules is None:
            rules = plans[key] = plan(*key)
        for table, fn in rules:
            if table:
                below = line + 1
                at = state.bMarks[below] + state.tShift[below]
                if at >= state.eMarks[below] or src[at] not in _TABLE_DELIMITER:
                    continue
            if fn(state, line, end_line, silent):
                return True
        return False

    return dispatch


def rule_dispatch(md: Any) -> bool:
    """Make ``md``'s block parser call each rule only where it can match. Returns whether
    it did (only for markdown-it-py ``VERSION`` with no rule this module does not know).
    Rules enabled or disabled on ``md`` afterwards are not seen: configure it first."""
    import markdown_it

    ruler = md.block.ruler
    rules = getattr(ruler, "__rules__", None)
    if markdown_it.__version__ != VERSION or rules is None:
        return False
    names = {id(rule.fn): rule.name for rule in rules}
    chains: dict[str, list[Rule]] = {}
    for chain in ("", "paragraph", "blockquote", "list", "reference"):
        entries = [(names.get(id(fn), ""), fn) for fn in ruler.getRules(chain)]
        if any(name not in _KNOWN for name, _fn in entries):
            return False
        chains[chain] = [_dispatcher(entries)]
    ruler.getRules = chains.__getitem__
    return True

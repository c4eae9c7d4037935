"""How deep a template or layout expression nests, measured before Jinja2 parses it.

Jinja2's parser and code generator recurse once (or a dozen times) per level of an expression:
``((((x))))`` a thousand deep, ``not not not ... x``, or ``1 + 1 + ... + 1`` each ended the check in a
``RecursionError`` traceback. A game's deepest placeholder nests a handful of levels, so a text whose
expressions nest deeper than ``LIMITS["expression depth"]``, or whose ``{% if %}``/``{% for %}``
blocks do deeper than ``LIMITS["block depth"]``, is an error at its line before any parsing.

The measure is the depth of the expression's tree, read from its tokens without recursion: every
operator (``+``, ``.``, ``|``, ``not``, ``if``...) is a level over what it joins, every bracket a level
over what it holds, and a comma starts a new sibling (so a long list is wide, not deep).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pnp.load.guarded import LIMITS

_TOKEN = re.compile(r"""\s+|"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9_.]*|\*\*|//|.""",
                    re.DOTALL)
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_OPENERS.values())
_SEPARATORS = frozenset({",", ":"})
_WORD_OPERATORS = frozenset({"not", "and", "or", "if", "else", "is", "in"})
_SYMBOL_OPERATORS = frozenset("+-*/%~|.<>=!") | {"**", "//"}
_BLOCK_OPENERS = frozenset({"if", "for", "macro", "call", "filter", "with", "block", "autoescape", "trans", "raw"})


def expression_depth(expression: str) -> int:
    """The depth of the tree ``expression`` parses into, roughly: operators and brackets nested."""
    # per open bracket: [deepest sibling so far, operators in this sibling, deepest bracket in it]
    levels = [[0, 0, 0]]
    for match in _TOKEN.finditer(expression):
        token = match.group(0)
        if token.isspace():
            continue
        level = levels[-1]
        if token in _OPENERS:
            levels.append([0, 0, 0])
        elif token in _CLOSERS:
            if len(levels) > 1:
                levels.pop()
                depth = 1 + max(level[0], level[1] + level[2])
                levels[-1][2] = max(levels[-1][2], depth)
        elif token in _SEPARATORS:
            level[0] = max(level[0], level[1] + level[2])
            level[1] = level[2] = 0
        elif token in _SYMBOL_OPERATORS or token in _WORD_OPERATORS:
            level[1] += 1
    depth = 0
    while levels:  # brackets left open count as closed at the end
        level = levels.pop()
        depth = 1 + max(level[0], level[1] + level[2], depth) if levels else max(level[0], level[1] + level[2],
                                                                               depth)
    return depth


def expression_nesting_problem(expression: str) -> str | None:
    """Why a layout expression (``when``, ``w``...) nests too deep to be read, or None."""
    most = LIMITS["expression depth"]
    if expression_depth(expression) > most:
        return f"the expression nests more than {most} levels deep (brackets and operators)"
    return None


def template_bounds_problem(source: str) -> tuple[int, str] | None:
    """(line, problem) for the first placeholder or block of a template nested too deep, or past the
    number of tags a text may hold (Jinja2 compiles about a thousand a second: a 1 MB text of 13,000
    took 12 s), or None. One pass with ``str.find``: a regex over a million unclosed ``{{`` is quadratic."""
    most, most_blocks, most_tags = LIMITS["expression depth"], LIMITS["block depth"], LIMITS["template tags"]
    open_blocks, line, counted, index, tags = 0, 1, 0, 0, 0
    for start, opener in _tags(source):
        if start < index:
            continue
        tags += 1
        if tags > most_tags:
            line += source.count("\n", counted, start)
            return line, (f"the text holds more than {most_tags:,} placeholders and {{% %}} tags (a long rulebook "
                          "has a few hundred)")
        end = source.find("}}" if opener == "{{" else "%}", start + 2)
        if end == -1:
            break  # unclosed: Jinja2 says so, without recursing
        line += source.count("\n", counted, start)
        counted, index = start, end + 2
        inside = source[start + 2:end]
        words = inside.lstrip("-+ \t\r\n").split(None, 1) if opener == "{%" else []
        name = words[0] if words else ""
        expression = (words[1] if len(words) > 1 else "") if opener == "{%" else inside
        if expression_depth(expression) > most:
            return line, f"this expression nests more than {most} levels deep (brackets and operators)"
        if name in _BLOCK_OPENERS or (name == "set" and "=" not in expression):
            open_blocks += 1
            if open_blocks > most_blocks:
                return line, f"{{% {name} %}} blocks nest more than {most_blocks} deep here"
        elif name.startswith("end") and open_blocks:
            open_blocks -= 1
    return None


def _tags(source: str) -> Iterator[tuple[int, str]]:
    """Where each ``{{`` and ``{%`` starts, in order."""
    found = {"{{": source.find("{{"), "{%": source.find("{%")}
    while True:
        live = [(at, opener) for opener, at in found.items() if at != -1]
        if not live:
            return
        at, opener = min(live)
        yield at, opener
        found[opener] = source.find(opener, at + 2)

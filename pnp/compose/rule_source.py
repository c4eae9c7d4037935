"""A rule text's source read as text, with no Jinja2: its example fences, its blocks and comments, and
what it says once its template code is blanked (what a text that cannot be rendered still tells).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from pnp.diagnostics import Diagnostic, Level

_FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*example\s+(?P<id>[A-Za-z0-9_.-]+)\s*$")


def bind_example_results(source: str) -> str:
    """Give each ``example <id>`` fence body its own ``result``, keeping every line where it was.

    ``{% with %}`` goes at the end of the opening fence line and ``{% endwith %}``
    at the start of the closing one, so both render to nothing on lines that
    exist anyway. An unclosed fence is left alone; the parser reports it.
    """
    lines = source.split("\n")
    raw = _raw_lines(source)
    for start, end, example_id in _example_fences(lines):
        if end is None:
            break
        if start in raw:  # printed as written, our tags too: the parser reports the example's template code
            continue
        lines[start] += (f"{{% with result = _example_result({example_id!r}), "
                         f"inputs = _example_inputs({example_id!r}) %}}")
        lines[end] = "{% endwith %}" + lines[end]
    return "\n".join(lines)


_RAW_BLOCK = re.compile(r"\{%-?\s*raw\s*-?%\}.*?(?:\{%-?\s*endraw\s*-?%\}|\Z)", re.DOTALL)


def _raw_lines(source: str) -> set[int]:
    """The lines (0-based) inside ``{% raw %}`` blocks, which Jinja prints as written."""
    inside: set[int] = set()
    for block in _RAW_BLOCK.finditer(source):
        first = source.count("\n", 0, block.start())
        inside.update(range(first, first + block.group().count("\n") + 1))
    return inside


def _example_fences(lines: Sequence[str]) -> Iterator[tuple[int, int | None, str]]:
    """(opening line, closing line, example id) of each ``example <id>`` fence, 0-based; the last may
    be unclosed (closing line None), and nothing after it is a fence."""
    index = 0
    while index < len(lines):
        opener = _FENCE_OPEN.match(lines[index])
        if opener is None:
            index += 1
            continue
        fence = opener.group("fence")
        closer = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = next((k for k in range(index + 1, len(lines)) if closer.match(lines[k])), None)
        yield index, end, opener.group("id")
        if end is None:
            return
        index = end + 1



SYNTAX_FIX = "check the {{ }} and {% %} on that line; Jinja comments are {## ... ##}"
INNERMOST_BLOCK = re.compile(r"innermost block that needs to be closed is '(\w+)'")


_BLOCK_TAG = re.compile(r"\{%-?\s*(\w+)([^%]*)%\}")
_OPENERS = {"if", "for", "macro", "call", "filter", "with", "block", "raw", "autoescape", "set"}


def unclosed_block_line(source: str, block: str) -> int | None:
    """The line of the last ``{% block %}`` of that kind that no ``{% endblock %}`` closes."""
    stack: list[tuple[str, int]] = []
    for tag in _BLOCK_TAG.finditer(source):
        name, rest = tag.group(1), tag.group(2)
        if name == "set" and "=" in rest:
            continue  # {% set x = 1 %} is whole; only {% set x %}...{% endset %} opens a block
        if name.startswith("end"):
            for index in range(len(stack) - 1, -1, -1):
                if stack[index][0] == name[3:]:
                    del stack[index:]
                    break
        elif name in _OPENERS:
            stack.append((name, source.count("\n", 0, tag.start()) + 1))
    return next((line for name, line in reversed(stack) if name == block), None)


def syntax_problem(message: str) -> tuple[str, str]:
    """Jinja2's syntax error as the writer can act on it. A block left open inside an example meets the
    {% endwith %} pnp puts at the example's end (see bind_example_results): a tag never written."""
    innermost = INNERMOST_BLOCK.search(message)
    if "unknown tag 'endwith'" in message and innermost:
        block = innermost.group(1)
        return (f"the {{% {block} %}} opened in this example is not closed before the example ends",
                f"add {{% end{block} %}} before the example's closing line")
    return f"template syntax error: {message}", SYNTAX_FIX



_USUAL_JINJA_COMMENT = re.compile(r"\{#(?!#)[^}\n]*#\}")


def jinja_comments(source: str, path: Path) -> list[Diagnostic]:
    """``{# 訳注 #}``, Jinja's usual comment, which a rule text prints as it is: there ``{#`` begins a
    heading id, so its comments are ``{## ##}``. Anyone who knows Jinja writes the usual one."""
    return [Diagnostic(Level.WARNING, f"{match.group(0)[:40]!r} prints as it is: in a rule text a comment is "
                       "{## ... ##}, since {#id} is a heading id", path, source.count("\n", 0, match.start()) + 1,
                       "write {## ... ##}, or <!-- ... --> for a note to translators")
            for match in _USUAL_JINJA_COMMENT.finditer(source)]


_FULL_WIDTH_PLACEHOLDER = re.compile(r"｛[｛{][^｝}\n]*[｝}]｝|\{｛[^｝}\n]*[｝}]｝|｛[｛{][^｝}\n]*\}\}")
_FULL_WIDTH_HEADING = re.compile(r"^[ \t]*＃[＃#]*[ \t\u3000]", re.MULTILINE)


def full_width_marks(source: str, path: Path) -> list[Diagnostic]:
    """``｛｛ players.min ｝｝`` and ``＃＃ 準備``, as a Japanese input method types them, print as written: the
    placeholder was never filled in, and the heading (its section with it) was body text. Said, not guessed at."""
    found = []
    for match in _FULL_WIDTH_PLACEHOLDER.finditer(source):
        inner = match.group(0).strip("｛｝{} ")
        found.append(Diagnostic(Level.WARNING, f"{match.group(0)[:40]!r} prints as it is: full-width braces make no "
                                "placeholder", path, source.count("\n", 0, match.start()) + 1,
                                f"write it with half-width braces: {{{{ {inner} }}}}"))
    for match in _FULL_WIDTH_HEADING.finditer(source):
        line_end = source.find("\n", match.start())
        line = source[match.start(): line_end if line_end >= 0 else len(source)].strip()
        marks = len(line) - len(line.lstrip("＃#"))
        found.append(Diagnostic(Level.WARNING, f"{line[:40]!r} is body text, not a heading: its ＃ is full-width", path,
                                source.count("\n", 0, match.start()) + 1,
                                f"write the heading with half-width #: {'#' * marks} {line.lstrip('＃# ')[:30]}"))
    return found



def example_lines(source: str) -> dict[int, str]:
    """Line -> the id of the example fence it is inside (the fence lines included)."""
    lines = source.split("\n")
    return {number + 1: example_id for start, end, example_id in _example_fences(lines)
            for number in range(start, (len(lines) - 1 if end is None else end) + 1)}



#: placeholders, statements and Jinja comments; a placeholder left unclosed (the syntax error) to the end
#: of its line, so what it swallowed is not taken for prose
#: a macro's (or a call block's) body prints only where it is called: blanked whole, or the text between
#: its placeholders ("の" in Take Over That Job's card-name macro) read as text before the first heading
_TEMPLATE_CODE = re.compile(r"\{%-?\s*(macro|call)\b.*?\{%-?\s*end\1\s*-?%\}"
                            r"|\{\{(?:(?!\{\{).)*?\}\}|\{%.*?%\}|\{##.*?##\}|\{\{[^\n]*", re.DOTALL)


def without_template_code(source: str) -> str:
    """The rule text with its placeholders, statements and comments blanked, lines kept: what a text
    that cannot be rendered (a syntax error) still says about its headings, ids and example blocks."""
    return _TEMPLATE_CODE.sub(blank, source)


def blank(match: re.Match[str]) -> str:
    """A matched span as spaces, its line breaks kept: offsets and line numbers stay true."""
    return re.sub(r"[^\n]", " ", match.group(0))

"""What a reader sees of a raw rule text: prose without template code, and the numbers in it.

The translation check compares languages by these (placeholders, literal
numbers); the player check looks for names in the prose. Kept apart from the
section bookkeeping in translation_records.py and the checks in translations.py.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from pnp.compose.markdown import ID_PATTERN
from pnp.compose.template import blank, without_template_code

_PLACEHOLDER = re.compile(r"\{\{((?:(?!\{\{).)*?)\}\}", re.DOTALL)  # an unclosed {{ does not swallow the next one
_STATEMENT = re.compile(r"\{%.*?%\}", re.DOTALL)
_JINJA_COMMENT = re.compile(r"\{##.*?##\}", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING_ID = re.compile(rf"\{{#{ID_PATTERN}\}}")
_EXAMPLE_FENCE = re.compile(r"^(\s*(?:`{3,}|~{3,})\s*example)\s+(\S+)", re.MULTILINE)
_LIST_MARKER = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def prose(text: str) -> str:
    """The words a reader sees, without placeholders, statements, comments, ids and example ids."""
    text = _EXAMPLE_FENCE.sub(r"\1", text)
    for pattern in (_PLACEHOLDER, _STATEMENT, _JINJA_COMMENT, _HTML_COMMENT, _HEADING_ID):
        text = pattern.sub(" ", text)
    return text


def prose_in_place(text: str) -> str:
    """:func:`prose` with every removed span blanked in place, so offsets and line numbers still hold."""
    text = _EXAMPLE_FENCE.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)
    text = without_template_code(text)  # placeholders, statements and Jinja comments, as rule_template blanks them
    for pattern in (_HTML_COMMENT, _HEADING_ID):
        text = pattern.sub(blank, text)
    return text


_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}", re.DOTALL)


def placeholders(text: str) -> set[str]:
    """Placeholder expressions (spacing and quote style ignored) and the ids of placed examples. What
    ``{% raw %}`` holds prints as written, braces and all: it is text, no placeholder."""
    found = {_normalise_expression(m.group(1)) for m in _PLACEHOLDER.finditer(_RAW.sub(" ", text))}
    found |= {f"example {m.group(2)}" for m in _EXAMPLE_FENCE.finditer(text)}
    return found


def _normalise_expression(expression: str) -> str:
    return "{{ " + re.sub(r"\s+", "", expression.replace('"', "'")) + " }}"


def numbers(text: str) -> Counter[str]:
    """Literal numbers a reader sees, with how often, after NFKC (full-width １２ = 12); list markers do not count."""
    visible = _LIST_MARKER.sub(" ", prose(text))
    return Counter(_NUMBER.findall(unicodedata.normalize("NFKC", visible)))

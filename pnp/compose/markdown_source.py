"""The Markdown reader of rule texts, and what is read off a text's source: section ids in headings,
notes, and blocks left open that swallow the headings after them.

:mod:`pnp.compose.markdown` makes the printed blocks from what this reads; the translation checks
(which compare sources, not blocks) use it alone. Every syntax tree is built through
:func:`syntax_tree`, which leaves out what nests too deep to build by recursion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode

from pnp.compose.emphasis import use_cjk_friendly_emphasis
from pnp.load.guarded import LIMITS

ID_PATTERN = r"[A-Za-z][A-Za-z0-9_-]*"
HEADING_ID = re.compile(rf"^(?P<title>.*?)\s*\{{#(?P<id>{ID_PATTERN})\}}\s*$", re.DOTALL)


_HTML_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")


def make_markdown() -> MarkdownIt:
    """CommonMark plus GFM tables (built into markdown-it-py); HTML on, so comments can be dropped.

    Emphasis is CJK-friendly, so ``**大切：**全員`` is bold (see pnp/compose/emphasis.py).
    """
    return MarkdownIt("commonmark", {"html": True, "maxNesting": _BLOCK_NESTING}).enable("table") \
        .use(use_cjk_friendly_emphasis)


#: markdown-it stops nesting blocks here (CommonMark preset's own 20, said so): deeper lines are text
_BLOCK_NESTING = 20


def deepest_nesting(tokens: Sequence[Token]) -> int | None:
    """The 0-based line of the first place a rule text nests deeper than ``LIMITS["markdown depth"]``, or
    None. ``maxNesting`` bounds blocks and links, but not emphasis: ``*a *a *a`` ten thousand times nested
    ten thousand deep, and the syntax tree is built by recursion."""
    most, depth = LIMITS["markdown depth"], 0
    for token in tokens:
        depth += token.nesting
        if depth > most:
            return token.map[0] if token.map else 0
        inner = depth
        for child in token.children or ():
            inner += child.nesting
            if inner > most:
                return token.map[0] if token.map else 0
    return None


def syntax_tree(tokens: list[Token]) -> SyntaxTreeNode:
    """markdown-it's tree of ``tokens``, with the inline content that nests too deep to build left out
    (:func:`deepest_nesting`; the rule text's parse reports it at its line)."""
    most, depth = LIMITS["markdown depth"], 0
    for token in tokens:
        depth += token.nesting
        inner = depth
        for child in token.children or ():
            inner += child.nesting
            if inner > most:
                token.children = []
                break
    return SyntaxTreeNode(tokens)


_LEADING_NOTE = re.compile(r"<!--.*?-->")
#: a line that begins (after list, quote or indent markers) with a note closed on it and has text after it
_NOTE_THEN_TEXT = re.compile(r"^[ \t>*+\-\d.)]*<!--.*?-->[ \t]*\S", re.MULTILINE)
_TRAILING_NOTES = re.compile(r"(?:\s*<!--.*?-->)+\s*$", re.DOTALL)
_ID_ATTEMPT = re.compile(r"\{\s*[#＃]\s*(?P<id>[^}]*)\}")


def match_heading_id(content: str) -> re.Match[str] | None:
    """A heading's title and id; notes after the id ("## 概要 {#overview} <!-- 注 -->") are no part of it."""
    return HEADING_ID.match(_TRAILING_NOTES.sub("", content))


def heading_id_problem(content: str) -> tuple[str, str]:
    """Why a heading has no usable section id, and the fix: an id is there more often than not, and
    "has no section id" sent a translator looking for one they had written."""
    attempt = _ID_ATTEMPT.search(content)
    if attempt is None:
        return (f"heading {content!r} has no section id",
                "end it with a stable id shared by every language, e.g. '## Setup {#setup}'")
    written, wanted = attempt.group(0), attempt.group("id").strip()
    cleaned = re.sub(r"^[^A-Za-z]+", "", re.sub(r"[^A-Za-z0-9_-]+", "-", wanted).strip("-")) or "setup"
    if "＃" in written:
        return (f"heading {content!r}: the id {written!r} has a full-width ＃",
                f"write it with a plain #: {{#{cleaned}}}")
    if not re.fullmatch(ID_PATTERN, wanted):
        return (f"heading {content!r}: {wanted!r} is no section id: an id starts with a Latin letter (a-z), then "
                "Latin letters, digits, '-' or '_'", f"write, e.g., {{#{cleaned}}}, the same in every language")
    return (f"heading {content!r}: its id {written!r} must end the heading",
            f"move what follows it ({content[attempt.end():].strip()!r}) before the id")


def notes_moved_after_their_line(md: MarkdownIt, text: str) -> str:
    """``<!-- 訳注 -->ゼロのカードは…``: a line that begins with a note is, for Markdown, an HTML block
    to the end of the line that closes it, so the sentence after the note vanished from the book. Such a
    note moves to the end of its line, where it is an inline comment, dropped as any other; line numbers
    stay. Only HTML blocks are touched, never code, and a note over several lines is left (and reported)."""
    if not _NOTE_THEN_TEXT.search(text):
        return text  # no line begins with a note and goes on: no second parse of the whole text
    moved = False
    lines = text.split("\n")
    for token in md.parse(text):
        if token.type != "html_block" or not token.map:
            continue
        first = token.content.split("\n", 1)[0]
        note = _LEADING_NOTE.match(first.lstrip())
        if note is None or not first.lstrip()[note.end():].strip():
            continue
        number = token.map[0]
        line = lines[number]
        at = line.find(note.group(0))
        if at >= 0 and "pnp:table" not in note.group(0):
            lines[number] = line[:at] + line[at + len(note.group(0)):].lstrip() + note.group(0)
            moved = True
    return "\n".join(lines) if moved else text


_HEADING_LINE = re.compile(r"^#{1,6}\s+\S")


def swallowed_heading(content: str) -> int | None:
    """The offset (from 0) of the first heading line inside a comment's or code block's text: a note or a
    code block that was never closed, reading the sections after it as its own (they go missing)."""
    return next((offset for offset, text in enumerate(content.split("\n")) if _HEADING_LINE.match(text)), None)


def swallowing_line(text: str) -> int | None:
    """The line of a comment, HTML block or code block left open in ``text`` that runs over a heading."""
    lines = text.split("\n")
    for node in syntax_tree(make_markdown().parse(text)).walk(include_self=False):
        if not node.map or swallowed_heading(node.content) is None:
            continue
        if (node.type == "html_block" and left_open(node)) or (node.type == "fence" and not fence_closed(node, lines)):
            return node.map[0] + 1
    return None


def html_tag(content: str) -> str:
    tag = _HTML_TAG.match(content.lstrip())
    return tag.group(1).lower() if tag else "HTML"


def left_open(block: SyntaxTreeNode) -> bool:
    """Whether an HTML block ran on past where its writer meant it to end. A comment never closed ends at
    the next note's --> (so it holds a second <!--) or at the end of the text; a <pre> (or <script>,
    <style>, <textarea>) at its end tag. A section commented out whole, or a <pre> holding a line that
    looks like a heading, is closed where it was meant to be."""
    content = block.content.lstrip()
    if content.startswith("<!--"):
        return "-->" not in content or content.count("<!--") > 1
    return f"</{html_tag(content)}" not in content.lower()


def fence_closed(fence: SyntaxTreeNode, lines: Sequence[str]) -> bool:
    """markdown-it runs an unclosed fence to the end of the text; only its last line tells."""
    if not fence.map or fence.map[1] - 1 <= fence.map[0] or fence.map[1] > len(lines):
        return False
    closer = re.compile(rf"^\s*{re.escape(fence.markup[0])}{{{len(fence.markup)},}}\s*$")
    return bool(closer.match(lines[fence.map[1] - 1]))

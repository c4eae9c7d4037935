"""Rule texts, step two: rendered Markdown parsed into blocks (:mod:`pnp.compose.blocks`).

CommonMark with GFM tables, through markdown-it-py. Every heading carries a section id shared by all
languages (``## Setup {#setup}``); an aid table is an HTML comment the ``table()`` placeholder
writes; an ``example <id>`` fence places a worked example. What a printed rulebook cannot show (raw
HTML, images, a heading inside a list) is reported at its line, not silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode

from pnp.compose.blocks import (
    AidTableRef,
    Block,
    ExampleRef,
    Heading,
    ListBlock,
    Paragraph,
    Preformatted,
    Quote,
    Rule,
    Runs,
    TableBlock,
)
from pnp.compose.emphasis import use_cjk_friendly_emphasis
from pnp.diagnostics import Report
from pnp.load.guarded import LIMITS
from pnp.model.runs import Text, is_cjk

ID_PATTERN = r"[A-Za-z][A-Za-z0-9_-]*"
HEADING_ID = re.compile(rf"^(?P<title>.*?)\s*\{{#(?P<id>{ID_PATTERN})\}}\s*$", re.DOTALL)
_TABLE_MARKER = re.compile(rf"^<!--\s*pnp:table\s+(?P<id>{ID_PATTERN}|\S*)\s*-->\s*$")
_EXAMPLE_INFO = re.compile(r"^example(?:\s+(?P<id>\S+))?\s*$")
_HTML_COMMENT = re.compile(r"^\s*<!--.*-->\s*$", re.DOTALL)
_HTML_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
_TOO_DEEP_HEADING = re.compile(r"^#{7,}(?:[ \t]|$)")


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


_EXAMPLE_OPENER = re.compile(r"^\s*(`{3,}|~{3,})\s*example\b")
#: lists, quotes and example panels one inside another: each indents its content, and past this many
#: an A5 page's text was narrower than nothing (reportlab's "negative availWidth", and the build died)
MOST_NESTED = 6


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


class _Parser:
    """Turns markdown-it's syntax tree into blocks, reporting what a printed rulebook cannot show."""

    def __init__(self, path: Path, report: Report, example_ids: set[str] | None, table_ids: set[str] | None) -> None:
        self.path = path
        self.report = report
        self.example_ids = example_ids
        self.table_ids = table_ids
        self.md = make_markdown()
        self.seen_sections: dict[str, int] = {}
        self.lines: list[str] = []
        self.depth = 0  # lists, quotes and example panels around the block being read

    def parse(self, text: str, line_offset: int = 0, top: bool = True) -> list[Block]:
        text = notes_moved_after_their_line(self.md, text)
        if top:
            self.lines = text.split("\n")
        tokens = self.md.parse(text)
        too_deep = deepest_nesting(tokens)
        if too_deep is not None:  # the syntax tree is built by recursion: that paragraph is left out
            self.report.error(f"Markdown nests more than {LIMITS['markdown depth']} levels deep here (lists, quotes, "
                              "emphasis, links)", self.path, too_deep + 1 + line_offset,
                              "close the * and _ and [ left open, or flatten the list")
        tree = syntax_tree(tokens)
        blocks: list[Block] = []
        for node in tree.children:
            blocks.extend(self.block(node, line_offset, top))
        return blocks

    def line(self, node: SyntaxTreeNode, offset: int) -> int:
        return (node.map[0] if node.map else 0) + 1 + offset

    def block(self, node: SyntaxTreeNode, offset: int, top: bool) -> list[Block]:
        line = self.line(node, offset)
        kind = node.type
        if kind == "heading":
            return [self.heading(node, line, top)]
        if kind == "paragraph":
            if node.children and _TOO_DEEP_HEADING.match(node.children[0].content):
                self.report.warning("seven or more # make no heading in Markdown: this line prints as text, "
                                    "#s and all", self.path, line,
                                    "use at most ###### (a rulebook rarely needs more than ####), or remove the #s")
            runs = self.inline(node.children[0], line) if node.children else ()
            return [Paragraph(runs, line)] if runs else []
        if kind in ("bullet_list", "ordered_list", "blockquote") and self.depth >= MOST_NESTED:
            if self.depth == MOST_NESTED:  # once, at the first level too deep; what is inside is not read
                self.report.error(f"lists and quotes nest more than {MOST_NESTED} deep here: a printed page has "
                                  "no room to indent them further", self.path, line,
                                  "flatten the list, or make its inner levels paragraphs")
            return []
        if kind in ("bullet_list", "ordered_list"):
            with self.nested():
                items = tuple(tuple(b for child in item.children for b in self.block(child, offset, False))
                              for item in node.children)
            start = int(node.attrs.get("start", 1)) if kind == "ordered_list" else 1
            return [ListBlock(kind == "ordered_list", start, items, line)]
        if kind == "table":
            return [self.table(node, line, offset)]
        if kind == "fence":
            return [self.fence(node, line, offset)]
        if kind == "code_block":
            return [Preformatted(node.content.rstrip("\n"), line)]
        if kind == "blockquote":
            with self.nested():
                body = tuple(b for child in node.children for b in self.block(child, offset, False))
            return [Quote(body, line)]
        if kind == "hr":
            return [Rule(line)]
        if kind == "html_block":
            return self.html_block(node, line)
        self.report.warning(f"Markdown element {kind!r} is not printed", self.path, line)
        return []

    def heading(self, node: SyntaxTreeNode, line: int, top: bool) -> Heading:
        level = int(node.tag[1])
        content = node.children[0].content if node.children else ""
        match = match_heading_id(content)
        if not top:
            self.report.error("a heading inside a list, quote or example cannot start a section", self.path, line,
                              "move the heading out, or make it bold text")
        if match is None:
            message, fix = heading_id_problem(content)
            self.report.error(message, self.path, line, fix)
            section, title = "", content
        else:
            section, title = match.group("id"), match.group("title")
            if section in self.seen_sections:
                self.report.error(f"section id {section!r} is used twice (first at line "
                                  f"{self.seen_sections[section]})", self.path, line, "give each heading its own id")
            self.seen_sections.setdefault(section, line)
        runs = self.inline_text(title, line)
        return Heading(level, runs, section, line)

    def inline_text(self, text: str, line: int) -> Runs:
        tokens = self.md.parseInline(text)
        if not tokens:
            return ()
        return self.inline(SyntaxTreeNode(tokens).children[0], line)

    def table(self, node: SyntaxTreeNode, line: int, offset: int) -> TableBlock:
        header: list[Runs] = []
        rows: list[tuple[Runs, ...]] = []
        aligns: list[str] = []
        for section in node.children:
            for row in section.children:
                cells = []
                for cell in row.children:
                    cells.append(self.inline(cell.children[0], line) if cell.children else ())
                    if section.type == "thead":
                        style = str(cell.attrs.get("style", ""))
                        aligns.append("right" if "right" in style else "center" if "center" in style else "left")
                if section.type == "thead":
                    header = cells
                else:
                    rows.append(tuple(cells))
                    self._check_row_width(row, len(header), offset)
        return TableBlock(tuple(header), tuple(rows), tuple(aligns), line)

    def _check_row_width(self, row: SyntaxTreeNode, columns: int, offset: int) -> None:
        """A row with more cells than the header has columns: GFM drops the extra ones without a word,
        and the printed table would lack them (a cell added to a translation, a stray ``|``)."""
        row_line = self.line(row, offset)
        if not row.map or row_line > len(self.lines):
            return
        written = _cells_written(self.lines[row_line - 1])
        if written > columns:
            extra = written - columns
            dropped = "the last cell" if extra == 1 else f"the last {extra} cells"
            self.report.warning(f"this table row has {written} cells but the table has {columns} "
                                f"column{'s' if columns > 1 else ''}: {dropped} would not be printed",
                                self.path, row_line,
                                "add the column to the header and the --- line, or remove the extra cells "
                                "(a | inside a cell is written \\|)")

    def fence(self, node: SyntaxTreeNode, line: int, offset: int) -> Block:
        info = node.info.strip()
        example = _EXAMPLE_INFO.match(info)
        if example is None:
            swallowed = swallowed_heading(node.content)
            if swallowed is not None and not self._fence_closed(node):
                self.report.error(f"this code block runs over the heading on line {line + 1 + swallowed}: it is "
                                  "never closed", self.path, line, f"end it with a line holding only {node.markup}")
            return Preformatted(node.content.rstrip("\n"), line)
        example_id = example.group("id") or ""
        if not example_id:
            self.report.error("an example block needs the example's id: ```example <id>", self.path, line)
        elif self.example_ids is not None and example_id not in self.example_ids:  # None: unreadable (reported)
            known = ", ".join(sorted(self.example_ids)) or "none"
            self.report.error(f"example {example_id!r} does not exist in examples.toml", self.path, line,
                              f"use one of: {known}")
        if offset == 0 and not self._fence_closed(node):
            self.report.error("the example block is never closed", self.path, line,
                              f"end it with a line holding only {node.markup}")
        if "{{" in node.content or "{%" in node.content:  # rendered text: only {% raw %} leaves them
            self.report.error("this example's placeholders would print as written, {{ and all: it is inside "
                              "{% raw %}", self.path, line, "move the example out of the {% raw %} block")
        for number, inner in enumerate(node.content.split("\n"), start=line + 1):
            # the next example's opening line read as text of this one: this one's closing line is missing,
            # and the next example's closing line closes it (its wording, and the figure of the wrong example)
            if _EXAMPLE_OPENER.match(inner):
                self.report.error(f"an example block opens inside the one of line {line}, which is never closed",
                                  self.path, number, f"end the example of line {line} with a line holding only "
                                  f"{node.markup}")
                break
        if self.depth >= MOST_NESTED:  # each example's body is parsed again, by recursion: not past this
            if self.depth == MOST_NESTED:
                self.report.error(f"examples, lists and quotes nest more than {MOST_NESTED} deep here",
                                  self.path, line, "close each example before the next one opens")
            return ExampleRef(example_id, (), line)
        with self.nested():
            body = tuple(self.parse(node.content, line_offset=line, top=False))
        return ExampleRef(example_id, body, line)

    @contextmanager
    def nested(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def _fence_closed(self, node: SyntaxTreeNode) -> bool:
        return _closed(node, self.lines)

    def html_block(self, node: SyntaxTreeNode, line: int) -> list[Block]:
        content = node.content.strip()
        marker = _TABLE_MARKER.match(content)
        if marker:
            table_id = marker.group("id")
            if self.table_ids is not None and table_id not in self.table_ids:
                known = ", ".join(sorted(self.table_ids)) or "none"
                self.report.error(f"there is no aid table {table_id!r}", self.path, line,
                                  f"tables this game's rules compute: {known}")
            return [AidTableRef(table_id, line)]
        swallowed = swallowed_heading(node.content) if _left_open(node) else None
        if content.startswith("<!--") and swallowed is not None:
            self.report.error(f"this comment runs over the heading on line {line + swallowed}: it is not closed "
                              "where it should be", self.path, line, "end the note with --> before the heading")
        elif swallowed is not None:  # <pre>, <script>, <style> and <textarea> run until their end tag
            name = _html_tag(content)
            self.report.error(f"this <{name}> block runs over the heading on line {line + swallowed}: it is never "
                              "closed, and raw HTML is not printed, so the sections after it would go missing",
                              self.path, line, f"close it with </{name}> before the heading, or remove it")
        elif content.startswith("<!--") and "pnp:table" in content:  # the marker's --> ended the note
            hidden = next(offset for offset, text in enumerate(node.content.split("\n")) if "pnp:table" in text)
            self.report.error(f"this comment is not closed before the aid table on line {line + hidden}, which it "
                              "would hide", self.path, line, "end the note with --> before the table")
        elif content.startswith("<!--") and "-->" not in content:
            self.report.error("this comment is never closed: the rest of the rule text would not print",
                              self.path, line, "end the note with -->")
        elif content.startswith("<!--") and content.split("-->", 1)[1].strip():
            closing = line + content.split("-->", 1)[0].count("\n")
            self.report.error(f"the text after this note's --> on line {closing} would not print: Markdown "
                              "reads a line that begins with a note as part of it", self.path, line,
                              "start the text on a line of its own, or put the note after it")
        elif not _HTML_COMMENT.match(content):
            self.report.warning("raw HTML is not printed in a rulebook", self.path, line,
                                "use Markdown, or an HTML comment <!-- --> for notes to translators")
        return []

    def inline(self, node: SyntaxTreeNode, line: int) -> Runs:
        runs: list[Text] = []
        self._inline_children(node.children, "regular", runs, line)
        return _merge(_join_soft_breaks(runs))

    def _inline_children(self, nodes: Sequence[SyntaxTreeNode], style: str, runs: list[Text], line: int) -> None:
        for child in nodes:
            kind = child.type
            if kind in ("text", "code_inline"):
                runs.append(Text(child.content, style))
            elif kind in ("strong", "em"):
                # the fonts have no italic: emphasis is set bold, as Japanese typesetting usually does
                self._inline_children(child.children, "bold", runs, line)
            elif kind == "softbreak":
                runs.append(Text(_SOFT_BREAK, style))
            elif kind == "hardbreak":
                runs.append(Text("\n", style))
            elif kind == "link":
                self._inline_children(child.children, style, runs, line)
                href = str(child.attrs.get("href", ""))
                label = "".join(c.content for c in child.children if c.type == "text")
                if href.startswith(("http://", "https://")) and href != label:
                    runs.append(Text(f" ({href})", style))
            elif kind == "html_inline":
                if _TABLE_MARKER.match(child.content):
                    self.report.error("{{ table(...) }} must stand on a line of its own", self.path, line,
                                      "put a blank line before and after it")
                elif not _HTML_COMMENT.match(child.content):
                    self.report.warning("raw HTML is not printed in a rulebook", self.path, line)
            elif kind == "image":
                self.report.warning("images in rule texts are not printed yet", self.path, line)
            else:
                self._inline_children(child.children, style, runs, line)


_SOFT_BREAK = "\u2028"  # a placeholder: a soft break is a space in English and nothing between Japanese characters


def _join_soft_breaks(runs: list[Text]) -> list[Text]:
    result: list[Text] = []
    for index, run in enumerate(runs):
        if run.text != _SOFT_BREAK:
            result.append(run)
            continue
        before = next((r.text[-1] for r in reversed(runs[:index]) if r.text and r.text != _SOFT_BREAK), "")
        after = next((r.text[0] for r in runs[index + 1:] if r.text and r.text != _SOFT_BREAK), "")
        # Japanese puts no space where a source line breaks, even before a digit or a Latin word
        # ("です。\n6人" is one sentence run on): drop it when either neighbour is CJK
        result.append(Text("" if (before and is_cjk(before)) or (after and is_cjk(after)) else " ", run.style))
    return result


def _merge(runs: list[Text]) -> Runs:
    merged: list[Text] = []
    for run in runs:
        if not run.text:
            continue
        if merged and merged[-1].style == run.style:
            merged[-1] = Text(merged[-1].text + run.text, run.style)
        else:
            merged.append(run)
    return tuple(merged)


_HEADING_LINE = re.compile(r"^#{1,6}\s+\S")


_ROW_PREFIX = re.compile(r"^\s*(?:>\s?)*")  # a quote's markers before a table row
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")  # a | not escaped as \|


def _cells_written(line: str) -> int:
    """The cells of a table row's source line as GFM splits it (the outer pipes are optional)."""
    cells = _CELL_SEPARATOR.split(_ROW_PREFIX.sub("", line).strip())
    if cells and not cells[0].strip():
        cells.pop(0)
    if cells and not cells[-1].strip():
        cells.pop()
    return len(cells)


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
        if (node.type == "html_block" and _left_open(node)) or (node.type == "fence" and not _closed(node, lines)):
            return node.map[0] + 1
    return None


def _html_tag(content: str) -> str:
    tag = _HTML_TAG.match(content.lstrip())
    return tag.group(1).lower() if tag else "HTML"


def _left_open(block: SyntaxTreeNode) -> bool:
    """Whether an HTML block ran on past where its writer meant it to end. A comment never closed ends at
    the next note's --> (so it holds a second <!--) or at the end of the text; a <pre> (or <script>,
    <style>, <textarea>) at its end tag. A section commented out whole, or a <pre> holding a line that
    looks like a heading, is closed where it was meant to be."""
    content = block.content.lstrip()
    if content.startswith("<!--"):
        return "-->" not in content or content.count("<!--") > 1
    return f"</{_html_tag(content)}" not in content.lower()


def _closed(fence: SyntaxTreeNode, lines: Sequence[str]) -> bool:
    """markdown-it runs an unclosed fence to the end of the text; only its last line tells."""
    if not fence.map or fence.map[1] - 1 <= fence.map[0] or fence.map[1] > len(lines):
        return False
    closer = re.compile(rf"^\s*{re.escape(fence.markup[0])}{{{len(fence.markup)},}}\s*$")
    return bool(closer.match(lines[fence.map[1] - 1]))


def parse_rule_text(text: str, path: Path, report: Report, example_ids: set[str] | None,
                    table_ids: set[str] | None) -> list[Block]:
    """Blocks of an already rendered rule text; problems go to ``report`` with this file's lines.

    ``table_ids`` None: the aid tables are unknown (rules.toml has errors, reported there), so a
    table marker is not checked against them."""
    parser = _Parser(path, report, example_ids, table_ids)
    blocks = parser.parse(text)
    first = next(iter(blocks), None)
    if first is not None and not isinstance(first, Heading):
        report.error("text before the first heading belongs to no section", path, first.line,
                     "start the file with a heading that has a section id, e.g. '## Overview {#overview}'")
    return blocks

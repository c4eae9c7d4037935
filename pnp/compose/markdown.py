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
from pnp.compose.markdown_source import (
    ID_PATTERN,
    deepest_nesting,
    fence_closed,
    heading_id_problem,
    html_tag,
    left_open,
    make_markdown,
    match_heading_id,
    notes_moved_after_their_line,
    swallowed_heading,
    syntax_tree,
)
from pnp.diagnostics import Report
from pnp.load.guarded import LIMITS
from pnp.model.runs import Text, is_cjk

_TABLE_MARKER = re.compile(rf"^<!--\s*pnp:table\s+(?P<id>{ID_PATTERN}|\S*)\s*-->\s*$")
_EXAMPLE_INFO = re.compile(r"^example(?:\s+(?P<id>\S+))?\s*$")
_HTML_COMMENT = re.compile(r"^\s*<!--.*-->\s*$", re.DOTALL)
_TOO_DEEP_HEADING = re.compile(r"^#{7,}(?:[ \t]|$)")


_EXAMPLE_OPENER = re.compile(r"^\s*(`{3,}|~{3,})\s*example\b")
#: lists, quotes and example panels one inside another: each indents its content, and past this many
#: an A5 page's text was narrower than nothing (reportlab's "negative availWidth", and the build died)
MOST_NESTED = 6


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
        return fence_closed(node, self.lines)

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
        swallowed = swallowed_heading(node.content) if left_open(node) else None
        if content.startswith("<!--") and swallowed is not None:
            self.report.error(f"this comment runs over the heading on line {line + swallowed}: it is not closed "
                              "where it should be", self.path, line, "end the note with --> before the heading")
        elif swallowed is not None:  # <pre>, <script>, <style> and <textarea> run until their end tag
            name = html_tag(content)
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

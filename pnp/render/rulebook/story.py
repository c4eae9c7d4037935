"""A rule text's blocks turned into Platypus flowables: headings, paragraphs, lists, tables and
worked-example panels with their card figures.

Headings stay with what follows them and go into the PDF outline. A panel's wording sits beside a
small figure when it is short, under it otherwise; any part taller than a page is cut into rows
that may break, so no content can stop a build.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
    Table,
)
from reportlab.platypus.flowables import HRFlowable

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
    plain,
)
from pnp.model.game import Example, Game
from pnp.model.runs import Text
from pnp.render.rulebook.card_art import CardArt
from pnp.render.rulebook.figure_specs import example_figure
from pnp.render.rulebook.figures import FigureFlowable
from pnp.render.rulebook.style import (
    CELL_PADDING,
    EXAMPLE_TINT,
    RULE_GREY,
    RULEBOOK_FILL_FROM,
    RulebookStyles,
    aid_table_flowables,
    apply_style,
    grid_table,
    has_tall_row,
    regular,
    stack_height,
)
from pnp.render.text.fonts import FontSet
from pnp.render.text.paragraph import BodyStyle, KinsokuParagraph
from pnp.rules.base import AidTable

SIDE_FIGURE_SHARE = 0.38  # of the panel's width, for figures set beside their wording
PANEL_ROW_LINES = 12  # a panel paragraph longer than this is cut into rows, so the panel can break inside it


class HeadingParagraph(KinsokuParagraph):
    """A heading that stays with what follows it and appears in the PDF outline."""

    def __init__(self, runs: Runs, style: BodyStyle, fontset: FontSet, key: str, level: int,
                 outline: bool) -> None:
        super().__init__(runs, style, fontset)
        self.keepWithNext = 1
        self.key = key
        self.level = level
        self.outline = outline
        self.title = plain(runs)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return []  # a heading is never cut in two: it moves to the next page whole

    def draw(self) -> None:
        if self.outline:
            self.canv.bookmarkHorizontal(self.key, 0, self.height)
            self.canv.addOutlineEntry(self.title, self.key, self.level, closed=False)
        super().draw()


@dataclass
class StoryContext:
    """What turning blocks into flowables needs besides the blocks."""

    game: Game
    fontset: FontSet
    styles: RulebookStyles
    art: CardArt
    tables: Mapping[str, AidTable]
    examples: Mapping[str, Example]
    results: Mapping[str, Any]
    outline: bool = True
    _outline_base: int | None = None  # the shallowest heading level so far
    _outline_last: int = -1  # the outline level of the heading before

    def outline_level(self, level: int) -> int:
        """PDF outlines may not skip a level (reportlab refuses, and the build died): a document starting
        at '##' starts at level 0, and a heading more than one level below the one before ('####' under
        '##') sits one level below it."""
        self._outline_base = level if self._outline_base is None else min(self._outline_base, level)
        self._outline_last = min(level - self._outline_base, self._outline_last + 1)
        return self._outline_last


def flowables_for(blocks: Sequence[Block], ctx: StoryContext, width: float) -> list[Flowable]:
    flowables: list[Flowable] = []
    for index, block in enumerate(blocks):
        made = _flowables_for(block, ctx, width)
        for flowable in made:  # the rule text's line, for an error about this part (PageCountingDoc)
            if not hasattr(flowable, "source_line"):
                flowable.source_line = block.line
        if made and _leads_in(block, blocks[index + 1] if index + 1 < len(blocks) else None):
            made[-1].keepWithNext = 1
        flowables.extend(made)
    return flowables


LEAD_IN_ENDS = (":", "：")
INTRODUCED = (TableBlock, AidTableRef, ListBlock, ExampleRef)


def _leads_in(block: Block, following: Block | None) -> bool:
    """A paragraph ending in a colon introduces the table, list or example after it, and stays on its page:
    "There are 6 set elements:" ended a page whose next began with the table."""
    return (isinstance(block, Paragraph) and isinstance(following, INTRODUCED)
            and plain(block.runs).rstrip().endswith(LEAD_IN_ENDS))


def _flowables_for(block: Block, ctx: StoryContext, width: float) -> list[Flowable]:
    styles, fontset = ctx.styles, ctx.fontset
    if isinstance(block, Heading):
        style = styles.heading(block.level)
        runs = tuple(Text(run.text, "bold") for run in block.runs)
        level = ctx.outline_level(block.level)
        return [HeadingParagraph(runs, style, fontset, f"section-{block.section}", level, ctx.outline)]
    if isinstance(block, Paragraph):
        return [KinsokuParagraph(block.runs, styles.body, fontset)]
    if isinstance(block, ListBlock):
        return _list_flowables(block, ctx, width)
    if isinstance(block, TableBlock):
        rows = [block.header, *block.rows]
        return [grid_table(rows, fontset, styles.table, width, block.aligns), Spacer(1, styles.body.space_after)]
    if isinstance(block, AidTableRef):
        table = ctx.tables.get(block.table)
        return aid_table_flowables(table, fontset, styles, width, fill_from=RULEBOOK_FILL_FROM) if table else []
    if isinstance(block, ExampleRef):
        return [_example_panel(block, ctx, width)]
    if isinstance(block, Quote):
        return [_boxed(flowables_for(block.body, ctx, width - 5 * CELL_PADDING), width, EXAMPLE_TINT, ctx.fontset)]
    if isinstance(block, Preformatted):
        return [KinsokuParagraph(regular(block.text), styles.body, fontset)]
    if isinstance(block, Rule):
        return [HRFlowable(width="100%", thickness=0.5, color=RULE_GREY, spaceBefore=4, spaceAfter=8)]
    raise TypeError(f"no typesetting for block {block!r}")


def _list_flowables(block: ListBlock, ctx: StoryContext, width: float) -> list[Flowable]:
    """One borderless two-column table per item: marker, then the item, so a long list breaks between items."""
    styles = ctx.styles
    marker_width = styles.body.font_size * (2.2 if block.ordered else 1.4)
    flowables: list[Flowable] = []
    for index, item in enumerate(block.items):
        marker = f"{block.start + index}." if block.ordered else "•"
        marker_style = replace(styles.body, alignment="left", space_after=0.0, space_before=0.0)
        content = flowables_for(item, ctx, width - marker_width)
        if content and isinstance(content[-1], KinsokuParagraph):
            last = content[-1]
            content[-1] = KinsokuParagraph(last.runs, replace(last.style, space_after=styles.body.space_after * 0.4),
                                           ctx.fontset)
        cells = [[KinsokuParagraph(regular(marker), marker_style, ctx.fontset), content]]
        widths = [marker_width, width - marker_width]
        table = Table(cells, colWidths=widths, hAlign="LEFT", splitInRow=int(has_tall_row(cells, widths)))
        apply_style(table, ctx.fontset, [("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                   ("TOPPADDING", (0, 0), (-1, -1), 0),
                                   ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
        flowables.append(table)
    flowables.append(Spacer(1, styles.body.space_after * 0.6))
    return flowables


def _boxed(content: Sequence[Flowable | list[Flowable]], width: float, tint: Color, fontset: FontSet) -> Table:
    """A tinted panel with a rule on its left, one row per item (a flowable, or flowables kept together).

    Platypus splits a table only between rows, so a panel held in one cell moved whole to the next
    page and left the foot of this one empty. With a row per paragraph a long panel continues on the
    next page between paragraphs, tint and rule on both parts; an example's figure is one row with
    its first paragraph, so a figure never ends a page without its explanation.
    """
    rows = [item if isinstance(item, list) else [item] for item in content] or [[Spacer(1, 0)]]
    table = Table([[row] for row in rows], colWidths=[width], hAlign="LEFT")
    # a cell drops the space before its first flowable and after its last: rows carry it as padding
    spacing = [("TOPPADDING", (0, index), (-1, index), row[0].getSpaceBefore())
               for index, row in enumerate(rows) if index > 0]
    spacing += [("BOTTOMPADDING", (0, index), (-1, index), row[-1].getSpaceAfter())
                for index, row in enumerate(rows) if index < len(rows) - 1]
    apply_style(table, fontset, [("BACKGROUND", (0, 0), (-1, -1), tint),
                               ("LINEBEFORE", (0, 0), (0, -1), 2.0, RULE_GREY),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("LEFTPADDING", (0, 0), (-1, -1), 3 * CELL_PADDING),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 2 * CELL_PADDING),
                               *spacing,
                               ("TOPPADDING", (0, 0), (-1, 0), 2 * CELL_PADDING),
                               ("BOTTOMPADDING", (0, -1), (-1, -1), CELL_PADDING)])
    table.spaceBefore = 3.0
    table.spaceAfter = 6.0
    return table


def _example_panel(block: ExampleRef, ctx: StoryContext, width: float) -> Flowable:
    """The cards and the recomputed result, with this language's wording beside or below them."""
    example = ctx.examples.get(block.example)
    inner = width - 5 * CELL_PADDING
    if example is None:
        return _boxed(_panel_wording(block, ctx, inner), width, EXAMPLE_TINT, ctx.fontset)
    spec = example_figure(ctx.game, example, ctx.results.get(example.id))
    if not any(item for row in spec.rows for group in row for item in group):
        # nothing to draw (an end-of-game ruling): the wording takes the whole width
        return _boxed(_panel_wording(block, ctx, inner), width, EXAMPLE_TINT, ctx.fontset)
    figure = FigureFlowable(spec, ctx.art, ctx.fontset, card_width=ctx.styles.card_width,
                            font_size=ctx.styles.body.font_size + 1)
    natural, _ = figure.wrap(inner, 1e6)
    gap = 4 * mm
    # one width for every small figure, so the wording of consecutive examples lines up
    figure_width = max(natural, inner * SIDE_FIGURE_SHARE) + gap
    text_width = inner - figure_width
    side = _panel_wording(block, ctx, text_width) if natural <= inner * 0.45 and len(spec.rows) == 1 else None
    if side is not None and stack_height(side, text_width) <= PANEL_ROW_LINES * ctx.styles.body.leading:
        # beside the figure the wording is one row, which cannot break across pages: only when it is short
        wording = side
        row = Table([[figure, wording]], colWidths=[figure_width, text_width], hAlign="LEFT")
        apply_style(row, ctx.fontset, [("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                 ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
        return _boxed([row], width, EXAMPLE_TINT, ctx.fontset)
    wording = _panel_wording(block, ctx, inner)
    return _boxed([[figure, Spacer(1, 2.5 * mm), *wording[:1]], *wording[1:]], width, EXAMPLE_TINT, ctx.fontset)


def _panel_wording(block: ExampleRef, ctx: StoryContext, width: float) -> list[Flowable]:
    """The example's wording, set once for the width the panel gives it; the panel's padding ends it.

    A panel is a table, which breaks across pages only between rows, and a paragraph is a row: one
    taller than a page stopped the build. Long paragraphs are therefore cut into rows of at most
    PANEL_ROW_LINES lines, which read on as one paragraph (no space between the pieces).
    """
    wording = flowables_for(block.body, ctx, width)
    if wording and isinstance(wording[-1], KinsokuParagraph):
        last = wording[-1]
        wording[-1] = KinsokuParagraph(last.runs, replace(last.style, space_after=0.0), ctx.fontset)
    return [piece for flowable in wording for piece in _in_rows(flowable, width)]


def _in_rows(flowable: Flowable, width: float) -> list[Flowable]:
    if not isinstance(flowable, KinsokuParagraph):
        return [flowable]
    limit = PANEL_ROW_LINES * flowable.style.leading
    pieces = []
    rest = flowable
    while rest.wrap(width, 1e9)[1] > limit:
        head, rest = rest.split(width, limit)
        pieces.append(head)
    return [*pieces, rest]

"""Rulebooks with reportlab Platypus: a title page with credits, then the rule text.

Every string is known before the first page is drawn (rule text, aid tables,
figure labels, card faces, title page), so :func:`prepare_fonts` subsets the
fonts to exactly those characters and refuses a character no font has, naming
it, instead of printing an empty box. All body text is set by
:class:`KinsokuParagraph`, so English words never split and Japanese keeps
kinsoku, in tables and figures alike.

Output is reproducible: ``invariant=1`` fixes the document id and the dates
(reportlab honours SOURCE_DATE_EPOCH), and the file is written atomically.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepInFrame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import HRFlowable

from pnp.diagnostics import DataError, Report
from pnp.model.game import Example, Game
from pnp.render.figures import (
    CardArt,
    CardSlot,
    FigureFlowable,
    FigureSpec,
    example_figure,
    figure_texts,
    make_card_art,
)
from pnp.render.fonts import FontSet, MissingGlyphError, prepare_fonts
from pnp.render.linebreak import PreparedText, Text
from pnp.render.paper import Paper, parse_paper
from pnp.render.paragraph import BodyStyle, KinsokuParagraph
from pnp.render.rule_blocks import (
    AidTableRef,
    Block,
    ExampleRef,
    Heading,
    ListBlock,
    Paragraph,
    Preformatted,
    Quote,
    Rule,
    RuleText,
    Runs,
    TableBlock,
    plain,
)
from pnp.render.ruletext import require_rule_text
from pnp.render.textbox import make_measure
from pnp.rules.base import AidTable, GameRules
from pnp.write.atomic import atomic_write

GREY = HexColor("#5f5f5f")
RULE_GREY = HexColor("#b8b8b8")
TABLE_HEADER = HexColor("#ececec")
EXAMPLE_TINT = HexColor("#f4f4f0")
DEFAULT_INK = "#1d3557"
CELL_PADDING = 3.0
SIDE_FIGURE_SHARE = 0.38  # of the panel's width, for figures set beside their wording


# ---------------------------------------------------------------------------------------------------------------
# Styles


@dataclass(frozen=True)
class RulebookStyles:
    """Sizes for one page size and language; Japanese gets more leading, as its lines are denser."""

    body: BodyStyle
    small: BodyStyle
    table: BodyStyle
    headings: Mapping[int, BodyStyle]
    title: BodyStyle
    subtitle: BodyStyle
    margin: float  # points, all four sides
    footer: float  # font size of the page footer
    card_width: float  # largest card width in example figures
    ink: Color  # headings and rules

    @staticmethod
    def for_page(page_width: float, lang: str, ink: str = DEFAULT_INK, size: float | None = None) -> RulebookStyles:
        """``size`` overrides the body size the page width would choose (aids fit their text to the space)."""
        compact = page_width < 160 * mm  # A5 and half-letter booklet pages
        size = size or (9.0 if compact else 10.0)
        ratio = 1.75 if lang in CJK_LANGUAGES else 1.45
        colour = HexColor(ink)
        body = BodyStyle(font_size=size, leading=round(size * ratio, 2), space_after=size * 0.6)
        small = BodyStyle(font_size=size - 1.5, leading=round((size - 1.5) * ratio, 2), space_after=2.0,
                          colour=GREY)
        table = BodyStyle(font_size=size - 1.0, leading=round((size - 1.0) * (ratio - 0.1), 2))
        headings = {
            1: BodyStyle(font_size=size + 8, leading=(size + 8) * 1.3, space_before=size * 1.4, space_after=size * 0.6,
                         colour=colour),
            2: BodyStyle(font_size=size + 5, leading=(size + 5) * 1.3, space_before=size * 1.3, space_after=size * 0.5,
                         colour=colour),
            3: BodyStyle(font_size=size + 2, leading=(size + 2) * 1.35, space_before=size * 0.9,
                         space_after=size * 0.3, colour=colour),
        }
        title = BodyStyle(font_size=30 if not compact else 24, leading=40 if not compact else 32, alignment="center",
                          colour=colour, space_after=6)
        subtitle = BodyStyle(font_size=size + 4, leading=(size + 4) * 1.4, alignment="center", colour=GREY)
        return RulebookStyles(body=body, small=small, table=table, headings=headings, title=title,
                              subtitle=subtitle, margin=(14 if compact else 20) * mm, footer=size - 2,
                              card_width=(12 if compact else 15) * mm, ink=colour)

    def heading(self, level: int) -> BodyStyle:
        return self.headings.get(level, replace(self.headings[3], font_size=self.body.font_size + 0.5,
                                                leading=self.body.leading))


CJK_LANGUAGES = frozenset({"ja", "zh", "ko"})


def ink_of(game: Game) -> str:
    """Headings print in the game's own colour when its palette names one."""
    return game.palette.get("rulebook") or game.palette.get("back") or DEFAULT_INK


def bold(text: str) -> Runs:
    return (Text(text, "bold"),)


def regular(text: str) -> Runs:
    return (Text(text, "regular"),)


# ---------------------------------------------------------------------------------------------------------------
# Tables shared by rulebooks, aid sheets and aid cards


def column_widths(rows: Sequence[Sequence[Runs]], style: BodyStyle, fontset: FontSet, width: float,
                  fill: bool) -> list[float]:
    """Widths that let every cell break only where the line breaker may, within ``width``.

    Each column gets at least its longest unbreakable stretch; what is left
    goes to the columns that would otherwise wrap most. ``fill`` stretches a
    table that fits to the full width, as aid tables look best that way.
    """
    measure = make_measure(fontset, style.font_size)
    columns = max((len(row) for row in rows), default=0)
    natural = [0.0] * columns
    minimum = [0.0] * columns
    for row in rows:
        for index, cell in enumerate(row):
            if not cell:
                continue
            prepared = PreparedText(cell, measure)
            lines = prepared.break_at(1e9)
            natural[index] = max(natural[index], max((line.width for line in lines), default=0.0))
            segments = [seg.body_width for paragraph in prepared.paragraphs for seg in paragraph.segments]
            minimum[index] = max(minimum[index], max(segments, default=0.0))
    pad = 2 * CELL_PADDING + 0.5
    natural = [n + pad for n in natural]
    minimum = [m + pad for m in minimum]
    total = sum(natural)
    if total <= width:
        if not fill:
            return natural
        # stretch only the columns that carry text: a rank column ("1", "K") keeps its natural width
        wide = [i for i in range(columns) if natural[i] > min(natural) * 1.5] or list(range(columns))
        extra = (width - total) / len(wide)
        return [n + extra if i in wide else n for i, n in enumerate(natural)]
    # Columns narrower than a fair share keep their natural width (a "K" or "偶数" column never wraps);
    # the others share what is left in proportion to their natural widths, but never below their minimum.
    widths: list[float | None] = [None] * columns
    while True:
        open_columns = [i for i in range(columns) if widths[i] is None]
        left = width - sum(w for w in widths if w is not None)
        fair = left / max(len(open_columns), 1)
        settled = [i for i in open_columns if natural[i] <= fair]
        if not settled:
            break
        for i in settled:
            widths[i] = natural[i]
    open_columns = [i for i in range(columns) if widths[i] is None]
    left = width - sum(w for w in widths if w is not None)
    share = sum(natural[i] for i in open_columns) or 1.0
    for i in open_columns:
        widths[i] = max(minimum[i], left * natural[i] / share)
    return [w or 0.0 for w in widths]


def grid_table(rows: Sequence[Sequence[Runs]], fontset: FontSet, style: BodyStyle, width: float,
               aligns: Sequence[str] = (), header: bool = True, fill: bool = False,
               first_column_bold: bool = False) -> Table:
    """A ruled table of kinsoku paragraphs; the header repeats on every page the table spans."""
    columns = max((len(row) for row in rows), default=1)
    first_column_bold = first_column_bold and columns > 1  # a one-column table is all "first column"
    styled = [
        [_emboldened(row[col] if col < len(row) else (), (header and r == 0) or (first_column_bold and col == 0))
         for col in range(columns)]
        for r, row in enumerate(rows)
    ]
    widths = column_widths(styled, style, fontset, width, fill)  # measured as drawn: bold is wider
    cells = []
    for row in styled:
        cells_row = []
        for col, runs in enumerate(row):
            align = aligns[col] if col < len(aligns) else "left"
            cell_style = replace(style, alignment=align, space_after=0.0, space_before=0.0)  # type: ignore[arg-type]
            cells_row.append(KinsokuParagraph(runs, cell_style, fontset) if runs else "")
        cells.append(cells_row)
    table = Table(cells, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT",
                  splitInRow=int(_has_tall_row(cells, widths)))
    commands: list[tuple[Any, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.4, RULE_GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), CELL_PADDING * 0.7),
        ("BOTTOMPADDING", (0, 0), (-1, -1), CELL_PADDING * 0.9),
    ]
    if header:
        commands.append(("BACKGROUND", (0, 0), (-1, 0), TABLE_HEADER))
    apply_style(table, fontset, commands)
    return table


def apply_style(table: Table, fontset: FontSet, commands: Sequence[tuple[Any, ...]]) -> None:
    """Table styles name our font too: a table's default cell font is Helvetica, which is never embedded."""
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), fontset.regular), *commands]))


def _emboldened(runs: Runs, make_bold: bool) -> Runs:
    return tuple(Text(run.text, "bold") for run in runs) if make_bold else runs


def aid_table_flowables(table: AidTable, fontset: FontSet, styles: RulebookStyles, width: float,
                        show_title: bool = True) -> list[Flowable]:
    """An aid table as the rules module computed it: title, grid, footnotes."""
    flowables: list[Flowable] = []
    if show_title and table.title:
        title = KinsokuParagraph(bold(table.title), replace(styles.body, space_after=3.0, space_before=4.0),
                                 fontset)
        title.keepWithNext = 1
        flowables.append(title)
    rows = [tuple(regular(c) for c in table.header), *[tuple(regular(c) for c in row) for row in table.rows]]
    flowables.append(grid_table(rows, fontset, styles.table, width, fill=True, first_column_bold=True))
    for note in table.notes:
        flowables.append(KinsokuParagraph(regular(note), replace(styles.small, space_before=2.0), fontset))
    flowables.append(Spacer(1, styles.body.space_after))
    return flowables


def aid_table_texts(tables: Iterable[AidTable]) -> Iterable[str]:
    for table in tables:
        yield table.title
        yield from table.header
        for row in table.rows:
            yield from row
        yield from table.notes


# ---------------------------------------------------------------------------------------------------------------
# Rule text -> flowables


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
    _outline_levels: list[int] = field(default_factory=list)

    def outline_level(self, level: int) -> int:
        """PDF outlines may not skip a level: a document starting at '##' still starts at level 0."""
        if not self._outline_levels:
            self._outline_levels.append(level)
        base = min(self._outline_levels[0], level)
        self._outline_levels[0] = base
        return level - base


def flowables_for(blocks: Sequence[Block], ctx: StoryContext, width: float) -> list[Flowable]:
    flowables: list[Flowable] = []
    for block in blocks:
        flowables.extend(_flowables_for(block, ctx, width))
    return flowables


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
        return aid_table_flowables(table, fontset, styles, width) if table else []
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
        table = Table(cells, colWidths=widths, hAlign="LEFT", splitInRow=int(_has_tall_row(cells, widths)))
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


PANEL_ROW_LINES = 12  # a panel paragraph longer than this is cut into rows, so the panel can break inside it
#: a table row (a list item is one) taller than this may break inside: no page of the smallest paper
#: (A6 booklet pages, from A5) holds it whole. Shorter rows move to the next page whole, as they set best.
TALL_ROW = 300.0  # points


def stack_height(flowables: Sequence[Flowable], width: float) -> float:
    """Height the flowables take in a frame of ``width``, spacing included."""
    total = 0.0
    for index, flowable in enumerate(flowables):
        _, height = flowable.wrap(width, 1e9)
        total += height + flowable.getSpaceAfter() + (flowable.getSpaceBefore() if index else 0.0)
    return total


def _has_tall_row(rows: Sequence[Sequence[object]], widths: Sequence[float]) -> bool:
    """Whether a row would be taller than TALL_ROW: Platypus can split a table only between rows, and a
    row taller than the page stopped the build (a long cell in a rule text's table, a page-long list item)."""
    return any(stack_height([f for f in (cell if isinstance(cell, list | tuple) else [cell])
                             if isinstance(f, Flowable)], width) > TALL_ROW
               for row in rows for cell, width in zip(row, widths, strict=False))


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


# ---------------------------------------------------------------------------------------------------------------
# Title page


def _credit_texts(game: Game, lang: str) -> dict[str, str]:
    credits = game.credits

    def localized(key: str) -> str:
        value = credits.get(key)
        if isinstance(value, Mapping):
            return str(value.get(lang) or value.get(game.source_language) or "")
        return "" if value is None else str(value)

    return {"role": localized("role"), "author": localized("author"), "year": localized("year"),
            "edition": localized("edition")}


def title_page_texts(game: Game, lang: str) -> list[str]:
    credits = _credit_texts(game, lang)
    return [game.title(lang), game.subtitles.get(lang, ""), *credits.values(),
            game.translator_notes.get(lang, ""), game.terms.get(lang, ""), "()"]


def title_page(game: Game, lang: str, ctx: StoryContext, width: float, cover: FigureSpec | None) -> list[Flowable]:
    """Title, subtitle, a few cards, credits; then, at the foot, translator's note and terms."""
    styles, fontset = ctx.styles, ctx.fontset
    centred = replace(styles.body, alignment="center")
    credits = _credit_texts(game, lang)
    story: list[Flowable] = [Spacer(1, 18 * mm), KinsokuParagraph(bold(game.title(lang)), styles.title, fontset)]
    if game.subtitles.get(lang):
        story.append(KinsokuParagraph(regular(game.subtitles[lang]), styles.subtitle, fontset))
    story.append(Spacer(1, 12 * mm))
    if cover is not None:
        figure = FigureFlowable(cover, ctx.art, fontset, card_width=styles.card_width * 1.6,
                                font_size=styles.body.font_size)
        figure.hAlign = "CENTER"
        story.extend([figure, Spacer(1, 12 * mm)])
    if credits["role"]:
        story.append(KinsokuParagraph(regular(credits["role"]), replace(centred, colour=GREY, space_after=1), fontset))
    author = credits["author"] + (f" ({credits['year']})" if credits["year"] else "")
    if author.strip():
        story.append(KinsokuParagraph(bold(author), replace(styles.subtitle, colour=styles.ink), fontset))
    if credits["edition"]:
        story.append(Spacer(1, 4 * mm))
        story.append(KinsokuParagraph(regular(credits["edition"]), replace(styles.small, alignment="center"), fontset))
    foot: list[Flowable] = []
    note = game.translator_notes.get(lang, "")
    if note:
        foot.append(KinsokuParagraph(regular(note), styles.small, fontset))
    terms = game.terms.get(lang, "")
    if terms:
        foot.append(HRFlowable(width="100%", thickness=0.5, color=RULE_GREY, spaceBefore=2, spaceAfter=4))
        foot.append(KinsokuParagraph(regular(terms), styles.small, fontset))
    story.append(FrameBreak())
    story.append(AtFoot(KeepInFrame(width, TITLE_FOOT_HEIGHT, foot, mode="shrink")))
    story.append(NextPageTemplate("body"))
    story.append(PageBreak())
    return story


TITLE_FOOT_HEIGHT = 55 * mm


class AtFoot(Flowable):
    """Takes the whole frame and sets its content against the bottom edge (terms at the foot of the title page)."""

    def __init__(self, content: Flowable) -> None:
        super().__init__()
        self.content = content
        self._content_height = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        _, self._content_height = self.content.wrapOn(self.canv, availWidth, availHeight)
        self.width, self.height = availWidth, max(availHeight, self._content_height)
        return self.width, self.height

    def draw(self) -> None:
        self.content.drawOn(self.canv, 0, 0)


COVER_CARDS = 3


def cover_figure(rule_text: RuleText, ctx: StoryContext) -> FigureSpec | None:
    """The first row of cards of the first example placed: a glimpse of the game on the cover.

    A game without worked examples (a new one, an image deck) shows a few of its cards instead,
    spread over its first printed deck, so the cover is never bare once there are cards.
    """
    for ref in rule_text.examples:
        example = ctx.examples.get(ref.example)
        if example is None:
            continue
        spec = example_figure(ctx.game, example, ctx.results.get(example.id))
        first = spec.rows[0] if spec.rows else ()
        groups = tuple(tuple(i for i in group if isinstance(i, CardSlot)) for group in first)
        groups = tuple(group for group in groups if group)
        if groups:
            return FigureSpec((groups,))
    return sample_cards(ctx.game)


def sample_cards(game: Game) -> FigureSpec | None:
    """First, middle and last card of the first printed deck: its range at a glance."""
    deck = next((c for c in game.components.values() if c.printed and c.kind == "cards" and c.cards), None)
    if deck is None:
        return None
    cards = deck.cards
    picked = sorted({round(i * (len(cards) - 1) / (COVER_CARDS - 1)) for i in range(COVER_CARDS)})
    return FigureSpec(((tuple(CardSlot(cards[i].id) for i in picked),),))


# ---------------------------------------------------------------------------------------------------------------
# Documents


class PageCountingDoc(BaseDocTemplate):
    """Remembers how many pages it made, which Platypus forgets after the build."""

    pages_made = 0

    def afterPage(self) -> None:
        self.pages_made += 1


@dataclass(frozen=True)
class RulebookResult:
    path: Path
    lang: str
    paper: str
    pages: int
    page_size: tuple[float, float]  # points
    warnings: tuple[str, ...] = ()


def footer_painter(title: str, fontset: FontSet, styles: RulebookStyles) -> Callable[[Any, Any], None]:
    """Game title at the left, page number at the right, in grey at the foot of each body page."""

    def paint(canvas: Any, doc: Any) -> None:
        width, _ = doc.pagesize
        y = styles.margin * 0.5
        canvas.saveState()
        canvas.setFillColor(GREY)
        canvas.setFont(fontset.regular, styles.footer)
        canvas.drawString(styles.margin, y, title)
        canvas.drawRightString(width - styles.margin, y, str(doc.page))
        canvas.setStrokeColor(RULE_GREY)
        canvas.setLineWidth(0.4)
        canvas.line(styles.margin, y + styles.footer * 1.4, width - styles.margin, y + styles.footer * 1.4)
        canvas.restoreState()

    return paint


def page_templates(page_size: tuple[float, float], styles: RulebookStyles, title: str,
                   fontset: FontSet) -> list[PageTemplate]:
    width, height = page_size
    margin = styles.margin
    body_width = width - 2 * margin
    foot = Frame(margin, margin, body_width, TITLE_FOOT_HEIGHT, id="foot", leftPadding=0, rightPadding=0,
                 topPadding=0, bottomPadding=0)
    top = Frame(margin, margin + TITLE_FOOT_HEIGHT, body_width, height - 2 * margin - TITLE_FOOT_HEIGHT, id="top",
                leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    body = Frame(margin, margin, body_width, height - 2 * margin, id="body", leftPadding=0, rightPadding=0,
                 topPadding=0, bottomPadding=0)
    return [PageTemplate("title", [top, foot], pagesize=page_size),
            PageTemplate("body", [body], onPage=footer_painter(title, fontset, styles), pagesize=page_size)]


@dataclass
class PreparedRulebook:
    """Everything a rulebook needs before typesetting: text, tables, art, fonts."""

    game: Game
    lang: str
    rule_text: RuleText
    tables: dict[str, AidTable]
    art: CardArt
    fontset: FontSet
    warnings: list[str]


def prepare_rulebook(game: Game, rules: GameRules, lang: str, cache_dir: Path) -> PreparedRulebook:
    """Load the rule text and collect every string before fonts are subset (raises DataError on bad data)."""
    rule_text = require_rule_text(game, rules, lang)
    tables = {table.id: table for table in rules.aid_tables(game, lang)}
    report = Report()
    art = make_card_art(game, rules, lang, report)
    placed = [e for e in game.examples if e.id in {ref.example for ref in rule_text.examples}]
    texts = [*rule_text.texts(), *aid_table_texts(tables.values()), *title_page_texts(game, lang),
             *figure_texts(game, placed, rule_text.results), *art.texts(), "0123456789"]
    fontset = fonts_for(texts, cache_dir, rule_text, overrides=game.fonts)
    art.fontset = fontset
    return PreparedRulebook(game, lang, rule_text, tables, art, fontset, [d.message for d in report.diagnostics])


def fonts_for(texts: Iterable[str], cache_dir: Path, rule_text: RuleText | None = None,
              overrides: Mapping[str, Path] | None = None) -> FontSet:
    """prepare_fonts (with the game's own fonts, if any), a missing glyph reported at the line using it."""
    texts = [text for text in texts if text]
    try:
        return prepare_fonts(texts, cache_dir, overrides=overrides)
    except MissingGlyphError as exc:
        chars = {char for missing in exc.missing.values() for char in missing}
        file, line = (rule_text.path, _line_using(rule_text.path, chars)) if rule_text else (None, None)
        raise DataError(str(exc), file, line, exc.diagnostic.fix) from None


def _line_using(path: Path, chars: set[str]) -> int | None:
    try:
        lines = path.read_text(encoding="utf-8-sig").split("\n")
    except OSError:
        return None
    return next((number for number, text in enumerate(lines, start=1) if chars & set(text)), None)


def rulebook_story(prepared: PreparedRulebook, page_size: tuple[float, float], outline: bool = True
                   ) -> tuple[list[Flowable], RulebookStyles]:
    game, lang = prepared.game, prepared.lang
    styles = RulebookStyles.for_page(page_size[0], lang, ink_of(game))
    ctx = StoryContext(game=game, fontset=prepared.fontset, styles=styles, art=prepared.art, tables=prepared.tables,
                       examples={e.id: e for e in game.examples}, results=prepared.rule_text.results,
                       outline=outline)
    width = page_size[0] - 2 * styles.margin
    story = title_page(game, lang, ctx, width, cover_figure(prepared.rule_text, ctx))
    story.extend(flowables_for(prepared.rule_text.blocks, ctx, width))
    return story, styles


def make_doc(target: Any, page_size: tuple[float, float], styles: RulebookStyles, prepared: PreparedRulebook,
             subject: str) -> PageCountingDoc:
    game = prepared.game
    doc = PageCountingDoc(
        target, pagesize=page_size, leftMargin=styles.margin, rightMargin=styles.margin, topMargin=styles.margin,
        bottomMargin=styles.margin, invariant=1, initialFontName=prepared.fontset.regular, pageCompression=1,
        title=game.title(prepared.lang), author=game.author(prepared.lang), subject=subject,
        creator="pnp", lang=prepared.lang,
    )
    doc.addPageTemplates(page_templates(page_size, styles, game.title(prepared.lang), prepared.fontset))
    return doc


def write_rulebook(game: Game, rules: GameRules, lang: str, paper: str | Paper, path: Path,
                   cache_dir: Path) -> RulebookResult:
    """The rulebook PDF for one language and paper, written atomically.

    Raises :class:`DataError` (with file and line) when the rule text or a
    character in it cannot be printed; `pnp check` reports the same earlier.
    """
    sheet = parse_paper(paper)
    prepared = prepare_rulebook(game, rules, lang, cache_dir)
    page_size = sheet.size_pt
    story, styles = rulebook_story(prepared, page_size)
    with atomic_write(path) as handle:
        doc = make_doc(handle, page_size, styles, prepared, f"Rulebook ({lang}, {sheet.name})")
        doc.build(story)
    return RulebookResult(Path(path), lang, sheet.name, doc.pages_made, page_size, tuple(prepared.warnings))

"""How rulebooks, aid sheets and aid cards look: type sizes per page and language, colours, and tables.

The aids set their tables with the rulebook's own code, so a table reads the same in the book
and at the table, and one change of style reaches all three.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    Spacer,
    Table,
    TableStyle,
)

from pnp.compose.blocks import (
    Runs,
)
from pnp.model.game import Game
from pnp.model.runs import Text
from pnp.render.text.fonts import FontSet
from pnp.render.text.linebreak import PreparedText
from pnp.render.text.lines import make_measure
from pnp.render.text.paragraph import BodyStyle, KinsokuParagraph
from pnp.rules.base import AidTable
from pnp.rules.wording import CJK_LANGUAGES

GREY = HexColor("#5f5f5f")
RULE_GREY = HexColor("#b8b8b8")
TABLE_HEADER = HexColor("#ececec")
EXAMPLE_TINT = HexColor("#f4f4f0")
DEFAULT_INK = "#1d3557"
CELL_PADDING = 3.0


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
        # Japanese body and small text (notes, terms of use) is justified, as books set it (両端揃え);
        # English stays ragged right: without hyphenation a justified column this wide opens rivers
        justified = "justify" if lang in CJK_LANGUAGES else "left"
        body = BodyStyle(font_size=size, leading=round(size * ratio, 2), space_after=size * 0.6,
                         alignment=justified)
        small = BodyStyle(font_size=size - 1.5, leading=round((size - 1.5) * ratio, 2), space_after=2.0,
                          colour=GREY, alignment=justified)
        table = BodyStyle(font_size=size - 1.0, leading=round((size - 1.0) * (ratio - 0.1), 2))
        headings = {
            1: BodyStyle(font_size=size + 8, leading=(size + 8) * 1.3, space_before=size * 1.4, space_after=size * 0.6,
                         colour=colour, whole_phrases=True),
            2: BodyStyle(font_size=size + 5, leading=(size + 5) * 1.3, space_before=size * 1.3, space_after=size * 0.5,
                         colour=colour, whole_phrases=True),
            3: BodyStyle(font_size=size + 2, leading=(size + 2) * 1.35, space_before=size * 0.9,
                         space_after=size * 0.3, colour=colour, whole_phrases=True),
        }
        title = BodyStyle(font_size=30 if not compact else 24, leading=40 if not compact else 32, alignment="center",
                          colour=colour, space_after=6, whole_phrases=True)
        subtitle = BodyStyle(font_size=size + 4, leading=(size + 4) * 1.4, alignment="center", colour=GREY,
                             whole_phrases=True)
        return RulebookStyles(body=body, small=small, table=table, headings=headings, title=title,
                              subtitle=subtitle, margin=(14 if compact else 20) * mm, footer=size - 2,
                              card_width=(12 if compact else 15) * mm, ink=colour)

    def heading(self, level: int) -> BodyStyle:
        return self.headings.get(level, replace(self.headings[3], font_size=self.body.font_size + 0.5,
                                                leading=self.body.leading))



def ink_of(game: Game) -> str:
    """Headings print in the game's own colour when its palette names one."""
    return game.palette.get("rulebook") or game.palette.get("back") or DEFAULT_INK


def bold(text: str) -> Runs:
    return (Text(text, "bold"),)


def regular(text: str) -> Runs:
    return (Text(text, "regular"),)


# An aid table in a rulebook narrower than this share of the column keeps its natural widths: Rudy's
# market table (a long heading over two columns of single digits) was stretched until its prices sat
# across the page from what they price. On an aid sheet every table fills, so the page lines up.
RULEBOOK_FILL_FROM = 0.6


def column_widths(rows: Sequence[Sequence[Runs]], style: BodyStyle, fontset: FontSet, width: float,
                  fill: bool, fill_from: float = 0.0) -> list[float]:
    """Widths that let every cell break only where the line breaker may, within ``width``.

    Each column gets at least its longest unbreakable stretch; what is left
    goes to the columns that would otherwise wrap most. ``fill`` stretches a
    table that fits to the full width, as aid tables look best that way (a page
    of them lines up), unless its natural width is under ``fill_from`` of it.
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
        if not fill or total < fill_from * width:
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
               first_column_bold: bool = False, fill_from: float = 0.0) -> Table:
    """A ruled table of kinsoku paragraphs; the header repeats on every page the table spans."""
    columns = max((len(row) for row in rows), default=1)
    first_column_bold = first_column_bold and columns > 1  # a one-column table is all "first column"
    styled = [
        [_emboldened(row[col] if col < len(row) else (), (header and r == 0) or (first_column_bold and col == 0))
         for col in range(columns)]
        for r, row in enumerate(rows)
    ]
    widths = column_widths(styled, style, fontset, width, fill, fill_from)  # measured as drawn: bold is wider
    cells = []
    for row in styled:
        cells_row = []
        for col, runs in enumerate(row):
            align = aligns[col] if col < len(aligns) else "left"
            cell_style = replace(style, alignment=align, space_after=0.0, space_before=0.0)  # type: ignore[arg-type]
            cells_row.append(KinsokuParagraph(runs, cell_style, fontset) if runs else "")
        cells.append(cells_row)
    table = Table(cells, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT",
                  splitInRow=int(has_tall_row(cells, widths)))
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
                        show_title: bool = True, fill_from: float = 0.0) -> list[Flowable]:
    """An aid table as the rules module computed it: title, grid, footnotes (``fill_from``: see
    :func:`column_widths`)."""
    flowables: list[Flowable] = []
    if show_title and table.title:
        title = KinsokuParagraph(bold(table.title), replace(styles.body, space_after=3.0, space_before=4.0,
                                                            whole_phrases=True), fontset)
        title.keepWithNext = 1
        flowables.append(title)
    rows = [tuple(regular(c) for c in table.header), *[tuple(regular(c) for c in row) for row in table.rows]]
    flowables.append(grid_table(rows, fontset, styles.table, width, fill=True, first_column_bold=True,
                                fill_from=fill_from))
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


def has_tall_row(rows: Sequence[Sequence[object]], widths: Sequence[float]) -> bool:
    """Whether a row would be taller than TALL_ROW: Platypus can split a table only between rows, and a
    row taller than the page stopped the build (a long cell in a rule text's table, a page-long list item)."""
    return any(stack_height([f for f in (cell if isinstance(cell, list | tuple) else [cell])
                             if isinstance(f, Flowable)], width) > TALL_ROW
               for row in rows for cell, width in zip(row, widths, strict=False))

"""Player aids: a one-page sheet per game and language, and the sizing the aid cards share.

The tables come from ``rules.aid_tables`` (computed from rules.toml and the
model, never typed), so the aid, the rulebook and the court cards all say the
same thing. Text is set at the largest size that fits, so a game with a small
table gets a legible aid and one with a big table still fits on its page; a
sheet that one column would shrink below a comfortable size sets two.

The card-size aids are pnp/render/rulebook/aid_cards.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Frame, Spacer
from reportlab.platypus.flowables import HRFlowable

from pnp.diagnostics import DataError
from pnp.files.atomic import atomic_write
from pnp.model.game import Game
from pnp.render.cards.card_pdf import label_texts
from pnp.render.rulebook.book import fonts_for
from pnp.render.rulebook.style import (
    CELL_PADDING,
    GREY,
    RULE_GREY,
    RulebookStyles,
    aid_table_flowables,
    aid_table_texts,
    bold,
    ink_of,
    regular,
    stack_height,
)
from pnp.render.sheets.draw import new_canvas
from pnp.render.sheets.paper import Paper, parse_paper
from pnp.render.text.fonts import FontSet
from pnp.render.text.paragraph import KinsokuParagraph
from pnp.rules.base import AidTable, GameRules

SHEET_MARGIN = 15 * mm
SHEET_SIZES = (14.0, 13.0, 12.0, 11.0, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0)  # one page, as issue 4 asks


@dataclass(frozen=True)
class AidResult:
    path: Path
    lang: str
    paper: str
    pages: int
    font_size: float  # the body size that fitted
    cards: int = 0
    columns: int = 1  # the sheet's tables in one column or two


MOST_PARTS = 6  # sides one table may take (three cards); past that it sets small, as one side would
PART_MARKS = {"ja": "（{part}/{parts}）"}  # what a part's title gets, where not " (1/2)"


def part_mark(lang: str, part: int, parts: int) -> str:
    return PART_MARKS.get(lang, " ({part}/{parts})").format(part=part, parts=parts)


def split_marks(lang: str) -> list[str]:
    """Every part mark a card may print, for the font subset."""
    return [part_mark(lang, part, parts) for parts in range(2, MOST_PARTS + 1) for part in range(1, parts + 1)]


def aid_tables_for(game: Game, rules: GameRules, lang: str) -> list[AidTable]:
    from pnp.compose.data_aids import NO_AID_FIX, all_aid_tables

    tables = all_aid_tables(game, rules, lang)
    if not tables:
        raise DataError(f"{game.id}: no aid tables, so there is no player aid", game.path, fix=NO_AID_FIX)
    return tables


def aid_texts(game: Game, tables: Iterable[AidTable], lang: str) -> list[str]:
    """Every string an aid prints, so the font subset covers them all."""
    return [*aid_table_texts(tables), game.title(lang), game.subtitles.get(lang, ""), game.terms.get(lang, ""),
            game.author(lang), *label_texts(game, lang), " · ", *split_marks(lang)]


def largest_fitting(build: Callable[[float], list[Flowable]], width: float, height: float,
                    sizes: Sequence[float]) -> tuple[float, list[Flowable]]:
    """The largest body size whose flowables fit the box; the smallest size when none does."""
    flowables: list[Flowable] = []
    for size in sizes:
        flowables = build(size)
        if stack_height(flowables, width) <= height:
            return size, flowables
    return sizes[-1], flowables


def shortest_row(game: Game, lang: str, size: float) -> float:
    """The least height, in points, one table row takes at ``size``: one line and the cell's padding."""
    return aid_styles(game, lang, size).table.leading + CELL_PADDING * (0.7 + 0.9)


def refuse_impossible(game: Game, what: str, rows: int, height: float, size: float, lang: str) -> None:
    """Rows that could not fit at the smallest size even one line each: said before any typesetting.

    Fitting tries every size and layout and lays each out in full: a table of 400 rows took 12 s of
    CPU to be found too long. A row is at least a line high, so arithmetic on the row count says as
    much at once."""
    if rows * shortest_row(game, lang, size) > height:
        raise DataError(f"{what} does not fit even at {size:g} pt: its {rows} table rows need at least "
                        f"{rows * shortest_row(game, lang, size) / mm:.0f} mm, the space holds "
                        f"{height / mm:.0f} mm", game.path / "rules.toml", None,
                        "shorten or split the aid tables in rules.toml ([aid.<id>])")


def refuse_overflow(left: list[Flowable], game: Game, what: str, size: float) -> None:
    """A frame silently drops what does not fit; an aid that lost a table must not pass for a good one."""
    if left:
        raise DataError(f"{what} does not fit even at {size:g} pt: {len(left)} block(s) would be left out",
                        game.path / "rules.toml", None,
                        "shorten or split the aid tables in rules.toml ([aid.<id>])")


def aid_styles(game: Game, lang: str, size: float) -> RulebookStyles:
    return RulebookStyles.for_page(Paper("A4", 210, 297).size_pt[0], lang, ink_of(game), size=size)


# ---------------------------------------------------------------------------------------------------------------
# One-page sheet


def _sheet_header(game: Game, lang: str, fontset: FontSet, size: float) -> list[Flowable]:
    """Title, subtitle and rule: across the whole sheet, whatever the columns below."""
    styles = aid_styles(game, lang, size)
    heading = replace(styles.heading(1), space_before=0.0)
    flowables: list[Flowable] = [KinsokuParagraph(bold(game.title(lang)), heading, fontset)]
    if game.subtitles.get(lang):
        flowables.append(KinsokuParagraph(regular(game.subtitles[lang]), replace(styles.small, font_size=size,
                                                                                 leading=size * 1.5), fontset))
    flowables.append(HRFlowable(width="100%", thickness=0.8, color=styles.ink, spaceBefore=2, spaceAfter=size))
    return flowables


def _table_blocks(game: Game, tables: Sequence[AidTable], lang: str, fontset: FontSet, width: float,
                  size: float) -> list[list[Flowable]]:
    """Each table with its title and the space after it, set for a column of ``width``."""
    styles = aid_styles(game, lang, size)
    title_style = replace(styles.heading(2), space_before=size * 0.6)
    return [[KinsokuParagraph(bold(table.title), title_style, fontset),
             *aid_table_flowables(table, fontset, styles, width, show_title=False),
             Spacer(1, size * 0.8)] for table in tables]


def _sheet_flowables(game: Game, tables: Sequence[AidTable], lang: str, fontset: FontSet, width: float,
                     size: float) -> list[Flowable]:
    blocks = _table_blocks(game, tables, lang, fontset, width, size)
    return [*_sheet_header(game, lang, fontset, size), *(f for block in blocks for f in block)]


@dataclass(frozen=True)
class SheetLayout:
    """How the aid sheet is set: the body size, and the tables in one column or two."""

    size: float
    header: list[Flowable]
    columns: list[list[Flowable]]  # one list of flowables per column, top to bottom


COLUMN_GAP = 8 * mm
COMFORTABLE_SIZE = 10.0  # points: text this large in one column reads well; smaller tries two columns
TWO_COLUMNS_GAIN = 1.0  # points: two columns only for text at least this much larger than one column allows


def _two_columns(game: Game, tables: Sequence[AidTable], lang: str, fontset: FontSet, width: float,
                 height: float, size: float) -> SheetLayout | None:
    """The tables in two columns at ``size``, in order, each table whole; None if they do not fit."""
    header = _sheet_header(game, lang, fontset, size)
    room = height - stack_height(header, width) - 1
    column_width = (width - COLUMN_GAP) / 2
    columns: list[list[Flowable]] = [[], []]
    used = 0.0
    column = 0
    for block in _table_blocks(game, tables, lang, fontset, column_width, size):
        block_height = stack_height(block, column_width) + (block[0].getSpaceBefore() if columns[column] else 0.0)
        if used + block_height > room and columns[column]:
            column, used = column + 1, 0.0
            block_height = stack_height(block, column_width)
        if column > 1 or block_height > room:
            return None
        columns[column].extend(block)
        used += block_height
    return SheetLayout(size, header, columns)


def sheet_layout(game: Game, tables: Sequence[AidTable], lang: str, fontset: FontSet, width: float,
                 height: float) -> SheetLayout:
    """The largest text that fits the page in one column; where that is below COMFORTABLE_SIZE, two
    columns if they allow text at least TWO_COLUMNS_GAIN larger. Rudy's sheet of short rows used to
    shrink to 6.5 pt in one column beside half a page of empty table cells; in two it sets at 10 pt."""
    size, flowables = largest_fitting(
        lambda s: _sheet_flowables(game, tables, lang, fontset, width, s), width, height, SHEET_SIZES)
    one_column = SheetLayout(size, [], [flowables])
    fits = stack_height(flowables, width) <= height
    if fits and size >= COMFORTABLE_SIZE:
        return one_column
    for larger in SHEET_SIZES:
        if larger < size + TWO_COLUMNS_GAIN and fits:
            break
        layout = _two_columns(game, tables, lang, fontset, width, height, larger)
        if layout is not None:
            return layout
    return one_column


def _sheet_footer(canvas: Any, game: Game, lang: str, fontset: FontSet, width: float) -> None:
    credit = " · ".join(t for t in (game.title(lang), game.author(lang)) if t)
    canvas.saveState()
    canvas.setFillColor(GREY)
    canvas.setFont(fontset.regular, 7)
    canvas.drawString(SHEET_MARGIN, SHEET_MARGIN * 0.55, credit)
    canvas.setStrokeColor(RULE_GREY)
    canvas.setLineWidth(0.4)
    canvas.line(SHEET_MARGIN, SHEET_MARGIN * 0.55 + 10, width - SHEET_MARGIN, SHEET_MARGIN * 0.55 + 10)
    canvas.restoreState()


def write_aid(game: Game, rules: GameRules, lang: str, paper: str | Paper, path: Path, cache_dir: Path) -> AidResult:
    """A one-page player aid with every aid table, at the largest size that fits the page."""
    sheet = parse_paper(paper)
    tables = aid_tables_for(game, rules, lang)
    fontset = fonts_for(aid_texts(game, tables, lang), cache_dir, overrides=game.fonts)
    page_width, page_height = sheet.size_pt
    width, height = page_width - 2 * SHEET_MARGIN, page_height - 2 * SHEET_MARGIN
    rows = sum(len(table.rows) + 1 for table in tables)  # and each header
    refuse_impossible(game, f"the player aid ({sheet.name})", rows, 2 * height, SHEET_SIZES[-1], lang)  # 2 columns
    layout = sheet_layout(game, tables, lang, fontset, width, height)
    with atomic_write(path) as handle:
        canvas = new_canvas(handle, fontset.regular, game.title(lang), game.author(lang),
                            f"Player aid ({lang}, {sheet.name})", lang)
        canvas.setPageSize(sheet.size_pt)
        top = SHEET_MARGIN + height
        if layout.header:
            header_height = stack_height(layout.header, width) + 1  # + 1 pt: the frame's own rounding
            _fill_frame(Frame(SHEET_MARGIN, top - header_height, width, header_height, **NO_PADDING),
                        layout.header, canvas, game, sheet, layout.size)
            top -= header_height
        column_width = width if len(layout.columns) == 1 else (width - COLUMN_GAP) / 2
        for index, column in enumerate(layout.columns):
            x = SHEET_MARGIN + index * (column_width + COLUMN_GAP)
            _fill_frame(Frame(x, SHEET_MARGIN, column_width, top - SHEET_MARGIN, **NO_PADDING), column, canvas,
                        game, sheet, layout.size)
        _sheet_footer(canvas, game, lang, fontset, page_width)
        canvas.showPage()
        canvas.save()
    return AidResult(Path(path), lang, sheet.name, 1, layout.size, columns=len(layout.columns))


NO_PADDING = {"leftPadding": 0, "rightPadding": 0, "topPadding": 0, "bottomPadding": 0}


def _fill_frame(frame: Frame, flowables: list[Flowable], canvas: Any, game: Game, sheet: Paper, size: float) -> None:
    left = list(flowables)
    frame.addFromList(left, canvas)
    refuse_overflow(left, game, f"the player aid ({sheet.name})", size)

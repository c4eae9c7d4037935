"""Player aids: a one-page sheet and card-size reference cards, per game and language.

The tables come from ``rules.aid_tables`` (computed from rules.toml and the
model, never typed), so the aid, the rulebook and the court cards all say the
same thing. Text is set at the largest size that fits, so a game with a small
table gets a legible aid and one with a big table still fits on its page; a
sheet that one column would shrink below a comfortable size sets two.

Aid cards are poker-size, landscape, and go through the card-sheet imposition,
so they print with the same crop marks, ruler and duplex registration as the
decks: each card carries one table on its front and the next on its back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Frame, Spacer
from reportlab.platypus.flowables import HRFlowable

from pnp.diagnostics import DataError
from pnp.files.atomic import atomic_write
from pnp.model.game import Game
from pnp.render.cards.card_pdf import label_texts, labels_for
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
from pnp.render.sheets.draw import SheetOptions, new_canvas, write_card_sheets
from pnp.render.sheets.geometry import Rect
from pnp.render.sheets.imposition import plan_sheet
from pnp.render.sheets.paper import CardSize, Paper, parse_paper
from pnp.render.text.fonts import FontSet
from pnp.render.text.paragraph import KinsokuParagraph
from pnp.rules.base import AidTable, GameRules

SHEET_MARGIN = 15 * mm
SHEET_SIZES = (14.0, 13.0, 12.0, 11.0, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0)  # one page, as issue 4 asks
CARD_SIZES = (11.0, 10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0, 5.5, 5.0, 4.5)
AID_CARD = CardSize(88.9, 63.5, "poker")  # poker, landscape: tables are wider than tall
CARD_INSET = 4 * mm  # keeps text 1 mm inside a print shop's 3 mm safe zone


@dataclass(frozen=True)
class AidResult:
    path: Path
    lang: str
    paper: str
    pages: int
    font_size: float  # the body size that fitted
    cards: int = 0
    columns: int = 1  # the sheet's tables in one column or two


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
    return _aid_styles(game, lang, size).table.leading + CELL_PADDING * (0.7 + 0.9)


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


def _refuse_overflow(left: list[Flowable], game: Game, what: str, size: float) -> None:
    """A frame silently drops what does not fit; an aid that lost a table must not pass for a good one."""
    if left:
        raise DataError(f"{what} does not fit even at {size:g} pt: {len(left)} block(s) would be left out",
                        game.path / "rules.toml", None,
                        "shorten or split the aid tables in rules.toml ([aid.<id>])")


def _aid_styles(game: Game, lang: str, size: float) -> RulebookStyles:
    return RulebookStyles.for_page(Paper("A4", 210, 297).size_pt[0], lang, ink_of(game), size=size)


# ---------------------------------------------------------------------------------------------------------------
# One-page sheet


def _sheet_header(game: Game, lang: str, fontset: FontSet, size: float) -> list[Flowable]:
    """Title, subtitle and rule: across the whole sheet, whatever the columns below."""
    styles = _aid_styles(game, lang, size)
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
    styles = _aid_styles(game, lang, size)
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
    _refuse_overflow(left, game, f"the player aid ({sheet.name})", size)


# ---------------------------------------------------------------------------------------------------------------
# Card-size aids


@dataclass(frozen=True)
class AidCard:
    front: AidTable
    back: AidTable | None


def pair_tables(tables: Sequence[AidTable], first_parts: Sequence[AidTable] = ()) -> list[AidCard]:
    """Front and back of each reference card: tables in order, two to a card. A table split in parts
    (``first_parts`` holds each one's first part) starts on a front, so its first two parts are the
    two sides of one card, never a back and a front."""
    cards: list[AidCard] = []
    front: AidTable | None = None
    for table in tables:
        if front is not None and any(table is first for first in first_parts):
            cards.append(AidCard(front, None))
            front = None
        if front is None:
            front = table
        else:
            cards.append(AidCard(front, table))
            front = None
    if front is not None:
        cards.append(AidCard(front, None))
    return cards


AID_CARDS_TITLE = {"en": "player aid cards", "ja": "サマリーカード"}
READABLE_CARD_SIZE = 7.0  # points: a table that one side sets smaller is split over more sides
MOST_PARTS = 6  # sides one table may take (three cards); past that it sets small, as one side would
PART_MARKS = {"ja": "（{part}/{parts}）"}  # what a part's title gets, where not " (1/2)"


def part_mark(lang: str, part: int, parts: int) -> str:
    return PART_MARKS.get(lang, " ({part}/{parts})").format(part=part, parts=parts)


def split_marks(lang: str) -> list[str]:
    """Every part mark a card may print, for the font subset."""
    return [part_mark(lang, part, parts) for parts in range(2, MOST_PARTS + 1) for part in range(1, parts + 1)]


def split_rows(table: AidTable, parts: int, lang: str) -> list[AidTable]:
    """``table`` in ``parts`` parts of nearly equal rows, in order, marked (1/3)...; notes under the last."""
    size, extra = divmod(len(table.rows), parts)
    pieces, start = [], 0
    for part in range(parts):
        end = start + size + (1 if part < extra else 0)
        last = part == parts - 1
        pieces.append(replace(table, title=table.title + part_mark(lang, part + 1, parts), rows=table.rows[start:end],
                              notes=table.notes if last else []))
        start = end
    return pieces


def card_sides(game: Game, tables: Sequence[AidTable], lang: str, fontset: FontSet) -> tuple[list[AidTable],
                                                                                              list[AidTable]]:
    """The tables as card sides, and the first parts among them: a table one side would set below
    READABLE_CARD_SIZE (Rudy's nine turn steps: 5.5 pt) takes as few more sides as set it at that size
    or more (both sides of a card, then the next card), rows split evenly, its notes under the last."""
    width, height = AID_CARD.width_mm * mm - 2 * CARD_INSET, AID_CARD.height_mm * mm - 2 * CARD_INSET

    def fitted(table: AidTable) -> float:
        return largest_fitting(lambda s: _card_flowables(game, table, lang, fontset, width, s), width, height,
                               CARD_SIZES)[0]

    sides: list[AidTable] = []
    first_parts: list[AidTable] = []
    for table in tables:
        refuse_impossible(game, f"the aid card {table.id!r}", -(-len(table.rows) // MOST_PARTS) + 1, height,
                          CARD_SIZES[-1], lang)
        if len(table.rows) < 2 or fitted(table) >= READABLE_CARD_SIZE:
            sides.append(table)
            continue
        most = min(MOST_PARTS, len(table.rows))
        parts = next((split_rows(table, n, lang) for n in range(2, most + 1)
                      if all(fitted(part) >= READABLE_CARD_SIZE for part in split_rows(table, n, lang))),
                     split_rows(table, most, lang))
        sides += parts
        first_parts.append(parts[0])
    return sides, first_parts


def _card_flowables(game: Game, table: AidTable, lang: str, fontset: FontSet, width: float,
                    size: float) -> list[Flowable]:
    styles = _aid_styles(game, lang, size)
    title = replace(styles.heading(3), font_size=size + 2, leading=(size + 2) * 1.3, space_before=0.0,
                    space_after=size * 0.4)
    return [KinsokuParagraph(bold(table.title), title, fontset),
            *aid_table_flowables(table, fontset, styles, width, show_title=False)[:-1]]


class AidCardPainter:
    """Draw callbacks for :func:`write_card_sheets`: a white card, a thin frame, the table fitted inside."""

    def __init__(self, game: Game, lang: str, fontset: FontSet) -> None:
        self.game = game
        self.lang = lang
        self.fontset = fontset
        self.ink = HexColor(ink_of(game))
        self.sizes: list[float] = []
        #: (table, width, height) -> its body size: a card is drawn once per player, front and back
        self._fitted: dict[tuple[int, float, float], float] = {}

    def front(self, canvas: Any, card: AidCard, trim: Rect, bleed: Rect) -> None:
        self._draw(canvas, card.front, trim, bleed)

    def back(self, canvas: Any, card: AidCard, trim: Rect, bleed: Rect) -> None:
        if card.back is not None:
            self._draw(canvas, card.back, trim, bleed)
        else:
            self._blank(canvas, bleed)

    def _blank(self, canvas: Any, bleed: Rect) -> None:
        canvas.saveState()
        canvas.setFillColor(white)
        canvas.rect(bleed.x, bleed.y, bleed.width, bleed.height, stroke=0, fill=1)
        canvas.restoreState()

    def _draw(self, canvas: Any, table: AidTable, trim: Rect, bleed: Rect) -> None:
        self._blank(canvas, bleed)
        canvas.saveState()
        canvas.setStrokeColor(self.ink)
        canvas.setLineWidth(0.8)
        inset = 2.2 * mm
        canvas.roundRect(trim.x + inset, trim.y + inset, trim.width - 2 * inset, trim.height - 2 * inset, 2 * mm)
        canvas.restoreState()
        width, height = trim.width - 2 * CARD_INSET, trim.height - 2 * CARD_INSET
        key = (id(table), width, height)  # the cards' tables live as long as the painter
        if key not in self._fitted:
            self._fitted[key] = largest_fitting(
                lambda s: _card_flowables(self.game, table, self.lang, self.fontset, width, s), width, height,
                CARD_SIZES)[0]
        size = self._fitted[key]
        flowables = _card_flowables(self.game, table, self.lang, self.fontset, width, size)
        self.sizes.append(size)
        frame = Frame(trim.x + CARD_INSET, trim.y + CARD_INSET, width, height, leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0)
        frame.addFromList(flowables, canvas)
        _refuse_overflow(flowables, self.game, f"the aid card {table.id!r}", size)


def write_aid_cards(game: Game, rules: GameRules, lang: str, paper: str | Paper, path: Path, cache_dir: Path,
                    copies: int | None = None, bleed_mm: float = 3.0) -> AidResult:
    """Reference cards, one per player by default (the most players the game allows), imposed for duplex."""
    sheet = parse_paper(paper)
    tables = aid_tables_for(game, rules, lang)
    fontset = fonts_for(aid_texts(game, tables, lang), cache_dir, overrides=game.fonts)
    sides, first_parts = card_sides(game, tables, lang, fontset)
    cards = pair_tables(sides, first_parts) * (copies if copies is not None else game.players[1])
    plan = plan_sheet(sheet, AID_CARD, bleed_mm=bleed_mm, count=len(cards))
    painter = AidCardPainter(game, lang, fontset)
    has_backs = any(card.back is not None for card in cards)
    name = " · ".join(table.title for table in tables)
    # the document's title names the cards, not every table on them (200 characters in a title bar)
    options = SheetOptions(label_font=fontset.regular, mode="duplex" if has_backs else "fronts",
                           labels=labels_for(game, name, lang),
                           title=f"{game.title(lang)} — {AID_CARDS_TITLE.get(lang, AID_CARDS_TITLE['en'])}",
                           author=game.author(lang), subject=f"Aid cards ({lang}, {sheet.name})", lang=lang)
    result = write_card_sheets(path, cards, painter.front, painter.back if has_backs else None, plan, options)
    return AidResult(Path(path), lang, sheet.name, result.page_count, min(painter.sizes, default=0.0), len(cards))

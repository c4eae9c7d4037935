"""Player aids as cards: poker-size, landscape, one table a side, imposed like a deck.

Aid cards go through the card-sheet imposition, so they print with the same crop marks, ruler and
duplex registration as the decks: each card carries one table on its front and the next on its
back, and a table too long for one side is split over several, each part marked. The one-page
sheet, and the sizing both share, are pnp/render/rulebook/aid.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Frame

from pnp.model.game import Game
from pnp.render.cards.card_pdf import labels_for
from pnp.render.rulebook.aid import (
    MOST_PARTS,
    AidResult,
    aid_styles,
    aid_tables_for,
    aid_texts,
    largest_fitting,
    part_mark,
    refuse_impossible,
    refuse_overflow,
)
from pnp.render.rulebook.book import fonts_for
from pnp.render.rulebook.style import (
    aid_table_flowables,
    bold,
    ink_of,
)
from pnp.render.sheets.draw import SheetOptions, write_card_sheets
from pnp.render.sheets.geometry import Rect
from pnp.render.sheets.imposition import plan_sheet
from pnp.render.sheets.paper import CardSize, Paper, parse_paper
from pnp.render.text.fonts import FontSet
from pnp.render.text.paragraph import KinsokuParagraph
from pnp.rules.base import AidTable, GameRules

CARD_SIZES = (11.0, 10.5, 10.0, 9.5, 9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0, 5.5, 5.0, 4.5)
AID_CARD = CardSize(88.9, 63.5, "poker")  # poker, landscape: tables are wider than tall
CARD_INSET = 4 * mm  # keeps text 1 mm inside a print shop's 3 mm safe zone


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
    styles = aid_styles(game, lang, size)
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
        refuse_overflow(flowables, self.game, f"the aid card {table.id!r}", size)


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

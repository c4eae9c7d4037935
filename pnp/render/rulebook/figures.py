"""Worked examples laid out as cards: a figure's rows flowed onto lines as wide as the page allows.

A rulebook that shows "3♠ K♥ 4♣" as text makes the reader translate back to cards; a figure
draws the cards themselves (pnp/render/rulebook/card_art.py), beside captions and the recomputed
result. What each figure shows is data first (pnp/render/rulebook/figure_specs.py); this module
only places and draws it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus.flowables import Flowable

from pnp.render.rulebook.card_art import CardArt
from pnp.render.rulebook.figure_specs import CardSlot, FigureSpec, Group, Item, Label
from pnp.render.text.fonts import FontSet

HIGHLIGHT = HexColor("#e07a00")
DIM = HexColor("#6b6b6b")
CARD_GAP = 1.8 * mm  # clears a highlighted card's outline (HIGHLIGHT_PAD) by a millimetre
HIGHLIGHT_PAD = 0.6 * mm
ROW_SHRINK = 0.8  # cards shrink to 80 % of their width before a row's groups wrap: the result stays beside its cards
GROUP_GAP = 5.0 * mm
LINE_GAP = 2.5 * mm


def _caption_only(group: Group) -> bool:
    return all(isinstance(item, Label) for item in group)


@dataclass(frozen=True)
class _Placed:
    item: Item
    x: float
    width: float


@dataclass
class _Line:
    items: list[_Placed] = field(default_factory=list)
    width: float = 0.0


class FigureFlowable(Flowable):
    """Draws a :class:`FigureSpec`: cards as large as ``card_width`` allows, never wider than the frame."""

    def __init__(self, spec: FigureSpec, art: CardArt, fontset: FontSet, card_width: float = 15 * mm,
                 min_card_width: float = 9 * mm, font_size: float = 10.0) -> None:
        super().__init__()
        self.spec = spec
        self.art = art
        self.fontset = fontset
        self.card_width = card_width
        self.min_card_width = min_card_width
        self.font_size = font_size
        self._lines: list[_Line] = []
        self._card = card_width
        self.width = self.height = 0.0

    def _label_text(self, label: Label) -> str:
        return label.shown(self.art.player_names)

    def _label_width(self, label: Label) -> float:
        font = self.fontset.bold if label.bold else self.fontset.regular
        text = self._label_text(label)
        self.fontset.require(text)
        return stringWidth(text, font, self.font_size)

    def _group_width(self, group: Group, card: float) -> float:
        widths = [card if isinstance(item, CardSlot) else self._label_width(item) for item in group]
        return sum(widths) + CARD_GAP * max(len(widths) - 1, 0)

    def _row_width(self, row: Sequence[Group], card: float) -> float:
        return sum(self._group_width(group, card) for group in row) + GROUP_GAP * max(len(row) - 1, 0)

    def _fit_card_width(self, avail: float) -> float:
        """The largest card width at which every row fits on one line, if cards need shrink no further
        than ROW_SHRINK for it; else the largest (down to the minimum) at which every group fits, and
        rows wrap between groups. A trick whose "→ winner" wraps alone reads as a separate line."""
        card = self.card_width
        while card >= max(self.card_width * ROW_SHRINK, self.min_card_width):
            if all(self._row_width(row, card) <= avail for row in self.spec.rows):
                return card
            card -= 0.5
        card = self.card_width
        while card > self.min_card_width:
            widest = max((self._group_width(g, card) for row in self.spec.rows for g in row), default=0.0)
            if widest <= avail:
                break
            card -= 0.5
        return max(card, self.min_card_width)

    def _layout(self, avail: float) -> list[_Line]:
        """Groups left to right, wrapping between groups. A caption alone ("→ Bob") never starts a
        line by itself: the group before it moves down with it, so the result stays beside cards."""
        lines: list[_Line] = []
        for row in self.spec.rows:
            placed: list[Group] = []  # the groups of the line being filled
            for group in row:
                if placed and self._row_width([*placed, group], self._card) > avail:
                    carry = (_caption_only(group) and len(placed) > 1
                             and self._row_width([placed[-1], group], self._card) <= avail)
                    carried = [placed.pop()] if carry else []
                    lines.append(self._line(placed))
                    placed = carried
                placed.append(group)
            if placed:
                lines.append(self._line(placed))
        return lines

    def _line(self, groups: Sequence[Group]) -> _Line:
        line = _Line()
        for group in groups:
            x = line.width + (GROUP_GAP if line.items else 0.0)
            start = x
            for item in group:
                item_width = self._card if isinstance(item, CardSlot) else self._label_width(item)
                line.items.append(_Placed(item, x, item_width))
                x += item_width + CARD_GAP
            line.width = start + self._group_width(group, self._card)
        return line

    @property
    def _card_height(self) -> float:
        return self._card * self.art.aspect

    def _line_height(self, line: _Line) -> float:
        has_card = any(isinstance(p.item, CardSlot) for p in line.items)
        return self._card_height if has_card else self.font_size * 1.6

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self._card = self._fit_card_width(availWidth)
        self._lines = self._layout(availWidth)
        self.width = max((line.width for line in self._lines), default=0.0)
        heights = [self._line_height(line) for line in self._lines]
        self.height = sum(heights) + LINE_GAP * max(len(heights) - 1, 0)
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        top = self.height
        for line in self._lines:
            height = self._line_height(line)
            bottom = top - height
            for placed in line.items:
                if isinstance(placed.item, CardSlot):
                    self.art.draw(canvas, placed.item.card, placed.x, bottom, self._card)
                    if placed.item.dim:
                        canvas.saveState()
                        canvas.setFillColor(white, alpha=0.55)
                        canvas.rect(placed.x, bottom, self._card, self._card_height, stroke=0, fill=1)
                        canvas.restoreState()
                    if placed.item.highlight:
                        canvas.saveState()
                        canvas.setStrokeColor(HIGHLIGHT)
                        canvas.setLineWidth(1.2)
                        pad = HIGHLIGHT_PAD
                        canvas.roundRect(placed.x - pad, bottom - pad, self._card + 2 * pad,
                                         self._card_height + 2 * pad, 1.5 * mm, stroke=1, fill=0)
                        canvas.restoreState()
                else:
                    label = placed.item
                    canvas.saveState()
                    canvas.setFont(self.fontset.bold if label.bold else self.fontset.regular, self.font_size)
                    baseline = bottom + height / 2 - self.font_size * 0.35
                    canvas.drawString(placed.x, baseline, self._label_text(label))
                    canvas.restoreState()
            top = bottom - LINE_GAP

"""Card figures for rulebooks: real card faces drawn small, and worked examples laid out as cards.

A rulebook that shows "3♠ K♥ 4♣" as text makes the reader translate back to
cards; drawing the faces with the card sheets' own layout code shows exactly
what is on the table. When the faces cannot be bound (a layout still being
written), :class:`ChipArt` draws a compact stand-in, so a rulebook never
fails for want of card art.

A figure is described as data first (:class:`FigureSpec`), so its strings can
be collected for the font subset before anything is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus.flowables import Flowable

from pnp.compose.rule_names import card_label, format_value, player_names, rank_label
from pnp.diagnostics import Report
from pnp.model.game import Example, Game
from pnp.model.sizes import CARD_PRESETS
from pnp.render.cards.deck import BoundCard, bind_game, make_painter
from pnp.render.text.fonts import FontSet
from pnp.rules.base import GameRules

CARD_OUTLINE = HexColor("#9a9a9a")
HIGHLIGHT = HexColor("#e07a00")
DIM = HexColor("#6b6b6b")
CARD_GAP = 1.8 * mm  # clears a highlighted card's outline (HIGHLIGHT_PAD) by a millimetre
HIGHLIGHT_PAD = 0.6 * mm
ROW_SHRINK = 0.8  # cards shrink to 80 % of their width before a row's groups wrap: the result stays beside its cards
GROUP_GAP = 5.0 * mm
LINE_GAP = 2.5 * mm
DEFAULT_CARD_SIZE = CARD_PRESETS["poker"]  # the chips' shape, for games whose faces cannot be drawn


# ---------------------------------------------------------------------------------------------------------------
# Card art


class CardArt(Protocol):
    """Draws one card, scaled so that it is ``width`` points wide, bottom-left corner at (x, y).

    ``fontset`` is set once the build has prepared the fonts for :meth:`texts`. The art is made
    for one language (:func:`make_card_art`), so it also carries how that language names the
    players of the examples (``player_names``, id -> name), which :class:`FigureFlowable` prints.
    """

    aspect: float  # height / width
    fontset: FontSet | None
    player_names: Mapping[str, str]

    def draw(self, canvas: Any, card_id: str, x: float, y: float, width: float) -> None: ...

    def texts(self) -> Iterable[str]: ...


@dataclass
class FaceArt:
    """The card sheets' own faces: same layout, same painter, just scaled down."""

    game: Game
    bound: Mapping[str, tuple[BoundCard, str, tuple[float, float]]]  # card id -> (card, layout, size mm)
    fontset: FontSet | None = None
    aspect: float = DEFAULT_CARD_SIZE[1] / DEFAULT_CARD_SIZE[0]
    _painter: Any = None
    player_names: Mapping[str, str] = field(default_factory=dict)

    def texts(self) -> Iterable[str]:
        yield from self.player_names.values()
        for bound, _, _ in self.bound.values():
            for element in bound.face:
                if element.type == "text":
                    yield str(element.values.get("text", ""))
                elif element.type == "pips":
                    yield str(element.values.get("symbol", ""))

    def draw(self, canvas: Any, card_id: str, x: float, y: float, width: float) -> None:
        entry = self.bound.get(card_id)
        if entry is None or self.fontset is None:
            ChipArt(self.game, self.fontset).draw(canvas, card_id, x, y, width)
            return
        if self._painter is None:
            self._painter = make_painter(self.fontset, self.game, ink_saver=False)
        card, layout, (w_mm, h_mm) = entry
        scale = width / (w_mm * mm)
        height = h_mm * mm * scale
        radius = 2.5 * mm * scale
        canvas.saveState()
        clip = canvas.beginPath()
        clip.roundRect(x, y, width, height, radius)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        trim = (0.0, 0.0, w_mm * mm, h_mm * mm)
        self._painter.draw(canvas, card.face, trim, trim, card_id, layout)
        canvas.restoreState()
        _outline(canvas, x, y, width, height, radius)


@dataclass
class ChipArt:
    """A compact stand-in: rank and suit symbol in the card's colour on a white card."""

    game: Game
    fontset: FontSet | None = None
    aspect: float = DEFAULT_CARD_SIZE[1] / DEFAULT_CARD_SIZE[0]
    player_names: Mapping[str, str] = field(default_factory=dict)

    def texts(self) -> Iterable[str]:
        yield from self.player_names.values()
        for card in self.game.all_cards():
            yield card_label(self.game, card.id)

    def draw(self, canvas: Any, card_id: str, x: float, y: float, width: float) -> None:
        height = width * self.aspect
        radius = width * 0.08
        canvas.saveState()
        canvas.setFillColor(white)
        canvas.roundRect(x, y, width, height, radius, stroke=0, fill=1)
        canvas.restoreState()
        _outline(canvas, x, y, width, height, radius)
        card = self.game.card(card_id)
        colour = _card_colour(self.game, card_id)
        rank = rank_label(self.game, card.rank) if card and card.rank is not None else card_id
        suit = self.game.suits.get(card.suit) if card and card.suit else None
        canvas.saveState()
        canvas.setFillColor(colour)
        font = self.fontset.bold if self.fontset else canvas._fontname
        canvas.setFont(font, width * 0.42)
        canvas.drawCentredString(x + width / 2, y + height * 0.5, rank)
        if suit and suit.symbol:
            canvas.setFont(font, width * 0.36)
            canvas.drawCentredString(x + width / 2, y + height * 0.18, suit.symbol)
        canvas.restoreState()


def _outline(canvas: Any, x: float, y: float, width: float, height: float, radius: float) -> None:
    canvas.saveState()
    canvas.setStrokeColor(CARD_OUTLINE)
    canvas.setLineWidth(0.4)
    canvas.roundRect(x, y, width, height, radius, stroke=1, fill=0)
    canvas.restoreState()


def _card_colour(game: Game, card_id: str) -> Color:
    card = game.card(card_id)
    colour_id = card.colour if card else None
    if card and not colour_id and card.suit in game.suits:
        colour_id = game.suits[card.suit].colour
    term = game.colours.get(colour_id) if colour_id else None
    return HexColor(term.rgb) if term and term.rgb else HexColor("#1a1a1a")


def make_card_art(game: Game, rules: GameRules, lang: str, report: Report) -> CardArt:
    """Real faces when every layout binds; otherwise chips, with a warning saying why.

    Either way the art knows how ``lang`` names the examples' players (examples.toml
    ``[player_names.<lang>]``), so the figures print the same names as the rule text.
    """
    names = player_names(game, lang)
    bind_report = Report()
    try:
        bound = bind_game(game, rules, lang, bind_report)
    except Exception as exc:  # the deck renderer is young; a rulebook must not die with it
        report.warning(f"card faces could not be drawn ({type(exc).__name__}: {exc}); the rulebook shows "
                       "simple card chips instead", game.path)
        return ChipArt(game, player_names=names)
    if bind_report.errors:
        report.warning("card layouts have errors (see pnp check); the rulebook shows simple card chips instead",
                       game.path)
        return ChipArt(game, player_names=names)
    faces: dict[str, tuple[BoundCard, str, tuple[float, float]]] = {}
    for component in bound.values():
        size = component.component.trim_mm
        for card in component.cards:
            faces.setdefault(card.card.id, (card, component.face_layout, size))
    return FaceArt(game, faces, player_names=names)


# ---------------------------------------------------------------------------------------------------------------
# Figure specifications


@dataclass(frozen=True)
class CardSlot:
    card: str
    highlight: bool = False  # drawn with a coloured frame: the goal card, a card set aside
    dim: bool = False  # drawn faded: a card lying face down at the end of a trick


@dataclass(frozen=True)
class Label:
    """A caption. ``player``: the example's player id this caption ends with ("\u2192 Bob"); the
    figure prints it as the book's language names that player (:meth:`shown`)."""

    text: str
    bold: bool = False
    player: str | None = field(default=None, compare=False)

    def shown(self, names: Mapping[str, str]) -> str:
        """The caption as printed: the player's id swapped for its name in ``names``, if it has one."""
        if self.player and self.player in names and self.text.endswith(self.player):
            return self.text[: len(self.text) - len(self.player)] + names[self.player]
        return self.text


Item = CardSlot | Label
Group = tuple[Item, ...]  # never split across lines


@dataclass(frozen=True)
class FigureSpec:
    """Rows of groups; the groups of a row flow onto further lines when the page is narrow."""

    rows: tuple[tuple[Group, ...], ...]

    def texts(self) -> Iterator[str]:
        for row in self.rows:
            for group in row:
                for item in group:
                    if isinstance(item, Label):
                        yield item.text


def example_figure(game: Game, example: Example, result: Mapping[str, Any] | None) -> FigureSpec:
    """The figure for one worked example: its cards, then the recomputed result."""
    builder = FIGURES.get(example.kind, _generic_figure)
    return builder(game, example, result or {})


def _cards_in(game: Game, value: Any) -> list[str]:
    items = value if isinstance(value, list | tuple) else [value]
    return [str(item) for item in items if isinstance(item, str) and game.card(item) is not None]


def _generic_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """Every card named in the inputs, grouped by input, then "= value" when the result has one."""
    groups = [tuple(CardSlot(c) for c in _cards_in(game, value)) for value in example.inputs.values()]
    groups = [group for group in groups if group]
    # the headline number of a result: a value (Two Ops) or a price (Rudy)
    headline = next((key for key in ("value", "price", "total") if key in result), None)
    if headline is not None:
        groups.append((Label("= " + format_value(result[headline]), bold=True),))
    return FigureSpec((tuple(groups),))


def _operation_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """number, operator, number = value: one row, as the cards lie on the table."""
    numbers = _cards_in(game, example.inputs.get("numbers"))
    operator = _cards_in(game, example.inputs.get("operator"))
    if len(numbers) != 2 or len(operator) != 1:
        return _generic_figure(game, example, result)
    group: Group = (CardSlot(numbers[0]), CardSlot(operator[0]), CardSlot(numbers[1]),
                    Label("= " + format_value(result.get("value", "?")), bold=True))
    return FigureSpec(((group,),))


_OPERATION_TEXT = re.compile(r"^\s*(\S+)\s+(\S+)\s+(\S+)\s*=\s*(\S+)\s*$")
_SUM_AIMS = {"lowest-sum", "highest-sum"}


def _solve_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """The hand and the goal card, then the best layout the solver found and how it scores."""
    numbers = _cards_in(game, example.inputs.get("numbers"))
    operators = _cards_in(game, example.inputs.get("operators"))
    goal = _cards_in(game, example.inputs.get("goal"))
    hand: tuple[Group, ...] = (
        tuple(CardSlot(c) for c in numbers),
        tuple(CardSlot(c) for c in operators),
        (Label("\u25b6"), *(CardSlot(c, highlight=True) for c in goal)),
    )
    operations = []
    for text in result.get("operations", []):
        match = _OPERATION_TEXT.match(str(text))
        if match is None:
            operations.append((Label(str(text)),))
            continue
        left, operator, right, value = match.groups()
        operations.append((CardSlot(left), CardSlot(operator), CardSlot(right),
                           Label("= " + format_value(value), bold=True)))
    values = [m.group(4) for m in (_OPERATION_TEXT.match(str(t)) for t in result.get("operations", [])) if m]
    total = format_value(result.get("value", "?"))
    if len(values) == 2 and result.get("aim") in _SUM_AIMS:
        summary = f"{format_value(values[0])} + {_bracketed(values[1])} = {total}"
    elif len(values) == 2:
        summary = f"|{format_value(values[0])} \u2212 {_bracketed(values[1])}| = {total}"
    else:
        summary = f"= {total}"
    layout = (*operations, (Label("\u21d2 " + summary, bold=True),))
    return FigureSpec((hand, tuple(layout)))


def _bracketed(value: Any) -> str:
    """A value as the second term of a sum or difference: a negative one in brackets."""
    text = format_value(value)
    return f"({text})" if text.startswith("\u2212") else text


def _trick_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """The cards in play order, each under its player's name when the example names players; the
    winner's card framed, the others faded (in Take Over That Job they end face down).

    The names are the ids of ``inputs.players``; :class:`FigureFlowable` prints them as the
    rulebook's language writes them (examples.toml ``[player_names.<lang>]``)."""
    plays = _cards_in(game, example.inputs.get("plays"))
    if not plays or "winner" not in result:
        return _generic_figure(game, example, result)
    names = example.inputs.get("players")
    names = names if isinstance(names, list) and len(names) == len(plays) else None
    winner = result["winner"]
    if isinstance(winner, str) and names and winner in names:
        winner_index = names.index(winner)
    elif isinstance(winner, int) and 0 <= winner < len(plays):
        winner_index = winner
    else:
        return _generic_figure(game, example, result)
    groups: list[Group] = []
    trump = example.inputs.get("trump")
    if isinstance(trump, str) and game.card(f"marker-{trump}") is not None:
        groups.append((CardSlot(f"marker-{trump}"),))  # the trump marker, as it lies on the table
    for index, card in enumerate(plays):
        slot = CardSlot(card, highlight=index == winner_index, dim=index != winner_index)
        groups.append((Label(str(names[index]), player=str(names[index])), slot) if names else (slot,))
    if names:  # without names the framed card says it all; a bare seat number would be misread
        winner_name = str(names[winner_index])
        groups.append((Label("\u2192 " + winner_name, bold=True, player=winner_name),))
    return FigureSpec((tuple(groups),))


def _follow_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """The lead card, then the hand: the cards that may be played framed, the others faded."""
    lead = _cards_in(game, example.inputs.get("lead"))
    hand = _cards_in(game, example.inputs.get("hand"))
    legal = set(_cards_in(game, result.get("legal", [])))
    if len(lead) != 1 or not hand:
        return _generic_figure(game, example, result)
    return FigureSpec((((CardSlot(lead[0]),), (Label("\u25b6"),),
                        tuple(CardSlot(card, highlight=card in legal, dim=card not in legal) for card in hand)),))


#: example kind -> figure builder; kinds not listed get the generic figure
FIGURES = {"operation": _operation_figure, "solve": _solve_figure, "trick": _trick_figure,
           "follow": _follow_figure}


# ---------------------------------------------------------------------------------------------------------------
# The flowable


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


def figure_texts(game: Game, examples: Sequence[Example], results: Mapping[str, Any]) -> list[str]:
    """Every string the example figures print, for the font subset."""
    texts = ["0123456789 /=+|\u2212\u25b6\u21d2()"]
    for example in examples:
        texts.extend(example_figure(game, example, results.get(example.id)).texts())
    return texts

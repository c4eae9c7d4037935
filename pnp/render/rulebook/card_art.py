"""The cards a rulebook figure shows: the card sheets' own faces drawn small, or chips in their stead.

Real faces need every layout to bind and every picture to be there; when they do not (a layout
still being written), :class:`ChipArt` draws a compact stand-in, so a rulebook never fails for
want of card art. Apart from the figures (pnp/render/rulebook/figures.py), which only place
cards, because this is where the rulebook reaches down into card binding and drawing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm

from pnp.compose.deck import BoundCard, BoundComponent, bind_components
from pnp.compose.rule_names import card_label, player_names, rank_label
from pnp.diagnostics import Report
from pnp.model.game import Game
from pnp.model.layout import load_library
from pnp.model.sizes import CARD_PRESETS
from pnp.render.cards.deck import make_painter, ready_to_draw
from pnp.render.text.fonts import FontSet
from pnp.rules.base import GameRules

CARD_OUTLINE = HexColor("#9a9a9a")


DEFAULT_CARD_SIZE = CARD_PRESETS["poker"]  # the chips' shape, for games whose faces cannot be drawn


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
    try:
        bound = _drawable_faces(game, rules, lang)
    except Exception as exc:  # the deck renderer is young; a rulebook must not die with it
        report.warning(f"card faces could not be drawn ({type(exc).__name__}: {exc}); the rulebook shows "
                       "simple card chips instead", game.path)
        return ChipArt(game, player_names=names)
    if bound is None:
        report.warning("card layouts have errors (see pnp check); the rulebook shows simple card chips instead",
                       game.path)
        return ChipArt(game, player_names=names)
    faces: dict[str, tuple[BoundCard, str, tuple[float, float]]] = {}
    for component in bound:
        size = component.component.trim_mm
        for card in component.cards:
            faces.setdefault(card.card.id, (card, component.face_layout, size))
    return FaceArt(game, faces, player_names=names)


def _drawable_faces(game: Game, rules: GameRules, lang: str) -> list[BoundComponent] | None:
    """The components bound and ready to draw, or None when any layout or card art has an error:
    pnp check words those; a rulebook only needs to know that its faces cannot all be drawn."""
    layout_errors = Report()
    library = load_library(game.path, layout_errors)
    found = ready_to_draw(game, bind_components(game, rules, lang, library))
    if layout_errors.errors or any(item.bound is None or item.has_errors for item in found):
        return None
    return [item.bound for item in found if item.bound is not None]

"""Card faces for one game and language: bind layouts, prepare fonts, draw.

A :class:`DeckRenderer` is built once per (game, language). It resolves every
card's layout up front, so the fonts can be subset to exactly the characters
printed and every layout problem is known before the first page is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from pnp.diagnostics import DataError, Report
from pnp.model.game import Card, Component, Game
from pnp.render.bind import Binder, BindError, Resolved, card_context, image_path
from pnp.render.faces import FacePainter, IconShelf, Rect, TextIssue
from pnp.render.fonts import FontSet, prepare_fonts
from pnp.render.layout import Layout, LayoutLibrary, load_library, text_outside_safe_zone
from pnp.rules.base import GameRules

DEFAULT_FACE = {"cards": "default-face", "tokens": "token-face"}
DEFAULT_BACK = {"cards": "default-back", "tokens": "token-back"}
MIN_DPI = 300


@dataclass
class BoundCard:
    card: Card
    face: list[Resolved]
    back: list[Resolved]


@dataclass
class BoundComponent:
    component: Component
    face_layout: str
    back_layout: str
    cards: list[BoundCard] = field(default_factory=list)

    def texts(self) -> Iterable[str]:
        for bound in self.cards:
            for element in (*bound.face, *bound.back):
                if element.type == "text":
                    yield str(element.values.get("text", ""))


def face_layout_name(component: Component) -> str:
    return component.face or DEFAULT_FACE.get(component.kind, "default-face")


def back_layout_name(component: Component) -> str:
    return component.back or DEFAULT_BACK.get(component.kind, "default-back")


def bind_game(game: Game, rules: GameRules, lang: str, report: Report, ink_saver: bool = False,
              library: LayoutLibrary | None = None) -> dict[str, BoundComponent]:
    """Resolve every printed component's cards; problems go to ``report``."""
    library = library or load_library(game.path, report)
    binder = Binder(game)
    generated = rules.card_texts(game, lang)
    bound: dict[str, BoundComponent] = {}
    for component in game.components.values():
        if not component.printed or not component.cards:
            continue
        layouts = {}
        for role, name in (("face", face_layout_name(component)), ("back", back_layout_name(component))):
            layout = library.get(name)
            if layout is None:
                line = component.source.line if component.source else None
                report.error(f"component {component.id!r}: unknown {role} layout {name!r}",
                             game.manifest.path if game.manifest else None, line,
                             f"available: {', '.join(library.names())}; or add layouts/{name}.toml to the game")
            else:
                layouts[role] = layout
                _warn_safe_zone(layout, component, report)
        if len(layouts) < 2:
            continue
        result = BoundComponent(component, layouts["face"].name, layouts["back"].name)
        for card in component.cards:
            context = card_context(game, component, card, lang, generated, ink_saver)
            try:
                face = binder.resolve(layouts["face"], context)
                back = binder.resolve(layouts["back"], context)
            except BindError as exc:
                report.error(f"layout {exc.layout.name!r}, card {card.id!r}: {exc}",
                             Path(exc.layout.path), exc.element.line,
                             "fix the expression, or the card data it reads")
                continue
            try:
                for element in (*face, *back):
                    if element.type == "image":
                        _prepare_image(game, component, card, element, report)
            except DataError as exc:
                report.diagnostics.append(exc.diagnostic)
                continue
            result.cards.append(BoundCard(card, face, back))
        bound[component.id] = result
    return bound


def _warn_safe_zone(layout: Layout, component: Component, report: Report) -> None:
    if component.size is None:
        return
    for element in text_outside_safe_zone(layout, *component.size):
        report.warning(f"layout {layout.name!r}: text box reaches within {layout.safe_zone:g} mm of the trim "
                       f"(component {component.id!r}); a print shop's cut may clip it",
                       Path(layout.path), element.line, "move the box inside the safe zone")


def _prepare_image(game: Game, component: Component, card: Card, element: Resolved, report: Report) -> None:
    src = str(element.values.get("src", ""))
    try:
        path = image_path(game, src)
    except ValueError as exc:
        raise DataError(f"card {card.id!r}: {exc}", card.source.file if card.source else None,
                        card.source.line if card.source else None) from None
    if not path.is_file():
        raise DataError(f"card {card.id!r}: image {src!r} not found", card.source.file if card.source else None,
                        card.source.line if card.source else None, "add the file, or fix the path")
    with Image.open(path) as image:
        pixels = image.size
    element.values["src"] = path
    element.values["pixel_size"] = pixels
    width_mm = element.values.get("w", component.size[0] if component.size else 63.5)
    dpi = pixels[0] / (width_mm / 25.4)
    if dpi < MIN_DPI:
        report.warning(f"card {card.id!r}: image {src!r} prints at {dpi:.0f} dpi (below {MIN_DPI})",
                       card.source.file if card.source else None, card.source.line if card.source else None,
                       f"supply at least {int(width_mm / 25.4 * MIN_DPI) + 1} pixels across")


def fonts_for(texts: Iterable[str], cache_dir: Path) -> FontSet:
    return prepare_fonts(texts, cache_dir)


@dataclass
class DeckRenderer:
    """Draw callbacks for the imposition, for one bound component."""

    bound: BoundComponent
    painter: FacePainter

    def draw_face(self, canvas, card: BoundCard, trim, bleed) -> None:
        self.painter.draw(canvas, card.face, _tuple(trim), _tuple(bleed), card.card.id, self.bound.face_layout)

    def draw_back(self, canvas, card: BoundCard, trim, bleed) -> None:
        self.painter.draw(canvas, card.back, _tuple(trim), _tuple(bleed), card.card.id, self.bound.back_layout)

    @property
    def issues(self) -> list[TextIssue]:
        return self.painter.issues


def _tuple(rect) -> Rect:
    """The imposition's Rect (points) as the painter's (x, y, width, height)."""
    return (rect.x, rect.y, rect.width, rect.height) if not isinstance(rect, tuple) else rect


def expand_copies(bound: BoundComponent, only: Sequence[str] = ()) -> list[BoundCard]:
    """One entry per printed copy, in card-list order; ``only`` reprints chosen ids."""
    chosen = [b for b in bound.cards if not only or b.card.id in only]
    return [b for b in chosen for _ in range(b.card.count)]


def make_painter(fontset: FontSet, game: Game, ink_saver: bool) -> FacePainter:
    return FacePainter(fontset=fontset, icons=IconShelf([game.path / "icons"]), ink_saver=ink_saver)

"""Every printed card bound to its face and back layouts: what each element of each card says.

Binding is composing: the layouts' templates are evaluated for each card in the sandbox
(:class:`pnp.compose.bind.Binder`), nothing is read from a picture and nothing is drawn. It
reports nothing either. What does not bind (a layout name no file has, an expression that fails
for a card) is kept beside the card, so that the validate stage can word every problem at its
line in one run (pnp/validate/card_layouts.py), and render draws only cards that bound cleanly.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from pnp.compose.bind import Binder, BindError, Resolved, TextsInError, card_context
from pnp.compose.image_paths import forget_resolved_folders
from pnp.compose.sandbox import time_limit
from pnp.model.game import Card, Component, Game
from pnp.model.layout import Layout, LayoutLibrary
from pnp.rules.base import GameRules

DEFAULT_FACE = {"cards": "default-face", "tokens": "token-face"}
DEFAULT_BACK = {"cards": "default-back", "tokens": "token-back"}


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
        """Every string the cards draw as glyphs, so the font subset covers each one."""
        for bound in self.cards:
            for element in (*bound.face, *bound.back):
                if element.type == "text":
                    yield str(element.values.get("text", ""))
                elif element.type == "pips" and element.values.get("symbol"):
                    yield str(element.values["symbol"])


def face_layout_name(component: Component) -> str:
    return component.face or DEFAULT_FACE.get(component.kind, "default-face")


def back_layout_name(component: Component) -> str:
    return component.back or DEFAULT_BACK.get(component.kind, "default-back")


@dataclass(frozen=True)
class LayoutProblem:
    """A problem at a line of a layout, the same for every card it hits: reported once, naming them."""

    layout: str
    path: str
    line: int | None
    message: str
    fix: str | None
    static: bool = False  # a value that reads no card: the same mistake for every card


@dataclass
class CardBinding:
    """One card's elements as bound, and every element that did not bind (face and back alike)."""

    card: Card
    face: list[Resolved]
    back: list[Resolved]
    mistakes: list[BindError]


@dataclass
class Side:
    """The layout a component names for one side, and the layout found for the name (None: no such layout)."""

    role: str  # "face" or "back"
    name: str
    layout: Layout | None


@dataclass
class ComponentBinding:
    """A component's two sides and, when both layouts exist, each of its cards bound to them."""

    component: Component
    sides: list[Side]
    cards: list[CardBinding] = field(default_factory=list)

    def layout(self, role: str) -> Layout:
        return next(side.layout for side in self.sides if side.role == role and side.layout is not None)

    @property
    def bindable(self) -> bool:
        return all(side.layout is not None for side in self.sides)


def bind_components(game: Game, rules: GameRules, lang: str, library: LayoutLibrary, ink_saver: bool = False,
                    components: tuple[str | None, ...] | None = None,
                    leave_out: Collection[str] = ()) -> list[ComponentBinding]:
    """Bind every printed component's cards (or only ``components``'), but those ``leave_out`` names.

    A card whose terms are unknown, or whose card list's fields are not known, is not bound: its
    problem is reported where it was found, and its faces would fail on it again.
    """
    forget_resolved_folders()
    binder = Binder(game)
    generated = rules.card_texts(game, lang)
    if rules.data_has_errors(game):
        generated = TextsInError(generated)
    found: list[ComponentBinding] = []
    for component in game.components.values():
        if not component.printed or not component.cards:
            continue
        if components is not None and component.id not in components:
            continue
        sides = [Side(role, name, library.get(name))
                 for role, name in (("face", face_layout_name(component)), ("back", back_layout_name(component)))]
        binding = ComponentBinding(component, sides)
        found.append(binding)
        if not binding.bindable:
            continue
        face_layout, back_layout = binding.layout("face"), binding.layout("back")
        with time_limit(running=False) as clock:  # each card's layouts get their own time (10 s)
            for card in component.cards:
                if card.id in leave_out or game.names_unknown_terms(card) or not component.fields_known:
                    continue  # a misspelt term or unreadable fields are reported; its faces would fail on them
                context = card_context(game, component, card, lang, generated, ink_saver)
                mistakes: list[BindError] = []  # every element in error, face and back: all said at once
                with clock:
                    face = binder.resolve(face_layout, context, mistakes)
                    back = binder.resolve(back_layout, context, mistakes)
                binding.cards.append(CardBinding(card, face, back, mistakes))
    return found


def layout_problem(exc: BindError) -> LayoutProblem:
    """A binding mistake as the problem of its layout's line."""
    return LayoutProblem(exc.layout.name, exc.layout.path, exc.line, str(exc),
                         "fix this value of the layout" if exc.static
                         else "fix the expression, or the card data it reads", static=exc.static)

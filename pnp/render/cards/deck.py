"""Card faces for one game and language: bind layouts, prepare fonts, draw.

A :class:`DeckRenderer` is built once per (game, language). It resolves every
card's layout up front, so the fonts can be subset to exactly the characters
printed and every layout problem is known before the first page is drawn.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.compose.bind import (
    Binder,
    BindError,
    Resolved,
    TextsInError,
    card_context,
    forget_resolved_folders,
)
from pnp.compose.sandbox import time_limit
from pnp.diagnostics import CardErrors, DataError, Diagnostic, Level, Report, listed
from pnp.model.game import Card, Component, Game, where
from pnp.model.layout import Element, Layout, LayoutLibrary, load_library, text_outside_safe_zone
from pnp.render.cards.art import (
    prepare_image,
    warn_art_without_bleed,
    warn_low_resolution,
    warn_svg_left_out,
)
from pnp.render.cards.faces import FacePainter, IconShelf, Rect, TextIssue
from pnp.render.cards.forms import SidePlan, form_box, shelf_of
from pnp.render.cards.ink_saver import on_white_paper
from pnp.render.cards.textbox import parse_card_markup
from pnp.render.text.fonts import FontSet
from pnp.rules.base import GameRules

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

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


def bind_game(game: Game, rules: GameRules, lang: str, report: Report, ink_saver: bool = False,
              library: LayoutLibrary | None = None,
              components: tuple[str | None, ...] | None = None,
              leave_out: Collection[str] = ()) -> dict[str, BoundComponent]:
    """Resolve every printed component's cards (or only ``components``), but those ``leave_out`` names;
    problems go to ``report``."""
    library = library or load_library(game.path, report)
    forget_resolved_folders()
    binder = Binder(game)
    shelf = IconShelf([game.path / "icons"])
    generated = rules.card_texts(game, lang)
    if rules.data_has_errors(game):
        generated = TextsInError(generated)
    bound: dict[str, BoundComponent] = {}
    for component in game.components.values():
        if not component.printed or not component.cards:
            continue
        if components is not None and component.id not in components:
            continue
        layouts = {}
        for role, name in (("face", face_layout_name(component)), ("back", back_layout_name(component))):
            layout = library.get(name)
            if layout is None and name in library.in_error:
                continue  # its file is there, with errors reported at their lines: not "unknown" too
            if layout is None:
                line = component.source.line if component.source else None
                if game.manifest is not None:  # the face = or back = line, where the name was written
                    line = game.manifest.line_of("components", component.id, role) or line
                report.error(f"component {component.id!r}: unknown {role} layout {name!r}",
                             game.manifest.path if game.manifest else None, line,
                             f"available: {', '.join(library.names())}; or add layouts/{name}.toml to the game")
            else:
                layouts[role] = layout
                _warn_safe_zone(layout, component, report)
        if len(layouts) < 2:
            continue
        result = BoundComponent(component, layouts["face"].name, layouts["back"].name)
        failed: dict[LayoutProblem, list[str]] = {}  # one layout problem, the cards it hits
        pictures = CardErrors()  # problems of the cards' own pictures
        with time_limit(running=False) as clock:  # each card's layouts get their own time (10 s)
            for card in component.cards:
                if card.id in leave_out or game.names_unknown_terms(card) or not component.fields_known:
                    continue  # a misspelt term or unreadable fields are reported; its faces would fail on them
                context = card_context(game, component, card, lang, generated, ink_saver)
                mistakes: list[BindError] = []  # every element in error, face and back: all said at once
                with clock:
                    face = binder.resolve(layouts["face"], context, mistakes)
                    back = binder.resolve(layouts["back"], context, mistakes)
                for exc in mistakes:
                    key = LayoutProblem(exc.layout.name, exc.layout.path, exc.line, str(exc),
                                        "fix this value of the layout" if exc.static
                                        else "fix the expression, or the card data it reads", static=exc.static)
                    failed.setdefault(key, []).append(card.id)
                # the elements that did resolve are still checked (a missing image beside a misspelt
                # colour): every mistake of a layout in one run
                problems = [problem for role, elements in (("face", face), ("back", back))
                            for problem in _check_elements(game, component, card, layouts[role], elements, shelf,
                                                           report)]
                for problem in problems:
                    if isinstance(problem, LayoutProblem):  # the layout's: one error for all the cards it hits
                        failed.setdefault(problem, []).append(card.id)
                    else:  # the card's own picture: at its row in the card list (a missing folder once for all)
                        pictures.add(problem.message.removeprefix(f"card {card.id!r}: "), problem.file, problem.line,
                                     problem.fix, card.id)
                if problems or mistakes:
                    continue
                if ink_saver:
                    size = component.trim_mm
                    face, back = on_white_paper(face, size), on_white_paper(back, size)
                result.cards.append(BoundCard(card, face, back))
        pictures.report_to(report)
        _report_layout_problems(failed, len(component.cards), report)
        warn_low_resolution(game, result, report)
        warn_art_without_bleed(result, report)
        warn_svg_left_out(game, result, report)
        bound[component.id] = result
    return bound


CARDS_NAMED = 4
SAME_LINE_SHOWN = 6  # distinct problems one layout line gives different cards, said in one error


def _report_layout_problems(failed: dict[LayoutProblem, list[str]], cards: int, report: Report) -> None:
    """One error per layout line. A value that differs by card fails differently on each: "{{ colour.icon
    }}x" was four errors, "unknown icon 'starx'", "'moonx'"..., for one typo; they are said together."""
    by_line: dict[tuple, list[tuple[LayoutProblem, list[str]]]] = {}
    for problem, card_ids in failed.items():
        by_line.setdefault((problem.layout, problem.path, problem.line), []).append((problem, card_ids))
    for (layout, path, line), found in by_line.items():
        fix = found[0][0].fix  # the first card's: the others differ only in the name they would add
        card_ids = [card_id for _, ids in found for card_id in ids]
        every = len(card_ids) == cards
        hit = "" if all(problem.static for problem, _ in found) and every else f", {cards_named(card_ids)}"
        messages = [problem.message for problem, _ in found]  # each kept: they may be different mistakes
        message = " / ".join(messages[:SAME_LINE_SHOWN])
        if len(messages) > SAME_LINE_SHOWN:
            message += f" / and {len(messages) - SAME_LINE_SHOWN} more"
        report.error(f"layout {layout!r}{hit}: {message}", Path(path), line, fix)


def cards_named(card_ids: list[str]) -> str:
    """"card 'red-1'", or "cards 'red-1', 'red-2', 'red-3', 'red-4' and 6 more": a problem of the
    layout itself (a typo in an expression) hits every card the same way, and is one problem."""
    if len(card_ids) == 1:
        return f"card {card_ids[0]!r}"
    return "cards " + listed((repr(card_id) for card_id in card_ids), CARDS_NAMED)


@dataclass(frozen=True)
class LayoutProblem:
    """A problem at a line of a layout, the same for every card it hits: reported once, naming them."""

    layout: str
    path: str
    line: int | None
    message: str
    fix: str | None
    static: bool = False  # a value that reads no card: the same mistake for every card


def _check_elements(game: Game, component: Component, card: Card, layout: Layout, elements: list[Resolved],
                    shelf: IconShelf, report: Report) -> list[Diagnostic | LayoutProblem]:
    """Everything that would otherwise fail mid-drawing: images, markup, icon names.

    A problem of the card's own picture is a Diagnostic at its row in the card list; one of the
    layout (a markup error, an unknown icon) a LayoutProblem at the key's line, which `bind_game`
    reports once for all the cards it hits.
    """
    problems: list[Diagnostic | LayoutProblem] = []
    for element in elements:
        try:
            if element.type == "image":
                prepare_image(game, component, card, element, report, one_file=_src_is_literal(layout, element))
            elif element.type == "text":
                text = str(element.values.get("text", ""))
                if _MARKUP_CHARS.intersection(text):  # plain text cannot hold a markup error
                    parse_card_markup(text, shelf, style=str(element.values.get("font", "regular")))
            elif element.type in ("icon", "pips") and element.values.get("name" if element.type == "icon" else "icon"):
                name = str(element.values.get("name" if element.type == "icon" else "icon")).strip()
                if name and name not in shelf:
                    shelf.icon(name)  # raises the DataError with close matches
        except DataError as exc:
            found = exc.diagnostic
            message = found.message if f"card {card.id!r}" in found.message else f"card {card.id!r}: {found.message}"
            if found.file is not None and element.type == "image" and not _src_is_literal(layout, element):
                # the card's own picture (its image field, images/<id>, a src made from card fields):
                # fixed in the card list or the art folder, not in the layout, which may be built in;
                # point at the card (or the art file), and say which layout asked
                problems.append(Diagnostic(
                    Level.ERROR, f"{message} (layout {Path(layout.path).name}, line {element.line})",
                    found.file, found.line, found.fix))
                continue
            key = {"text": "text", "icon": "name", "pips": "icon"}.get(element.type)
            raw = _written(layout, element)
            line = raw.line_of(key) if raw is not None else element.line
            said = found.message.replace(f"card {card.id!r}: ", "", 1)
            if (element.type == "text" and raw is not None and card.source is not None
                    and _reads_the_card(raw) and not _written_text_fails(raw, shelf, element)):
                # the markup the card's own text brings (":coins:", an unclosed "**" in text.en): fixed in
                # the card list, so said at its row, naming the layout line that prints it
                problems.append(Diagnostic(Level.ERROR, f"{message} (printed by layout {Path(layout.path).name}, "
                                           f"line {line})", *where(card.source), found.fix))
                continue
            if element.type == "text" and raw is not None and _written_text_fails(raw, shelf, element):
                # the layout's own text is at fault, whatever each card fills in: quote it as written,
                # so that every card it hits is one error ("in '**Red 1'", "in '**Red 2'"... were ten)
                resolved = str(element.values.get("text", ""))
                said = said.replace(repr(resolved), repr(str(raw.values.get("text", ""))))
            problems.append(LayoutProblem(layout.name, layout.path, line, said, found.fix))
    return problems


_PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)


def _reads_the_card(raw: Element) -> bool:
    """Whether a text element's template prints something of the card (its text, name or fields)."""
    written = raw.values.get("text")
    return isinstance(written, str) and "card." in written


def _written_text_fails(raw: Element, shelf: IconShelf, element: Resolved) -> bool:
    """Whether a text element's markup fails as the layout writes it, each placeholder a plain word."""
    written = raw.values.get("text")
    if not isinstance(written, str):
        return False
    try:
        parse_card_markup(_PLACEHOLDER.sub("x", written), shelf, style=str(element.values.get("font", "regular")))
    except DataError:
        return True
    return False


def _written(layout: Layout, element: Resolved) -> Element | None:
    """The layout's element as written (its keys' lines, its unevaluated values) for a resolved one."""
    return next((e for e in layout.elements if e.line == element.line), None)


def _src_is_literal(layout: Layout, element: Resolved) -> bool:
    """Whether the layout names one file for every card (then the layout is what to fix)."""
    raw = _written(layout, element)
    src = raw.values.get("src") if raw is not None else None
    return isinstance(src, str) and "{" not in src


#: the characters card markup is made of (``**bold**``, ``:icon:``, ``\`` escapes)
_MARKUP_CHARS = frozenset("*:\\")


def _warn_safe_zone(layout: Layout, component: Component, report: Report) -> None:
    if component.size is None:
        return
    for element in text_outside_safe_zone(layout, *component.size):
        report.warning(f"layout {layout.name!r}: text box reaches within {layout.safe_zone:g} mm of the trim "
                       f"(component {component.id!r}); a print shop's cut may clip it",
                       Path(layout.path), element.line, "move the box inside the safe zone")


_renderer_numbers = itertools.count()


@dataclass
class DeckRenderer:
    """Draw callbacks for the imposition, for one bound component.

    What a card's side shares with other cards of the deck is drawn once per document as a form and
    placed wherever it repeats (pnp/render/cards/forms.py); what is the card's own, such as its name, is
    drawn in place. ``share_forms=False`` draws every element of every card.
    """

    bound: BoundComponent
    painter: FacePainter
    share_forms: bool = True
    _plans: dict[tuple, SidePlan] = field(default_factory=dict, repr=False)
    _slots: dict[str, set[Rect]] = field(default_factory=dict, repr=False)  # trims drawn at, by side
    _sheet_known: set[str] = field(default_factory=set, repr=False)  # sides whose slots have all been seen
    # in form keys, stands for this renderer's painter (fonts, ink saver) and its numbering of elements
    _number: int = field(default_factory=lambda: next(_renderer_numbers), repr=False)

    def draw_face(self, canvas: Canvas, card: BoundCard, trim: Rect, bleed: Rect) -> None:
        self._draw_side(canvas, "face", card, _tuple(trim), _tuple(bleed))

    def draw_back(self, canvas: Canvas, card: BoundCard, trim: Rect, bleed: Rect) -> None:
        self._draw_side(canvas, "back", card, _tuple(trim), _tuple(bleed))

    @property
    def issues(self) -> list[TextIssue]:
        return self.painter.issues

    def _draw_side(self, canvas: Canvas, side: str, card: BoundCard, trim: Rect, bleed: Rect) -> None:
        elements: list[Resolved] = card.face if side == "face" else card.back
        painter = self.painter
        if not self.share_forms:
            painter.draw(canvas, elements, trim, bleed, card.card.id, self._layout(side))
            return
        side_plan = self._side_plan(side, trim)
        plan = side_plan.card(card, elements)
        slots = self._slots.setdefault(side, set())
        if trim in slots:
            self._sheet_known.add(side)  # a slot comes round again: the first sheet is done
        else:
            slots.add(trim)
        share = side in self._sheet_known
        shelf = shelf_of(canvas)
        for start, stop, run, reaches_bleed in plan.pieces:
            # the first sheet is drawn in place: until it is done, how often each slot repeats is unknown
            if run is None or not share or not side_plan.sharing.worth_a_form(run, len(slots)):
                for element in elements[start:stop]:
                    painter.paint(canvas, element, trim, bleed)
                continue
            # a form is drawn in page coordinates, so it belongs to one slot: the trim is in its key
            key = (self._number, side, run, trim, bleed if reaches_bleed else None)
            name = shelf.names.get(key)
            if name is None:
                paint = self._painting(elements[start:stop], trim, bleed)
                name = shelf.name_for(canvas, key, paint, form_box(trim, bleed))
            canvas.doForm(name)
        for index, problem in plan.problems:
            element = elements[index]
            painter.issues.append(TextIssue(card.card.id, self._layout(side), element.line,
                                            str(element.values.get("text", "")), *problem))

    def _layout(self, side: str) -> str:
        return self.bound.face_layout if side == "face" else self.bound.back_layout

    def _painting(self, run: Sequence[Resolved], trim: Rect, bleed: Rect) -> Callable[[object], None]:
        def paint(canvas: Canvas) -> None:
            for element in run:
                self.painter.paint(canvas, element, trim, bleed)
        return paint

    def _side_plan(self, side: str, trim: Rect) -> SidePlan:
        """Planned once per side and card size, counting the whole deck."""
        plan = self._plans.get((side, trim[2], trim[3]))
        if plan is None:
            sides = [(bound, bound.face if side == "face" else bound.back, bound.card.count)
                     for bound in self.bound.cards]
            plan = self._plans[(side, trim[2], trim[3])] = SidePlan.of_deck(self.painter, trim, sides)
        return plan


def _tuple(rect: Sequence[float]) -> Rect:
    """The imposition's Rect (points) as the painter's (x, y, width, height)."""
    return (rect.x, rect.y, rect.width, rect.height) if not isinstance(rect, tuple) else rect


def chosen_cards(bound: BoundComponent, only: Sequence[str] = ()) -> list[BoundCard]:
    """The cards to print, in card-list order: all of them, or the ids ``--only`` reprints."""
    return [b for b in bound.cards if not only or b.card.id in only]


def expand_copies(bound: BoundComponent, only: Sequence[str] = ()) -> list[BoundCard]:
    """One entry per printed copy, in card-list order; ``only`` reprints chosen ids."""
    return [b for b in chosen_cards(bound, only) for _ in range(b.card.count)]


def make_painter(fontset: FontSet, game: Game, ink_saver: bool, recompress: bool = False,
                 max_dpi: int | None = None, sheet_bleed_mm: float = 3.0) -> FacePainter:
    return FacePainter(fontset=fontset, icons=IconShelf([game.path / "icons"]), ink_saver=ink_saver,
                       recompress=recompress, max_dpi=max_dpi, sheet_bleed_mm=sheet_bleed_mm)

"""Card faces for one game and language: bound cards made ready to draw, then drawn.

Binding is compose's (:mod:`pnp.compose.deck`). What only the drawing code can tell is asked here,
for every card, before the first page: that each picture is there and readable, that card markup
parses, that each icon exists (:func:`ready_to_draw`). Its answers are findings, not reports: the
validate stage words them (pnp/validate/card_layouts.py). A :class:`DeckRenderer`, built once per
(game, language), then draws cards known to be drawable.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.compose.bind import Resolved
from pnp.compose.deck import BoundCard, BoundComponent, ComponentBinding, LayoutProblem, layout_problem
from pnp.diagnostics import DataError, Diagnostic, Level
from pnp.model.game import Card, Component, Game, where
from pnp.model.layout import Element, Layout
from pnp.render.cards.art import prepare_image
from pnp.render.cards.faces import FacePainter, IconShelf, Rect, TextIssue
from pnp.render.cards.forms import SidePlan, form_box, shelf_of
from pnp.render.cards.ink_saver import on_white_paper
from pnp.render.cards.textbox import parse_card_markup
from pnp.render.text.fonts import FontSet

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


@dataclass
class DrawingFindings:
    """What making one component ready to draw found, for the validate stage to word.

    ``failed``: each problem of a layout's line, with the cards it hits (one error names them all);
    ``pictures``: problems of the cards' own pictures, each with its card's id, said at its row.
    ``bound`` holds the cards that bound and passed, or is None when a layout is missing.
    """

    binding: ComponentBinding
    bound: BoundComponent | None
    failed: dict[LayoutProblem, list[str]] = field(default_factory=dict)
    pictures: list[tuple[Diagnostic, str]] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        return bool(self.failed or self.pictures)


def ready_to_draw(game: Game, bindings: Iterable[ComponentBinding], ink_saver: bool = False) -> list[DrawingFindings]:
    """Each bound card's elements checked as drawing would meet them, and what failed.

    The elements that did bind are still checked where others did not (a missing image beside a
    misspelt colour): every mistake of a layout in one run. Only a card with no problem is kept.
    """
    shelf = IconShelf([game.path / "icons"])
    found = []
    for binding in bindings:
        if not binding.bindable:
            found.append(DrawingFindings(binding, None))
            continue
        component = binding.component
        layouts = {"face": binding.layout("face"), "back": binding.layout("back")}
        result = DrawingFindings(binding, BoundComponent(component, layouts["face"].name, layouts["back"].name))
        for bound in binding.cards:
            card, face, back = bound.card, bound.face, bound.back
            for exc in bound.mistakes:
                result.failed.setdefault(layout_problem(exc), []).append(card.id)
            problems = [problem for role, elements in (("face", face), ("back", back))
                        for problem in _check_elements(game, component, card, layouts[role], elements, shelf)]
            for problem in problems:
                if isinstance(problem, LayoutProblem):  # the layout's: one error for all the cards it hits
                    result.failed.setdefault(problem, []).append(card.id)
                else:  # the card's own picture: at its row in the card list (a missing folder once for all)
                    result.pictures.append((problem, card.id))
            if problems or bound.mistakes:
                continue
            if ink_saver:
                size = component.trim_mm
                face, back = on_white_paper(face, size), on_white_paper(back, size)
            result.bound.cards.append(BoundCard(card, face, back))
        found.append(result)
    return found


def _check_elements(game: Game, component: Component, card: Card, layout: Layout, elements: list[Resolved],
                    shelf: IconShelf) -> list[Diagnostic | LayoutProblem]:
    """Everything that would otherwise fail mid-drawing: images, markup, icon names.

    A problem of the card's own picture is a Diagnostic at its row in the card list; one of the
    layout (a markup error, an unknown icon) a LayoutProblem at the key's line, which the validate
    stage reports once for all the cards it hits.
    """
    problems: list[Diagnostic | LayoutProblem] = []
    for element in elements:
        try:
            if element.type == "image":
                prepare_image(game, component, card, element, one_file=_src_is_literal(layout, element))
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

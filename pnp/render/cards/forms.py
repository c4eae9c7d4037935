"""Content that repeats from card to card, drawn once as a PDF Form XObject and placed many times.

Most of a deck repeats: every back of a component is usually the same picture, and a face's
background, frame and stripes differ by suit at most. Drawn card by card, that content is most of
the time spent on a sheet. As a form it is drawn and formatted once, and each repeat is one ``Do``.

Sharing must never change what is printed, so a form is found by what it draws and by nothing else:
the resolved elements (a text together with its fit), the card's trim and, when the content reaches
into the bleed, the slot's bleed rectangle (abutting cards have none on their inner edges), and the
painter that draws them (fonts, ink saver). What is a card's own, such as its name, is never in a form.

Forms are drawn in page coordinates and placed without a transformation, so that a PDF reader
looking for a card's paths (tests/test_build_cards.py does) finds them where the card is. A form
therefore serves one slot of the sheet, on every sheet; it is made from the second sheet on, once
the sheet's slots are known, and only for content that comes back to its slot often enough to pay
for the form's object (MIN_PLACEMENTS_PER_SLOT). Forms are named in the order they are made, so a
document's bytes do not depend on hashing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from pnp.compose.bind import Resolved
from pnp.render.pdf.pdf_forms import end_form

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.cards.faces import FacePainter

Rect = tuple[float, float, float, float]  # x, y, width, height in points, bottom-left origin


def freeze(value: object) -> Hashable:
    """A hashable stand-in for a resolved value (lists and tables from TOML become tuples)."""
    if isinstance(value, dict):
        return ("{}", tuple(sorted((str(k), freeze(v)) for k, v in value.items())))
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    try:
        hash(value)
    except TypeError:
        return ("repr", type(value).__name__, repr(value))
    return value


def element_key(element: Resolved) -> Hashable:
    """What an element draws, as a dictionary key: its type and every resolved value.

    The layout line is left out, since it does not change the drawing; values keep the layout's
    order, which is the same for every card bound to one element.
    """
    items = tuple(element.values.items())
    try:
        hash(items)
    except TypeError:
        items = tuple((k, freeze(v)) for k, v in items)
    return element.type, items


def uses_bleed(element: Resolved) -> bool:
    """Whether the element's drawing depends on the bleed rectangle, not only on the trim.

    Unknown element types count as using it: a form keyed by one bleed too many is still right.
    """
    kind, values = element.type, element.values
    if kind in ("rect", "image"):
        return bool(values.get("bleed"))
    return kind not in ("frame", "line", "text", "icon", "pips")


class Piece(NamedTuple):
    """Elements ``start:stop`` of one card's side: drawn in place, or shared with other cards."""

    start: int
    stop: int
    run: int | None  # number of the run of elements these draw, when shared; None: the card's own
    bleed: bool  # the drawing depends on the slot's bleed rectangle, so a form of it does too


#: how often, on average, a run must be placed in the same slot before it is made a form. A form is
#: drawn in page coordinates, so it serves one slot; it costs about 300 bytes and an entry in the
#: resources of every page that uses it, while content repeated on one page compresses well in that
#: page's stream. Below this, forms make a file bigger; above it, smaller, and always faster.
MIN_PLACEMENTS_PER_SLOT = 5


@dataclass
class SharingPlan:
    """Which runs of a side's elements repeat across a deck and are worth a form.

    Elements arrive as small numbers, one per distinct drawing. An element is shared when it draws
    the same for two cards or more (copies of one card count). Neighbouring shared elements make
    one form when that run, as a whole, repeats; otherwise each gets a form of its own. What only
    one card draws, such as its name, stays in the page: frozen into a form it would only add an
    object.
    """

    element_counts: Counter = field(default_factory=Counter)
    run_counts: Counter = field(default_factory=Counter)
    run_numbers: dict[tuple[int, ...], int] = field(default_factory=dict)
    uses: list[int] = field(default_factory=list)  # by run number: how many cards of the deck draw it

    @classmethod
    def count(cls, cards: Sequence[tuple[tuple[int, ...], int]]) -> SharingPlan:
        """Count every card's (element numbers, copies)."""
        plan = cls()
        counts = plan.element_counts
        for numbers, copies in cards:
            if copies == 1:
                counts.update(numbers)
            else:
                for number in numbers:
                    counts[number] += copies
        for numbers, copies in cards:
            for start, stop, shared in plan._runs(numbers):
                if shared and stop - start > 1:
                    plan.run_counts[numbers[start:stop]] += copies
        return plan

    def pieces(self, numbers: tuple[int, ...], bleeds: Sequence[bool]) -> tuple[Piece, ...]:
        """One card's side cut into pieces, in drawing order; numbers never counted stay in place."""
        pieces = []
        for start, stop, shared in self._runs(numbers):
            if not shared:
                pieces.append(Piece(start, stop, None, False))
            elif stop - start == 1 or self.run_counts[numbers[start:stop]] >= 2:
                pieces.append(Piece(start, stop, self._number(numbers[start:stop]), any(bleeds[start:stop])))
            else:
                pieces.extend(Piece(i, i + 1, self._number(numbers[i:i + 1]), bleeds[i]) for i in range(start, stop))
        return tuple(pieces)

    def worth_a_form(self, run: int, slots: int) -> bool:
        """Whether a run, spread over ``slots`` places on a sheet, repeats enough in each for a form."""
        return self.uses[run] >= MIN_PLACEMENTS_PER_SLOT * max(slots, 1)

    def _number(self, run: tuple[int, ...]) -> int:
        number = self.run_numbers.get(run)
        if number is None:
            number = self.run_numbers[run] = len(self.uses)
            self.uses.append(self.element_counts[run[0]] if len(run) == 1 else self.run_counts[run])
        return number

    def _runs(self, numbers: tuple[int, ...]) -> list[tuple[int, int, bool]]:
        """(start, stop, shared) of the maximal runs of shared and of unshared elements."""
        counts = self.element_counts
        flags = [counts[number] >= 2 for number in numbers]
        runs, start = [], 0
        for stop in range(1, len(flags) + 1):
            if stop == len(flags) or flags[stop] != flags[start]:
                runs.append((start, stop, flags[start]))
                start = stop
        return runs


#: a text element's problem as FacePainter.text_problem states it: (problem, size set, size asked for)
TextProblem = tuple[str, float, float]


@dataclass(frozen=True)
class CardPlan:
    """How one card's side is drawn: its pieces, and its texts' problems by element index."""

    pieces: tuple[Piece, ...]
    problems: tuple[tuple[int, TextProblem], ...] = ()


class SidePlan:
    """Every card's plan for one side (face or back) of a deck, at one trim size.

    What is known of an element (its number, whether it reaches into the bleed, its text's problem)
    is worked out once per distinct element, not once per card, and cards whose shared elements are
    the same get the same pieces: a 5,000-card deck repeats most of its elements thousands of times.
    """

    def __init__(self, painter: FacePainter, trim: Rect) -> None:
        self.painter = painter  # a FacePainter: text_fit() and text_problem()
        self.trim = trim
        self.sharing = SharingPlan()
        self._numbers: dict[Hashable, int] = {}  # by element_key()
        self._by_drawing: dict[Hashable, int] = {}  # by element_key() and a text's fit
        self._bleeds: list[bool] = []  # by number
        self._problems: dict[int, TextProblem] = {}  # by number, for texts that do not fit as designed
        self._cards: dict[int, CardPlan] = {}  # by id() of the card
        self._by_pattern: dict[tuple[int, ...], CardPlan] = {}

    @classmethod
    def of_deck(cls, painter: FacePainter, trim: Rect,
                sides: Sequence[tuple[object, Sequence[Resolved], int]]) -> SidePlan:
        """Plan (card, its side's elements, copies) for the whole deck."""
        plan = cls(painter, trim)
        numbered = [(card, plan._number_all(elements), copies) for card, elements, copies in sides]
        plan.sharing = SharingPlan.count([(numbers, copies) for _, numbers, copies in numbered])
        for card, numbers, _ in numbered:
            plan._cards[id(card)] = plan._plan(numbers)
        return plan

    def card(self, card: object, elements: Sequence[Resolved]) -> CardPlan:
        """The plan of a card of the deck; a card the deck was not planned with shares what the deck shares."""
        plan = self._cards.get(id(card))
        return plan if plan is not None else self._plan(self._number_all(elements))

    def _plan(self, numbers: tuple[int, ...]) -> CardPlan:
        problems = self._problems
        if problems and any(number in problems for number in numbers):
            return CardPlan(self.sharing.pieces(numbers, [self._bleeds[n] for n in numbers]),
                            tuple((i, problems[n]) for i, n in enumerate(numbers) if n in problems))
        # cards that differ only in what they do not share (a name) are cut the same way
        counts = self.sharing.element_counts
        pattern = tuple(n if counts[n] >= 2 else -1 for n in numbers)
        plan = self._by_pattern.get(pattern)
        if plan is None:
            pieces = self.sharing.pieces(numbers, [self._bleeds[n] for n in numbers])
            plan = self._by_pattern[pattern] = CardPlan(pieces)
        return plan

    def _number_all(self, elements: Sequence[Resolved]) -> tuple[int, ...]:
        known = self._numbers
        numbers = []
        for element in elements:
            key = element_key(element)
            number = known.get(key)
            numbers.append(self._learn(key, element) if number is None else number)
        return tuple(numbers)

    def _learn(self, key: Hashable, element: Resolved) -> int:
        """Number a new element. A text is known by its fit (size and lines) as well as by its
        values, so a form is keyed by how the text sets and not only by what it says."""
        drawing: Hashable = key
        problem = None
        if element.type == "text":
            fit = self.painter.text_fit(element.values, self.trim)
            drawing = (key, None if fit is None else (fit.size, tuple(line.text for line in fit.lines)))
            problem = self.painter.text_problem(element.values, self.trim)
        number = self._by_drawing.get(drawing)
        if number is None:
            number = self._by_drawing[drawing] = len(self._bleeds)
            self._bleeds.append(uses_bleed(element))
            if problem is not None:
                self._problems[number] = problem
        self._numbers[key] = number
        return number


# ----------------------------------------------------------------------------- forms in a document


@dataclass
class FormShelf:
    """The forms of one PDF document, by what they draw."""

    names: dict[Hashable, str] = field(default_factory=dict)

    def name_for(self, canvas: Canvas, key: Hashable, paint: Callable[[object], None], bbox: Rect) -> str:
        """The form of what ``key`` stands for, drawn now by ``paint(canvas)`` if the document lacks it.

        ``bbox`` (x, y, width, height in page coordinates) must hold everything that can show, since
        a form clips to it; the clip in force where the form is placed applies as well.
        """
        name = self.names.get(key)
        if name is None:
            name = self.names[key] = f"pnpf{len(self.names) + 1}"
            x, y, w, h = bbox
            canvas.beginForm(name, x, y, x + w, y + h)
            paint(canvas)
            end_form(canvas)
        return name


def shelf_of(canvas: Canvas) -> FormShelf:
    """The form registry of the canvas's document, created on first use."""
    doc = canvas._doc
    shelf = getattr(doc, "_pnp_forms", None)
    if shelf is None:
        shelf = doc._pnp_forms = FormShelf()
    return shelf


def form_box(trim: Rect, bleed: Rect) -> Rect:
    """A form's bounding box: the trim grown well past its bleed, so that the box never clips. What
    shows is decided by the clip to the slot's bleed, in force where the form is placed."""
    margin = 72.0
    left = min(trim[0], bleed[0]) - margin
    bottom = min(trim[1], bleed[1]) - margin
    right = max(trim[0] + trim[2], bleed[0] + bleed[2]) + margin
    top = max(trim[1] + trim[3], bleed[1] + bleed[3]) + margin
    return left, bottom, right - left, top - bottom

"""What cards sell for: the market, the dice, and sets priced over every wild-card choice.

Set sales try every choice the wild cards allow, because players pick the
best one and the seed's examples assume they do.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pnp.api import Card, ExampleError
from pnp.rules.rudy.tables import Element, Tables

BLACK_WHITE_RUN = "black-white-run"


class Face(NamedTuple):
    """A card as it counts in a set, after any wild-card choice."""

    number: int | None
    colour: str | None
    mark: str | None


def market_reach(cards: Iterable[Card], tables: Tables) -> dict[int, int]:
    """Per number, how many cards can ever be in the market at once."""
    reach: dict[int, int] = {}
    for card in cards:
        if card.kind in tables.market_kinds and card.rank is not None:
            reach[card.rank] = reach.get(card.rank, 0) + card.count
    return reach


def dice_bonus(numbers: Iterable[int | None], dice: Sequence[int], tables: Tables) -> int:
    """+bonus per die showing each card's number, counted card by card."""
    return sum(tables.dice_bonus * dice.count(number) for number in numbers if number is not None)


def element_holds(element: Element, faces: Sequence[Face]) -> bool:
    values = [getattr(face, element.of) for face in faces]
    if any(value is None for value in values):
        return False
    if element.test == "same":
        return len(set(values)) == 1
    if element.test == "all-different":
        return len(set(values)) == len(values)
    ordered = sorted(values)
    return all(b == a + 1 for a, b in itertools.pairwise(ordered))


@dataclass(frozen=True)
class SetResult:
    price: int
    valid: bool
    elements: tuple[str, ...]
    base: int
    bonus: int
    dice: int
    faces: tuple[Face, ...]


def price_set(cards: Sequence[Card], market: Mapping[int, int], dice: Sequence[int], tables: Tables,
              options: Sequence[Sequence[Face]]) -> SetResult:
    """The best price over every combination of ``options`` (one list of faces per card).

    Equal prices are broken towards the elements listed first in rules.toml, so
    the reported elements never depend on search order.
    """
    order = {element.id: index for index, element in enumerate(tables.elements)}
    best: tuple[tuple[Any, ...], SetResult] | None = None
    fallback: SetResult | None = None  # the richest non-set, so a failed sale still says why
    black_white = all(card.colour in tables.black_white_colours or card.kind in tables.black_white_kinds
                      for card in cards)
    for faces in itertools.product(*options):
        sells = [tables.sell_price(market.get(face.number, 0)) if face.number is not None else None
                 for face in faces]
        if any(sell is None for sell in sells):
            continue  # a number not in the market cannot be sold
        extra = dice_bonus((face.number for face in faces), dice, tables)
        numbers = [face.number for face in faces]
        if black_white and all(b == a + 1 for a, b in itertools.pairwise(sorted(numbers))):
            result = SetResult(tables.black_white_price + extra, True, (BLACK_WHITE_RUN,),
                               tables.black_white_price, 0, extra, tuple(faces))
            best = _better(best, result, ())
        shown = tuple(e.id for e in tables.elements if element_holds(e, faces))
        base = max(s for s in sells if s is not None) * tables.multiplier
        if len(shown) < tables.min_elements:
            if fallback is None or len(shown) > len(fallback.elements):
                fallback = SetResult(0, False, shown, base, 0, extra, tuple(faces))
            continue
        bonus = tables.set_bonus(len(shown))
        result = SetResult(base + bonus + extra, True, shown, base, bonus, extra, tuple(faces))
        best = _better(best, result, tuple(-order[e] for e in shown))
    if best is not None:
        return best[1]
    return fallback or SetResult(0, False, (), 0, 0, 0, ())


def _better(best: tuple[tuple[Any, ...], SetResult] | None, result: SetResult,
            preference: tuple[int, ...]) -> tuple[tuple[Any, ...], SetResult]:
    key = (result.price, preference)
    return (key, result) if best is None or key > best[0] else best


def face_options(card: Card, tables: Tables, numbers: Sequence[int], colours: Sequence[str],
                 marks: Sequence[str], fixed: Mapping[str, Any]) -> list[Face]:
    """Every way ``card`` may count in a set; ``fixed`` pins some of its choices."""
    chooses = tables.wild.get(card.kind or "", frozenset())
    if not isinstance(fixed, Mapping):
        raise ExampleError(f"assign.{card.id} must be a table such as {{ colour = \"red\" }}, not {fixed!r}",
                           key="assign")
    for attribute, value in fixed.items():
        if attribute not in chooses:
            raise ExampleError(f"{card.id!r} cannot choose its {attribute}", key="assign")
        wanted = int if attribute == "number" else str
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise ExampleError(f"assign.{card.id}.{attribute} must be a {'whole number' if wanted is int else 'name'}, "
                               f"not {value!r}", key="assign")

    def choices(attribute: str, printed: Any, every: Sequence[Any]) -> list[Any]:
        if attribute in fixed:
            return [fixed[attribute]]
        return list(every) if attribute in chooses else [printed]

    return [Face(*combo) for combo in itertools.product(
        choices("number", card.rank, numbers), choices("colour", card.colour, colours),
        choices("mark", card.suit, marks))]

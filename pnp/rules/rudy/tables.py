"""What rules.toml says, typed: market prices, dice, the museum and set sales."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pnp.api import TomlDoc

ELEMENT_TESTS = ("same", "all-different", "consecutive")
ATTRIBUTES = ("number", "colour", "mark")


@dataclass(frozen=True)
class PriceRow:
    first: int
    last: int
    sell: int | None  # None: cannot sell at this count
    buy: int | None
    index: int  # position in [[market.price]], for line numbers


@dataclass(frozen=True)
class Element:
    id: str
    test: str  # one of ELEMENT_TESTS
    of: str  # one of ATTRIBUTES
    name: Mapping[str, str]
    explain: Mapping[str, str]


@dataclass(frozen=True)
class Tables:
    """rules.toml, typed. Read on every call, so an edit needs no restart."""

    doc: TomlDoc
    deck: str
    market_kinds: frozenset[str]
    market_limit: int
    ace_kind: str
    grey_ace_kind: str
    prices: tuple[PriceRow, ...]
    dice_count: int
    dice_faces: int
    dice_bonus: int
    museum_price: int
    museum_kinds: frozenset[str]
    museum_dice: bool
    set_size: int
    multiplier: int
    min_elements: int
    bonus: Mapping[int, int]
    black_white_price: int
    black_white_colours: frozenset[str]
    black_white_kinds: frozenset[str]
    elements: tuple[Element, ...]
    wild: Mapping[str, frozenset[str]]

    def sell_price(self, count: int) -> int | None:
        row = self.row_for(count)
        return row.sell if row else None

    def row_for(self, count: int) -> PriceRow | None:
        return next((row for row in self.prices if row.first <= count <= row.last), None)

    def set_bonus(self, elements: int) -> int:
        """The bonus for the largest listed element count not above ``elements``."""
        return max((bonus for need, bonus in self.bonus.items() if need <= elements), default=0)

    def line(self, *path: str | int) -> int | None:
        return self.doc.line_of(*path)

"""The parsed tree of a surveillance condition: the cards in a trick, selectors, amounts, tests and
their combinations. Plain frozen values, so a condition can be compared, hashed and printed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple


class PlayedCard(NamedTuple):
    """A trick card as conditions see it; gadgets may change the number."""

    colour: str
    number: int


@dataclass(frozen=True)
class Selector:
    """Which cards a term counts: a colour, the trump suit, or a number."""

    kind: str  # "colour" | "trump" | "number"
    value: str | int | None = None

    def matches(self, card: PlayedCard, trump: str) -> bool:
        if self.kind == "colour":
            return card.colour == self.value
        if self.kind == "trump":
            return card.colour == trump
        return card.number == self.value

    def __str__(self) -> str:
        """As written in a condition: ``red``, ``trump``, ``number=7``."""
        if self.kind == "number":
            return f"number={self.value}"
        return "trump" if self.kind == "trump" else str(self.value)


@dataclass(frozen=True)
class Activation:
    """The tricks a card is checked on: ``first`` to ``last`` (None: to the end)."""

    form: str  # "every" | "trick" | "range" | "from": kept for the printed text
    first: int = 1
    last: int | None = None

    def numbers(self) -> tuple[int, ...]:
        """The trick numbers written on the card, for range checks."""
        if self.form == "every":
            return ()
        return (self.first,) if self.last is None else tuple(dict.fromkeys((self.first, self.last)))

    def shifted(self, by: int, from_trick: int) -> Activation:
        """The card in a shorter game: written numbers ≥ ``from_trick`` move down by ``by``."""
        def move(number: int | None) -> int | None:
            return number - by if number is not None and number >= from_trick else number
        first = move(self.first)
        return Activation(self.form, first if first is not None else 1, move(self.last))

    def active(self, trick: int) -> bool:
        return self.first <= trick and (self.last is None or trick <= self.last)

    def last_active(self, length: int) -> int:
        return length if self.last is None else min(self.last, length)


@dataclass(frozen=True)
class Won:
    selector: Selector


@dataclass(frozen=True)
class WonCount:
    pass


@dataclass(frozen=True)
class WonSum:
    pass


@dataclass(frozen=True)
class TrickTotal:
    pass


Amount = Won | WonCount | WonSum | TrickTotal


@dataclass(frozen=True)
class Compare:
    amount: Amount
    op: str  # one of COMPARISONS
    value: int


@dataclass(frozen=True)
class TrickContains:
    number: int


@dataclass(frozen=True)
class WinnerPlayed:
    selector: Selector


@dataclass(frozen=True)
class AllOf:
    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class AnyOf:
    parts: tuple[Condition, ...]


Condition = Compare | TrickContains | WinnerPlayed | AllOf | AnyOf

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
}


"""One operation: the colour relation, the operator entry it selects, and its value.

:func:`evaluate_exhaustively` tries an entry on every pair of card values, so
the footnote mark on the printed aids is proved, not guessed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from pnp.api import ZeroDivisorError
from pnp.rules.two_ops.cards import PlayingCard
from pnp.rules.two_ops.tables import OperatorRule, TwoOpsTables


@dataclass(frozen=True)
class Operation:
    """A (number, operator, number) group and what it is worth."""

    left: PlayingCard
    operator: PlayingCard
    right: PlayingCard
    relation: str
    value: Fraction

    def describe(self) -> str:
        return f"{self.left.id} {self.operator.id} {self.right.id} = {self.value}"


def relation_of(operator: PlayingCard, x: PlayingCard, y: PlayingCard) -> str:
    """neither / one / both: only colours count, so suits and ranks never change the rule."""
    matches = (x.colour == operator.colour) + (y.colour == operator.colour)
    return ("neither", "one", "both")[matches]


def apply_operator(tables: TwoOpsTables, operator: PlayingCard, x: PlayingCard, y: PlayingCard) -> Operation:
    """Value of ``x operator y``; the relation (and so on/off) comes from the colours."""
    relation = relation_of(operator, x, y)
    values: dict[str, int] = {"a": x.rank, "b": y.rank}
    if relation == "one":
        on, off = (x, y) if x.colour == operator.colour else (y, x)
        values.update(on=on.rank, off=off.rank)
    rule = tables.operator_rule(operator, relation)
    return Operation(x, operator, y, relation, rule.expression.evaluate(values))


@dataclass(frozen=True)
class _Range:
    """What exhaustive evaluation found for one operator entry."""

    low: Fraction
    high: Fraction
    odd_case: tuple[Fraction, dict[str, int]] | None  # first fractional or negative value
    zero_division: tuple[ZeroDivisorError, dict[str, int]] | None


def _cases(relation: str, values: range) -> Iterator[dict[str, int]]:
    """Every ordered pair of values; for 'one', each of the two may be the on-colour number."""
    for x in values:
        for y in values:
            if relation == "one":
                yield {"a": x, "b": y, "on": x, "off": y}
                yield {"a": x, "b": y, "on": y, "off": x}
            else:
                yield {"a": x, "b": y}


def evaluate_exhaustively(rule: OperatorRule, values: range) -> _Range:
    """Every value an entry can take in play; the footnote mark must be a fact, not a guess."""
    found: list[Fraction] = []
    odd_case = None
    for case in _cases(rule.relation, values):
        try:
            value = rule.expression.evaluate(case)
        except ZeroDivisorError as exc:
            return _Range(Fraction(0), Fraction(0), None, (exc, case))
        found.append(value)
        if odd_case is None and (value.denominator != 1 or value < 0):
            odd_case = (value, case)
    return _Range(min(found), max(found), odd_case, None)

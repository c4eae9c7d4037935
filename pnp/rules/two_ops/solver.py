"""The best two operations for a hand and a goal card, with every tie."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pnp.rules.two_ops.cards import CardError, PlayingCard
from pnp.rules.two_ops.operators import Operation, apply_operator
from pnp.rules.two_ops.tables import TwoOpsTables
from pnp.rules.two_ops.vocabulary import AIMS


@dataclass(frozen=True)
class Arrangement:
    """One way to lay out a hand: two operations and the unused number card(s)."""

    operations: tuple[Operation, Operation]
    discard: tuple[PlayingCard, ...]
    value: Fraction  # the two operation values combined by the goal's aim

    def key(self) -> tuple[Any, ...]:
        """Identity up to writing a group's numbers in the other order (same value)."""
        groups = frozenset(
            (op.operator.id, frozenset((op.left.id, op.right.id)), op.value) for op in self.operations
        )
        return (tuple(sorted(card.id for card in self.discard)), groups)


@dataclass(frozen=True)
class Solution:
    aim: str
    value: Fraction
    best: Arrangement
    ties: tuple[Arrangement, ...]  # every arrangement reaching ``value``, ``best`` first

    @property
    def operations(self) -> tuple[Operation, Operation]:
        return self.best.operations

    @property
    def discard(self) -> tuple[PlayingCard, ...]:
        return self.best.discard


def _validate_hand(numbers: Sequence[PlayingCard], operators: Sequence[PlayingCard],
                   goal: PlayingCard, used: int) -> None:
    if len(operators) != 2:
        raise CardError(f"a hand has exactly 2 operator cards, got {len(operators)}")
    if len(numbers) < used:
        raise CardError(f"a hand needs at least {used} number cards, got {len(numbers)}")
    for card in numbers:
        if card.is_court:
            raise CardError(f"{card.id} is a court card: it cannot be a number")
    for card in operators:
        if not card.is_court:
            raise CardError(f"{card.id} is a number card: operators are J, Q or K")
    if goal.is_court:
        raise CardError(f"{goal.id} is a court card: the goal card comes from the number stock")
    seen: set[str] = set()
    for card in (*numbers, *operators, goal):
        if card.id in seen:
            raise CardError(f"{card.id} appears twice; a deck has one of each card")
        seen.add(card.id)


def _arrangements(tables: TwoOpsTables, numbers: Sequence[PlayingCard],
                  operators: Sequence[PlayingCard], combine: Callable[[Fraction, Fraction], Fraction],
                  used: int) -> Iterator[Arrangement]:
    first_operator, second_operator = operators
    for chosen in itertools.combinations(range(len(numbers)), used):
        discard = tuple(numbers[i] for i in range(len(numbers)) if i not in chosen)
        for first_pair in itertools.combinations(chosen, 2):
            second_pair = tuple(i for i in chosen if i not in first_pair)
            for i, j in (first_pair, first_pair[::-1]):
                first = apply_operator(tables, first_operator, numbers[i], numbers[j])
                for k, m in (second_pair, second_pair[::-1]):
                    second = apply_operator(tables, second_operator, numbers[k], numbers[m])
                    yield Arrangement((first, second), discard, combine(first.value, second.value))


def solve(tables: TwoOpsTables, numbers: Sequence[PlayingCard], operators: Sequence[PlayingCard],
          goal: PlayingCard) -> Solution:
    """Best two operations for the goal card's aim, with every tie.

    Exhaustive on purpose: 5 numbers and 2 operators give only 5 x 6 x 4 = 120
    layouts, and the worked examples must be provably optimal, not heuristic.
    """
    used = tables.deal.numbers_used if tables.deal else 4
    _validate_hand(numbers, operators, goal, used)
    rule = tables.goal_for(goal)
    combine, pick = AIMS[rule.aim]
    layouts = list(_arrangements(tables, numbers, operators, combine, used))
    best_value = pick(layout.value for layout in layouts)
    ties: dict[tuple[Any, ...], Arrangement] = {}
    for layout in layouts:
        if layout.value == best_value:
            ties.setdefault(layout.key(), layout)
    ordered = sorted(ties.values(), key=lambda a: (
        [c.id for c in a.discard], [(op.operator.id, op.left.id, op.right.id) for op in a.operations]))
    return Solution(aim=rule.aim, value=best_value, best=ordered[0], ties=tuple(ordered))

"""The deck a game's tables name: its cards, and how many players it can serve."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pnp.rules.two_ops.tables import DealNumbers, TwoOpsTables

if TYPE_CHECKING:
    from pnp.api import Card, Game


def deck_cards(game: Game, tables: TwoOpsTables) -> tuple[Card, ...] | None:
    component = game.components.get(tables.component)
    return component.cards if component is not None else None


def count_of_kind(cards: Sequence[Card], kind: str) -> int:
    return sum(card.count for card in cards if card.kind == kind)


def derived_max_players(pips: int, operators: int, deal: DealNumbers) -> int:
    """Players the deck can serve: numbers minus the goal card, and operators."""
    by_numbers = (pips - deal.goal_cards) // deal.numbers_dealt if deal.numbers_dealt else 0
    by_operators = operators // deal.operators_each if deal.operators_each else 0
    return min(by_numbers, by_operators)

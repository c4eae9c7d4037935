"""Recomputing examples.toml's two kinds: one operation, and a whole hand solved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pnp.api import ExampleError, unknown_card
from pnp.rules.two_ops.cards import CardError, PlayingCard, parse_card
from pnp.rules.two_ops.deck import deck_cards
from pnp.rules.two_ops.operators import apply_operator
from pnp.rules.two_ops.solver import solve
from pnp.rules.two_ops.tables import TwoOpsTables

if TYPE_CHECKING:
    from pnp.api import Game


def _resolve(game: Game, tables: TwoOpsTables, text: Any, key: str) -> PlayingCard:
    """A card id from an example, checked against the game's own deck."""
    try:
        parsed = parse_card(text)
    except CardError as exc:
        raise ExampleError(str(exc), key=key) from None
    cards = deck_cards(game, tables)
    if cards is None:
        return parsed
    card = next((c for c in cards if c.id == parsed.id), None)
    if card is None or card.rank is None or card.colour is None:
        raise unknown_card(f"{parsed.id!r} is not a card of component {tables.component!r}", parsed.id,
                           (c.id for c in cards), key)
    return PlayingCard(id=card.id, rank=card.rank, colour=card.colour)


def _card_list(game: Game, tables: TwoOpsTables, inputs: Mapping[str, Any], key: str) -> list[PlayingCard]:
    value = inputs.get(key)
    if not isinstance(value, list):
        raise ExampleError(f"inputs.{key} must be a list of card ids, got {value!r}", key=key)
    return [_resolve(game, tables, item, key) for item in value]


def run_operation(game: Game, tables: TwoOpsTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    operator = _resolve(game, tables, inputs.get("operator"), "operator")
    numbers = _card_list(game, tables, inputs, "numbers")
    if len(numbers) != 2 or not operator.is_court or any(n.is_court for n in numbers):
        raise ExampleError("an operation is one court card (inputs.operator) and two number cards "
                           "(inputs.numbers)", key="operator" if not operator.is_court else "numbers")
    try:
        operation = apply_operator(tables, operator, *numbers)
    except CardError as exc:
        raise ExampleError(str(exc)) from None
    return {"value": operation.value, "relation": operation.relation, "text": operation.describe()}


def run_solve(game: Game, tables: TwoOpsTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    numbers = _card_list(game, tables, inputs, "numbers")
    operators = _card_list(game, tables, inputs, "operators")
    goal = _resolve(game, tables, inputs.get("goal"), "goal")
    try:
        solution = solve(tables, numbers, operators, goal)
    except CardError as exc:
        raise ExampleError(str(exc)) from None
    discards = sorted({" ".join(card.id for card in a.discard) for a in solution.ties})
    return {
        "value": solution.value,
        "aim": solution.aim,
        # one id when every best layout sets aside the same card, else the sorted alternatives
        "discard": discards[0] if len(discards) == 1 else discards,
        "ties": len(solution.ties),
        "operations": [op.describe() for op in solution.operations],
    }

"""Recomputing examples.toml: single and multiple sales, the museum, the step-1 reward, set sales."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.api import Card, ExampleError, Game, unknown_card
from pnp.rules.rudy.pricing import dice_bonus, face_options, price_set
from pnp.rules.rudy.tables import Tables


def run_sale(game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    ids = inputs["cards"] if "cards" in inputs else [inputs.get("card")]
    key = "cards" if "cards" in inputs else "card"
    cards = _cards(game, tables, ids, key)
    market = _market(inputs, tables)
    dice = _dice(inputs, tables)
    for card in cards:
        if card.kind not in tables.market_kinds:
            raise ExampleError(f"{card.id!r} is sold to the museum, not the market (use kind 'museum')", key=key)
    sells = [tables.sell_price(market.get(card.rank or 0, 0)) for card in cards]
    if any(sell is None for sell in sells):
        return {"sellable": False, "price": 0, "base": 0, "dice_bonus": 0}
    base = sum(sell for sell in sells if sell is not None)
    extra = dice_bonus((card.rank for card in cards), dice, tables)
    return {"sellable": True, "price": base + extra, "base": base, "dice_bonus": extra}


def run_museum(game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    card = _cards(game, tables, [inputs.get("card")], "card")[0]
    if card.kind not in tables.museum_kinds:
        raise ExampleError(f"the museum buys only {', '.join(sorted(tables.museum_kinds))} cards, "
                           f"not {card.id!r}", key="card")
    extra = dice_bonus([card.rank], _dice(inputs, tables), tables) if tables.museum_dice else 0
    return {"price": tables.museum_price + extra, "dice_bonus": extra}


def run_step1_reward(game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    card = _cards(game, tables, [inputs.get("card")], "card")[0]
    market = _market(inputs, tables)
    allowed = card.kind in tables.market_kinds and card.rank is not None and market.get(card.rank, 0) == 0
    return {"allowed": allowed, "reward": card.rank if allowed and card.rank else 0}


def run_set_sale(game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    cards = _cards(game, tables, inputs.get("cards"), "cards")
    if len(cards) != tables.set_size:
        raise ExampleError(f"a set has {tables.set_size} cards, not {len(cards)}", key="cards")
    market = _market(inputs, tables)
    dice = _dice(inputs, tables)
    assign = inputs.get("assign", {})
    if not isinstance(assign, dict) or not set(assign) <= {card.id for card in cards}:
        raise ExampleError("assign maps a card id of this set to its chosen {number, colour, mark}", key="assign")
    deck = game.cards(tables.deck)
    in_market = [number for number in sorted(market) if market[number] > 0]
    colours = list(dict.fromkeys(card.colour for card in deck if card.colour))
    marks = list(dict.fromkeys(card.suit for card in deck if card.suit and card.kind in tables.market_kinds))
    options = [face_options(card, tables, in_market, colours, marks, assign.get(card.id, {}))
               for card in cards]
    result = price_set(cards, market, dice, tables, options)
    return {
        "price": result.price,
        "valid": result.valid,
        "elements": list(result.elements),
        "base": result.base,
        "bonus": result.bonus,
        "dice_bonus": result.dice,
        "numbers": [face.number for face in result.faces],
    }


def _cards(game: Game, tables: Tables, ids: Any, key: str) -> list[Card]:
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise ExampleError(f"expected card ids, found {ids!r}", key=key)
    deck = {card.id: card for card in game.cards(tables.deck)}
    cards = []
    for card_id in ids:
        if card_id not in deck:
            raise unknown_card(f"unknown card {card_id!r}", card_id, deck, key)
        cards.append(deck[card_id])
    for card in cards:
        if ids.count(card.id) > card.count:
            raise ExampleError(f"{card.id!r} is used {ids.count(card.id)} times but the deck has {card.count}",
                               key=key)
    return cards


def _market(inputs: Mapping[str, Any], tables: Tables) -> dict[int, int]:
    """``market = { "3" = 4 }``: cards of each number in the market before the sale."""
    raw = inputs.get("market", {})
    if not isinstance(raw, dict):
        raise ExampleError("market maps a number (as text) to how many cards of it the market holds", key="market")
    market = {}
    for key, value in raw.items():
        try:
            number = int(key)
        except ValueError:
            raise ExampleError(f"market: {key!r} is not a number", key="market") from None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= tables.market_limit:
            raise ExampleError(f"market: {value!r} cards of {number} (the market holds 0-{tables.market_limit})",
                               key="market")
        market[number] = value
    return market


def _dice(inputs: Mapping[str, Any], tables: Tables) -> list[int]:
    dice = inputs.get("dice")
    if (not isinstance(dice, list) or len(dice) != tables.dice_count
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= tables.dice_faces for d in dice)):
        raise ExampleError(f"dice must list {tables.dice_count} faces from 1 to {tables.dice_faces}, "
                           f"found {dice!r}", key="dice")
    return dice

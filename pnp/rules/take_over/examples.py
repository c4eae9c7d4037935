"""Recomputing examples.toml's two kinds: a trick played out, and a sequence of bonuses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pnp.api import ExampleError, unknown_card
from pnp.rules.take_over.bonuses import BonusError, BonusState, apply_bonus
from pnp.rules.take_over.stance import play_trick
from pnp.rules.take_over.strength import NumberCard, legal_plays, parse_number_card
from pnp.rules.take_over.tables import TakeOverTables

if TYPE_CHECKING:
    from pnp.api import Game


NO_COLOUR = "none"  # how examples write "no trump" / "no disadvantaged colour"


def _colour_or_none(value: Any, colours: Sequence[str], key: str) -> str | None:
    if value in (None, "", NO_COLOUR):
        return None
    if value not in colours:
        raise ExampleError(f"inputs.{key} = {value!r} is not a colour ({', '.join(colours)}, or {NO_COLOUR!r})",
                           key=key)
    return str(value)


def _card(game: Game, tables: TakeOverTables, text: Any, key: str) -> NumberCard:
    """A number card by id, from the game's own cards when it has them."""
    try:
        parsed = parse_number_card(text, tables.colours)
    except ValueError as exc:
        raise ExampleError(str(exc), key=key) from None
    component = game.components.get(tables.components.get("numbers", "numbers"))
    if component is None:
        return parsed
    card = next((c for c in component.cards if c.id == parsed.id), None)
    if card is None or card.colour is None or card.rank is None:
        raise unknown_card(f"{parsed.id!r} is not a card of component {component.id!r}", parsed.id,
                           (c.id for c in component.cards), key)
    return NumberCard(id=card.id, colour=card.colour, number=card.rank)


def _check_follow(game: Game, tables: TakeOverTables, inputs: Mapping[str, Any],
                  players: Sequence[str], plays: Sequence[NumberCard]) -> None:
    hands = inputs.get("hands")
    if hands is None:
        return
    if (not isinstance(hands, list) or len(hands) != len(plays)
            or not all(isinstance(hand, list) for hand in hands)):
        raise ExampleError("inputs.hands must list one hand (a list of card ids) per play", key="hands")
    lead = plays[0].colour
    for seat, (hand_ids, card) in enumerate(zip(hands, plays, strict=True)):
        hand = [_card(game, tables, c, "hands") for c in hand_ids]
        if card not in hand:
            raise ExampleError(f"{players[seat]} plays {card.id}, which is not in their hand", key="hands")
        if seat and card not in legal_plays(hand, lead):
            raise ExampleError(f"{players[seat]} must follow {lead}: {card.id} is not a legal play", key="plays")


def run_trick(game: Game, tables: TakeOverTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    players, play_ids = inputs.get("players"), inputs.get("plays")
    if not isinstance(players, list) or not isinstance(play_ids, list) or len(players) != len(play_ids):
        raise ExampleError("inputs.players and inputs.plays must be lists of the same length "
                           "(play order, leader first)", key="players" if not isinstance(players, list) else "plays")
    plays = [_card(game, tables, card_id, "plays") for card_id in play_ids]
    low, high = game.players
    if not low <= len(players) <= high:
        table = f"{low}" if low == high else f"{low} to {high}"
        raise ExampleError(f"a trick is one play per player, and this game is for {table} players: the example "
                           f"has {len(players)}", key="players")
    component = game.components.get(tables.components.get("numbers", "numbers"))
    copies = {card.id: card.count for card in component.cards} if component is not None else {}
    for card in plays:
        if plays.count(card) > copies.get(card.id, 1):
            raise ExampleError(f"{card.id} is played {plays.count(card)} times, but the deck has "
                               f"{copies.get(card.id, 1)}", key="plays")
    trump = _colour_or_none(inputs.get("trump"), tables.colours, "trump")
    disadvantaged = _colour_or_none(inputs.get("disadvantaged"), tables.colours, "disadvantaged")
    _check_follow(game, tables, inputs, players, plays)
    try:
        result = play_trick(plays, trump, disadvantaged, tables.ladders)
    except ValueError as exc:
        raise ExampleError(str(exc)) from None
    return {
        "winner": players[result.winner],
        "face_up_after": [step.face_up.id for step in result.steps],
        "played_face_down": [step.card.id for step in result.steps if not step.played_face_up],
        "turned_down": [step.turned_down.id if step.turned_down else "" for step in result.steps],
    }


def run_bonus(tables: TakeOverTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    sequence = inputs.get("sequence")
    if not isinstance(sequence, list):
        raise ExampleError("inputs.sequence must list the bonuses taken, e.g. [{ bonus = \"A\", colour = "
                           "\"green\" }, { bonus = \"C\" }]", key="sequence")
    state = BonusState()
    for step, choice in enumerate(sequence, start=1):
        if not isinstance(choice, Mapping) or not isinstance(choice.get("bonus"), str) \
                or choice["bonus"] not in tables.bonuses:
            raise ExampleError(f"step {step}: name a bonus ({', '.join(tables.bonuses)}), got {choice!r}",
                               key="sequence")
        try:
            state = apply_bonus(state, tables.bonuses[choice["bonus"]], choice.get("colour"), tables.colours,
                                tables.bonus_phases)
        except BonusError as exc:
            return {"valid": False, "rejected_step": step, "problem": str(exc),
                    "trump": state.trump or NO_COLOUR, "disadvantaged": state.disadvantaged or NO_COLOUR}
    return {"valid": True, "rejected_step": 0, "problem": "",
            "trump": state.trump or NO_COLOUR, "disadvantaged": state.disadvantaged or NO_COLOUR}

"""Recomputing examples.toml: tricks, following, surveillance removals, the game's end, the next leader."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.api import ExampleError, Game, unknown_card
from pnp.rules.gadget_trick.play import end_of_trick, legal_plays, next_leader, trick_winner
from pnp.rules.gadget_trick.settings import Settings
from pnp.rules.gadget_trick.watch_cards import WatchCard, parse_card, removals
from pnp.rules.surveillance import ConditionError, PlayedCard, PlayerView

AS_NUMBER_MOST = 99


def run_trick(game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
    plays = _played(game, settings, _ids(inputs, "plays"), "plays")
    overrides = inputs.get("as_number", {})
    if not isinstance(overrides, dict):
        raise ExampleError("as_number must map a play's position (from 0) to the number it counts as", key="as_number")
    for position, number in overrides.items():
        index = int(position) if isinstance(position, str) and position.isdigit() else -1
        if not 0 <= index < len(plays):
            raise ExampleError(f"as_number: there is no play {position!r} (plays are counted from 0)", key="as_number")
        # a gadget may make a card count past the deck's ranks (the Mirror Shield's 11): bounded, not exact
        plays[index] = PlayedCard(plays[index].colour, _int(number, "as_number value", 0, AS_NUMBER_MOST,
                                                                  key="as_number"))
    trump = _colour(settings, inputs.get("trump"), "trump")
    winner = trick_winner(plays, trump)
    result: dict[str, Any] = {"winner": winner}
    if "leader" in inputs:
        players = _players(game, inputs, default=len(plays))
        result["winner_seat"] = (_seat(inputs["leader"], "leader", players) + winner) % players
    return result


def run_follow(game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
    hand = _ids(inputs, "hand")
    colours = {card_id: played.colour for card_id, played in zip(hand, _played(game, settings, hand, "hand"),
                                                                strict=True)}
    lead = _played(game, settings, [str(inputs.get("lead"))], "lead")[0]
    return {"legal": legal_plays(hand, colours, lead.colour)}


def run_surveillance(game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
    players = _players(game, inputs)
    trick = _int(inputs.get("trick"), "trick", 1, settings.tricks_for(players), key="trick")
    trump = _colour(settings, inputs.get("trump"), "trump")
    removed_before = set(_seats(inputs, "removed", players))
    order = [seat for seat in _seats_from(_seat(inputs.get("leader"), "leader", players), players)
             if seat not in removed_before]
    plays = _played(game, settings, _ids(inputs, "plays"), "plays")
    if len(plays) != len(order):
        raise ExampleError(f"{len(order)} players in play but {len(plays)} cards played", key="plays")
    piles = inputs.get("won", [[] for _ in range(players)])
    if (not isinstance(piles, list) or len(piles) != players
            or not all(isinstance(pile, list) for pile in piles)):
        raise ExampleError(f"won must list one pile (a list of card ids) per seat, {players} in all", key="won")
    winner_index = trick_winner(plays, trump)
    winner = order[winner_index]
    views = {}
    for seat in range(players):
        pile = _played(game, settings, [str(c) for c in piles[seat]], "won")
        took = plays if seat == winner else None
        own = plays[order.index(seat)] if seat in order else None
        views[seat] = PlayerView(won=pile + (plays if took else []), trump=trump, took=took, own_card=own)
    cards = [_watch_card(game, settings, card_id) for card_id in _ids(inputs, "cards")]
    check_order = [seat for seat in _seats_from(winner, players) if seat not in removed_before]
    caught = removals(cards, trick, players, settings, check_order, views)
    return {"winner": winner, "removed": [seat for _, seat in caught], "by": [card for card, _ in caught]}


def _watch_card(game: Game, settings: Settings, card_id: str) -> WatchCard:
    card = next((c for c in game.cards(settings.surveillance) if c.id == card_id), None)
    if card is None:
        raise unknown_card(f"unknown surveillance card {card_id!r}", card_id,
                           (c.id for c in game.cards(settings.surveillance)), "cards")
    try:
        return parse_card(card, settings.colour_order)
    except ConditionError as exc:
        raise ExampleError(f"surveillance card {card_id!r}: {exc}", key="cards") from None


def run_game_end(game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
    players = _players(game, inputs)
    won_count = _ints(inputs, "won_count", [0] * players)
    won_trump = _ints(inputs, "won_trump", [0] * players)
    if len(won_count) != players or len(won_trump) != players:
        raise ExampleError(f"won_count and won_trump need one number per seat ({players})",
                           key="won_count" if len(won_count) != players else "won_trump")
    outcome = end_of_trick(
        players=players,
        removed=set(_seats(inputs, "removed", players)),
        trick=_int(inputs.get("trick"), "trick", 1, settings.tricks_for(players), key="trick"),
        length=settings.tricks_for(players),
        last_winner=_seat(inputs.get("last_winner"), "last_winner", players),
        won_count=won_count,
        won_trump=won_trump,
    )
    return {"over": outcome.over, "draw": outcome.draw, "winners": list(outcome.winners)}


def run_next_leader(game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
    players = _players(game, inputs)
    removed = set(_seats(inputs, "removed", players))
    leader = next_leader(players, _seat(inputs.get("winner"), "winner", players), removed)
    return {"leader": leader if leader is not None else -1}


def _int(value: Any, what: str, low: int = 0, high: int | None = None, key: str | None = None) -> int:
    """A whole number written as one (not 1.5, true or "3"), from ``low`` to ``high``: a player count of
    10**12 would otherwise build a list of as many seats."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ExampleError(f"{what}: expected a whole number, found {value!r}", key=key)
    if value < low or (high is not None and value > high):
        raise ExampleError(f"{what}: {value} is outside {low}-{high}" if high is not None
                           else f"{what}: {value} is below {low}", key=key)
    return value


def _players(game: Game, inputs: Mapping[str, Any], default: int | None = None) -> int:
    low, high = game.players
    return _int(inputs.get("players", default), "players", low, high, key="players")


def _seat(value: Any, what: str, players: int) -> int:
    return _int(value, f"{what} (a seat, 0-{players - 1})", 0, players - 1, key=what)


def _seats(inputs: Mapping[str, Any], key: str, players: int) -> list[int]:
    value = inputs.get(key, [])
    if not isinstance(value, list):
        raise ExampleError(f"{key}: expected a list of seats, found {value!r}", key=key)
    return [_seat(item, key, players) for item in value]


def _ints(inputs: Mapping[str, Any], key: str, default: list[int]) -> list[int]:
    """A list of whole numbers (counts per seat); anything else is the example's error."""
    value = inputs.get(key, default)
    if not isinstance(value, list):
        raise ExampleError(f"{key}: expected a list of whole numbers, found {value!r}", key=key)
    return [_int(item, key, key=key) for item in value]


def _ids(inputs: Mapping[str, Any], key: str) -> list[str]:
    value = inputs.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ExampleError(f"{key} must be a list of card ids", key=key)
    return value


def _colour(settings: Settings, value: Any, key: str) -> str:
    if value not in settings.colour_order:
        raise ExampleError(f"unknown colour {value!r} (colours: {', '.join(settings.colour_order)})", key=key)
    return str(value)


def _played(game: Game, settings: Settings, card_ids: Sequence[str], key: str) -> list[PlayedCard]:
    deck = {card.id: card for card in game.cards(settings.deck)}
    if len(set(card_ids)) != len(card_ids):
        raise ExampleError(f"a card appears twice in {list(card_ids)}", key=key)
    played = []
    for card_id in card_ids:
        card = deck.get(card_id)
        if card is None or card.colour is None or card.rank is None:
            raise unknown_card(f"unknown trick card {card_id!r}", card_id, deck, key)
        played.append(PlayedCard(card.colour, card.rank))
    return played


def _seats_from(first: int, players: int) -> list[int]:
    return [(first + step) % players for step in range(players)]

"""Surveillance cards in play: their two conditions parsed, and the players they remove.

The conditions are written in the language of :mod:`pnp.rules.surveillance`,
which lets the check prove each card can fire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pnp.api import Card
from pnp.rules import surveillance
from pnp.rules.gadget_trick.settings import Settings
from pnp.rules.surveillance import Activation, Condition, ConditionError, PlayerView


@dataclass(frozen=True)
class WatchCard:
    card: Card
    activation: Activation
    removal: Condition


def parse_card(card: Card, colours: Sequence[str]) -> WatchCard:
    """Both conditions of a surveillance card; raises ConditionError naming the field."""
    texts = {}
    for name in ("activation", "removal"):
        text = card.fields.get(name, "").strip()
        if not text:
            raise ConditionError(f"the {name} column is empty")
        texts[name] = text
    try:
        activation = surveillance.parse_activation(texts["activation"])
    except ConditionError as exc:
        raise ConditionError(f"activation {texts['activation']!r}: {exc}") from None
    try:
        removal = surveillance.parse_removal(texts["removal"], colours)
    except ConditionError as exc:
        raise ConditionError(f"removal {texts['removal']!r}: {exc}") from None
    return WatchCard(card, activation, removal)


def removals(cards: Sequence[WatchCard], trick: int, players: int, settings: Settings,
             order: Sequence[int], views: Mapping[int, PlayerView]) -> list[tuple[str, int]]:
    """(card id, seat) for each removal, cards in reveal order, seats in ``order``."""
    caught: list[tuple[str, int]] = []
    for watch in cards:
        if not settings.activation_at(watch.activation, players).active(trick):
            continue
        for seat in order:
            if all(seat != s for _, s in caught) and surveillance.holds(watch.removal, views[seat]):
                caught.append((watch.card.id, seat))
    return caught

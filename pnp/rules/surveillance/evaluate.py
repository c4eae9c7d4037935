"""Whether a removal condition holds for one player, on their won pile after a trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pnp.rules.surveillance.model import (
    COMPARISONS,
    AllOf,
    Amount,
    AnyOf,
    Condition,
    PlayedCard,
    TrickContains,
    TrickTotal,
    WinnerPlayed,
    Won,
    WonCount,
    WonSum,
)


@dataclass(frozen=True)
class PlayerView:
    """What a condition may look at for one player after a trick."""

    won: Sequence[PlayedCard]  # the whole won pile, this trick included
    trump: str
    took: Sequence[PlayedCard] | None = None  # the trick just played, if this player won it
    own_card: PlayedCard | None = None  # the card this player played to it


def holds(condition: Condition, view: PlayerView) -> bool:
    """Whether ``condition`` catches the player seen through ``view``."""
    if isinstance(condition, AllOf):
        return all(holds(part, view) for part in condition.parts)
    if isinstance(condition, AnyOf):
        return any(holds(part, view) for part in condition.parts)
    if isinstance(condition, TrickContains):
        return view.took is not None and any(card.number == condition.number for card in view.took)
    if isinstance(condition, WinnerPlayed):
        return (view.took is not None and view.own_card is not None
                and condition.selector.matches(view.own_card, view.trump))
    if isinstance(condition.amount, TrickTotal) and view.took is None:
        return False
    return COMPARISONS[condition.op](_amount(condition.amount, view), condition.value)


def _amount(amount: Amount, view: PlayerView) -> int:
    if isinstance(amount, Won):
        return sum(1 for card in view.won if amount.selector.matches(card, view.trump))
    if isinstance(amount, WonCount):
        return len(view.won)
    if isinstance(amount, WonSum):
        return sum(card.number for card in view.won)
    return sum(card.number for card in view.took or ())



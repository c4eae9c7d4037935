"""The bonuses taken between rounds: trump, disadvantaged colour, exchanged hands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

BONUS_EFFECTS = ("trump", "disadvantaged", "exchange")


class BonusError(ValueError):
    """A bonus choice the rules forbid."""


@dataclass(frozen=True)
class Bonus:
    id: str
    effect: str  # trump | disadvantaged | exchange
    name: dict[str, str]
    text: dict[str, str]
    provisional: bool = False
    index: int = 0


@dataclass(frozen=True)
class BonusState:
    trump: str | None = None
    disadvantaged: str | None = None
    taken: tuple[str, ...] = ()  # bonus ids, in the order taken


def apply_bonus(state: BonusState, bonus: Bonus, colour: str | None, colours: Sequence[str],
                phases: int) -> BonusState:
    """The state after taking ``bonus``; raises :class:`BonusError` for an illegal choice."""
    if len(state.taken) >= phases:
        raise BonusError(f"only {phases} bonuses are taken in a game; {bonus.id} would be one more")
    if bonus.id in state.taken:
        raise BonusError(f"bonus {bonus.id} was already taken; each bonus is taken exactly once")
    if bonus.effect == "exchange":
        if colour is not None:
            raise BonusError(f"bonus {bonus.id} (exchange hands) takes no colour, got {colour!r}")
        return replace(state, taken=(*state.taken, bonus.id))
    if colour not in colours:
        raise BonusError(f"bonus {bonus.id} needs a colour, one of {', '.join(colours)}; got {colour!r}")
    other = state.disadvantaged if bonus.effect == "trump" else state.trump
    if colour == other:
        role = "disadvantaged" if bonus.effect == "trump" else "trump"
        raise BonusError(f"{colour} is already {role}; it cannot also be {bonus.effect}")
    return replace(state, taken=(*state.taken, bonus.id), **{bonus.effect: colour})

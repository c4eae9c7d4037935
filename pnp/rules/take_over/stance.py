"""The defensive stance: after every play exactly one card of the trick is face up.

:func:`play_trick` applies the rulebook's two conditions literally, play by
play, and fails loudly if they ever leave zero or two cards face up;
:func:`stance_gaps` proves the strength ladders in rules.toml cannot cause that.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from pnp.rules.take_over.strength import (
    SEED_LADDERS,
    UNRANKED_TIERS,
    Ladders,
    NumberCard,
    StrengthContext,
    compare,
    tier_of,
)


class StanceError(AssertionError):
    """The defensive stance left zero or several cards face up: the ladder is incomplete."""


@dataclass(frozen=True)
class TrickStep:
    seat: int  # index in play order, 0 = leader
    card: NumberCard
    played_face_up: bool
    turned_down: NumberCard | None  # the earlier card this play turned face down
    face_up: NumberCard  # the only face-up card after this play
    face_down: tuple[NumberCard, ...]


@dataclass(frozen=True)
class TrickResult:
    steps: tuple[TrickStep, ...]
    winner: int  # seat of the face-up card at the end
    lead: str


def play_trick(plays: Sequence[NumberCard], trump: str | None = None, disadvantaged: str | None = None,
               ladders: Ladders = SEED_LADDERS) -> TrickResult:
    """Play the cards in order, applying the two defensive-stance conditions literally.

    Condition 2: a card weaker than a face-up card is played face down.
    Condition 1: a face-up card weaker than the card just played face up turns down.
    The one-face-up invariant is then asserted, not assumed.
    """
    if not plays:
        raise ValueError("a trick needs at least one play")
    if trump is not None and trump == disadvantaged:
        raise ValueError(f"{trump} cannot be both trump and disadvantaged")
    context = StrengthContext(lead=plays[0].colour, trump=trump, disadvantaged=disadvantaged,
                              ladders=ladders)
    face_up: list[int] = []
    steps = []
    for seat, card in enumerate(plays):
        weaker_than_shown = any(compare(card, plays[i], context) < 0 for i in face_up)
        turned_down = None
        if not weaker_than_shown:
            beaten = [i for i in face_up if compare(card, plays[i], context) > 0]
            face_up = [i for i in face_up if i not in beaten]
            turned_down = plays[beaten[0]] if beaten else None
            face_up.append(seat)
        if len(face_up) != 1:
            shown = ", ".join(plays[i].id for i in face_up) or "none"
            raise StanceError(f"after playing {card.id} the face-up cards are {shown}; exactly one must be")
        steps.append(TrickStep(
            seat=seat, card=card, played_face_up=not weaker_than_shown, turned_down=turned_down,
            face_up=plays[face_up[0]],
            face_down=tuple(plays[i] for i in range(seat + 1) if i != face_up[0]),
        ))
    return TrickResult(steps=tuple(steps), winner=face_up[0], lead=context.lead)


def stance_gaps(ladders: Ladders, colours: Sequence[str]) -> list[str]:
    """Situations where the ladders could leave two cards face up (empty = sound).

    Only the lead's tier and the tiers above it can ever hold the face-up card
    (the leader's card starts face up); each must be ranked, and one holding
    several colours needs the later-card tie rule, or two equal numbers tie.
    """
    gaps = []
    roles: list[str | None] = [None, *colours]
    for lead, trump, disadvantaged in itertools.product(colours, roles, roles):
        if trump is not None and trump == disadvantaged:
            continue
        context = StrengthContext(lead, trump, disadvantaged, ladders)
        tiers = context.ladder.tiers
        lead_tier = tier_of(lead, context)
        reachable = tiers[: tiers.index(lead_tier) + 1] if lead_tier in tiers else tiers
        for tier in reachable:
            members = [c for c in colours if tier_of(c, context) == tier]
            situation = f"lead {lead}, trump {trump or 'none'}, disadvantaged {disadvantaged or 'none'}"
            if tier in UNRANKED_TIERS and members:
                gaps.append(f"{situation}: the leader's card falls in unranked tier {tier!r}")
            elif len(members) > 1 and tier not in context.ladder.later_wins_on_equal:
                gaps.append(f"{situation}: tier {tier!r} holds {', '.join(members)} with no tie rule, so "
                            "two equal numbers would both stay face up")
    return gaps

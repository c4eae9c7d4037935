"""Which card is stronger within a trick, and which cards a player may play.

Strength is data plus code: rules.toml orders named tiers ("trump", "lead",
"normal", ...); this module knows what each tier name means for a card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

TIERS = ("trump", "lead", "normal", "disadvantaged", "other")
UNRANKED_TIERS = frozenset({"other"})


@dataclass(frozen=True)
class NumberCard:
    id: str
    colour: str
    number: int


def parse_number_card(text: str, colours: Iterable[str]) -> NumberCard:
    """Read ``green-5``; the colour must be one of ``colours``."""
    cleaned = str(text).strip().lower()
    colour, _, number = cleaned.rpartition("-")
    known = tuple(colours)
    if colour not in known or not number.isdigit():
        raise ValueError(f"{text!r} is not a number card id: write <colour>-<number>, colour one of "
                         f"{', '.join(known)}, e.g. 'green-5'")
    return NumberCard(id=cleaned, colour=colour, number=int(number))


@dataclass(frozen=True)
class Ladder:
    """Strength tiers, strongest first (see rules.toml ``[ladder.*]``)."""

    tiers: tuple[str, ...]
    later_wins_on_equal: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Ladders:
    lead_normal: Ladder
    lead_disadvantaged: Ladder


#: the seed rulebook's ladders; rules.toml normally says the same
SEED_LADDERS = Ladders(
    lead_normal=Ladder(("trump", "lead", "other")),
    lead_disadvantaged=Ladder(("trump", "normal", "disadvantaged"), frozenset({"normal"})),
)


@dataclass(frozen=True)
class StrengthContext:
    """What a card's strength depends on within one trick."""

    lead: str
    trump: str | None = None
    disadvantaged: str | None = None
    ladders: Ladders = SEED_LADDERS

    @property
    def ladder(self) -> Ladder:
        if self.lead == self.disadvantaged:
            return self.ladders.lead_disadvantaged
        return self.ladders.lead_normal


def tier_of(colour: str, context: StrengthContext) -> str:
    """The first tier of the active ladder that this colour belongs to."""
    belongs = {
        "trump": colour == context.trump,
        "lead": colour == context.lead,
        "normal": colour not in (context.trump, context.disadvantaged),
        "disadvantaged": colour == context.disadvantaged,
        "other": True,
    }
    return next((tier for tier in context.ladder.tiers if belongs[tier]), "other")


def strength_key(card: NumberCard, context: StrengthContext) -> tuple[int, int]:
    """Sort key, higher is stronger; ignores play order (see :func:`compare`)."""
    tiers = context.ladder.tiers
    tier = tier_of(card.colour, context)
    height = len(tiers) - tiers.index(tier) if tier in tiers else 0
    return (height, 0 if tier in UNRANKED_TIERS else card.number)


def compare(later: NumberCard, earlier: NumberCard, context: StrengthContext) -> int:
    """+1 if ``later`` (played after ``earlier``) is stronger, -1 if weaker, 0 if neither.

    Play order is an argument because the rulebook breaks ties between equal
    normal numbers under a disadvantaged lead in favour of the later card.
    """
    later_key, earlier_key = strength_key(later, context), strength_key(earlier, context)
    if later_key != earlier_key:
        return 1 if later_key > earlier_key else -1
    tier = tier_of(later.colour, context)
    if tier in context.ladder.later_wins_on_equal and tier not in UNRANKED_TIERS:
        return 1
    return 0


def stronger(later: NumberCard, earlier: NumberCard, context: StrengthContext) -> bool:
    """Whether ``later`` beats ``earlier``, which was played before it in the same trick."""
    return compare(later, earlier, context) > 0


def legal_plays(hand: Sequence[NumberCard], lead_colour: str | None) -> tuple[NumberCard, ...]:
    """Cards a player may play: the lead colour if they hold any (must follow), else anything."""
    following = tuple(card for card in hand if card.colour == lead_colour)
    return following or tuple(hand)

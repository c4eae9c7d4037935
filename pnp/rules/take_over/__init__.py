"""Take Over That Job (代われそのジョブ): card strength, the defensive stance, bonuses.

The game's one unusual mechanism is the *defensive stance*: after every play
exactly one card of the trick is face up, the currently strongest. Rather
than trusting that, :func:`play_trick` applies the rulebook's two conditions
literally, play by play, and fails loudly if they ever leave zero or two cards
face up; the check proves the strength ladders in rules.toml cannot cause that.

Strength is data plus code: rules.toml orders named tiers ("trump", "lead",
"normal", ...); :mod:`.strength` knows what each tier name means for a card.

The modules: ``strength``, ``stance`` and ``bonuses`` are the game's rules;
``tables`` reads rules.toml; ``checks``, ``examples`` and ``aids`` serve
``pnp check``, examples.toml and the printed texts; ``rules`` wires them to the
:class:`~pnp.rules.base.GameRules` hooks.
"""

from __future__ import annotations

from pnp.rules.take_over.bonuses import BONUS_EFFECTS, Bonus, BonusError, BonusState, apply_bonus
from pnp.rules.take_over.examples import NO_COLOUR
from pnp.rules.take_over.rules import TakeOverRules
from pnp.rules.take_over.stance import StanceError, TrickResult, TrickStep, play_trick, stance_gaps
from pnp.rules.take_over.strength import (
    SEED_LADDERS,
    TIERS,
    UNRANKED_TIERS,
    Ladder,
    Ladders,
    NumberCard,
    StrengthContext,
    compare,
    legal_plays,
    parse_number_card,
    strength_key,
    stronger,
    tier_of,
)
from pnp.rules.take_over.tables import LADDER_IDS, TakeOverTables, read_tables

RULES = TakeOverRules()

__all__ = [
    "BONUS_EFFECTS", "LADDER_IDS", "NO_COLOUR", "RULES", "SEED_LADDERS", "TIERS", "UNRANKED_TIERS", "Bonus",
    "BonusError", "BonusState", "Ladder", "Ladders", "NumberCard", "StanceError", "StrengthContext", "TakeOverRules",
    "TakeOverTables", "TrickResult", "TrickStep", "apply_bonus", "compare", "legal_plays", "parse_number_card",
    "play_trick", "read_tables", "stance_gaps", "strength_key", "stronger", "tier_of",
]

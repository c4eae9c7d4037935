"""Rudy: market prices, dice, the museum and set sales with wild cards.

The seed's price table lost its merged cells and one labelled set contradicts
the others, so every number lives in ``rules.toml`` with the reading chosen and
why; this package only applies those tables. Set sales are priced by trying
every choice the wild cards allow, because players pick the best one and the
seed's examples assume they do.

The modules: ``tables`` (read by ``reader``) and ``pricing`` are the game's
rules; ``checks``, ``examples`` and ``aids`` serve ``pnp check``, examples.toml
and the player aid; ``rules`` wires them to the
:class:`~pnp.rules.base.GameRules` hooks.
"""

from __future__ import annotations

from pnp.rules.rudy.pricing import (
    BLACK_WHITE_RUN,
    Face,
    SetResult,
    dice_bonus,
    element_holds,
    face_options,
    market_reach,
    price_set,
)
from pnp.rules.rudy.reader import read_tables
from pnp.rules.rudy.rules import RudyRules
from pnp.rules.rudy.tables import ATTRIBUTES, ELEMENT_TESTS, Element, PriceRow, Tables

RULES = RudyRules()

__all__ = [
    "ATTRIBUTES", "BLACK_WHITE_RUN", "ELEMENT_TESTS", "RULES", "Element", "Face", "PriceRow", "RudyRules", "SetResult",
    "Tables", "dice_bonus", "element_holds", "face_options", "market_reach", "price_set", "read_tables",
]

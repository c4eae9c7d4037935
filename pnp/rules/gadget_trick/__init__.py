"""Gadget Trick: trick winners, surveillance removals and the end of the game.

The seed fixes the deal by formula (colours = players + 1, a 6-player
exception), so the check holds game.toml's setup rows to that formula rather
than trusting them. Surveillance cards are written in the condition language
of :mod:`pnp.rules.surveillance`, which lets the check prove each card can
fire and lets the printed texts be generated in every language from one tree.

The modules: ``settings`` reads rules.toml; ``play`` and ``watch_cards`` are the
game's rules; ``checks``, ``examples`` and ``aids`` serve ``pnp check``,
examples.toml and the printed texts; ``rules`` wires them to the
:class:`~pnp.rules.base.GameRules` hooks.
"""

from __future__ import annotations

from pnp.rules.gadget_trick.play import Outcome, end_of_trick, legal_plays, next_leader, trick_winner
from pnp.rules.gadget_trick.rules import GadgetTrickRules
from pnp.rules.gadget_trick.settings import Settings, read_settings
from pnp.rules.gadget_trick.watch_cards import WatchCard, parse_card, removals

RULES = GadgetTrickRules()

__all__ = [
    "RULES", "GadgetTrickRules", "Outcome", "Settings", "WatchCard", "end_of_trick", "legal_plays", "next_leader",
    "parse_card", "read_settings", "removals", "trick_winner",
]

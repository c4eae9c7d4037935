"""Two Ops: operator table, goal table, hand solver and their checks.

The operator table lives in ``data/two-ops/rules.toml`` as expressions
(:mod:`pnp.rules.safe_expr`), because the rulebook's wording is what people
argue about ("off-colour value ignored"); keeping it as data lets the checks
evaluate every entry for every pair of card values, and lets the printed
aids, the court cards and the solver share one definition.

Colour relations (neither / both / one) are computed from the cards
(:func:`relation_of`), never written in data: they are the game's mechanism,
not a table value.

The modules follow that flow: ``cards``, ``vocabulary`` and ``tables`` (read
by ``reader``) feed ``operators`` and ``solver``; ``checks``, ``examples`` and
``aids`` use them for ``pnp check``, examples.toml and the printed texts;
``rules`` wires them to the :class:`~pnp.rules.base.GameRules` hooks.
"""

from __future__ import annotations

from pnp.rules.two_ops.cards import CardError, PlayingCard, parse_card
from pnp.rules.two_ops.deck import derived_max_players
from pnp.rules.two_ops.operators import Operation, apply_operator, evaluate_exhaustively, relation_of
from pnp.rules.two_ops.reader import read_tables
from pnp.rules.two_ops.rules import TwoOpsRules
from pnp.rules.two_ops.solver import Arrangement, Solution, solve
from pnp.rules.two_ops.tables import DealNumbers, GoalRule, OperatorRule, TwoOpsTables
from pnp.rules.two_ops.vocabulary import AIMS, PARITIES, RELATION_NAMES, RELATIONS

RULES = TwoOpsRules()

__all__ = [
    "AIMS", "PARITIES", "RELATIONS", "RELATION_NAMES", "RULES", "Arrangement", "CardError", "DealNumbers", "GoalRule",
    "Operation", "OperatorRule", "PlayingCard", "Solution", "TwoOpsRules", "TwoOpsTables", "apply_operator",
    "derived_max_players", "evaluate_exhaustively", "parse_card", "read_tables", "relation_of", "solve",
]

"""The contract between the generic core and a game's own rules module.

The core knows components, cards and setup arithmetic; it knows nothing of
operator tables or surveillance cards. A game whose rules need code names a
module in its manifest (``rules = "two_ops"``); that module exposes ``RULES``,
an instance of a :class:`GameRules` subclass. Adding a game therefore touches
neither the core nor the renderers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.diagnostics import Report
    from pnp.model.game import Example, Game


@dataclass
class AidTable:
    """A table for a player aid or rulebook, computed from the model.

    Cells are plain strings already in the requested language, so renderers
    only lay them out; ``notes`` are footnotes printed under the table.
    """

    id: str
    title: str
    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)


class ExampleError(Exception):
    """An example's inputs make no sense (unknown card, wrong kind).

    Raised by ``run_example``; the core turns it into a report entry with the
    example's file and line.
    """


class GameRules:
    """Default: a game with no rules of its own beyond the generic checks."""

    #: example kinds this module can recompute, e.g. {"trick", "set-sale"}
    example_kinds: frozenset[str] = frozenset()

    def check(self, game: Game, report: Report) -> None:
        """Add game-specific problems to ``report``; never raise on bad data."""

    def run_example(self, game: Game, example: Example) -> Mapping[str, Any]:
        """Recompute an example from its inputs.

        Returns a mapping with (at least) the keys of ``example.expect``; the
        core compares them and reports any mismatch at the example's line.
        """
        raise ExampleError(f"this game has no rules for examples of kind {example.kind!r}")

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        """Extra names for rule-text placeholders and layouts (model numbers)."""
        return {}

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        """Tables for the player aid, computed from the model."""
        return []

    #: one line of usage for `pnp solve`, or None when the game has no solver
    solve_usage: str | None = None

    def solve(self, game: Game, arguments: list[str], lang: str) -> str:
        """Settle a dispute at the table: the best play for a position given on the command line.

        Bad arguments raise :class:`ExampleError` with a message for the player.
        """
        raise ExampleError("this game has no solver")

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        """Texts generated from rules data, per card id and field.

        Gadget Trick's surveillance texts and Two Ops' court-card operator
        lines are generated, so languages can never disagree with the model.
        """
        return {}

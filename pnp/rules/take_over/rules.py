"""Take Over That Job's :class:`GameRules`: each hook reads rules.toml and hands over to its module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pnp.api import AidTable, GameRules, report_aid_problems, report_missing_rules_data
from pnp.rules.take_over.aids import bonus_aid, ladder_aid, marker_and_goal_texts, phrase_aid
from pnp.rules.take_over.checks import Checker
from pnp.rules.take_over.examples import run_bonus, run_trick
from pnp.rules.take_over.tables import TakeOverTables, read_tables, section

if TYPE_CHECKING:
    from pnp.api import Game, Report


def _run_bonus(_game: Game, tables: TakeOverTables, inputs: Mapping[str, Any]) -> Mapping[str, Any]:
    return run_bonus(tables, inputs)  # a bonus is scored from the tables alone


class TakeOverRules(GameRules):
    example_runners = {"trick": run_trick, "bonus": _run_bonus}
    example_inputs = {"trick": frozenset({"players", "plays", "trump", "disadvantaged", "hands"}),
                      "bonus": frozenset({"sequence"})}

    def rules_data(self, game: Game, report: Report) -> TakeOverTables | None:
        return self.tables(game, report)

    def tables(self, game: Game, report: Report | None = None) -> TakeOverTables | None:
        if game.rules_data is None:
            if report is not None:
                report_missing_rules_data(game, report, "take_over", "ladders, bonuses, phrases")
            return None
        from pnp.api import Report

        return read_tables(game.rules_data, report if report is not None else Report(), game.languages)

    def check(self, game: Game, report: Report) -> None:
        tables = self.tables(game, report)
        if tables is not None:
            report_aid_problems(tables.doc, report)
            Checker(game, tables, report).run()

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        tables = self.tables(game)
        if tables is None:
            return {}
        play = tables.play
        goals = tables.goal_numbers
        return {
            **play,
            "colours": len(tables.colours),
            "number_min": tables.number_min,
            "number_max": tables.number_max,
            "number_cards": len(tables.colours) * (tables.number_max - tables.number_min + 1),
            "goal_min": min(goals, default=0),
            "goal_max": max(goals, default=0),
            "goals_each": len(goals),
            "goal_cards": play.get("players", 0) * len(goals),
            "bonuses": len(tables.bonuses),
            "bonus_phases": tables.bonus_phases,
            "pass_hands": section(tables.data, "play").get("pass_hands", "left"),
        }

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        """Marker sides and the goal-card word, from rules.toml, in the card's language."""
        tables = self.tables(game)
        if tables is None:
            return {}
        return marker_and_goal_texts(game, tables, lang)

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        tables = self.tables(game)
        if tables is None:
            return []
        return [
            ladder_aid(tables, "lead_normal", tables.ladders.lead_normal, lang),
            ladder_aid(tables, "lead_disadvantaged", tables.ladders.lead_disadvantaged, lang),
            bonus_aid(tables, lang),
            phrase_aid(tables, lang),
        ]

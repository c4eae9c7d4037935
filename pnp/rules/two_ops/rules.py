"""Two Ops' :class:`GameRules`: each hook reads rules.toml and hands over to its module."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import AidTable, ExampleError, GameRules, read_or_raise, report_missing_rules_data
from pnp.api import localised as _word
from pnp.rules.two_ops.aids import court_card_texts, goal_aid, operator_aid
from pnp.rules.two_ops.cards import CardError, parse_card
from pnp.rules.two_ops.checks import check_deal, check_deck, check_operator_values
from pnp.rules.two_ops.deck import count_of_kind, deck_cards, derived_max_players
from pnp.rules.two_ops.examples import run_operation, run_solve
from pnp.rules.two_ops.reader import read_tables
from pnp.rules.two_ops.solver import solve
from pnp.rules.two_ops.tables import TwoOpsTables

if TYPE_CHECKING:
    from pnp.api import Game, Report


#: the words of `pnp solve`'s answer: goal, best value, unused card(s); English for other languages
SOLVE_WORDS = {"en": ("goal", "best value", "unused"), "ja": ("目標", "最善の値", "使わないカード")}


class TwoOpsRules(GameRules):
    example_runners = {"operation": run_operation, "solve": run_solve}
    example_inputs = {"operation": frozenset({"operator", "numbers"}),
                      "solve": frozenset({"numbers", "operators", "goal"})}

    def rules_data(self, game: Game, report: Report) -> TwoOpsTables | None:
        return self.tables(game, report)

    def tables(self, game: Game, report: Report | None = None) -> TwoOpsTables | None:
        """rules.toml parsed; problems go to ``report`` (or are dropped when only reading)."""
        if game.rules_data is None:
            if report is not None:
                report_missing_rules_data(game, report, "two_ops", "the operator and goal tables")
            return None
        from pnp.api import Report

        return read_tables(game.rules_data, report if report is not None else Report(), game.languages)

    def check(self, game: Game, report: Report) -> None:
        tables = self.tables(game, report)
        if tables is None:
            return
        check_operator_values(tables, report)
        check_deck(game, tables, report)
        check_deal(game, tables, report)

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        tables = self.tables(game)
        if tables is None or tables.deal is None:
            return {}
        deal = tables.deal
        numbers: dict[str, Any] = {
            "dealt": deal.numbers_dealt,
            "kept": deal.numbers_kept,
            "discarded": deal.numbers_dealt - deal.numbers_kept,
            "used": deal.numbers_used,
            "operators_each": deal.operators_each,
            "operations": deal.operators_each,
            "goal_cards": deal.goal_cards,
            "number_min": tables.number_min,
            "number_max": tables.number_max,
        }
        cards = deck_cards(game, tables)
        if cards is not None:
            pips, operators = count_of_kind(cards, tables.number_kind), count_of_kind(cards, tables.operator_kind)
            numbers.update(pips=pips, operators=operators,
                           max_players=derived_max_players(pips, operators, deal))
        return numbers

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        tables = self.tables(game)
        if tables is None:
            return []
        return [operator_aid(tables, lang), goal_aid(game, tables, lang)]

    solve_usage = ("NUMBER NUMBER NUMBER NUMBER NUMBER OPERATOR OPERATOR --goal CARD "
                   "(e.g. 7H 3S 10D AS 5C KD QS --goal 4H)")

    def solve(self, game: Game, arguments: list[str], lang: str) -> str:
        """The best two operations for a hand, with exact fractions and every tie."""
        tables = read_or_raise(self.rules_data, game)
        words = list(arguments)
        if "--goal" not in words or words.index("--goal") == len(words) - 1:
            raise ExampleError("name the goal card with --goal, e.g. --goal 4H")
        goal_at = words.index("--goal")
        goal_text = words[goal_at + 1]
        cards_text = words[:goal_at] + words[goal_at + 2:]
        try:
            cards = [parse_card(text) for text in cards_text]
            goal = parse_card(goal_text)
        except CardError as exc:
            raise ExampleError(str(exc)) from None
        numbers = [card for card in cards if card.rank <= tables.number_max]
        operators = [card for card in cards if card.rank > tables.number_max]
        try:
            solution = solve(tables, numbers, operators, goal)
        except CardError as exc:
            raise ExampleError(str(exc)) from None
        rule = tables.goal_for(goal)
        goal_word, best_word, unused_word = SOLVE_WORDS.get(lang, SOLVE_WORDS["en"])
        lines = [f"{goal_word} {goal.id}: {_word(rule.wording, lang)}",
                 f"{best_word}: {solution.value}"]
        for number, layout in enumerate(solution.ties, start=1):
            groups = "   ".join(operation.describe() for operation in layout.operations)
            unused = " ".join(card.id for card in layout.discard)
            lines.append(f"  {number}. {groups}   ({unused_word}: {unused})")
        return "\n".join(lines)

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        tables = self.tables(game)
        return court_card_texts(game, tables, lang) if tables is not None else {}

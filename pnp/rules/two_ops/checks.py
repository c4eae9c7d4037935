"""``pnp check`` for Two Ops: operator values, the deck against the tables, the deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from pnp.api import CardErrors, report_blank_column
from pnp.rules.two_ops.deck import count_of_kind, deck_cards, derived_max_players
from pnp.rules.two_ops.operators import evaluate_exhaustively
from pnp.rules.two_ops.tables import OperatorRule, TwoOpsTables

if TYPE_CHECKING:
    from pnp.api import Card, Game, Report


def _show_case(rule: OperatorRule, case: Mapping[str, int]) -> str:
    used = [name for name in ("a", "b", "on", "off") if name in rule.expression.names]
    return ", ".join(f"{name}={case[name]}" for name in used) or "always"


def check_operator_values(tables: TwoOpsTables, report: Report) -> None:
    doc = tables.doc
    values = tables.number_values
    for rule in tables.operators.values():
        line = doc.line_of("operator", rule.index, "expression")
        found = evaluate_exhaustively(rule, values)
        if found.zero_division:
            exc, case = found.zero_division
            report.error(f"operator {rule.name} divides by zero for {_show_case(rule, case)}: {exc}",
                         doc.path, line, "card values run from "
                         f"{values.start} to {values.stop - 1}; rewrite the expression so no divisor is 0")
            continue
        flag_line = doc.line_of("operator", rule.index, "may_be_fractional_or_negative")
        if found.odd_case and not rule.marked:
            value, case = found.odd_case
            report.error(f"{rule.name} can give {value} ({_show_case(rule, case)}) but is not marked",
                         doc.path, flag_line, "set may_be_fractional_or_negative = true")
        elif rule.marked and not found.odd_case:
            report.error(f"{rule.name} is marked may_be_fractional_or_negative, but for every pair of "
                         f"numbers {values.start}-{values.stop - 1} it gives whole numbers from "
                         f"{found.low} to {found.high}", doc.path, flag_line,
                         "set may_be_fractional_or_negative = false")
        truth = found.odd_case is not None
        if rule.seed_mark != truth:
            verb = "marks" if rule.seed_mark else "does not mark"
            report.note(f"seed erratum: the rulebook {verb} {rule.name} as fractional or negative, but "
                        f"evaluation over {values.start}-{values.stop - 1} says it "
                        f"{'can' if truth else 'cannot'} be; the aids print the verified mark",
                        doc.path, doc.line_of("operator", rule.index, "seed_mark"))


def check_deck(game: Game, tables: TwoOpsTables, report: Report) -> None:
    doc = tables.doc
    cards = deck_cards(game, tables)
    if cards is None:
        report.error(f"the game has no component {tables.component!r} for the deck", doc.path,
                     doc.line_of("deck", "component"))
        return
    court_ranks = set(tables.ranks.values())
    deck = game.components.get(tables.component)
    errors = CardErrors()
    in_error = report.rows_in_error()  # a rank off the grid (reported at the card) is not also off the rules
    report_blank_column(cards, "colour", "card", "colour", report)  # which relations hold is read off colours
    for card in cards:
        where = card.source.file if card.source else doc.path
        line = card.source.line if card.source else None
        if card.rank is None and deck is not None and deck.list_failed:
            continue  # a rank column missing, or a row unreadable: reported where the list is read
        if card.source and card.source.in_error(in_error):
            continue
        if card.colour is not None and card.colour not in tables.colours:
            errors.add(f"colour {card.colour!r} (relations need one of {', '.join(tables.colours)})", where, line,
                       card=card.id)
        in_range = tables.number_min <= (card.rank or 0) <= tables.number_max
        if card.kind == tables.number_kind and not in_range:
            shown = "no rank" if card.rank is None else f"rank {card.rank}"
            errors.add(f"number card with {shown} (numbers run {tables.number_min}-{tables.number_max})", where,
                       line, card=card.id)
        if card.kind == tables.operator_kind and card.rank not in court_ranks and not tables.unreadable_ranks:
            known = ", ".join(f"{k}={v}" for k, v in tables.ranks.items())
            errors.add(f"operator card with rank {card.rank}, which the operator table does not cover "
                       f"(ranks: {known})", where, line, card=card.id)
    errors.report_to(report)  # a column misspelt is one error naming its cards, not 52
    deck_courts = {card.rank for card in cards if card.kind == tables.operator_kind}
    if deck is not None and deck.list_failed:
        return  # the deck's ranks are not all known (reported where its list is read)
    for letter, value in tables.ranks.items():
        if value not in deck_courts:
            report.warning(f"operator rank {letter} (= {value}) has no card in the deck", doc.path,
                           doc.line_of("ranks", letter))


def check_deal(game: Game, tables: TwoOpsTables, report: Report) -> None:
    doc, deal = tables.doc, tables.deal
    if deal is None:
        return
    if deal.operators_each != 2:
        report.error(f"deal.operators_each is {deal.operators_each}, but a goal compares exactly two "
                     "operations", doc.path, doc.line_of("deal", "operators_each"))
    if deal.numbers_used != 2 * deal.operators_each:
        report.error(f"deal.numbers_used is {deal.numbers_used}, but {deal.operators_each} operators take "
                     f"2 numbers each = {2 * deal.operators_each}", doc.path,
                     doc.line_of("deal", "numbers_used"))
    if not deal.numbers_used <= deal.numbers_kept <= deal.numbers_dealt:
        report.error(f"deal: used {deal.numbers_used} <= kept {deal.numbers_kept} <= dealt "
                     f"{deal.numbers_dealt} does not hold", doc.path, doc.line_of("deal", "numbers_kept"))
    if deal.goal_kind != tables.number_kind:
        report.error(f"the goal card is drawn from kind {deal.goal_kind!r}, but the number stock is kind "
                     f"{tables.number_kind!r}; the goal must be a number card", doc.path,
                     doc.line_of("deal", "goal_kind"))
    cards = deck_cards(game, tables)
    deck = game.components.get(tables.component)
    if cards is None or (deck is not None and not game.countable(deck)):
        return  # a list in error (reported): counting what was read of it would only repeat the error
    goal_pool = [card for card in cards if card.kind == deal.goal_kind]
    in_error = report.rows_in_error()  # a rank already reported wrong at its card makes it no court card
    courts = [card.id for card in goal_pool if (card.rank or 0) > tables.number_max
              and not (card.source and card.source.in_error(in_error))]
    if courts:
        report.error(f"the goal pool (kind {deal.goal_kind!r}) holds court cards {', '.join(courts)}; the "
                     "goal card must always be a number", doc.path, doc.line_of("deal", "goal_kind"))
    _check_goal_coverage(goal_pool, tables, report)
    pips, operators = count_of_kind(cards, tables.number_kind), count_of_kind(cards, tables.operator_kind)
    most = derived_max_players(pips, operators, deal)
    stated = game.players[1]
    reason = (f"({pips} number cards - {deal.goal_cards} goal) // {deal.numbers_dealt} dealt = "
              f"{(pips - deal.goal_cards) // max(deal.numbers_dealt, 1)}, {operators} operators // "
              f"{deal.operators_each} each = {operators // max(deal.operators_each, 1)}, so at most {most}")
    where = (game.manifest.path, game.manifest.line_of("players")) if game.manifest else (
        doc.path, doc.line_of("deal"))
    if "players" in game.unreadable or (deck is not None and not game.as_declared(deck)):
        return  # the range is in error, or the deck's count, each reported at its line
    if stated > most:
        report.error(f"game.toml allows up to {stated} players, but {reason}", *where,
                     fix=f"set the maximum to {most}")
    elif stated < most:
        report.warning(f"game.toml allows up to {stated} players, but the deck serves {most}: {reason}",
                       *where)


def _check_goal_coverage(goal_pool: Sequence[Card], tables: TwoOpsTables, report: Report) -> None:
    for card in goal_pool:
        parity = "even" if (card.rank or 0) % 2 == 0 else "odd"
        if (parity, card.colour) not in tables.goals and card.colour in tables.colours:
            report.error(f"goal card {card.id} ({parity} {card.colour}) has no goal entry",
                         tables.doc.path, tables.doc.line_of("goal"))

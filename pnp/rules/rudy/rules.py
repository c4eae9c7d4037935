"""Rudy's :class:`GameRules`: each hook reads rules.toml and hands over to its module."""

from __future__ import annotations

from typing import Any

from pnp.api import AidTable, Game, GameRules, Report
from pnp.api import localised as _localised
from pnp.rules.rudy.aids import elements_table, market_table, sets_table, turn_table, wild_table
from pnp.rules.rudy.checks import check_deck, check_kinds, check_price_table, check_texts
from pnp.rules.rudy.examples import run_museum, run_sale, run_set_sale, run_step1_reward
from pnp.rules.rudy.pricing import market_reach
from pnp.rules.rudy.reader import Tables, read_tables


class RudyRules(GameRules):
    example_runners = {
        "single-sale": run_sale,
        "multi-sale": run_sale,
        "museum": run_museum,
        "step1-reward": run_step1_reward,
        "set-sale": run_set_sale,
    }
    example_inputs = {
        "single-sale": frozenset({"card", "cards", "market", "dice"}),
        "multi-sale": frozenset({"card", "cards", "market", "dice"}),
        "museum": frozenset({"card", "dice"}),
        "step1-reward": frozenset({"card", "market"}),
        "set-sale": frozenset({"cards", "market", "dice", "assign"}),
    }

    def rules_data(self, game: Game, report: Report) -> Tables | None:
        return read_tables(game, report)

    def check(self, game: Game, report: Report) -> None:
        tables = read_tables(game, report)
        if tables is None:
            return
        if tables.deck not in game.components:
            report.error(f"no component {tables.deck!r} in game.toml", tables.doc.path, tables.line("deck"))
            return
        deck = game.cards(tables.deck)
        check_kinds(game, tables, report)
        # a count in error or a misspelt kind (reported at its row) leaves how many cards reach the market unknown
        counted = game.countable(game.components[tables.deck])
        if game.as_declared(game.components[tables.deck]):
            check_price_table(tables, market_reach(deck, tables), report)
        check_deck(game, tables, deck, report, counted)
        check_texts(game, tables, report)

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        tables = read_tables(game, Report())
        if tables is None:
            return {}
        buys = {row.buy for row in tables.prices if row.buy is not None}
        erratum = tables.doc.data.get("erratum", {})
        glossary = tables.doc.data.get("glossary", {})  # of other shapes: reported by the check
        return {
            "market_prices": [{"from": r.first, "to": r.last, "sell": r.sell, "buy": r.buy} for r in tables.prices],
            "buy_price": buys.pop() if len(buys) == 1 else None,
            "market_limit": tables.market_limit,
            "museum_price": tables.museum_price,
            "dice_count": tables.dice_count,
            "dice_bonus": tables.dice_bonus,
            "set_multiplier": tables.multiplier,
            "set_bonus": dict(tables.bonus),
            "black_white_run_price": tables.black_white_price,
            "errata": {name: _localised(entry, lang) for name, entry in erratum.items()}
            if isinstance(erratum, dict) else {},
            "glossary": {key: _localised(term, lang) for key, term in glossary.items()}
            if isinstance(glossary, dict) else {},
        }

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        tables = read_tables(game, Report())
        if tables is None:
            return []
        aid = tables.doc.data.get("aid", {})
        values = {"dice_bonus": tables.dice_bonus, "museum_price": tables.museum_price}
        return [
            market_table(tables, aid.get("market", {}), lang, values),
            sets_table(tables, aid.get("sets", {}), lang),
            elements_table(tables, aid.get("elements", {}), lang),
            wild_table(game, tables, aid.get("wild", {}), lang),
            turn_table(game, tables, aid.get("turn", {}), lang),
        ]

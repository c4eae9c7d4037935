"""Gadget Trick's :class:`GameRules`: each hook reads rules.toml and hands over to its module."""

from __future__ import annotations

from typing import Any

from pnp.api import AidTable, Game, GameRules, Report, report_aid_problems
from pnp.rules import surveillance
from pnp.rules.gadget_trick.aids import setup_table, static_table, surveillance_and_gadget_texts
from pnp.rules.gadget_trick.checks import (
    check_colour_order,
    check_gadgets,
    check_setup,
    check_surveillance,
    deck_colours_known,
    trick_deck,
)
from pnp.rules.gadget_trick.examples import (
    run_follow,
    run_game_end,
    run_next_leader,
    run_surveillance,
    run_trick,
)
from pnp.rules.gadget_trick.settings import Settings, read_settings


class GadgetTrickRules(GameRules):
    example_runners = {
        "trick": run_trick,
        "follow": run_follow,
        "surveillance": run_surveillance,
        "game-end": run_game_end,
        "next-leader": run_next_leader,
    }
    example_inputs = {
        "trick": frozenset({"plays", "as_number", "trump", "leader", "players"}),
        "follow": frozenset({"hand", "lead"}),
        "surveillance": frozenset({"players", "trick", "trump", "removed", "leader", "plays", "won", "cards"}),
        "game-end": frozenset({"players", "won_count", "won_trump", "removed", "trick", "last_winner"}),
        "next-leader": frozenset({"players", "removed", "winner"}),
    }

    def rules_data(self, game: Game, report: Report) -> Settings | None:
        return read_settings(game, report)

    def check(self, game: Game, report: Report) -> None:
        errors_before = len(report.errors)
        settings = read_settings(game, report)
        if settings is None:
            return
        # settings read with errors hold defaults where the errors are: comparing the setup with them
        # would report each unreadable number again as a disagreement ("hand is 9 but the rules give 10")
        settings_whole = len(report.errors) == errors_before
        report_aid_problems(settings.doc, report)
        deck = trick_deck(game, settings, report)
        if deck is None or not deck_colours_known(game, settings, deck, report):
            return
        # a trick deck whose list is in error (a rank column missing, no cards at all) cannot be counted:
        # the colours it covers, the setup and whether a condition can be met wait until it is fixed
        countable = game.countable(game.components[settings.deck])
        if countable:
            check_colour_order(game, settings, deck, report)
        if settings_whole and game.as_declared(game.components[settings.deck]):
            check_setup(game, settings, deck, report)
        if "players" not in game.unreadable:  # else every condition would be judged at 1 player
            check_surveillance(game, settings, deck, report, reach=countable)
        check_gadgets(game, settings, report)
        for lang in game.languages:
            if lang not in surveillance.PHRASES:
                report.warning(f"surveillance card texts have no wording for {lang!r}; English is used",
                               None, None, "add the language to PHRASES in pnp/rules/surveillance/wording.py")

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        report = Report()
        settings = read_settings(game, report)
        if settings is None or settings.surveillance not in game.components:
            return {}
        return surveillance_and_gadget_texts(game, settings, lang)

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        settings = read_settings(game, Report())
        if settings is None:
            return {}
        counts = range(game.players[0], game.players[1] + 1)
        return {
            "colour_order": [game.colours[c].name(lang) if c in game.colours else c for c in settings.colour_order],
            "normal_hand": settings.hand,
            "normal_tricks": settings.tricks,
            "surveillance_in_play": settings.surveillance_in_play,
            "shift_from_trick": settings.shift_from_trick,
            "deal": {p: {"colours": len(settings.colours_in_play(p)), "hand": settings.hand_for(p),
                         "tricks": settings.tricks_for(p), "left": settings.hand_for(p) - settings.tricks_for(p)}
                     for p in counts},
        }

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        settings = read_settings(game, Report())
        if settings is None:
            return []
        aid = settings.doc.data.get("aid", {})
        tables = [static_table(table_id, aid.get(table_id, {}), lang) for table_id in ("trick-order", "winner", "end")]
        tables.append(setup_table(game, settings, aid.get("setup", {}), lang))
        return tables

"""Aid tables that a rules module and game.toml both define under one id.

``{{ table("id") }}`` in a rule text, and the aid's own listing, find a table by its id. A game whose
rules module computes a table "values" and whose game.toml also declares ``[[aid]] id = "values"``
had one of them silently hidden in the rulebook and both printed in the aid.
"""

from __future__ import annotations

from pnp.diagnostics import DataError, Report
from pnp.model.game import Game
from pnp.rules.base import GameRules


def check_aid_ids(game: Game, rules: GameRules, report: Report) -> None:
    """An ``[[aid]]`` whose id is also a table of the rules module, in any language, is an error at it."""
    if not game.aids:
        return
    computed: set[str] = set()
    for lang in game.languages:
        try:
            computed |= {table.id for table in rules.aid_tables(game, lang)}
        except DataError:  # the aid's own job says what its code raised
            return
    for spec in game.aids:
        if spec.id in computed:
            where = spec.place
            report.error(f"aid id {spec.id!r} is also a table of the rules module ({game.rules}): "
                         f"{{{{ table({spec.id!r}) }}}} in a rule text would name either",
                         where.file if where else None, where.line if where else None,
                         "give this [[aid]] another id, or drop it and use the rules module's table")

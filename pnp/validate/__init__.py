"""Stage 3: validate a loaded game against the generic and game-specific rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.rules import available, get_rules
from pnp.rules.base import GameRules
from pnp.validate import generic
from pnp.validate.examples import check_examples


@dataclass
class CheckResult:
    folder: Path
    game: Game | None
    rules: GameRules | None
    report: Report = field(default_factory=Report)
    examples: dict[str, str] = field(default_factory=dict)


def check_game(game: Game, report: Report) -> tuple[GameRules | None, dict[str, str]]:
    """Run every check on a modelled game, adding to ``report``."""
    generic.check_counts(game, report)
    generic.check_vocabulary(game, report)
    generic.check_duplicate_ids(game, report)
    generic.check_grids(game, report)
    generic.check_setup(game, report)
    generic.note_provisional(game, report)
    rules = get_rules(game.rules)
    if rules is None:
        line = game.manifest.line_of("rules") if game.manifest else None
        report.error(f"unknown rules module {game.rules!r}", game.manifest.path if game.manifest else None, line,
                     f"available: {', '.join(available())}, or remove 'rules' for a game without its own rules")
        return None, {}
    rules.check(game, report)
    outcome = check_examples(game, rules, report)
    return rules, outcome


def check_folder(folder: Path) -> CheckResult:
    """Load, model and validate one game folder."""
    report = Report()
    game = load_game(folder, report)
    result = CheckResult(folder=folder, game=game, rules=None, report=report)
    if game is not None:
        result.rules, result.examples = check_game(game, report)
    return result

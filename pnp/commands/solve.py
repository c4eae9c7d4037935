"""`pnp solve`: a game's own solver, for settling disputes at the table."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.diagnostics import Report
from pnp.load.game_folder import data_dir, resolve_games
from pnp.model.build import load_game
from pnp.rules import rules_of
from pnp.rules.base import ExampleError
from pnp.rules.local import RulesLoadError


def run_solve(data: Path | None, game_name: str, position: list[str], lang: str) -> int:
    report = Report()
    folders = resolve_games(data_dir(data), (game_name,), report, explicit_data=data is not None)
    game = load_game(folders[0], report) if folders else None
    rules = None
    if game is not None:
        try:
            rules = rules_of(game)
        except RulesLoadError as exc:  # not trusted, or broken: said, with its fix
            report.diagnostics.append(exc.diagnostic)
    if report.errors or game is None or rules is None:
        for diagnostic in report.diagnostics:
            click.echo(diagnostic.format(Path.cwd()), err=True)
        if folders:  # an unknown game is said above; a game that is there but broken gets pointed at the check
            click.echo(f"{game_name}: cannot be solved until it checks clean (pnp check {game_name})", err=True)
        return 1
    if rules.solve_usage is None:
        click.echo(f"error: {game.id} has no solver", err=True)
        return 2
    if lang not in game.languages:  # it answered in English without a word
        shipped = "en" if "en" in game.languages else game.source_language
        click.echo(f"note: --lang {lang}: {game.id} ships in {', '.join(game.languages)}; answering in {shipped}",
                   err=True)
        lang = shipped
    try:
        click.echo(rules.solve(game, position, lang))
    except RulesLoadError as exc:  # the game's own solver raised
        click.echo(exc.diagnostic.format(Path.cwd()), err=True)
        return 1
    except ExampleError as exc:
        click.echo(f"error: {exc}\nusage: pnp solve {game.id} {rules.solve_usage}", err=True)
        return 2
    return 0

"""`pnp build`: check each game, then render and write its printables."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.diagnostics import Report
from pnp.load.game_folder import data_dir, resolve_games
from pnp.validate import check_folder

PAPERS = ("a4", "letter")


def run_build(data: Path | None, games: tuple[str, ...], languages: tuple[str, ...], papers: tuple[str, ...],
              out: Path) -> int:
    root = data_dir(data)
    report = Report()
    folders = resolve_games(root, games, report)
    for diagnostic in report.diagnostics:
        click.echo(diagnostic.format(Path.cwd()), err=True)
    failed = bool(report.errors)
    for folder in folders:
        result = check_folder(folder)
        if result.report.errors or result.game is None:
            for diagnostic in result.report.errors:
                click.echo(diagnostic.format(Path.cwd()), err=True)
            click.echo(f"{folder.name}: not built — fix the errors above (pnp check {folder.name})", err=True)
            failed = True
            continue
        click.echo(f"{folder.name}: checked, nothing to render yet")
    return 1 if failed else 0

"""`pnp check`: load, model and validate games, print tables and problems."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.diagnostics import Report
from pnp.load.game_folder import data_dir, resolve_games
from pnp.validate import check_folder
from pnp.validate.summary import format_check


def run_check(data: Path | None, games: tuple[str, ...], strict: bool, lang: str) -> int:
    root = data_dir(data)
    report = Report()
    folders = resolve_games(root, games, report)
    for diagnostic in report.diagnostics:
        click.echo(diagnostic.format(Path.cwd()), err=True)
    failed = bool(report.errors)
    total = {"errors": 0, "warnings": 0, "notes": 0}
    for folder in folders:
        result = check_folder(folder)
        click.echo(format_check(result, lang, Path.cwd(), strict))
        click.echo("")
        failed = failed or result.report.failed(strict)
        total["errors"] += len(result.report.errors)
        total["warnings"] += len(result.report.warnings)
        total["notes"] += len(result.report.notes)
    if len(folders) > 1:
        click.echo(f"{len(folders)} games checked: {total['errors']} error(s), {total['warnings']} warning(s), "
                   f"{total['notes']} note(s) — {'FAILED' if failed else 'ok'}")
    return 1 if failed else 0

"""`pnp build`: check each game, then render and write its printables.

Every output file is a function of the game folder, the templates, the
options and pnp's version; the build lists them as jobs first (see
:mod:`pnp.write.jobs`) and then runs each one, writing atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import click

from pnp.diagnostics import DataError, Report
from pnp.load.game_folder import data_dir, resolve_games
from pnp.render.faces import TextIssue
from pnp.validate import check_folder
from pnp.write.jobs import BuildOptions, BuildSummary, plan_game_jobs, run_jobs

PAPERS = ("a4", "letter")
WHAT = ("cards", "fold", "lowink", "calibration", "png", "rules", "aid")


@dataclass
class BuildRequest:
    games: tuple[str, ...]
    languages: tuple[str, ...]
    papers: tuple[str, ...]
    out: Path
    options: BuildOptions
    what: tuple[str, ...] = ()
    strict: bool = False
    report_issues: list[TextIssue] = field(default_factory=list)


def run_build(data: Path | None, request: BuildRequest) -> int:
    root = data_dir(data)
    report = Report()
    folders = resolve_games(root, request.games, report)
    for diagnostic in report.diagnostics:
        click.echo(diagnostic.format(Path.cwd()), err=True)
    failed = bool(report.errors)
    summary = BuildSummary()
    for folder in folders:
        result = check_folder(folder)
        if result.report.errors or result.game is None or result.rules is None:
            for diagnostic in result.report.errors:
                click.echo(diagnostic.format(Path.cwd()), err=True)
            click.echo(f"{folder.name}: not built — fix the errors above (pnp check {folder.name})", err=True)
            failed = True
            continue
        languages = request.languages or result.game.languages
        unknown = [lang for lang in languages if lang not in result.game.languages]
        if unknown:
            click.echo(f"{folder.name}: skipping languages it does not ship in: {', '.join(unknown)}", err=True)
        languages = tuple(lang for lang in languages if lang in result.game.languages)
        try:
            jobs = plan_game_jobs(result.game, result.rules, languages, request.papers or PAPERS, request.out,
                                  request.what or WHAT, request.options)
            run_jobs(jobs, summary)
        except DataError as exc:
            click.echo(exc.diagnostic.format(Path.cwd()), err=True)
            click.echo(f"{folder.name}: build stopped", err=True)
            failed = True
    for diagnostic in summary.report.diagnostics:
        click.echo(diagnostic.format(Path.cwd()), err=True)
    click.echo(summary.describe(Path.cwd()))
    if summary.report.errors:
        failed = True
    return 1 if failed else 0

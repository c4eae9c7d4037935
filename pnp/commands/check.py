"""`pnp check`: load, model and validate games, print tables and problems."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.console import echo
from pnp.commands.languages import language_fix
from pnp.commands.project_defaults import project_defaults
from pnp.commands.sheet_counts import HEADER, papers_too_small, sheet_records, sheet_rows
from pnp.diagnostics import Report
from pnp.load.game_folder import data_dir, resolve_games
from pnp.validate import check_folder
from pnp.validate.summary import format_check


def run_check(data: Path | None, games: tuple[str, ...], strict: bool, lang: str | None = None,
              output: str = "text") -> int:
    """Check the games and print the report: tables and problems (text), one JSON document (json), or
    GitHub Actions annotations (github). The exit status is the same in each.

    ``lang`` None: titles in English where a game ships it, else in its source language, without the
    warning that a --lang no game ships gets (a game made in French only had it on every check).
    """
    asked, lang = lang, lang or "en"
    root = data_dir(data)
    report = Report()
    folders = resolve_games(root, games, report, explicit_data=data is not None)
    project_defaults(report)  # pnp.toml is an input like any other: its findings are the project's own
    if output == "text":
        for diagnostic in report.diagnostics:
            echo(diagnostic.format(Path.cwd()), err=True)
    failed = report.failed(strict)  # an unknown key in pnp.toml fails --strict, as one in game.toml does
    total = {"errors": 0, "warnings": 0, "notes": 0}
    checked: list[tuple[str, Report, list[dict[str, object]]]] = []
    results = []
    for folder in folders:
        result = check_folder(folder)
        if result.game is not None:
            papers_too_small(result.game, result.report)
        results.append(result)
        checked.append((result.game.id if result.game else folder.name, result.report,
                        sheet_records(result.game) if result.game is not None and output == "json" else []))
        if output == "text":
            sheets = (HEADER, sheet_rows(result.game)) if result.game is not None else None
            echo(format_check(result, lang, Path.cwd(), strict, sheets))
            click.echo("")
        failed = failed or result.report.failed(strict)
        total["errors"] += len(result.report.errors)
        total["warnings"] += len(result.report.warnings)
        total["notes"] += len(result.report.notes)
    shipped = {code for result in results if result.game for code in result.game.languages}
    if asked is not None and shipped and asked not in shipped:  # the tables fall back to each source language
        # in the general findings too: JSON and GitHub output lacked it while --strict failed on it
        report.warning(f"--lang {asked}: no game checked ships in that language; names are shown in each "
                       "game's source language", None, None, language_fix(asked, shipped))
        if output == "text":
            echo(report.diagnostics[-1].format(Path.cwd()), err=True)
        failed = failed or strict
    # what no game owns (an unknown game, that --lang) counts as well: "0 error(s) — FAILED" said nothing
    total["errors"] += len(report.errors)
    total["warnings"] += len(report.warnings)
    total["notes"] += len(report.notes)
    games = f"{len(folders)} game" + ("s" if len(folders) != 1 else "")
    summary = (f"{games} checked: {total['errors']} error(s), {total['warnings']} warning(s), "
               f"{total['notes']} note(s) — {'FAILED' if failed else 'ok'}")
    if output == "json":
        from pnp.commands.check_output import json_report

        click.echo(json_report(checked, report, failed, Path.cwd()))
    elif output == "github":
        from pnp.commands.check_output import annotation_root, github_annotations

        every = [*report.diagnostics, *(d for _, game_report, _ in checked for d in game_report.diagnostics)]
        for line in github_annotations(every, annotation_root()):
            click.echo(line)
        click.echo(summary)
    elif len(folders) > 1:  # one game's own report already ends with its verdict
        echo(summary)
    return 1 if failed else 0

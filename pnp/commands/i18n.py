"""`pnp i18n [GAME...]`: where each translation stands, and recording sections as translated."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from pnp.commands.check_output import diagnostic_record
from pnp.commands.console import echo
from pnp.commands.json_output import document, i18n_record
from pnp.commands.languages import language_fix
from pnp.diagnostics import Report
from pnp.load.game_folder import data_dir, game_argument, resolve_games
from pnp.load.rule_files import has_rule_texts
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.validate.translation_records import accept_sections
from pnp.validate.translations import analyse_translations, format_language, has_errors


def run_i18n(data: Path | None, games: tuple[str, ...], lang: str | None, accept: Sequence[str] = (),
             accept_all: bool = False, diff: bool = True, output: str = "text") -> int:
    """Print the translation status; with ``accept``, first record those sections as translated.
    ``output`` "json": one document on stdout (pnp.commands.json_output.i18n_record); the rest on stderr.

    Exit status 1 when a translation has what `pnp check` calls an error
    (missing rule text or section, placeholder or number mismatch), else 0;
    2 on usage errors.
    """
    if (accept or accept_all) and not lang:
        echo("--accept needs --lang: say which translation you checked", err=True)
        return 2
    if accept and accept_all:  # the named sections were ignored without a word, typos and all
        echo("--accept and --accept-all: give one (--accept-all records every section and text)", err=True)
        return 2
    root = data_dir(data)
    report = Report()
    folders = resolve_games(root, games, report, explicit_data=data is not None)
    failed = _echo(report)
    records: list[dict[str, object]] = []
    json_out = output == "json"
    if failed and (accept or accept_all):
        # "--accept a b" makes b a game: record nothing rather than half of what was meant
        echo("nothing recorded: --accept takes one section id each time (--accept a --accept b)", err=True)
        return 1
    for folder in folders:
        game_report = Report()
        game = load_game(folder, game_report)
        if game is None:
            _echo(game_report)
            echo(f"{folder.name}: cannot be read (run pnp check {game_argument(folder)})", err=True)
            failed = True
            continue
        if not has_rule_texts(game):
            echo(f"{game.id}: no rule texts yet (rules/<lang>.md)", err=json_out)
            records.append(i18n_record(game, [], game_report, Path.cwd(), "no rule texts yet"))
            continue
        if lang is not None and lang not in game.languages:
            echo(f"{game.id}: does not ship in {lang!r}\n    fix: {language_fix(lang, game.languages)}", err=True)
            failed = True
            continue
        if lang == game.source_language and (accept or accept_all):
            # it wrote rules/<source>.sources.toml, "the <source> text each section was translated from"
            echo(f"{game.id}: {lang!r} is the source language, which is translated from nothing\n"
                 f"    fix: accept sections of a translation ({_translations(game)})", err=True)
            failed = True
            continue
        if lang is not None and (accept or accept_all):
            accepted = accept_sections(game, lang, None if accept_all else list(accept), game_report)
            if accepted:
                echo(f"{game.id} — {lang}: recorded as translated: {', '.join(accepted)}", err=json_out)
        _refusal_of_its_rules(game, game_report)
        statuses = analyse_translations(game, game_report, [lang] if lang else None)
        failed = _echo(game_report) or failed
        if not statuses:
            echo(f"{game.id}: only the source language {game.source_language!r}; nothing to translate", err=json_out)
        for status in statuses:
            if not json_out:
                echo(format_language(game, status, Path.cwd(), show_diff=diff))
                echo("")
            failed = failed or has_errors(status)
        records.append(i18n_record(game, statuses, game_report, Path.cwd()))
    if json_out:
        general = [diagnostic_record(d, Path.cwd()) for d in report.diagnostics]
        click.echo(document({"failed": failed, "general": general, "games": records}))
    return 1 if failed else 0


def _refusal_of_its_rules(game: Game, report: Report) -> None:
    """The reason a game's own rules.py may not run (not trusted, changed, broken), as `pnp check` says
    it: the translations are analysed without its placeholders, and the report must not look clean."""
    from pnp.rules import rules_of
    from pnp.rules.local import RulesLoadError

    try:
        rules_of(game)
    except RulesLoadError as exc:
        report.diagnostics.append(exc.diagnostic)


def _translations(game: Game) -> str:
    others = [f"--lang {lang}" for lang in game.languages if lang != game.source_language]
    return ", ".join(others) if others else "the game ships in no other language yet"


def _echo(report: Report) -> bool:
    for diagnostic in dict.fromkeys(report.diagnostics):  # accepting reads the records too: said once
        echo(diagnostic.format(Path.cwd()), err=True)
    return bool(report.errors)

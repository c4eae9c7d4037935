"""`pnp list`: what games are here, for whom, with what."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.commands.json_output import game_record
from pnp.commands.languages import language_fix
from pnp.diagnostics import Report
from pnp.load.game_folder import data_dir, discover, game_standing_in
from pnp.model.build import load_game
from pnp.validate.summary import table


def run_list(data: Path | None, lang: str | None = None, output: str = "text") -> int:
    """The games found; titles and component names in ``lang``, or each game's own source language:
    a Japanese-first game is listed by its Japanese title unless --lang says otherwise."""
    root = data_dir(data)
    here = game_standing_in(root, explicit_data=data is not None)
    folders = discover(root) or ([here] if here is not None else [])
    if not folders:
        click.echo(f"no games found in {root} (start one with 'pnp new GAME-ID')", err=True)
        return 1
    rows = []
    records: list[dict[str, object]] = []
    shipped: set[str] = set()
    for folder in folders:
        report = Report()
        game = load_game(folder, report)
        if game is None:
            rows.append([folder.name, "(unreadable: run pnp check)", "-", "-"])
            records.append({"game": folder.name, "readable": False})
            continue
        shipped.update(game.languages)
        low, high = game.players
        players = str(low) if low == high else f"{low}-{high}"
        shown = lang or game.source_language
        components = ", ".join(f"{c.name(shown)} ×{c.count}" for c in game.components.values())
        rows.append([game.id, game.title(shown), players, components])
        records.append({**game_record(game, lang), "readable": True})
    if output == "json":
        from pnp.commands.json_output import document

        click.echo(document({"games": records}))
    else:
        click.echo(table(["game", "title", "players", "components"], rows))
    if lang is not None and shipped and lang not in shipped:  # titles and names fall back to each game's first
        click.echo(f"warning: --lang {lang}: no game here ships in that language\n    fix: "
                   f"{language_fix(lang, shipped)}", err=True)
    return 0

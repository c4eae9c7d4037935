"""`pnp trust`: let pnp run a game folder's own rules code, as `direnv allow` does for an .envrc."""

from __future__ import annotations

import tomllib
from pathlib import Path

import click

from pnp.diagnostics import DataError, Report
from pnp.load.game_folder import data_dir, game_argument, resolve_games
from pnp.load.text_files import read_text
from pnp.rules import trust


def run_trust(data: Path | None, games: tuple[str, ...], revoke: bool, listing: bool) -> int:
    if listing:
        if games or revoke:
            click.echo("error: --list takes no games and no --revoke", err=True)
            return 2
        return _list()
    report = Report()
    folders = resolve_games(data_dir(data), games, report, explicit_data=data is not None)
    for diagnostic in report.diagnostics:
        click.echo(diagnostic.format(Path.cwd()), err=True)
    failed = bool(report.errors)
    for folder in folders:
        named = game_argument(folder)
        if revoke:
            click.echo(f"{named}: no longer trusted" if trust.revoke(folder) else f"{named}: was not trusted")
            continue
        try:
            rules = _local_rules_name(folder)
            if rules is None:
                click.echo(f"{named}: has no rules code of its own; nothing to trust")
                continue
            from pnp.rules.local import code_path

            code = code_path(folder, rules, folder / "game.toml", None)
            digest = trust.code_digest(folder.resolve(), rules, code)
        except DataError as exc:
            click.echo(exc.diagnostic.format(Path.cwd()), err=True)
            failed = True
            continue
        except OSError as exc:
            click.echo(f"error: {named}: {exc.strerror or exc}", err=True)
            failed = True
            continue
        record = trust.record_for(folder)
        if record is not None and record.digest == digest:
            click.echo(f"{named}: already trusted ({rules}, {_short(digest)})")
            continue
        try:
            written = trust.trust(folder, rules, digest)
        except OSError as exc:
            click.echo(f"error: cannot record the trust in {trust.trust_file()}: {exc.strerror or exc}", err=True)
            return 1
        click.echo(f"{named}: trusted {rules} as it is now ({_short(digest)}); recorded in {written}. "
                   "Any change to it asks again")
    return 1 if failed else 0


def _list() -> int:
    records = trust.read_records()
    if not records:
        click.echo(f"no game folder is trusted ({trust.trust_file()})")
        return 0
    for record in sorted(records, key=lambda r: r.folder):
        folder = Path(record.folder)
        state = ""
        try:
            from pnp.rules.local import code_path

            code = code_path(folder, record.rules, None, None)
            if trust.code_digest(folder, record.rules, code) != record.digest:
                state = "  (changed since: asks again)"
        except (DataError, OSError):
            state = "  (gone)"
        click.echo(f"{record.folder}  {record.rules}  {_short(record.digest)}{state}")
    return 0


def _short(digest: str) -> str:
    return digest[: len("sha256:") + 12]


def _local_rules_name(folder: Path) -> str | None:
    """The manifest's ``rules`` when it names code in the folder; the manifest is read for that key only."""
    from pnp.rules.local import is_local

    manifest = folder / "game.toml"
    try:
        data = tomllib.loads(read_text(manifest))
    except DataError:
        raise
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"cannot read the manifest: {exc}", manifest, None, f"see 'pnp check {game_argument(folder)}'"
                        ) from None
    rules = data.get("rules")
    return rules if isinstance(rules, str) and is_local(rules) else None

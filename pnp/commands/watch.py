"""`pnp watch`: rebuild what a saved file affects, for a designer at the editor.

Polling keeps it dependency-free and works on every filesystem; the build's
own up-to-date check then rebuilds only the outputs whose inputs changed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from pnp.commands.console import echo
from pnp.load.game_folder import editor_litter, game_standing_in, is_output_folder

Snapshot = dict[Path, tuple[int, int]]


def snapshot(folders: list[Path]) -> Snapshot:
    """Size and time of every file a build reads; editor litter (swap files, backups) is no input,
    and a file that vanishes while it is listed (an editor's temporary file) is simply not there."""
    state: Snapshot = {}
    for folder in folders:
        for directory, subfolders, files in os.walk(folder):
            subfolders[:] = [name for name in subfolders if name != "__pycache__" and not editor_litter(name)
                             and not is_output_folder(os.path.join(directory, name))]
            for name in files:
                if editor_litter(name):
                    continue
                path = Path(directory, name)
                try:
                    stat = path.stat()
                except FileNotFoundError:
                    continue
                state[path] = (stat.st_size, stat.st_mtime_ns)
    return state


def changed_games(before: Snapshot, after: Snapshot, data: Path) -> set[str] | None:
    """Game ids whose folders changed; None when something outside a game changed (rebuild all)."""
    games: set[str] = set()
    for path in _touched(before, after):
        try:
            games.add(path.relative_to(data).parts[0])
        except (ValueError, IndexError):
            return None
    return games


def run_watch(data: Path, build: Callable[[tuple[str, ...]], int], games: tuple[str, ...] = (),
              interval: float = 0.5, rounds: int | None = None, explicit_data: bool = False) -> int:
    """Build, then rebuild on every saved change. With ``games``, only their folders are watched and
    only they are built: a designer at work on one game does not wait for the others. Run from inside
    a game folder with no ``data/`` there, it watches that game (as the build takes it)."""
    here = None if games else game_standing_in(data, explicit_data)
    if here is not None:
        games = (str(here),)
    watched = _watched_games(data, games, explicit_data)
    if watched is None:
        return 1
    folders = list(watched) if watched else [data]
    echo(f"watching {', '.join(str(f) for f in folders)} — save a file to rebuild; Ctrl-C to stop")
    # each snapshot is taken before the build it starts: a file saved while a build runs is a change
    # the next round sees, not one the build's own snapshot swallows
    before = snapshot(folders)
    build(games)
    done = 0
    try:
        while rounds is None or done < rounds:
            time.sleep(interval)
            after = snapshot(folders)
            if after != before:
                names = _to_rebuild(before, after, data, watched)
                echo(f"change in {', '.join(names) if names else 'data'}: rebuilding")
                build(names)
                done += 1
            before = after
    except KeyboardInterrupt:
        echo("stopped watching")
    return 0


def _touched(before: Snapshot, after: Snapshot) -> set[Path]:
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def _to_rebuild(before: Snapshot, after: Snapshot, data: Path, watched: dict[Path, str]) -> tuple[str, ...]:
    """The games a change asks to rebuild, as the build takes them; () for every game."""
    if watched:
        touched = _touched(before, after)
        return tuple(name for folder, name in watched.items() if any(folder in path.parents for path in touched))
    changed = changed_games(before, after, data)
    return tuple(sorted(g for g in changed if (data / g).is_dir())) if changed is not None else ()


def _watched_games(data: Path, games: tuple[str, ...], explicit_data: bool = False) -> dict[Path, str] | None:
    """Each named game's folder and the name the user gave it; {} for every game; None (errors shown)
    when a name is unknown."""
    if not games:
        return {}
    from pnp.diagnostics import Report
    from pnp.load.game_folder import resolve_games

    report = Report()
    folders = resolve_games(data, games, report, explicit_data)
    for diagnostic in report.diagnostics:
        echo(diagnostic.format(Path.cwd()), err=True)
    if report.errors:
        return None
    return {folder.resolve(): name for folder, name in zip(folders, games, strict=True)}

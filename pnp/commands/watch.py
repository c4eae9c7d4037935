"""`pnp watch`: rebuild what a saved file affects, for a designer at the editor.

Polling keeps it dependency-free and works on every filesystem; the build's
own up-to-date check then rebuilds only the outputs whose inputs changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import click

Snapshot = dict[Path, tuple[int, int]]


def snapshot(folders: list[Path]) -> Snapshot:
    state: Snapshot = {}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                state[path] = (stat.st_size, stat.st_mtime_ns)
    return state


def changed_games(before: Snapshot, after: Snapshot, data: Path) -> set[str] | None:
    """Game ids whose folders changed; None when something outside a game changed (rebuild all)."""
    touched = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    games: set[str] = set()
    for path in touched:
        try:
            games.add(path.relative_to(data).parts[0])
        except (ValueError, IndexError):
            return None
    return games


def run_watch(data: Path, build: Callable[[tuple[str, ...]], int], interval: float = 0.5,
              rounds: int | None = None) -> int:
    folders = [data]
    click.echo(f"watching {data} — save a file to rebuild; Ctrl-C to stop")
    build(())
    before = snapshot(folders)
    done = 0
    try:
        while rounds is None or done < rounds:
            time.sleep(interval)
            after = snapshot(folders)
            if after != before:
                games = changed_games(before, after, data)
                names = tuple(sorted(g for g in games if (data / g).is_dir())) if games is not None else ()
                click.echo(f"change in {', '.join(names) if names else 'data'}: rebuilding")
                build(names)
                before = snapshot(folders)
                done += 1
            else:
                before = after
    except KeyboardInterrupt:
        click.echo("stopped watching")
    return 0

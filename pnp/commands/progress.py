"""How a build shows its progress: a bar on a terminal, a line per output in a log, nothing when quiet.

The bar advances as units finish, in whatever order (pnp.write.runner.run_units tells it of each); off a
terminal (CI, a pipe) a bar is one line drawn at the end, so each output written is a line of its own,
and a minute-long build is not a minute of silence.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from pnp.commands.console import echo, quiet
from pnp.write.jobs import Unit, UnitResult


def on_terminal() -> bool:
    return sys.stdout.isatty() and sys.stderr.isatty()


def shown(path: Path, base: Path | None = None) -> str:
    """A path as the user reads it: relative to the working folder where it lies below it."""
    base = base or Path.cwd()
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except (OSError, ValueError):
        return str(path)


class BuildProgress:
    """pnp.write.runner.Progress for `pnp build` and `pnp watch`'s rebuilds."""

    def __init__(self, terminal: bool | None = None) -> None:
        self.terminal = on_terminal() if terminal is None else terminal
        self._bar: Any = None

    def begin(self, units: int) -> None:
        if self.terminal and units and not quiet():
            self._bar = click.progressbar(length=units, label="building", file=sys.stderr)
            self._bar.__enter__()

    def finished(self, unit: Unit, result: UnitResult) -> None:
        if self._bar is not None:
            self._bar.update(1)
        elif not self.terminal:
            for path in result.written:
                echo(f"built {shown(path)}")

    def end(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

"""A small game folder for the hostile-input tests: what `pnp new` makes, copied for each test."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from click.testing import CliRunner, Result

from pnp.cli import cli

_MADE: list[Path] = []


def mini_game(tmp_path: Path, name: str = "mini") -> Path:
    """``tmp_path/data/<name>``: the starter game `pnp new` writes (one deck, an English rule text)."""
    if not _MADE:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="pnp-hostile-"))
        here = Path.cwd()
        try:
            os.chdir(folder)
            result = CliRunner().invoke(cli, ["new", "mini"])
            assert result.exit_code == 0, result.output
        finally:
            os.chdir(here)
        _MADE.append(folder / "data" / "mini")
    game = tmp_path / "data" / name
    shutil.copytree(_MADE[0], game)
    if name != "mini":
        manifest = game / "game.toml"
        manifest.write_text(manifest.read_text(encoding="utf-8").replace('id = "mini"', f'id = "{name}"', 1),
                            encoding="utf-8")
    return game


def run(*arguments: str) -> Result:
    """A pnp command, in process; never a traceback."""
    result = CliRunner().invoke(cli, list(arguments))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def check(game: Path, *options: str) -> Result:
    """`pnp check` run from the folder above data/, so files are named as a designer sees them."""
    here = Path.cwd()
    os.chdir(game.parent.parent)
    try:
        return run("check", *options, game.name)
    finally:
        os.chdir(here)


def errors(result: Result) -> list[str]:
    """The error lines of a report, each with the fix under it, as one string each."""
    lines = result.output.splitlines()
    return [line + ("\n" + lines[i + 1] if i + 1 < len(lines) and "fix:" in lines[i + 1] else "")
            for i, line in enumerate(lines) if " error: " in line or line.startswith("error: ")]

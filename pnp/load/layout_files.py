"""Where card layouts are kept: the game's ``layouts/*.toml`` and pnp's built-in set (stage 1: load).

Only finding the files is done here; :mod:`pnp.model.layout` reads each into a typed
:class:`~pnp.model.layout.Layout`, reporting what is wrong with each key at its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.load.game_folder import editor_litter
from pnp.resources import templates_root


def builtin_layout_files() -> dict[str, Any]:
    """The built-in layouts by name, not yet read."""
    folder = templates_root() / "layouts"
    return {entry.name[:-5]: entry for entry in folder.iterdir() if entry.name.endswith(".toml")}


def game_layout_files(game_path: Path) -> list[Path]:
    """The game's own layout files, in name order; an editor's hidden copy is no layout, nor an input."""
    folder = game_path / "layouts"
    if not folder.is_dir():
        return []
    return [path for path in sorted(folder.glob("*.toml")) if not editor_litter(path.name)]

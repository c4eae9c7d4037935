"""Image paths a layout or card list names, resolved inside the game folder, each folder once.

A layout's ``src`` is untrusted data: it may not lead out of the game folder, even through a
symbolic link. Resolving every path in full costs a system call per component, and a deck names
hundreds of pictures in one folder, so folders are resolved once per binding and forgotten when
a new one starts (a link may point elsewhere since the last build).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.model.game import Game

if TYPE_CHECKING:
    pass


def image_path(game: Game, src: str) -> Path:
    """An image named by a layout, which must stay inside the game folder (symlinks followed).

    The same as ``(game.path / src).resolve()``, but each folder is resolved once per binding:
    resolving a path costs a system call per component, and a deck names hundreds of images
    in the same folder.
    """
    root = _real_folder(str(game.path))
    folder, name = os.path.split(os.path.join(root, src))
    if name in ("", ".", ".."):
        path = os.path.realpath(os.path.join(root, src))
    else:
        path = os.path.join(_real_folder(folder), name)
        if os.path.islink(path):
            path = os.path.realpath(path)
    if path != root and not path.startswith(root.rstrip(os.sep) + os.sep):
        raise ValueError(f"image {src!r} is outside the game folder")
    return Path(path)


_REAL_FOLDERS: dict[str, str] = {}


def _real_folder(folder: str) -> str:
    real = _REAL_FOLDERS.get(folder)
    if real is None:
        real = _REAL_FOLDERS[folder] = os.path.realpath(folder)
    return real


def forget_resolved_folders() -> None:
    """A new binding resolves folders afresh: a symlink may point elsewhere since the last build."""
    _REAL_FOLDERS.clear()

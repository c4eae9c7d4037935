"""Images named by layouts stay inside the game folder, symlinks followed, as Path.resolve() decides."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from pnp.compose.image_paths import forget_resolved_folders, image_path


@pytest.fixture
def game(tmp_path: Path) -> SimpleNamespace:
    folder = tmp_path / "game"
    (folder / "art").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (folder / "art" / "a.png").write_bytes(b"x")
    (tmp_path / "outside" / "b.png").write_bytes(b"x")
    os.symlink(tmp_path / "outside", folder / "link-out")
    os.symlink(folder / "art", folder / "link-in")
    os.symlink(tmp_path / "outside" / "b.png", folder / "art" / "evil.png")
    os.symlink(folder / "art" / "a.png", folder / "art" / "good.png")
    forget_resolved_folders()
    return SimpleNamespace(path=folder)


INSIDE = {"art/a.png": "art/a.png", "art/../art/a.png": "art/a.png", "link-in/a.png": "art/a.png",
          "art/good.png": "art/a.png", "art/missing.png": "art/missing.png", "art//a.png": "art/a.png",
          "./art/a.png": "art/a.png", "link-out/../game/art/a.png": "art/a.png", "art/..": "."}
OUTSIDE = ["../outside/b.png", "link-out/b.png", "art/evil.png", "/etc/passwd", "art/../../outside/b.png"]


@pytest.mark.parametrize("src", sorted(INSIDE))
def test_inside_the_folder(game, src):
    expected = (game.path / INSIDE[src]).resolve()
    assert image_path(game, src) == expected == (game.path / src).resolve()


@pytest.mark.parametrize("src", OUTSIDE)
def test_outside_the_folder_is_refused(game, src):
    with pytest.raises(ValueError, match="outside the game folder"):
        image_path(game, src)


def test_a_repointed_symlink_is_followed_by_the_next_binding(game, tmp_path):
    assert image_path(game, "link-in/a.png") == (game.path / "art" / "a.png").resolve()
    (game.path / "link-in").unlink()
    os.symlink(tmp_path / "outside", game.path / "link-in")
    forget_resolved_folders()
    with pytest.raises(ValueError):
        image_path(game, "link-in/b.png")

"""The wheel must carry every subpackage and the built-in templates."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "pnp").rglob("__init__.py")
    }
    assert on_disk - listed == set(), "add these packages to [tool.setuptools] packages"
    assert "pnp_templates" in listed


def test_templates_are_reachable_as_package_data() -> None:
    from pnp.resources import templates_root

    assert (templates_root() / "new-game" / "game.toml.j2").is_file()

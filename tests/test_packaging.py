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


def test_every_template_file_is_shipped_as_package_data() -> None:
    """An editable install reads templates/ from the checkout, so only pyproject can say what a wheel holds."""
    from fnmatch import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package_dir, package_data = config["package-dir"], config["package-data"]
    templates = ROOT / package_dir["pnp_templates"]
    template_packages = [name for name in config["packages"] if name.startswith("pnp_templates")]
    unshipped = []
    for path in sorted(templates.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.name == "__init__.py":
            continue
        relative = path.relative_to(templates)
        # the deepest listed package holding the file owns it
        owner = max((name for name in template_packages
                     if relative.parts[:len(name.split(".")) - 1] == tuple(name.split(".")[1:])),
                    key=lambda name: name.count("."))
        inside = "/".join(relative.parts[owner.count("."):])
        if not any(fnmatch(inside, pattern) for pattern in package_data.get(owner, [])):
            unshipped.append(str(relative))
    assert unshipped == [], "add these to [tool.setuptools.package-data]"

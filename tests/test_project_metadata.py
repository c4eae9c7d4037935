"""What the package says about itself: one version, and a test run that keeps out of the user's cache."""

from __future__ import annotations

import importlib.metadata
import os
import tomllib
from pathlib import Path

from click.testing import CliRunner

import pnp
from pnp.cli import cli
from pnp.load.user_cache import user_cache_dir

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_written_once() -> None:
    """pnp/__init__.py holds it; pyproject.toml declares it dynamic, read from there; the installed
    metadata (what pip and a wheel's name show) is then the same string."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pnp.__version__"}
    assert importlib.metadata.version("pnp-printplay") == pnp.__version__


def test_pnp_version_prints_it() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"pnp, version {pnp.__version__}"


def test_the_suite_never_writes_the_users_cache() -> None:
    home_cache = Path(os.path.expanduser("~")) / ".cache" / "pnp"
    assert user_cache_dir() != home_cache
    assert not user_cache_dir().resolve().is_relative_to(home_cache.resolve())

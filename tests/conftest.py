"""Fixtures shared by several test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.render.text.fonts import font_cache_dir


@pytest.fixture(scope="session")
def cache() -> Path:
    """pnp's own font cache: converted subsets are keyed by content, so sharing them is safe and fast."""
    return font_cache_dir()


@pytest.fixture(autouse=True)
def _own_config(tmp_path_factory, monkeypatch):
    """No test reads or writes the user's own config (trusted game folders, printer profiles), nor takes
    a PNP_TRUST from the shell that runs the suite."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.delenv("PNP_TRUST", raising=False)

"""Fixtures shared by several test files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.render.text.fonts import font_cache_dir


@pytest.fixture(scope="session")
def cache() -> Path:
    """pnp's own font cache: converted subsets are keyed by content, so sharing them is safe and fast."""
    return font_cache_dir()

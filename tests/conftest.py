"""Fixtures shared by several test files."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

#: set when this run made its own cache folder, which it then removes
_OWN_CACHE = "PNP_TEST_OWN_CACHE"


def pytest_configure(config: pytest.Config) -> None:
    """One cache folder for the whole run, never the user's own ~/.cache/pnp.

    A run once left 827 compiled templates and 96 digest records of deleted temporary folders in the
    user's cache. The folder is made by the first process (xdist's controller, before it starts its
    workers, which inherit the variable) and shared by every worker, so fonts are converted once a
    run, not once a worker. A PNP_CACHE_DIR the user set is theirs, and kept.
    """
    if os.environ.get("PNP_CACHE_DIR"):
        return
    os.environ["PNP_CACHE_DIR"] = tempfile.mkdtemp(prefix="pnp-test-cache-")
    os.environ[_OWN_CACHE] = str(os.getpid())


def pytest_unconfigure(config: pytest.Config) -> None:
    if os.environ.get(_OWN_CACHE) == str(os.getpid()):
        shutil.rmtree(os.environ.pop("PNP_CACHE_DIR"), ignore_errors=True)
        del os.environ[_OWN_CACHE]


@pytest.fixture(scope="session")
def cache() -> Path:
    """pnp's own font cache: converted subsets are keyed by content, so sharing them is safe and fast."""
    from pnp.render.text.fonts import font_cache_dir

    return font_cache_dir()


@pytest.fixture(autouse=True)
def _own_config(tmp_path_factory, monkeypatch):
    """No test reads or writes the user's own config (trusted game folders, printer profiles), nor takes
    a PNP_TRUST from the shell that runs the suite."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.delenv("PNP_TRUST", raising=False)

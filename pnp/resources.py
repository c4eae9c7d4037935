"""Where the built-in templates are, whether pnp runs from a checkout or a wheel."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def templates_root() -> Traversable:
    return files("pnp_templates")

"""Where the built-in templates and the guides are, whether pnp runs from a checkout or a wheel."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def templates_root() -> Traversable:
    return files("pnp_templates")


def docs_root() -> Traversable:
    """pnp's guides (docs/*.md), shipped in the wheel as the data package ``pnp_docs``."""
    return files("pnp_docs")

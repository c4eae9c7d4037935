"""pnp: print-and-play card sheets, player aids and rulebooks from plain game data."""

#: the one place the version is written: pyproject.toml reads it from here (``dynamic``), so the
#: wheel's metadata and ``pnp --version`` cannot disagree, and no start pays for a metadata lookup
__version__ = "0.1.0"

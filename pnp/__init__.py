"""pnp: print-and-play card sheets, player aids and rulebooks from plain game data."""

__version__ = "0.1.0"

"""Per-game rules modules, looked up by the name a manifest gives.

Only modules inside this package can be named: a game folder is data, and
data from someone else must not choose which code runs.
"""

from __future__ import annotations

import importlib
import pkgutil

from pnp.rules.base import GameRules

_NOT_GAMES = {"base", "safe_expr", "surveillance", "wording"}


def available() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in _NOT_GAMES
                  and not m.name.startswith("_"))


def get_rules(name: str | None) -> GameRules | None:
    """The module's ``RULES``; a plain ``GameRules`` when none is named; None if unknown."""
    if name is None:
        return GameRules()
    if name not in available():
        return None
    module = importlib.import_module(f"{__name__}.{name}")
    rules = getattr(module, "RULES", None)
    if not isinstance(rules, GameRules):
        raise TypeError(f"pnp.rules.{name} must define RULES = <GameRules subclass>()")
    return rules

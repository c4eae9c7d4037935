"""Shared by the translation tests: a game folder loaded and its translations checked, nothing else.

Three test files asked the same question of a folder (what does check_translations say of it?);
one helper keeps them asking it the same way.
"""

from __future__ import annotations

from pathlib import Path

from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.validate.translations import check_translations


def check(folder: Path) -> Report:
    """The report of check_translations for the game in ``folder``, which must load."""
    game = load_game(folder, Report())
    assert game is not None
    report = Report()
    check_translations(game, report)
    return report

"""Everything a rules module needs, in one import: ``from pnp.api import GameRules, AidTable, ...``.

A rules module (a game folder's rules.py, an installed package registered under the ``pnp.rules``
entry-point group, or one of the games pnp ships) imports only from here, never from pnp's inside,
so pnp can rearrange its inside without breaking anyone's game. The contract is
docs/rules-modules.md; what this module offers is versioned by ``API_VERSION``. A module states
the version it is written for with ``REQUIRES_API = 1`` (or ``require_api(1)`` at its top): a pnp
older than that refuses it with an error naming the file and the version needed, instead of
failing somewhere inside.

Version 1: the names in ``__all__`` below.
"""

from __future__ import annotations

from pnp.diagnostics import CardErrors, Diagnostic, Level, Report, listed
from pnp.load.toml_lines import TomlDoc
from pnp.model.fields import TomlReader, closest
from pnp.model.game import Card, Component, Example, Game, SetupRow, Source, Term, where
from pnp.rules.base import (
    AidTable,
    ExampleError,
    ExampleRunner,
    GameRules,
    read_or_raise,
    report_blank_column,
    report_missing_rules_data,
    unknown_card,
)
from pnp.rules.safe_expr import Expression, ExpressionError, ZeroDivisorError, evaluate, parse_expression
from pnp.rules.wording import CJK_LANGUAGES, localised, localised_list, report_aid_problems

#: the version of this interface; raised whenever a name is removed or changes meaning (adding one does not)
API_VERSION = 1


class ApiVersionError(Exception):
    """A rules module needs a newer API than this pnp has (see :func:`require_api`)."""

    def __init__(self, needed: int) -> None:
        super().__init__(f"needs pnp's rules API version {needed}; this pnp has version {API_VERSION}")
        self.needed = needed


def require_api(version: int) -> None:
    """Refuse to go on under a pnp whose API is older than ``version``: call it at a module's top."""
    if version > API_VERSION:
        raise ApiVersionError(version)


__all__ = [
    "API_VERSION", "AidTable", "ApiVersionError", "CJK_LANGUAGES", "Card", "CardErrors", "Component", "Diagnostic",
    "Example", "ExampleError", "ExampleRunner", "Expression", "ExpressionError", "Game", "GameRules", "Level",
    "Report", "SetupRow", "Source", "Term", "TomlDoc", "TomlReader", "ZeroDivisorError", "closest", "evaluate",
    "listed", "localised", "localised_list", "parse_expression", "read_or_raise", "report_aid_problems",
    "report_blank_column", "report_missing_rules_data", "require_api", "unknown_card", "where",
]

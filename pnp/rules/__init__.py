"""Per-game rules modules, looked up by the name a manifest gives.

A manifest's ``rules`` names either an installed rules module, registered under the entry-point
group ``pnp.rules`` (the four games pnp ships register theirs in pnp's own pyproject.toml, exactly
as any other package does), or code in the game folder itself (``rules = "rules.py"``), which runs
only once the folder is trusted (pnp/rules/local.py, pnp/rules/trust.py). Installed code was
trusted by installing it.
"""

from __future__ import annotations

import functools
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

from pnp.rules.base import GameRules

if TYPE_CHECKING:
    from pathlib import Path

    from pnp.model.game import Game

ENTRY_POINT_GROUP = "pnp.rules"


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(point.name, point)  # the first on the path wins, as imports do
    return found


def available() -> list[str]:
    """The installed rules modules' names."""
    return sorted(_entry_points())


def _distribution(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return dist.name if dist is not None else "an unknown distribution"


@functools.cache
def _installed(name: str) -> GameRules:
    from pnp.rules.local import RulesLoadError, checked_rules, code_error

    point = _entry_points()[name]
    package = _distribution(point)
    try:
        loaded = point.load()
    except (Exception, SystemExit) as exc:
        error = code_error(exc, _module_path(point), f"while loading the entry point {name!r}")
        raise RulesLoadError(f"rules module {name!r} ({point.value}, installed by the package {package!r}) "
                             f"cannot be loaded: {exc.__class__.__name__}: {exc}", error.diagnostic.file,
                             error.diagnostic.line,
                             f"reinstall or fix the package {package!r} (pip install --force-reinstall "
                             f"{package})") from None
    try:
        return checked_rules(loaded, _module_path(point), f"rules module {name!r} of the package {package!r}")
    except RulesLoadError as exc:
        diagnostic = exc.diagnostic
        raise RulesLoadError(diagnostic.message, diagnostic.file, diagnostic.line,
                             f"{diagnostic.fix}; the package {package!r} installed it") from None


def _module_path(point: EntryPoint) -> Path:
    """The file of the entry point's module, for errors (the module itself may not import)."""
    import importlib.util
    from pathlib import Path

    try:
        spec = importlib.util.find_spec(point.module)
    except (ImportError, ValueError):
        spec = None
    origin = spec.origin if spec is not None else None
    return Path(origin).resolve() if origin else Path(point.module)


def get_rules(name: str | None) -> GameRules | None:
    """The installed module's ``RULES``; a plain ``GameRules`` when none is named; None if unknown.

    Raises :class:`pnp.rules.local.RulesLoadError` when it is installed but cannot be loaded.
    """
    if name is None:
        return GameRules()
    if name not in _entry_points():
        return None
    return _installed(name)


def rules_of(game: Game) -> GameRules | None:
    """The rules a game's manifest names: installed, or its own code (if trusted); None if unknown.

    Raises :class:`pnp.rules.local.RulesLoadError` (a report entry at the ``rules`` key) when the code
    cannot be used: not trusted, outside the folder, failing to import, without RULES.
    """
    from pnp.rules.local import RulesLoadError, is_local, load_local_rules

    manifest = game.manifest.path if game.manifest else None
    line = game.manifest.line_of("rules") if game.manifest else None
    if game.rules is not None and is_local(game.rules):
        return load_local_rules(game.path, game.rules, manifest, line)
    try:
        return get_rules(game.rules)
    except RulesLoadError as exc:
        if exc.diagnostic.file is not None:
            raise
        raise RulesLoadError(exc.diagnostic.message, manifest, line, exc.diagnostic.fix) from None


def rules_or_none(game: Game) -> GameRules | None:
    """:func:`rules_of`, None where it cannot be used (the check reports why)."""
    from pnp.rules.local import RulesLoadError

    try:
        return rules_of(game)
    except RulesLoadError:
        return None


def unknown_rules_fix(game: Game) -> str:
    """"did you mean ...", across the installed modules and the game folder's .py files and packages."""
    import difflib

    local = sorted({path.name for path in game.path.glob("*.py") if path.is_file()}
                   | {f"{path.name}/" for path in game.path.iterdir()
                      if path.is_dir() and (path / "__init__.py").is_file()}) if game.path.is_dir() else []
    names = [*available(), *local]
    hints = difflib.get_close_matches(game.rules or "", names, n=3, cutoff=0.5)
    known = ", ".join(names) or "none installed"
    if hints:
        return f"did you mean {' or '.join(repr(hint) for hint in hints)}? (available: {known})"
    if not _entry_points():
        return ("no rules modules are installed at all: install pnp with pip (pip install -e .) so its entry "
                "points are registered")
    return f"available: {known}, or remove 'rules' for a game without its own rules"

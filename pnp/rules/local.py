"""Rules code that lives with its game: ``rules = "rules.py"`` (or a package, ``rules = "myrules/"``).

The code is imported only once the folder is trusted (pnp/rules/trust.py), and only from inside the
game folder: a path that leaves it, a link out of it or anything but a regular file is refused. What
the code does wrong (an import that raises, no ``RULES``, a ``check()`` that throws) is the game's
error, reported at its own file and line with its own traceback lines, never a traceback of pnp's.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from pnp.diagnostics import DataError, Report
from pnp.rules import trust
from pnp.rules.base import ExampleError, GameRules

#: how many of the user's own traceback lines an error shows
SHOWN_FRAMES = 6

#: GameRules methods a game's own code implements: each is guarded so that what it raises is the game's error
GUARDED = ("check", "rules_data", "data_has_errors", "run_example", "context", "aid_tables", "solve", "card_texts")

_loaded: dict[tuple[str, str], GameRules] = {}  # (code path, digest) -> RULES, imported once per process


class RulesLoadError(DataError):
    """A game's rules code could not be used: untrusted, unsafe path, failed import, bad RULES."""


def is_local(name: str) -> bool:
    """Whether the manifest's ``rules`` names code in the game folder rather than an installed module."""
    return name.endswith((".py", "/")) or "/" in name or "\\" in name


def code_path(folder: Path, name: str, manifest: Path | None, line: int | None) -> Path:
    """The rules file or package folder, inside ``folder``; RulesLoadError when it is unsafe or absent."""
    def refuse(message: str, fix: str) -> RulesLoadError:
        return RulesLoadError(message, manifest, line, fix)

    inside = "name a file inside the game folder, e.g. rules = \"rules.py\""
    package = name.endswith(("/", "\\"))
    relative = Path(name.rstrip("/\\"))
    if not package and relative.suffix != ".py":
        raise refuse(f"rules {name!r}: a rules file's name ends in .py", inside)
    if relative.is_absolute() or relative.drive or ".." in relative.parts or not relative.parts:
        raise refuse(f"rules {name!r} is not a path inside the game folder", inside)
    root = folder.resolve()
    candidate = folder / relative
    try:
        resolved = candidate.resolve(strict=True)
    except FileNotFoundError:
        import difflib

        present = sorted(path.name for path in folder.glob("*.py")) if folder.is_dir() else []
        hints = difflib.get_close_matches(relative.as_posix(), present, n=3, cutoff=0.5)
        raise refuse(f"rules {name!r}: {candidate} does not exist",
                     f"did you mean {' or '.join(repr(hint) for hint in hints)}?" if hints else
                     f"create {relative.as_posix()}{'/__init__.py' if package else ''}, or fix the name") from None
    except (OSError, RuntimeError) as exc:
        raise refuse(f"rules {name!r}: {candidate} cannot be read ({exc})", inside) from None
    if not resolved.is_relative_to(root):
        raise refuse(f"rules {name!r} is a link out of the game folder (to {resolved})",
                     "keep the rules code in the game folder itself")
    if package:
        if not resolved.is_dir() or not (resolved / "__init__.py").is_file():
            raise refuse(f"rules {name!r}: a rules package is a folder holding __init__.py",
                         f"add {relative.as_posix()}/__init__.py, or name a .py file")
        for path in trust.code_files(resolved):
            real = path.resolve()
            if not real.is_relative_to(root) or not real.is_file():
                raise refuse(f"rules {name!r}: {path.relative_to(resolved)} is a link out of the game folder "
                             "or not a regular file", "keep the rules code in the game folder itself")
    elif not resolved.is_file():
        raise refuse(f"rules {name!r}: {candidate} is not a regular file", inside)
    return resolved


def load_local_rules(folder: Path, name: str, manifest: Path | None, line: int | None) -> GameRules:
    """The game folder's ``RULES``, if the folder is trusted for this code; RulesLoadError says why not."""
    from pnp.load.game_folder import game_argument

    code = code_path(folder, name, manifest, line)
    try:
        digest = trust.code_digest(folder.resolve(), name, code)
    except OSError as exc:
        raise RulesLoadError(f"rules {name!r} cannot be read: {exc.strerror or exc}", manifest, line) from None
    except DataError as exc:
        raise RulesLoadError(f"rules {name!r}: {exc.diagnostic.message}", manifest, line) from None
    cached = _loaded.get((str(code), digest))
    if not trust.allowed_without_record():
        record = trust.record_for(folder)
        if record is None or record.digest != digest:
            command = f"pnp trust {_quoted(game_argument(folder))}"
            changed = record is not None
            message = (f"{name} has changed since this game folder was trusted: pnp runs its code only once you "
                       "trust it again" if changed else
                       f"{name} is code in the game folder: pnp runs it only once you trust this folder")
            raise RulesLoadError(message, manifest, line,
                                 f"read {name}{' (what changed)' if changed else ''}, then run '{command}' "
                                 "(or pass --trust for one command)")
    if cached is not None:
        return cached
    rules = _import(code, digest, manifest, line)
    _loaded[(str(code), digest)] = rules
    return rules


def _quoted(argument: str) -> str:
    import shlex

    return shlex.quote(argument)


def _import(code: Path, digest: str, manifest: Path | None, line: int | None) -> GameRules:
    from pnp import api

    package = code.is_dir()
    module_name = f"pnp_game_rules_{digest.split(':')[-1][:16]}"
    entry = code / "__init__.py" if package else code
    spec = importlib.util.spec_from_file_location(module_name, entry,
                                                  submodule_search_locations=[str(code)] if package else None)
    if spec is None or spec.loader is None:
        raise RulesLoadError(f"{code.name} cannot be imported", manifest, line)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and relative imports look the module up there
    try:
        spec.loader.exec_module(module)
    except api.ApiVersionError as exc:
        sys.modules.pop(module_name, None)
        where = user_frames(exc.__traceback__, code)
        raise _too_new(exc.needed, entry if not where else Path(where[-1].filename),
                       where[-1].lineno if where else None) from None
    except SyntaxError as exc:
        sys.modules.pop(module_name, None)
        detail = (exc.text or "").rstrip("\n")
        raise RulesLoadError(f"{code.name} does not compile: {exc.msg}" + (f"\n        {detail.strip()}"
                                                                          if detail.strip() else ""),
                             Path(exc.filename) if exc.filename else entry, exc.lineno,
                             "fix the Python syntax there") from None
    except (Exception, SystemExit) as exc:
        sys.modules.pop(module_name, None)
        raise code_error(exc, code, "while it was imported", entry) from None
    return checked_rules(module, entry, code.name, guard_code=code)


def checked_rules(module: ModuleType | Any, file: Path | None, shown: str, guard_code: Path | None = None
                  ) -> GameRules:
    """The module's RULES, checked: a GameRules instance, for an API this pnp has."""
    from pnp import api

    needed = getattr(module, "REQUIRES_API", None) if isinstance(module, ModuleType) else None
    if needed is not None:
        if not isinstance(needed, int) or isinstance(needed, bool):
            raise RulesLoadError(f"{shown}: REQUIRES_API must be a whole number, not {needed!r}", file,
                                 _line_of(file, "REQUIRES_API"), f"write REQUIRES_API = {api.API_VERSION}")
        if needed > api.API_VERSION:
            raise _too_new(needed, file, _line_of(file, "REQUIRES_API"))
    rules = getattr(module, "RULES", None) if isinstance(module, ModuleType) else module
    if rules is None:
        raise RulesLoadError(f"{shown} defines no RULES", file, None,
                             "end it with RULES = MyRules(), MyRules a subclass of pnp.api.GameRules")
    if isinstance(rules, type) and issubclass(rules, GameRules):
        raise RulesLoadError(f"{shown}: RULES is the class {rules.__name__}, not an instance of it", file,
                             _line_of(file, "RULES"), f"write RULES = {rules.__name__}()")
    if not isinstance(rules, GameRules):
        raise RulesLoadError(f"{shown}: RULES is a {type(rules).__name__}, not a GameRules", file,
                             _line_of(file, "RULES"), "RULES = MyRules(), MyRules a subclass of pnp.api.GameRules")
    if guard_code is not None:
        guard(rules, guard_code)
    return rules


def _too_new(needed: int, file: Path | None, line: int | None) -> RulesLoadError:
    from pnp import __version__, api

    return RulesLoadError(f"{file.name if file else 'the rules module'} needs pnp's rules API version {needed}; "
                          f"this pnp ({__version__}) has version {api.API_VERSION}", file, line,
                          f"upgrade pnp to a release newer than {__version__} that has API version {needed} "
                          "(pip install -U pnp-printplay)")


def _line_of(file: Path | None, name: str) -> int | None:
    """The line assigning ``name`` at the module's top level, for an error about it."""
    if file is None or not file.is_file():
        return None
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    for number, text in enumerate(lines, 1):
        if text.startswith(name) and text[len(name):].lstrip().startswith(("=", ":")):
            return number
    return None


def user_frames(tb: Any, code: Path) -> list[traceback.FrameSummary]:
    """The traceback's frames in the game's own code (the rules file, or the package's files)."""
    def theirs(filename: str) -> bool:
        try:
            path = Path(filename).resolve()
        except (OSError, ValueError):
            return False
        return path == code or (code.is_dir() and path.is_relative_to(code))

    return [frame for frame in traceback.extract_tb(tb) if theirs(frame.filename)]


def code_error(exc: BaseException, code: Path, doing: str, fallback: Path | None = None) -> RulesLoadError:
    """What the game's code raised, at its own innermost line, with its own traceback lines."""
    frames = user_frames(exc.__traceback__, code)
    lines = []
    for frame in frames[-SHOWN_FRAMES:]:
        lines.append(f"        {Path(frame.filename).name}, line {frame.lineno}, in {frame.name}")
        if frame.line:
            lines.append(f"            {frame.line.strip()}")
    raised = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]
    message = f"the game's rules code raised {raised} {doing}"
    if lines:
        message += "\n    its traceback (most recent call last):\n" + "\n".join(lines)
    last = frames[-1] if frames else None
    return RulesLoadError(message, Path(last.filename) if last else fallback, last.lineno if last else None,
                          "fix the game's rules code there (it is the game's, not pnp's)")


def guard(rules: GameRules, code: Path) -> None:
    """Wrap each hook of a game's own RULES: what it raises, but for ExampleError, is its error at its line."""
    for name in GUARDED:
        method = getattr(rules, name, None)
        if method is None or getattr(method, "_pnp_guarded", False):
            continue
        setattr(rules, name, _guarded(method, name, code))


def _guarded(method: Callable[..., Any], name: str, code: Path) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except (ExampleError, DataError):
            raise
        except (Exception, SystemExit) as exc:
            error = code_error(exc, code, f"in {name}()")
            report = args[1] if name == "check" and len(args) > 1 else kwargs.get("report")
            if name == "check" and isinstance(report, Report):  # the other checks still run and report
                report.diagnostics.append(error.diagnostic)
                return None
            raise error from None

    call._pnp_guarded = True  # type: ignore[attr-defined]
    return call

"""Printer profiles: the duplex offset a user measured once, kept by name.

A printer's drift does not change between builds, so typing ``--back-offset``
every time invites mistakes. ``printers.toml`` in the current folder (or in
``$XDG_CONFIG_HOME/pnp/``, by default ``~/.config/pnp/``) holds one table per printer:

    [office]
    duplex_edge = "long"
    back_offset = [1.5, -0.5]   # mm, as read off `pnp calibrate`
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pnp.diagnostics import DataError, Diagnostic, Level
from pnp.load.toml_lines import load_toml

PROFILE_KEYS = {"duplex_edge", "back_offset", "description"}
#: home printers drift by up to about 3 mm and the calibration sheet reads ±6 mm: a larger offset is a typo
#: (a 15 for 1.5), which would print every back off its card, or off the page
MOST_BACK_OFFSET_MM = 10.0


def back_offset_problem(x: float, y: float) -> str | None:
    """Why (x, y) in mm cannot be a duplex back offset, or None when it can."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return "must be numbers of millimetres"
    if max(abs(x), abs(y)) > MOST_BACK_OFFSET_MM:
        return (f"must be within ±{MOST_BACK_OFFSET_MM:g} mm: printers drift by a few mm at most, as "
                "`pnp calibrate` measures it")
    return None


@dataclass(frozen=True)
class PrinterProfile:
    name: str
    duplex_edge: str | None
    back_offset: tuple[float, float] | None


def profile_places() -> list[Path]:
    """Where printers.toml is looked for, first to last: this folder, then the user's configuration."""
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "pnp" / "printers.toml"
    return [Path.cwd() / "printers.toml", config]


def profile_files() -> list[Path]:
    return [path for path in profile_places() if path.is_file()]


class ProfileError(DataError):
    """A printer profile with problems: ``diagnostics`` holds them all, ``diagnostic`` the first."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        first = diagnostics[0]
        super().__init__(first.message, first.file, first.line, first.fix)
        self.diagnostics = diagnostics


def load_profile(name: str) -> PrinterProfile:
    """The named profile from the first printers.toml that has it; a clear error otherwise."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise DataError(f"printer name {name!r} is not a profile name", None, None,
                        "name a [table] of printers.toml: letters, digits, '-' and '_', e.g. --printer office")
    for place in profile_places():
        if place.exists() and not place.is_file():
            raise DataError("printers.toml is a folder, not a file", place, None,
                            "move the folder away, and write the profiles into a printers.toml file")
    files = profile_files()
    for path in files:
        doc = load_toml(path)
        table = doc.data.get(name)
        if table is None:
            continue
        line = doc.line_of(name)
        if not isinstance(table, dict):
            raise DataError(f"printer {name!r} must be a table", path, line)
        problems: list[Diagnostic] = []  # every problem of the profile at once, as pnp check does
        unknown = set(table) - PROFILE_KEYS
        if unknown:
            problems.append(Diagnostic(Level.ERROR, f"printer {name!r}: unknown key(s) {', '.join(sorted(unknown))}",
                                       path, line, f"use: {', '.join(sorted(PROFILE_KEYS))}"))
        edge = table.get("duplex_edge")
        if edge is not None and edge not in ("long", "short"):
            problems.append(Diagnostic(Level.ERROR, f"printer {name!r}: duplex_edge must be \"long\" or \"short\", "
                                       f"found {edge!r}", path, doc.line_of(name, "duplex_edge")))
        offset = table.get("back_offset")
        if offset is not None:
            if (not isinstance(offset, list) or len(offset) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in offset)):
                problems.append(Diagnostic(Level.ERROR, f"printer {name!r}: back_offset must be [x, y] in mm, "
                                           f"found {offset!r}", path, doc.line_of(name, "back_offset"),
                                           "write back_offset = [1.5, -0.5]"))
            else:
                offset = (float(offset[0]), float(offset[1]))
                problem = back_offset_problem(*offset)
                if problem:
                    problems.append(Diagnostic(Level.ERROR, f"printer {name!r}: back_offset = [{offset[0]:g}, "
                                               f"{offset[1]:g}] {problem}", path, doc.line_of(name, "back_offset"),
                                               "print `pnp calibrate` and read the offset off its scales"))
        if problems:
            raise ProfileError(problems)
        return PrinterProfile(name, edge, offset)
    if files:
        where = f"in {' or '.join(str(p) for p in files)}"
    else:
        where = f"(no {' or '.join(str(p) for p in profile_places())})"
    raise DataError(f"no printer profile {name!r} {where}", None, None,
                    f"add a [{name}] table with duplex_edge and back_offset to printers.toml")

"""`pnp check --format json|github`: the same findings for a program to read.

A publisher keeping games in git runs `pnp check` in CI. JSON gives every diagnostic with its file
and line for a script or an editor; GitHub's workflow commands put each one on the line it is about
in a pull request's diff (`::error file=...,line=...::message`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from pnp.diagnostics import Diagnostic, Level, Report

GITHUB_COMMANDS = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}


def relative(path: Path | None, base: Path) -> str | None:
    if path is None:
        return None
    resolved = path.resolve()
    return resolved.relative_to(base.resolve()).as_posix() if resolved.is_relative_to(base.resolve()) \
        else resolved.as_posix()


def diagnostic_record(diagnostic: Diagnostic, base: Path) -> dict[str, object]:
    return {"level": diagnostic.level.name.lower(), "file": relative(diagnostic.file, base),
            "line": diagnostic.line, "message": diagnostic.message, "fix": diagnostic.fix}


def json_report(games: Sequence[tuple[str, Report, list[dict[str, object]]]], general: Report, failed: bool,
                base: Path) -> str:
    """One JSON document: each game's counts, diagnostics and the sheets its components take to print
    (pnp.commands.sheet_counts), problems found before any game, the verdict."""
    return json.dumps({
        "schema": 1,  # pnp.commands.json_output.SCHEMA
        "failed": failed,
        "general": [diagnostic_record(d, base) for d in general.diagnostics],
        "games": [{"game": name, "errors": len(report.errors), "warnings": len(report.warnings),
                   "notes": len(report.notes), "diagnostics": [diagnostic_record(d, base) for d in report.diagnostics],
                   "printing": printing}
                  for name, report, printing in games],
    }, ensure_ascii=False, indent=1)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_root() -> Path:
    """What GitHub resolves an annotation's file against: the repository's root, which Actions names in
    GITHUB_WORKSPACE. Paths relative to the working folder put every finding of a `pnp check` run from
    inside a game folder on the wrong file (or on none)."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    return Path(workspace) if workspace else Path.cwd()


def github_annotations(diagnostics: Iterable[Diagnostic], base: Path) -> list[str]:
    """GitHub Actions workflow commands, one per diagnostic, on the file and line it names."""
    lines = []
    for diagnostic in diagnostics:
        properties = []
        file = relative(diagnostic.file, base)
        if file is not None:
            properties.append(f"file={_escape_property(file)}")
            if diagnostic.line:
                properties.append(f"line={diagnostic.line}")
        properties.append("title=pnp check")
        message = diagnostic.message + (f"\nfix: {diagnostic.fix}" if diagnostic.fix else "")
        lines.append(f"::{GITHUB_COMMANDS[diagnostic.level]} {','.join(properties)}::{_escape_data(message)}")
    return lines

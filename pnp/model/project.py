"""A project's defaults for every command (pnp.toml, or [tool.pnp] in pyproject.toml), typed.

Each key is what its command-line option would say, and the option, when given, wins. Shape errors
are reported at their lines, as a game.toml's are; pnp check reports them with the games' findings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.diagnostics import Report
from pnp.load.project_file import ProjectFile
from pnp.model.fields import Path_, TomlReader

#: what `--what` takes; the one list pnp.cli offers and a project file is checked against
WHAT_CHOICES = ("cards", "fold", "lowink", "calibration", "png", "singles", "rules", "aid")
#: every key of the file; follow_links is reserved (read and type-checked, not used yet)
PROJECT_KEYS = ("papers", "bleed", "printer", "languages", "jobs", "out", "what", "follow_links")


@dataclass(frozen=True)
class ProjectDefaults:
    papers: tuple[str, ...] = ()
    bleed: float | None = None
    printer: str | None = None
    languages: tuple[str, ...] = ()
    jobs: int | None = None
    out: Path | None = None  # as the working folder reaches it (written relative to the file's folder)
    what: tuple[str, ...] = ()
    follow_links: bool | None = None
    file: Path | None = None
    #: the line of each key given, for a finding about its value (a paper that does not parse)
    lines: tuple[tuple[str, int | None], ...] = ()

    def line_of(self, key: str) -> int | None:
        return dict(self.lines).get(key)


def read_project(project: ProjectFile | None, report: Report) -> ProjectDefaults:
    """The defaults the file gives; a key of the wrong type is an error at its line and left out, an
    unknown key a warning with a did-you-mean."""
    if project is None:
        return ProjectDefaults()
    reader = TomlReader(project.doc, report)
    path: Path_ = project.table
    table: Any = project.doc.data
    for key in project.table:
        table = table.get(key) if isinstance(table, dict) else None
    if not isinstance(table, dict):
        reader.error(path, "expected a table of pnp's defaults")
        return ProjectDefaults(file=project.doc.path)
    reader.unknown_keys(table, path, PROJECT_KEYS)
    values: dict[str, Any] = {}
    for key in ("papers", "languages", "what"):
        if key in table:
            values[key] = _texts(reader, table, path, key)
    if "what" in values:
        for choice in values["what"]:
            if choice not in WHAT_CHOICES:
                reader.error(path + ("what",), f"{choice!r} is not an output pnp builds",
                             f"one of: {', '.join(WHAT_CHOICES)}")
        values["what"] = tuple(choice for choice in values["what"] if choice in WHAT_CHOICES)
    if "bleed" in table:
        bleed = table["bleed"]
        if isinstance(bleed, bool) or not isinstance(bleed, int | float) or not 0 <= bleed <= 10:
            reader.error(path + ("bleed",), f"expected mm from 0 to 10, found {bleed!r}", "write bleed = 3")
        else:
            values["bleed"] = float(bleed)
    if "jobs" in table:
        jobs = reader.integer(table, path, "jobs", minimum=1)
        if jobs is not None and jobs > 64:
            reader.error(path + ("jobs",), f"must be at most 64, found {jobs}")
        elif jobs is not None:
            values["jobs"] = jobs
    for key in ("printer", "out"):
        if key in table:
            text = reader.string(table, path, key)
            if text is not None and not text.strip():
                reader.error(path + (key,), "is empty", f"remove {key}, or write its value")
            elif text is not None:
                values[key] = text
    if "out" in values:
        values["out"] = Path(os.path.relpath(project.folder / values["out"], Path.cwd()))
    if "follow_links" in table:
        if isinstance(table["follow_links"], bool):
            values["follow_links"] = table["follow_links"]
        else:
            reader.error(path + ("follow_links",), f"expected true or false, found {table['follow_links']!r}")
    lines = tuple((key, reader.line(*path, key)) for key in table if key in PROJECT_KEYS)
    return ProjectDefaults(**values, file=project.doc.path, lines=lines)


def _texts(reader: TomlReader, table: dict[str, Any], path: Path_, key: str) -> tuple[str, ...]:
    value = table[key]
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    reader.error(path + (key,), f"expected a list of texts, found {value!r}", f'write {key} = ["...", "..."]')
    return ()

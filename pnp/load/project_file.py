"""Finding a project's defaults file: ``pnp.toml``, or a ``[tool.pnp]`` table in ``pyproject.toml``.

It lives in the project folder, beside ``data/``; pnp looks for it from the working folder up, as it
looks for the project's ``output/`` (pnp.load.game_folder.default_output), and stops at the first
folder holding ``data/``: a build from ``data/<game>/cards/`` takes the same defaults as one from the top.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.diagnostics import DataError, Report
from pnp.load.toml_lines import TomlDoc, load_toml

PROJECT_FILE = "pnp.toml"
PYPROJECT = "pyproject.toml"


@dataclass(frozen=True)
class ProjectFile:
    doc: TomlDoc
    #: where the defaults table is in the document: () for pnp.toml, ("tool", "pnp") in pyproject.toml
    table: tuple[str, ...]

    @property
    def folder(self) -> Path:
        return self.doc.path.parent


def find_project_file(start: Path | None = None) -> Path | None:
    """The nearest pnp.toml, or pyproject.toml with a [tool.pnp] table, from ``start`` (the working
    folder) up to the first folder holding ``data/``; None when there is none."""
    start = Path.cwd() if start is None else start
    for folder in (start, *start.parents):
        if (folder / PROJECT_FILE).is_file():
            return folder / PROJECT_FILE
        pyproject = folder / PYPROJECT
        if pyproject.is_file() and _has_tool_pnp(pyproject):
            return pyproject
        if (folder / "data").is_dir():
            return None
    return None


def _has_tool_pnp(path: Path) -> bool:
    """Whether a pyproject.toml holds a [tool.pnp] table (one that does not parse is pip's to report)."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    tool = data.get("tool")
    return isinstance(tool, dict) and "pnp" in tool


def load_project_file(report: Report, start: Path | None = None) -> ProjectFile | None:
    """The project's defaults file, parsed; None when there is none, or (reported) when it cannot be read."""
    path = find_project_file(start)
    if path is None:
        return None
    try:
        doc = load_toml(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return None
    return ProjectFile(doc, ("tool", "pnp") if path.name == PYPROJECT else ())

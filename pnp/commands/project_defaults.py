"""The project's defaults (pnp.toml, or [tool.pnp] in pyproject.toml), read and checked for a command."""

from __future__ import annotations

from pnp.diagnostics import Report
from pnp.load.project_file import load_project_file
from pnp.model.project import ProjectDefaults, read_project
from pnp.render.sheets.paper import PAPER_SIZES, SizeError, paper_key, parse_paper, smaller_than_smallest


def project_defaults(report: Report) -> ProjectDefaults:
    """The defaults found from the working folder up, every problem with them in ``report``; a paper that
    is not one is left out, as a key of the wrong type is."""
    defaults = read_project(load_project_file(report), report)
    papers = []
    for name in defaults.papers:
        text = name.strip().lower()
        if text in PAPER_SIZES:
            papers.append(text)
            continue
        try:
            paper = parse_paper(text)
        except SizeError as exc:
            report.error(f"papers: {name!r}: {exc}", defaults.file, defaults.line_of("papers"),
                         f"one of: {', '.join(PAPER_SIZES)}, or WIDTHxHEIGHT in mm")
            continue
        if smaller_than_smallest(paper):
            report.error(f"papers: {name!r} is smaller than A5 (148 × 210 mm), the smallest paper pnp lays "
                         "rulebooks and aids on", defaults.file, defaults.line_of("papers"))
            continue
        papers.append(paper_key(paper))
    from dataclasses import replace

    return replace(defaults, papers=tuple(papers))

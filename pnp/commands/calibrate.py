"""`pnp calibrate`: a duplex test sheet for measuring a printer's back offset."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.load.game_folder import default_output
from pnp.render.sheets.calibration import write_calibration_sheet
from pnp.render.sheets.calibration_words import all_calibration_strings, calibration_texts
from pnp.render.sheets.paper import parse_paper
from pnp.render.text.fonts import font_cache_dir, prepare_fonts
from pnp.write.output_errors import output_problem


def run_calibrate(paper: str, duplex_edge: str, lang: str, out: Path | None) -> int:
    from pnp.commands.environment import environment_usable

    if not environment_usable():
        return 1
    out = default_output() if out is None else out
    texts = calibration_texts(lang)
    fontset = prepare_fonts(all_calibration_strings(lang), font_cache_dir())
    path = out / f"calibration-{paper}-{duplex_edge}-{lang}.pdf"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_calibration_sheet(path, parse_paper(paper), fontset.regular, duplex_edge, texts)
    except OSError as exc:
        problem = output_problem(exc, path, out)
        if problem is None:
            raise
        click.echo(problem.format(), err=True)
        return 1
    click.echo(f"wrote {path}: print it duplex ({duplex_edge} edge) at 100 %, then follow the steps on the sheet")
    return 0

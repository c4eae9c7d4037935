"""Broken lines measured and drawn: the primitives card text boxes and rulebook paragraphs share."""

from __future__ import annotations

from typing import Literal

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.model.runs import Icon, Run, Text
from pnp.render.text.fonts import FontSet
from pnp.render.text.linebreak import Line, Measure

Align = Literal["left", "center", "right"]


def make_measure(fontset: FontSet, size: float = 1.0) -> Measure:
    """Width of a run at ``size``; refuses text whose characters were never prepared."""

    def measure(run: Run) -> float:
        if isinstance(run, Icon):
            return run.aspect * size
        font_name = fontset.font_for(run.style)
        width = _unit_widths.get((font_name, run.text))
        if width is None:
            fontset.require(run.text)  # every word is measured before it is drawn
            width = _unit_widths[(font_name, run.text)] = stringWidth(run.text, font_name, 1.0)
        return width * size

    return measure


# Width at 1 pt by (font name, text), shared by every box and paragraph in the process. A font
# name stands for one font file and one character set, so a cached width was checked once.
_unit_widths: dict[tuple[str, str], float] = {}


def draw_line(canvas: Canvas, line: Line, x: float, baseline: float, size: float, fontset: FontSet,
              ink: str | None = None) -> None:
    """Draw one line's pieces left to right; icons draw in a saved state so they can't leak settings.
    ``ink``: the text's colour ("#rrggbb"), given to each icon, which a one-colour icon takes."""
    cursor = x
    text_object = None
    for piece in line.pieces:
        run = piece.run
        if isinstance(run, Text):
            if text_object is None:
                text_object = canvas.beginText(cursor, baseline)
            text_object.setFont(fontset.font_for(run.style), size)
            text_object.textOut(run.text)
        else:
            if text_object is not None:
                canvas.drawText(text_object)
                text_object = None
            canvas.saveState()
            if ink is None:
                run.draw(canvas, cursor, baseline, size)
            else:
                run.draw(canvas, cursor, baseline, size, ink=ink)
            canvas.restoreState()
        cursor += piece.width
    if text_object is not None:
        canvas.drawText(text_object)


def line_x(line: Line, x: float, width: float, align: Align) -> float:
    """Where a line starts; alignment uses the width without trailing spaces, so right edges line up."""
    if align == "left":
        return x
    if align == "center":
        return x + (width - line.width) / 2
    if align == "right":
        return x + width - line.width
    raise ValueError(f"unknown alignment {align!r}; use left, center or right")

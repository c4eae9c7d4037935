"""Broken lines measured and drawn: the primitives card text boxes and rulebook paragraphs share."""

from __future__ import annotations

from typing import Literal

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.model.runs import Icon, Run, Text, is_cjk
from pnp.render.text.fonts import FontSet
from pnp.render.text.linebreak import Line, Measure

#: "justify": every line but a paragraph's last is spread to the full width (see :func:`justify_gap`)
Align = Literal["left", "center", "right", "justify"]


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
              ink: str | None = None, gap: float = 0.0) -> None:
    """Draw one line's pieces left to right; icons draw in a saved state so they can't leak settings.
    ``ink``: the text's colour ("#rrggbb"), given to each icon, which a one-colour icon takes.
    ``gap``: width added at each of the line's :func:`stretchable` places (see :func:`justify_gap`)."""
    if gap or any(piece.squeeze for piece in line.pieces):
        _draw_spaced(canvas, line, x, baseline, size, fontset, ink, gap)
        return
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
            _draw_icon(canvas, run, cursor, baseline, size, ink)
        cursor += piece.width
    if text_object is not None:
        canvas.drawText(text_object)


def line_x(line: Line, x: float, width: float, align: Align) -> float:
    """Where a line starts; alignment uses the width without trailing spaces, so right edges line up."""
    if align in ("left", "justify"):
        return x
    if align == "center":
        return x + (width - line.width) / 2
    if align == "right":
        return x + width - line.width
    raise ValueError(f"unknown alignment {align!r}; use left, center or right")


_OBJECT = "\ufffc"  # an icon, as Line.text shows it
INSEPARABLE = frozenset("…‥—―")  # a pair of these is one mark (JLReq's inseparable characters)
#: a justified line that would need more than this many ems in one gap is left ragged instead
MAX_GAP_EMS = 1.0


def stretchable(before: str, after: str) -> bool:
    """Whether justification may widen the place between two characters of a line.

    Between Japanese characters, between Japanese and Latin text, after a space and around icons;
    never inside a Latin word or a number ("Surveillance", "1234567" keep their letter-spacing),
    nor inside a doubled dash or ellipsis.
    """
    if before == after and before in INSEPARABLE:
        return False
    return (is_cjk(before) or is_cjk(after) or before.isspace() or before == _OBJECT or after == _OBJECT)


def justify_gap(line: Line, width: float, size: float) -> float:
    """The width to add at each stretchable place so that ``line`` ends exactly at ``width``.

    JLReq 3.8 spreads a justified line's slack over its inter-character places; here every place
    takes an equal share. 0.0 for a line with no place to widen, or one needing more than
    MAX_GAP_EMS in each (a long Latin word pushed down from a short line reads better ragged).
    """
    slack = width - line.width
    places = sum(stretchable(a, b) for a, b in zip(line.text, line.text[1:], strict=False))
    if slack <= 0 or not places or slack / places > MAX_GAP_EMS * size:
        return 0.0
    return slack / places


def _draw_spaced(canvas: Canvas, line: Line, x: float, baseline: float, size: float, fontset: FontSet,
                 ink: str | None, gap: float) -> None:
    """Draw a line in chunks: characters whose places are all widened (set with character spacing,
    PDF's Tc) or none (a Latin word, set solid); a squeezed character ends its chunk."""
    text = line.text
    places = [stretchable(a, b) for a, b in zip(text, text[1:], strict=False)] + [False]
    cursor, offset = x, 0  # offset: of the piece's first character in the line's text
    for piece in line.pieces:
        run = piece.run
        if not isinstance(run, Text):
            _draw_icon(canvas, run, cursor, baseline, size, ink)
            cursor += piece.width + (gap if places[offset] else 0.0)
            offset += 1
            continue
        font = fontset.font_for(run.style)
        squeezed = dict(piece.squeeze)
        text_object = canvas.beginText(cursor, baseline)
        text_object.setFont(font, size)
        spacing = 0.0
        start, last = 0, len(run.text) - 1
        for index in range(len(run.text)):
            after = places[offset + index]  # the place after this character
            kind = places[offset + start] if index > start else after  # of the places inside the chunk
            if index < last and index not in squeezed and after == kind:
                continue  # the chunk takes the next character too
            chunk = run.text[start:index + 1]
            inner = gap if kind and index > start else 0.0  # Tc widens every place inside the chunk
            if inner != spacing:
                text_object.setCharSpace(inner)
                spacing = inner
            text_object.setTextOrigin(cursor, baseline)
            text_object.textOut(chunk)
            cursor += (stringWidth(chunk, font, size) + inner * (len(chunk) - 1) - squeezed.get(index, 0.0)
                       + (gap if after else 0.0))
            start = index + 1
        if spacing:
            text_object.setCharSpace(0.0)
        canvas.drawText(text_object)
        offset += len(run.text)


def _draw_icon(canvas: Canvas, run: Icon, x: float, baseline: float, size: float, ink: str | None) -> None:
    """An inline icon in a state of its own; ``ink``, where given, is the text's colour for a one-colour icon."""
    canvas.saveState()
    if ink is None:
        run.draw(canvas, x, baseline, size)
    else:
        run.draw(canvas, x, baseline, size, ink=ink)
    canvas.restoreState()

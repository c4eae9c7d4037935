"""A two-page duplex calibration sheet: measure how far a printer shifts the back side.

Home printers misplace the back by up to ~3 mm, and the shift is stable for one printer, so measuring
it once and passing `--back-offset X,Y` fixes every later print.

How it reads: the front carries long crosshair lines at known points; the back carries fine scales
around the mirrored points. Holding the sheet to a light with the BACK facing you, the front's line
crosses the back's scale at the tick labelled with the back offset to use. This works without any sign
juggling because the scale is printed on the side that drifts: if the back lands `e` mm off, the front
line sits over the tick printed at `-e`, and shifting the backs by `-e` is exactly the correction.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.files.atomic import atomic_write
from pnp.render.sheets.draw import new_canvas
from pnp.render.sheets.geometry import (
    PRINTER_MARGIN_MM,
    RULER_END_PAD_MM,
    RULER_LENGTH_MM,
    DuplexEdge,
    MarginItem,
    Rect,
)
from pnp.render.sheets.imposition import duplex_flip_axis
from pnp.render.sheets.marks import REGISTRATION, TEXT_BLACK, draw_ruler
from pnp.render.sheets.paper import PT_PER_MM, Paper

TARGET_INSET_MM = 30.0  # corner targets sit this far from both edges
FRONT_ARM_MM = 15.0  # half-length of the front crosshair lines
SCALE_OFFSET_MM = 9.5  # back scales sit this far from the target centre
SCALE_RANGE_MM = 6.0
FRONT_LINE_PT = 0.6  # thick enough to see through paper
BACK_LINE_PT = 0.3


@dataclass(frozen=True)
class CalibrationTexts:
    """Every sentence on the sheet, replaceable by a translation. {edge} is the duplex edge's name."""

    lang: str = "en"  # the document's /Lang
    title_front: str = "Duplex calibration: front"
    title_back: str = "Duplex calibration: back"
    edge_names: dict[str, str] = field(default_factory=lambda: {"long": "long", "short": "short"})
    front_steps: tuple[str, ...] = (
        "1. Print both pages on one sheet: duplex, flip on {edge} edge, at 100% / actual size "
        "(no 'fit to page').",
        "2. Check the 50 mm ruler with a real ruler. If it is not 50 mm, fix the print scale first.",
        "3. Turn the sheet over and follow the steps on the back.",
    )
    back_steps: tuple[str, ...] = (
        "1. Hold this sheet against a bright light or window, THIS side facing you.",
        "2. At each target, the front's long lines shine through. Read where the vertical line crosses "
        "the X scale and where the horizontal line crosses the Y scale (in mm; ticks every 0.5 mm).",
        "3. Build with --back-offset X,Y using those readings, e.g. --back-offset 1.5,-0.5. "
        "If every line already sits on 0, no offset is needed.",
        "4. If the corners disagree, the printer also turns or scales the back; use the centre "
        "target (C) and expect small errors at the corners.",
    )
    x_scale: str = "X"
    y_scale: str = "Y"


@dataclass(frozen=True)
class CalibrationTarget:
    """A target's name and centre on the front and on the back page (mm, origin bottom-left)."""

    name: str
    front: tuple[float, float]
    back: tuple[float, float]


def calibration_targets(paper: Paper, duplex: DuplexEdge = "long") -> tuple[CalibrationTarget, ...]:
    """Centre and four near-corner targets; each back point lies behind its front point."""
    width, height = paper.width_mm, paper.height_mm
    inset = min(TARGET_INSET_MM, width / 4, height / 4)
    points = {
        "A": (inset, height - inset),
        "B": (width - inset, height - inset),
        "C": (width / 2, height / 2),
        "D": (inset, inset),
        "E": (width - inset, inset),
    }
    axis = duplex_flip_axis(paper, duplex)
    targets = []
    for name, (x, y) in points.items():
        back = (width - x, y) if axis == "x" else (x, height - y)
        targets.append(CalibrationTarget(name, (x, y), back))
    return tuple(targets)


def write_calibration_sheet(
    path: str | os.PathLike[str],
    paper: Paper,
    font_name: str,
    duplex: DuplexEdge = "long",
    texts: CalibrationTexts | None = None,
) -> tuple[CalibrationTarget, ...]:
    """Write the 2-page calibration PDF atomically; returns the targets it drew."""
    texts = texts or CalibrationTexts()
    targets = calibration_targets(paper, duplex)
    with atomic_write(path) as handle:
        canvas = new_canvas(handle, font_name, texts.title_front, subject="duplex back-offset calibration",
                            lang=texts.lang)
        # the sheet is not cut: trim and bleed are the whole page, which print shops still want stated
        whole_page = (0.0, 0.0, *paper.size_pt)
        canvas.setPageSize(paper.size_pt)
        canvas.setTrimBox(whole_page)
        canvas.setBleedBox(whole_page)
        _draw_front(canvas, paper, font_name, duplex, texts, targets)
        canvas.showPage()
        canvas.setPageSize(paper.size_pt)
        canvas.setTrimBox(whole_page)
        canvas.setBleedBox(whole_page)
        _draw_back(canvas, paper, font_name, texts, targets)
        canvas.showPage()
        canvas.save()
    return targets


def _mm(value: float) -> float:
    return value * PT_PER_MM


def _draw_front(
    canvas: Canvas,
    paper: Paper,
    font_name: str,
    duplex: DuplexEdge,
    texts: CalibrationTexts,
    targets: Sequence[CalibrationTarget],
) -> None:
    _draw_title(canvas, paper, font_name, texts.title_front)
    edge = texts.edge_names.get(duplex, duplex)
    steps = [step.format(edge=edge) for step in texts.front_steps]
    _draw_paragraphs(canvas, paper, font_name, steps, top_mm=paper.height_mm - 52)
    canvas.setStrokeColor(REGISTRATION)
    canvas.setLineWidth(FRONT_LINE_PT)
    for target in targets:
        x, y = target.front
        canvas.line(_mm(x - FRONT_ARM_MM), _mm(y), _mm(x + FRONT_ARM_MM), _mm(y))
        canvas.line(_mm(x), _mm(y - FRONT_ARM_MM), _mm(x), _mm(y + FRONT_ARM_MM))
        canvas.circle(_mm(x), _mm(y), _mm(2.0), stroke=1, fill=0)
        _draw_target_name(canvas, font_name, target.name, x - 6, y + 3)
    ruler_x = (paper.width_mm - RULER_LENGTH_MM) / 2 - RULER_END_PAD_MM
    ruler_area = Rect(ruler_x, PRINTER_MARGIN_MM + 4, RULER_LENGTH_MM + 2 * RULER_END_PAD_MM, 4.5)
    draw_ruler(canvas, MarginItem(ruler_area, vertical=False, outer_side="bottom"), font_name)


def _draw_back(
    canvas: Canvas,
    paper: Paper,
    font_name: str,
    texts: CalibrationTexts,
    targets: Sequence[CalibrationTarget],
) -> None:
    _draw_title(canvas, paper, font_name, texts.title_back)
    _draw_paragraphs(canvas, paper, font_name, list(texts.back_steps), top_mm=paper.height_mm - 52)
    for target in targets:
        x, y = target.back
        canvas.setStrokeColor(REGISTRATION)
        canvas.setLineWidth(BACK_LINE_PT)
        canvas.line(_mm(x - 3), _mm(y), _mm(x + 3), _mm(y))
        canvas.line(_mm(x), _mm(y - 3), _mm(x), _mm(y + 3))
        _draw_target_name(canvas, font_name, target.name, x - 6, y + 3)
        _draw_x_scale(canvas, font_name, x, y - SCALE_OFFSET_MM, texts.x_scale)
        _draw_y_scale(canvas, font_name, x + SCALE_OFFSET_MM, y, texts.y_scale)


def scale_ticks(range_mm: float = SCALE_RANGE_MM) -> list[float]:
    """Tick offsets of a back scale, every 0.5 mm across ±range."""
    count = int(round(range_mm * 2))
    return [i / 2 for i in range(-count, count + 1)]


def _tick_length(offset: float) -> float:
    if offset % 2 == 0:
        return 2.5
    return 1.6 if offset % 1 == 0 else 1.0


def _scale_number(offset: float) -> str:
    """Unsigned numbers: the scale is too fine for '+4'/'-4' to fit every 2 mm, so the sign is printed
    once at each end of the scale."""
    return f"{abs(offset):g}"


def _draw_x_scale(canvas: Canvas, font_name: str, cx: float, baseline: float, name: str) -> None:
    """Ticks rise from the baseline towards the target; numbers hang below."""
    canvas.setStrokeColor(REGISTRATION)
    canvas.setLineWidth(BACK_LINE_PT)
    lines = [(_mm(cx - SCALE_RANGE_MM), _mm(baseline), _mm(cx + SCALE_RANGE_MM), _mm(baseline))]
    for offset in scale_ticks():
        lines.append(
            (_mm(cx + offset), _mm(baseline), _mm(cx + offset), _mm(baseline + _tick_length(offset)))
        )
    canvas.lines(lines)
    canvas.setFillColor(TEXT_BLACK)
    canvas.setFont(font_name, 4.5)
    for offset in scale_ticks():
        if offset % 2 == 0:
            canvas.drawCentredString(_mm(cx + offset), _mm(baseline - 2.0), _scale_number(offset))
    canvas.setFont(font_name, 7)
    canvas.drawCentredString(_mm(cx - SCALE_RANGE_MM - 1.5), _mm(baseline - 2.4), "-")
    canvas.drawCentredString(_mm(cx + SCALE_RANGE_MM + 1.5), _mm(baseline - 2.4), "+")
    canvas.drawRightString(_mm(cx - SCALE_RANGE_MM - 3), _mm(baseline - 0.8), name)


def _draw_y_scale(canvas: Canvas, font_name: str, baseline: float, cy: float, name: str) -> None:
    """Ticks point from the baseline towards the target; numbers stand to the right."""
    canvas.setStrokeColor(REGISTRATION)
    canvas.setLineWidth(BACK_LINE_PT)
    lines = [(_mm(baseline), _mm(cy - SCALE_RANGE_MM), _mm(baseline), _mm(cy + SCALE_RANGE_MM))]
    for offset in scale_ticks():
        lines.append(
            (_mm(baseline), _mm(cy + offset), _mm(baseline - _tick_length(offset)), _mm(cy + offset))
        )
    canvas.lines(lines)
    canvas.setFillColor(TEXT_BLACK)
    canvas.setFont(font_name, 4.5)
    for offset in scale_ticks():
        if offset % 2 == 0:
            canvas.drawString(_mm(baseline + 0.8), _mm(cy + offset - 0.55), _scale_number(offset))
    canvas.setFont(font_name, 7)
    canvas.drawString(_mm(baseline + 0.8), _mm(cy + SCALE_RANGE_MM + 0.9), "+")
    canvas.drawString(_mm(baseline + 0.8), _mm(cy - SCALE_RANGE_MM - 2.6), "-")
    canvas.drawCentredString(_mm(baseline), _mm(cy + SCALE_RANGE_MM + 3.5), name)


def _draw_target_name(canvas: Canvas, font_name: str, name: str, x: float, y: float) -> None:
    canvas.setFillColor(TEXT_BLACK)
    canvas.setFont(font_name, 9)
    canvas.drawRightString(_mm(x), _mm(y), name)


def _draw_title(canvas: Canvas, paper: Paper, font_name: str, title: str) -> None:
    canvas.setFillColor(TEXT_BLACK)
    canvas.setFont(font_name, 14)
    canvas.drawCentredString(_mm(paper.width_mm / 2), _mm(paper.height_mm - 14), title)


def _draw_paragraphs(
    canvas: Canvas, paper: Paper, font_name: str, paragraphs: list[str], top_mm: float
) -> None:
    """Instructions below the top targets' lines and above the centre target, wrapped to the page."""
    size, leading = 9.0, 12.0
    left = 20.0
    width_pt = _mm(paper.width_mm - 2 * left)
    y = _mm(top_mm)
    canvas.setFillColor(TEXT_BLACK)
    canvas.setFont(font_name, size)
    for paragraph in paragraphs:
        for line in wrap_text(paragraph, font_name, size, width_pt):
            canvas.drawString(_mm(left), y, line)
            y -= leading
        y -= leading / 2


def wrap_text(text: str, font_name: str, size: float, width_pt: float) -> list[str]:
    """Wrap with the same kinsoku-aware breaker as cards and rulebooks, so Japanese steps break well."""
    from pnp.model.runs import Text
    from pnp.render.text.linebreak import break_lines

    def measure(run: Text) -> float:
        return stringWidth(run.text, font_name, size)

    return [line.text for line in break_lines([Text(text)], width_pt, measure)]

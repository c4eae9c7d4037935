"""What a sheet prints for the person cutting it: crop marks, bleed ticks, fold lines, rulers, labels.

Each is drawn where the sheet plan (pnp/render/sheets/geometry.py) put it, in registration colour
so that it shows on every plate at a print shop. Apart from the sheets themselves
(pnp/render/sheets/draw.py) because the calibration sheet draws the same ruler and the same ink.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.render.sheets.geometry import (
    RULER_DEPTH_MM,
    RULER_END_PAD_MM,
    RULER_LENGTH_MM,
    MarginItem,
    Rect,
    Segment,
)
from pnp.render.sheets.paper import PT_PER_MM

# Registration colour: 100 % of every separation, so marks show on each plate at a print shop.
REGISTRATION = CMYKColorSep(1, 1, 1, 1, spotName="All")
TEXT_BLACK = CMYKColor(0, 0, 0, 1)
MARK_WIDTH_PT = 0.25
TICK_HALO_WIDTH_PT = 1.25  # white underlay so fallback ticks show on dark bleed art
FOLD_WIDTH_PT = 0.4
FOLD_DASH_MM = (2.0, 1.5)
LABEL_MAX_FONT_PT = 7.0
LABEL_MIN_FONT_PT = 4.0
LEADING = 1.2


def to_pt(rect: Rect) -> Rect:
    return rect.scaled(PT_PER_MM)


def draw_cut_cues(
    canvas: Canvas, crop_marks: Sequence[Segment], ticks: Sequence[Segment], colour: Color
) -> None:
    """Crop marks in the margin; fallback ticks in the bleed get a white halo to show on dark art.

    A page with neither (a singles page, the card itself) names no mark colour: the registration
    separation set there for nothing was a spot colour a print service's preflight flags."""
    if not crop_marks and not ticks:
        return
    canvas.saveState()
    canvas.setLineCap(0)
    if ticks:
        canvas.setStrokeColor(white)
        canvas.setLineWidth(TICK_HALO_WIDTH_PT)
        canvas.lines([_seg_pt(s) for s in ticks])
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(MARK_WIDTH_PT)
    segments = [_seg_pt(s) for s in (*crop_marks, *ticks)]
    if segments:
        canvas.lines(segments)
    canvas.restoreState()


def draw_fold_line(canvas: Canvas, fold_line: Segment, colour: Color) -> None:
    """Dashed, over the art on a white halo, so it shows where the bleed is dark or reaches the paper's edge.

    Drawn under the art, it was hidden wherever the bleed covered it (Rudy's coins on A4, every game on
    12 × 18 in) on a sheet whose label says to fold at the dashed marks. It crosses no card: the
    imposition keeps every trim at least 1 mm off the fold, so the line runs in the bleed, cut away.
    """
    canvas.saveState()
    canvas.setLineCap(0)
    canvas.setStrokeColor(white)
    canvas.setLineWidth(TICK_HALO_WIDTH_PT)
    canvas.line(*_seg_pt(fold_line))
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(FOLD_WIDTH_PT)
    canvas.setDash([d * PT_PER_MM for d in FOLD_DASH_MM])
    canvas.line(*_seg_pt(fold_line))
    canvas.restoreState()


def _seg_pt(segment: Segment) -> tuple[float, float, float, float]:
    return (segment.x0 * PT_PER_MM, segment.y0 * PT_PER_MM, segment.x1 * PT_PER_MM, segment.y1 * PT_PER_MM)


def _enter_item_frame(canvas: Canvas, item: MarginItem) -> tuple[float, float]:
    """Move the origin to the item's start so it can be drawn as if horizontal; returns (length, depth)
    in pt. Vertical items are turned 90° anticlockwise and read bottom-to-top."""
    area = to_pt(item.area)
    if item.vertical:
        canvas.translate(area.right, area.bottom)
        canvas.rotate(90)
        return area.height, area.width
    canvas.translate(area.left, area.bottom)
    return area.width, area.height


def draw_ruler(canvas: Canvas, item: MarginItem, font_name: str, length_mm: float = RULER_LENGTH_MM) -> None:
    """A ruler with a tick per mm and numbers every 10 mm, to check the print was not scaled."""
    canvas.saveState()
    _, depth = _enter_item_frame(canvas, item)
    scale = min(1.0, depth / (RULER_DEPTH_MM * PT_PER_MM))  # thin margins shrink its height, never its length
    start = RULER_END_PAD_MM * PT_PER_MM
    # The gaps under and between the ticks shrink with them: kept at 0.3 mm each, a ruler squeezed into a
    # 2.4 mm band put its numbers past the band, and so nearer the paper's edge than the 4 mm limit.
    gap = 0.3 * scale * PT_PER_MM
    base = max(gap, 0.3)  # keeps the baseline's stroke (0.3 pt) inside the area, which may touch the 4 mm limit
    canvas.setStrokeColor(TEXT_BLACK)
    canvas.setFillColor(TEXT_BLACK)
    canvas.setLineWidth(0.3)
    ticks = []
    for mm_mark in range(int(length_mm) + 1):
        tick = 2.5 if mm_mark % 10 == 0 else (1.75 if mm_mark % 5 == 0 else 1.0)
        x = start + mm_mark * PT_PER_MM
        ticks.append((x, base, x, base + tick * scale * PT_PER_MM))
    ticks.append((start, base, start + length_mm * PT_PER_MM, base))
    canvas.lines(ticks)
    canvas.setFont(font_name, 4.5 * scale)
    numbers_y = base + 2.5 * scale * PT_PER_MM + gap
    for mm_mark in range(0, int(length_mm) + 1, 10):
        canvas.drawCentredString(start + mm_mark * PT_PER_MM, numbers_y, f"{mm_mark}")
    canvas.drawCentredString(start + (length_mm - 5) * PT_PER_MM, numbers_y, "mm")
    canvas.restoreState()


def fit_label(
    parts: Sequence[str], font_name: str, length_pt: float, depth_pt: float, separator: str = " · "
) -> tuple[float, list[str]]:
    """The largest font size (≤ 7 pt) at which the parts, wrapped between parts, fit the area.

    Below 4 pt the text would be unreadable, so at that size over-long parts are cut with an ellipsis
    rather than letting the label run into the crop marks.
    """
    size = LABEL_MAX_FONT_PT
    while size >= LABEL_MIN_FONT_PT:
        lines = _wrap(parts, font_name, size, length_pt, separator)
        fits_width = all(stringWidth(line, font_name, size) <= length_pt for line in lines)
        if fits_width and len(lines) * size * LEADING <= depth_pt + 1e-6:
            return size, lines
        size -= 0.25
    size = LABEL_MIN_FONT_PT
    lines = _wrap(parts, font_name, size, length_pt, separator)
    max_lines = max(1, int(depth_pt // (size * LEADING)))
    return size, [_ellipsize(line, font_name, size, length_pt) for line in lines[:max_lines]]


def _wrap(parts: Sequence[str], font_name: str, size: float, length_pt: float, separator: str) -> list[str]:
    lines: list[str] = []
    for part in parts:
        candidate = f"{lines[-1]}{separator}{part}" if lines else part
        if lines and stringWidth(candidate, font_name, size) <= length_pt:
            lines[-1] = candidate
        else:
            lines.append(part)
    return lines


def _ellipsize(text: str, font_name: str, size: float, length_pt: float) -> str:
    if stringWidth(text, font_name, size) <= length_pt:
        return text
    while text and stringWidth(text + "…", font_name, size) > length_pt:
        text = text[:-1]
    return text + "…"


def draw_label(
    canvas: Canvas, item: MarginItem, parts: Sequence[str], font_name: str, separator: str
) -> None:
    """The sheet label, as large as fits its margin area (at most 7 pt), centred across the band."""
    canvas.saveState()
    length, depth = _enter_item_frame(canvas, item)
    size, lines = fit_label(parts, font_name, length, depth, separator)
    canvas.setFillColor(TEXT_BLACK)
    canvas.setFont(font_name, size)
    block = len(lines) * size * LEADING
    baseline = (depth + block) / 2 - 0.9 * size  # block centred across the band; 0.9 em ≈ ascent
    for line in lines:
        canvas.drawString(0, baseline, line)
        baseline -= size * LEADING
    canvas.restoreState()

"""Background patterns for card backs, drawn as vectors across the bleed.

A back pattern must tolerate a few millimetres of duplex drift, so it repeats
evenly and runs into the bleed; in ink-saver mode only thin lines remain.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor

Rect = tuple[float, float, float, float]
PATTERNS = ("argyle", "stripes", "dots", "grid", "solid")


def draw_pattern(canvas, kind: str, bleed: Rect, trim: Rect, fill: str | None, stroke: str | None, spacing: float,
                 line_width: float, ink_saver: bool) -> None:
    if kind not in PATTERNS:
        raise ValueError(f"unknown pattern {kind!r}; use one of: {', '.join(PATTERNS)}")
    x, y, w, h = bleed
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    if fill and not ink_saver:
        canvas.setFillColor(HexColor(fill))
        canvas.rect(x, y, w, h, stroke=0, fill=1)
    line_colour = HexColor(stroke or "#000000")
    if ink_saver:
        line_colour = HexColor("#b0b0b0")
    canvas.setStrokeColor(line_colour)
    canvas.setLineWidth(line_width)
    # centre the repeat on the trim so the pattern is symmetric on the finished card
    cx, cy = trim[0] + trim[2] / 2, trim[1] + trim[3] / 2
    reach = int(max(w, h) / spacing) + 2
    if kind == "argyle":
        _argyle(canvas, cx, cy, spacing, reach, fill, stroke, ink_saver)
    elif kind == "stripes":
        for i in range(-2 * reach, 2 * reach + 1):
            offset = i * spacing
            canvas.line(cx + offset - h, cy - h, cx + offset + h, cy + h)
    elif kind == "dots":
        canvas.setFillColor(line_colour)
        for i in range(-reach, reach + 1):
            for j in range(-reach, reach + 1):
                canvas.circle(cx + i * spacing, cy + j * spacing, spacing * 0.12, stroke=0, fill=1)
    elif kind == "grid":
        for i in range(-reach, reach + 1):
            canvas.line(cx + i * spacing, y, cx + i * spacing, y + h)
            canvas.line(x, cy + i * spacing, x + w, cy + i * spacing)
    canvas.restoreState()


def _argyle(canvas, cx: float, cy: float, spacing: float, reach: int, fill: str | None, stroke: str | None,
            ink_saver: bool) -> None:
    """Alternating diamonds with a thin diagonal overcheck."""
    half_w, half_h = spacing / 2, spacing * 0.75
    if not ink_saver:
        canvas.setFillColor(_shade(fill or "#444444", 0.82))
        # diamonds centred on (i, j) with i + j even tile the plane; shading every other
        # one along each diagonal gives argyle's two-tone check
        for i in range(-2 * reach, 2 * reach + 1):
            for j in range(-2 * reach, 2 * reach + 1):
                if (i + j) % 2 or ((i - j) // 2) % 2:
                    continue
                px, py = cx + i * half_w, cy + j * half_h
                path = canvas.beginPath()
                path.moveTo(px, py + half_h)
                path.lineTo(px + half_w, py)
                path.lineTo(px, py - half_h)
                path.lineTo(px - half_w, py)
                path.close()
                canvas.drawPath(path, stroke=0, fill=1)
    slope = half_h / half_w
    span = reach * spacing
    canvas.setDash(spacing * 0.12, spacing * 0.12)
    for i in range(-2 * reach, 2 * reach + 1):
        ox = cx + i * half_w * 2
        canvas.line(ox - span, cy - span * slope, ox + span, cy + span * slope)
        canvas.line(ox - span, cy + span * slope, ox + span, cy - span * slope)
    canvas.setDash()


def _shade(hex_colour: str, factor: float):
    colour = HexColor(hex_colour)
    return type(colour)(colour.red * factor, colour.green * factor, colour.blue * factor)

"""Background patterns for card backs, drawn as vectors across the bleed.

A back pattern must tolerate a few millimetres of duplex drift, so it repeats
evenly and runs into the bleed; in ink-saver mode only thin lines remain.
"""

from __future__ import annotations

import math

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
    if kind == "argyle":
        _argyle(canvas, (x, y, w, h), cx, cy, spacing, fill, ink_saver)
    elif kind == "stripes":
        path = canvas.beginPath()
        for i in _steps(x - h - cx, x + w + h - cx, spacing):
            path.moveTo(cx + i * spacing - h, cy - h)
            path.lineTo(cx + i * spacing + h, cy + h)
        canvas.drawPath(path, stroke=1, fill=0)
    elif kind == "dots":
        canvas.setFillColor(line_colour)
        path = canvas.beginPath()
        for i in _steps(x - cx, x + w - cx, spacing):
            for j in _steps(y - cy, y + h - cy, spacing):
                path.circle(cx + i * spacing, cy + j * spacing, spacing * 0.12)
        canvas.drawPath(path, stroke=0, fill=1)
    elif kind == "grid":
        path = canvas.beginPath()
        for i in _steps(x - cx, x + w - cx, spacing):
            path.moveTo(cx + i * spacing, y)
            path.lineTo(cx + i * spacing, y + h)
        for j in _steps(y - cy, y + h - cy, spacing):
            path.moveTo(x, cy + j * spacing)
            path.lineTo(x + w, cy + j * spacing)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _steps(low: float, high: float, spacing: float) -> range:
    """Repeat indices whose positions (index × spacing from the centre) cover [low, high], plus one each side.

    Patterns are drawn as one path per card and only where the bleed box can show them:
    a deck of argyle backs would otherwise carry thousands of invisible strokes per card.
    """
    return range(math.floor(low / spacing) - 1, math.ceil(high / spacing) + 2)


def _argyle(canvas, box: Rect, cx: float, cy: float, spacing: float, fill: str | None, ink_saver: bool) -> None:
    """Alternating diamonds with a thin diagonal overcheck."""
    x, y, w, h = box
    half_w, half_h = spacing / 2, spacing * 0.75
    if not ink_saver:
        canvas.setFillColor(_shade(fill or "#444444", 0.82))
        # diamonds centred on (i, j) with i + j even tile the plane; shading those with i even
        # makes every diamond's four edge neighbours the other tone: argyle's check
        path = canvas.beginPath()
        for i in _steps(x - cx, x + w - cx, half_w):
            for j in _steps(y - cy, y + h - cy, half_h):
                if (i + j) % 2 or i % 2:
                    continue
                px, py = cx + i * half_w, cy + j * half_h
                path.moveTo(px, py + half_h)
                path.lineTo(px + half_w, py)
                path.lineTo(px, py - half_h)
                path.lineTo(px - half_w, py)
                path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    # the overcheck: diagonals through the diamonds' corners, long enough to cross the whole box
    slope = half_h / half_w
    span = w + h
    canvas.setDash(spacing * 0.12, spacing * 0.12)
    path = canvas.beginPath()
    for i in _steps(x - span - cx, x + w + span - cx, 2 * half_w):
        ox = cx + i * half_w * 2
        path.moveTo(ox - span, cy - span * slope)
        path.lineTo(ox + span, cy + span * slope)
        path.moveTo(ox - span, cy + span * slope)
        path.lineTo(ox + span, cy - span * slope)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setDash()


def _shade(hex_colour: str, factor: float):
    colour = HexColor(hex_colour)
    return type(colour)(colour.red * factor, colour.green * factor, colour.blue * factor)

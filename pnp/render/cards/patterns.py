"""Background patterns for card backs, drawn as vectors across the bleed.

A back pattern must tolerate a few millimetres of duplex drift, so it repeats evenly and runs into
the bleed; in ink-saver mode only thin lines remain.

The repeat is fitted to the card. Each pattern is made of tiles (``spacing`` wide and tall, or
``spacing`` × 1.5 ``spacing`` for argyle); the tile is stretched or shrunk, separately across and
down, so that a whole number of tiles spans the trim (the nearest whole number, at least one, ties
going up), and the tiles are laid from the trim's corner. So:

- a trim edge always lies on a tile boundary, and the pattern there is the same on every edge and on
  every card. Cards that abut on a sheet (shared cut lines, pnp/render/sheets/imposition.py) meet where one
  tile ends and the next begins: the pattern runs on across the seam as if drawn over the whole sheet,
  and the bleed round the grid carries it on too.
- every tile is symmetric, so is the whole card: argyle, grid and dots are mirror-symmetric about the
  card's centre lines, stripes look the same turned upside down. A cut card shows the pattern centred,
  and a mirrored duplex back (each back drawn on its own trim, behind its front) is the same picture.
- where the tile's boundary lies is chosen to keep ink off the cut: grid lines and dots sit in the
  middle of their tiles, so a trim edge runs half a repeat from the nearest line or dot; stripes cross
  a trim edge half way between two corners of the tiles; an argyle tile holds one whole coloured
  diamond, so a cut card shows whole diamonds with the other tone halved along its edges.

Everything drawn depends on the trim (and the bleed box it is clipped to) only, so a card's pattern
can be shared as a form in its slot (pnp/render/cards/forms.py) and the output stays byte-for-byte the same
from build to build.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor

from pnp.render.cards.ink_saver import low_ink_pattern_lines

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Rect = tuple[float, float, float, float]
PATTERNS = ("argyle", "stripes", "dots", "grid", "solid")
#: a tile's nominal width and height, in multiples of ``spacing``
TILE_SHAPE = {"argyle": (1.0, 1.5)}
DOT_RADIUS = 0.12  # of the spacing
ARGYLE_DASH = 0.12  # nominal dash (and gap) of the argyle's overcheck, of the spacing
ARGYLE_SHADE = 0.82  # the coloured diamonds' tone: this share of the fill colour


def fit_tiles(length: float, tile: float) -> tuple[int, float]:
    """How many tiles span ``length`` (the nearest whole number to length / tile, at least one, ties
    going up) and the tile size that makes them fit exactly."""
    count = max(1, math.floor(length / tile + 0.5))
    return count, length / count


def tile_size(kind: str, trim: Rect, spacing: float) -> tuple[float, float]:
    """The tile's width and height on a card with this trim: near the nominal tile, a whole number of
    them across and down the trim."""
    across, down = TILE_SHAPE.get(kind, (1.0, 1.0))
    return fit_tiles(trim[2], spacing * across)[1], fit_tiles(trim[3], spacing * down)[1]


def draw_pattern(canvas: Canvas, kind: str, bleed: Rect, trim: Rect, fill: str | None, stroke: str | None,
                 spacing: float, line_width: float, ink_saver: bool) -> None:
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
    line_colour = HexColor(low_ink_pattern_lines(stroke, fill) if ink_saver else stroke or "#000000")
    canvas.setStrokeColor(line_colour)
    canvas.setLineWidth(line_width)
    tile_w, tile_h = tile_size(kind, trim, spacing)
    origin = trim[0], trim[1]
    # the bleed box in tiles from the trim's bottom-left corner
    u0, u1 = (x - origin[0]) / tile_w, (x + w - origin[0]) / tile_w
    v0, v1 = (y - origin[1]) / tile_h, (y + h - origin[1]) / tile_h
    if kind == "argyle":
        _argyle(canvas, origin, tile_w, tile_h, (u0, u1, v0, v1), spacing, fill, ink_saver)
    elif kind == "stripes":
        # the lines u − v = k + ½ (u, v in tiles): through the middle of every tile's bottom edge
        path = canvas.beginPath()
        low, high = math.floor(v0) - 1, math.ceil(v1) + 1
        for k in _covering(u0 - v1 - 0.5, u1 - v0 - 0.5):
            path.moveTo(origin[0] + (k + 0.5 + low) * tile_w, origin[1] + low * tile_h)
            path.lineTo(origin[0] + (k + 0.5 + high) * tile_w, origin[1] + high * tile_h)
        canvas.drawPath(path, stroke=1, fill=0)
    elif kind == "dots":
        canvas.setFillColor(line_colour)
        path = canvas.beginPath()
        for i in _covering(u0 - 0.5, u1 - 0.5):
            for j in _covering(v0 - 0.5, v1 - 0.5):
                path.circle(origin[0] + (i + 0.5) * tile_w, origin[1] + (j + 0.5) * tile_h, spacing * DOT_RADIUS)
        canvas.drawPath(path, stroke=0, fill=1)
    elif kind == "grid":
        path = canvas.beginPath()
        for i in _covering(u0 - 0.5, u1 - 0.5):
            path.moveTo(origin[0] + (i + 0.5) * tile_w, y)
            path.lineTo(origin[0] + (i + 0.5) * tile_w, y + h)
        for j in _covering(v0 - 0.5, v1 - 0.5):
            path.moveTo(x, origin[1] + (j + 0.5) * tile_h)
            path.lineTo(x + w, origin[1] + (j + 0.5) * tile_h)
        canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _covering(low: float, high: float) -> range:
    """Whole numbers from below ``low`` to above ``high``, one more each side.

    Patterns are drawn as one path per card and only where the bleed box can show them: a deck of
    argyle backs would otherwise carry thousands of invisible strokes per card.
    """
    return range(math.floor(low) - 1, math.ceil(high) + 2)


def _argyle(canvas: Canvas, origin: tuple[float, float], tile_w: float, tile_h: float,
            box: tuple[float, float, float, float], spacing: float, fill: str | None, ink_saver: bool) -> None:
    """Coloured diamonds, one inscribed in each tile, the other tone between them, and a dashed
    diagonal overcheck through the diamonds' centres.

    In half-tiles (a, b) from the trim's corner, the coloured diamonds are centred on (odd, odd), the
    other tone on (even, even), and the overcheck runs along a − b and a + b even: it crosses at every
    diamond's centre.
    """
    u0, u1, v0, v1 = box
    ox, oy = origin
    half_w, half_h = tile_w / 2, tile_h / 2
    if not ink_saver:
        canvas.setFillColor(_shade(fill or "#444444", ARGYLE_SHADE))
        path = canvas.beginPath()
        for i in _covering(u0, u1):
            for j in _covering(v0, v1):
                px, py = ox + (2 * i + 1) * half_w, oy + (2 * j + 1) * half_h
                path.moveTo(px, py + half_h)
                path.lineTo(px + half_w, py)
                path.lineTo(px, py - half_h)
                path.lineTo(px - half_w, py)
                path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    # Every line starts on a crossing and crossings come a whole number of dash repeats apart, with a
    # dash centred on each: the dashes line up from card to card and mirror about the card's centre.
    # (The dash pattern restarts with every subpath.)
    between_crossings = math.hypot(half_w, half_h)
    repeats = max(1, math.floor(between_crossings / (2 * ARGYLE_DASH * spacing) + 0.5))
    dash = between_crossings / (2 * repeats)
    canvas.setDash([dash, dash], dash / 2)
    a0, a1, b0, b1 = 2 * u0, 2 * u1, 2 * v0, 2 * v1  # the box in half-tiles
    low, high = math.floor(b0), math.ceil(b1)  # whole b: the lines' ends are crossings
    path = canvas.beginPath()
    for i in _covering((a0 - b1) / 2, (a1 - b0) / 2):  # rising: a = 2i + b
        path.moveTo(ox + (2 * i + low) * half_w, oy + low * half_h)
        path.lineTo(ox + (2 * i + high) * half_w, oy + high * half_h)
    for i in _covering((a0 + b0) / 2, (a1 + b1) / 2):  # falling: a = 2i − b
        path.moveTo(ox + (2 * i - low) * half_w, oy + low * half_h)
        path.lineTo(ox + (2 * i - high) * half_w, oy + high * half_h)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.setDash()


def _shade(hex_colour: str, factor: float):
    colour = HexColor(hex_colour)
    return type(colour)(colour.red * factor, colour.green * factor, colour.blue * factor)

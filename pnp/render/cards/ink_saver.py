"""The low-ink variant on white paper: light ink meant for a dark fill must print dark instead.

The low-ink variant leaves out heavy fills (backgrounds that reach into the bleed, or marked
``ink = "heavy"``). White text, rings or icons drawn for such a fill would then be white on white:
a black 5-coin would print as an empty circle. A layout may test ``ink_saver`` itself; this pass
catches every layout that does not. A foreground colour lighter than LIGHT is printed as dark ink
where its element sits on paper or on a fill the variant leaves out; on a fill it keeps (a dark
badge), it stays as designed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pnp.compose.bind import Resolved

LIGHT = 0.75  # relative luminance (0 black, 1 white) above which ink hardly shows on white paper
DARK_INK = "#1a1a1a"  # the default text colour of the layouts
#: the keys that colour what an element draws on top of its background (a fill is a background)
FOREGROUND_KEYS = {"text": ("colour",), "icon": ("colour",), "pips": ("colour",), "frame": ("stroke",),
                   "rect": ("stroke",), "line": ("stroke",)}

Box = tuple[float, float, float, float]  # x, y from the top-left, w, h in mm


def on_white_paper(elements: Sequence[Resolved], size_mm: tuple[float, float]) -> list[Resolved]:
    """The elements as the low-ink variant should draw them (see the module docstring)."""
    backdrops: list[tuple[Box, bool]] = []  # fills drawn so far, and whether the variant keeps them
    result = []
    for element in elements:
        values = element.values
        point = _centre(element, size_mm)
        changes = {key: DARK_INK for key in FOREGROUND_KEYS.get(element.type, ())
                   if _is_light(values.get(key)) and not _on_kept_fill(point, backdrops)}
        result.append(replace(element, values={**values, **changes}) if changes else element)
        if element.type == "rect" and values.get("fill"):
            heavy = bool(values.get("bleed")) or values.get("ink") == "heavy"
            backdrops.append((_box(values, size_mm), not heavy))
    return result


def _is_light(colour: object) -> bool:
    found = luminance(colour)
    return found is not None and found > LIGHT


def luminance(colour: object) -> float | None:
    """Relative luminance of a "#rrggbb" colour (0 black, 1 white); None for anything else."""
    if not isinstance(colour, str) or len(colour) != 7 or not colour.startswith("#"):
        return None
    try:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    except ValueError:
        return None
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


PATTERN_GREY = "#b0b0b0"  # a low-ink pattern's lines: visible on paper once a dark fill is left out


def low_ink_pattern_lines(stroke: str | None, fill: str | None) -> str:
    """Light grey, unless the lines were already lighter on a light ground: a faint #eeeeee texture on
    white would otherwise print darker in the variant meant to save ink."""
    grey = luminance(PATTERN_GREY) or 0.0
    lines, ground = luminance(stroke), luminance(fill) if fill else 1.0
    if lines is not None and ground is not None and lines > grey and ground > LIGHT:
        return stroke  # type: ignore[return-value]
    return PATTERN_GREY


def _box(values: dict, size_mm: tuple[float, float]) -> Box:
    width, height = size_mm
    return values.get("x", 0.0), values.get("y", 0.0), values.get("w", width), values.get("h", height)


def _centre(element: Resolved, size_mm: tuple[float, float]) -> tuple[float, float]:
    values = element.values
    if element.type == "icon":
        size = values.get("size", 6.0)
        return values.get("x", 0.0) + size / 2, values.get("y", 0.0) + size / 2
    if element.type == "line":
        return (values.get("x1", 0.0) + values.get("x2", 0.0)) / 2, (values.get("y1", 0.0) + values.get("y2", 0.0)) / 2
    if element.type == "frame":
        return 0.0, size_mm[1] / 2  # a frame runs along the edges: judge it where it is drawn
    x, y, w, h = _box(values, size_mm)
    return x + w / 2, y + h / 2


def _on_kept_fill(point: tuple[float, float], backdrops: list[tuple[Box, bool]]) -> bool:
    px, py = point
    for (x, y, w, h), kept in reversed(backdrops):
        if x <= px <= x + w and y <= py <= y + h:
            return kept
    return False  # on the paper itself

"""A sheet's margins: crop marks or bleed ticks, the label and the ruler, placed around the card grid.

Marks go on every cut line, outside the trim box and clear of the paper edge a home printer
cannot print; the label and the 50 mm ruler take the widest bands left, and a warning says
what had no room (so the build can report it, and a stamp repeat it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pnp.render.sheets.geometry import (
    EPS,
    LABEL_BAND_MIN_MM,
    LABEL_GAP_MM,
    LABEL_MAX_DEPTH_MM,
    LABEL_MIN_LENGTH_MM,
    MARK_CLEARANCE_MM,
    MAX_MARK_MM,
    MIN_MARK_MM,
    MIN_MARK_OFFSET_MM,
    MIN_TICK_MM,
    PRINTER_MARGIN_MM,
    RULER_DEPTH_MM,
    RULER_END_PAD_MM,
    RULER_LENGTH_MM,
    SIDES,
    CutCue,
    FoldDirection,
    MarginItem,
    Rect,
    Segment,
    Side,
    Slot,
)
from pnp.render.sheets.paper import Paper


@dataclass(frozen=True)
class Chrome:
    """What :func:`margin_chrome` decides for one sheet: the cue on each side, marks, label, ruler, warnings."""

    cues: dict[Side, CutCue]
    crop_marks: tuple[Segment, ...]
    bleed_ticks: tuple[Segment, ...]
    label: MarginItem | None
    ruler: MarginItem | None
    warnings: tuple[str, ...]


def _unique(values: Iterable[float]) -> list[float]:
    """Distinct cut positions: a line shared by two cards is one cut and gets one mark."""
    result: list[float] = []
    for value in sorted(values):
        if not result or value - result[-1] > 1e-6:
            result.append(value)
    return result


def margin_chrome(
    page: Paper,
    trim_box: Rect,
    bleed: float,
    slots: Sequence[Slot],
    fold: FoldDirection | None,
    fold_line: Segment | None,
) -> Chrome:
    width, height = page.width_mm, page.height_mm
    x_cuts = _unique([v for s in slots for v in (s.trim.left, s.trim.right)])
    y_cuts = _unique([v for s in slots for v in (s.trim.bottom, s.trim.top)])
    mark_offset = max(bleed, MIN_MARK_OFFSET_MM)
    # Distance from the paper edge to the trim box, per side.
    trim_margin: dict[Side, float] = {
        "bottom": trim_box.bottom,
        "top": height - trim_box.top,
        "left": trim_box.left,
        "right": width - trim_box.right,
    }
    # Room for marks or the label between the printable limit and the start of the marks.
    room = {side: trim_margin[side] - mark_offset - PRINTER_MARGIN_MM for side in SIDES}
    label_side = max(SIDES, key=lambda side: (round(room[side], 6), -SIDES.index(side)))
    fold_positions: dict[Side, list[float]] = {side: [] for side in SIDES}
    if fold == "vertical":
        fold_positions["top"] = fold_positions["bottom"] = [width / 2]
    elif fold == "horizontal":
        fold_positions["left"] = fold_positions["right"] = [height / 2]

    cues: dict[Side, CutCue] = {}
    mark_length: dict[Side, float] = {}
    tick_limit: dict[Side, float] = {}  # how far outside the trim a fallback tick may run
    for side in SIDES:
        mark_length[side] = min(MAX_MARK_MM, room[side])
        tick_limit[side] = trim_margin[side] - PRINTER_MARGIN_MM
        cues[side] = "crop_marks" if room[side] + EPS >= MIN_MARK_MM else "bleed_ticks"

    label = ruler = None
    warnings: list[str] = []
    band_room = room[label_side]
    along_end = width if label_side in ("top", "bottom") else height
    cuts_along = x_cuts if label_side in ("top", "bottom") else y_cuts
    if band_room + EPS >= LABEL_BAND_MIN_MM + LABEL_GAP_MM + MIN_MARK_MM:
        # Marks next to the grid, label band beyond them: the two never cross.
        mark_length[label_side] = min(MAX_MARK_MM, band_room - LABEL_BAND_MIN_MM - LABEL_GAP_MM)
        band_depth = band_room - mark_length[label_side] - LABEL_GAP_MM
        placed = _place_along(PRINTER_MARGIN_MM, along_end - PRINTER_MARGIN_MM, fold_positions[label_side])
    elif band_room > 1.5:
        band_depth = band_room
        if band_depth + EPS < LABEL_BAND_MIN_MM:  # most cards came first (12 x 18 in, bridge: 25 cards)
            warnings.append(f"the sheet label and ruler get only {band_depth:.1f} mm of margin and print small "
                            f"(they want {LABEL_BAND_MIN_MM:g} mm): check the scale with a ruler on a card")
        blocked = (cuts_along if cues[label_side] == "crop_marks" else []) + fold_positions[label_side]
        placed = _place_along(PRINTER_MARGIN_MM, along_end - PRINTER_MARGIN_MM, blocked)
        if placed is None or placed[1][1] - placed[1][0] < LABEL_MIN_LENGTH_MM:
            # The marks leave no room for the ruler or label: cue this side with ticks in the bleed.
            cues[label_side] = "bleed_ticks"
            placed = _place_along(
                PRINTER_MARGIN_MM, along_end - PRINTER_MARGIN_MM, fold_positions[label_side]
            )
    else:
        placed = None
        band_depth = 0.0
        warnings.append("no margin is wide enough for the sheet label and the 50 mm ruler")
    if placed is not None:
        if cues[label_side] == "bleed_ticks":
            # ticks stay in the bleed and stop short of the band: run up to it, they touched the ruler's digits
            tick_limit[label_side] = max(MIN_TICK_MM, mark_offset - LABEL_GAP_MM)
        (ruler_start, ruler_end), (label_start, label_end) = placed
        inner = trim_margin[label_side] - mark_offset - (band_room - band_depth)  # grid-side edge of band
        ruler = _band_item(page, label_side, inner, min(band_depth, RULER_DEPTH_MM), ruler_start, ruler_end)
        label = _band_item(
            page, label_side, inner, min(band_depth, LABEL_MAX_DEPTH_MM), label_start, label_end
        )

    crop_marks: list[Segment] = []
    ticks: list[Segment] = []
    for side in SIDES:
        cuts = x_cuts if side in ("top", "bottom") else y_cuts
        if cues[side] == "crop_marks":
            crop_marks += [_outward(page, trim_box, side, c, mark_offset, mark_length[side]) for c in cuts]
        elif tick_limit[side] + EPS >= MIN_TICK_MM:
            ticks += [_outward(page, trim_box, side, c, 0.0, tick_limit[side]) for c in cuts]
        else:
            cues[side] = "none"
            warnings.append(f"no cutting cue fits on the {side} edge: raise the margin")
    return Chrome(cues, tuple(crop_marks), tuple(ticks), label, ruler, tuple(warnings))


def _outward(
    page: Paper, trim_box: Rect, side: Side, position: float, start: float, length: float
) -> Segment:
    """A line in line with a cut at `position`, running away from the grid on `side`."""
    if side == "top":
        return Segment(position, trim_box.top + start, position, trim_box.top + start + length)
    if side == "bottom":
        return Segment(position, trim_box.bottom - start - length, position, trim_box.bottom - start)
    if side == "left":
        return Segment(trim_box.left - start - length, position, trim_box.left - start, position)
    return Segment(trim_box.right + start, position, trim_box.right + start + length, position)


def _band_item(page: Paper, side: Side, inner: float, depth: float, start: float, end: float) -> MarginItem:
    """A rectangle in the margin on `side`, `inner` mm from the paper edge on its grid side."""
    if side == "bottom":
        area = Rect(start, inner - depth, end - start, depth)
    elif side == "top":
        area = Rect(start, page.height_mm - inner, end - start, depth)
    elif side == "left":
        area = Rect(inner - depth, start, depth, end - start)
    else:
        area = Rect(page.width_mm - inner, start, depth, end - start)
    return MarginItem(area, vertical=side in ("left", "right"), outer_side=side)


def _place_along(
    start: float, end: float, blocked: Sequence[float]
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Ruler and label intervals along a margin band, avoiding the marks that cross it.

    The ruler takes the start of whichever free interval leaves the longest interval for the label.
    """
    free: list[tuple[float, float]] = []
    cursor = start
    for position in sorted(blocked):
        if position - MARK_CLEARANCE_MM > cursor:
            free.append((cursor, position - MARK_CLEARANCE_MM))
        cursor = max(cursor, position + MARK_CLEARANCE_MM)
    if end > cursor:
        free.append((cursor, end))
    ruler_need = RULER_LENGTH_MM + 2 * RULER_END_PAD_MM
    best = None
    for i, (a, b) in enumerate(free):
        if b - a + EPS < ruler_need:
            continue
        rest = [iv for j, iv in enumerate(free) if j != i] + [(a + ruler_need, b)]
        label_interval = max(rest, key=lambda iv: (round(iv[1] - iv[0], 6), -iv[0]))
        if best is None or label_interval[1] - label_interval[0] > best[1][1] - best[1][0] + EPS:
            best = ((a, a + ruler_need), label_interval)
    return best

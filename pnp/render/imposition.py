"""Sheet imposition: where cards, cutting cues, the label and the ruler go on a sheet of paper.

Pure geometry, no reportlab, so every number can be checked by hand and by tests.

Coordinate convention (the same as reportlab and PDF): millimetres, origin at the bottom-left corner of
the page, x to the right, y upwards. Rows are counted from the top of the page (row 0 is the top row)
and columns from the left, so slot indices follow reading order.

Rules this module keeps:
- Card trims stay at least `min_margin_mm` from the paper edge. Bleed is disposable and may run into
  that margin; nothing we need printed (marks, label, ruler) goes within PRINTER_MARGIN_MM of the edge,
  because most home printers cannot print there and viewers shrink pages whose marks reach the edge.
- Every axis gets its own bleed when it fits (a 2×bleed gap between cards); otherwise the cards of that
  axis abut on shared cut lines and bleed only on the grid's outer edges.
- Among layouts holding the most cards, one that leaves room for the label and ruler wins, then the one
  with more separated axes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pnp.render.paper import CardSize, Orientation, Paper, SizeError

PRINTER_MARGIN_MM = 4.0  # nothing we need printed lies closer to the paper edge than this
MIN_MARK_MM = 2.0  # a crop mark shorter than this is no use for lining up a ruler
MAX_MARK_MM = 5.0
MIN_MARK_OFFSET_MM = 1.0  # marks keep this far from the trim even with no bleed
MIN_TICK_MM = 1.0
LABEL_BAND_MIN_MM = 4.5  # ruler ticks + numbers, or two lines of 6 pt label text
LABEL_GAP_MM = 0.5  # between the crop marks and the label band when both share a margin
MARK_CLEARANCE_MM = 1.0  # label and ruler keep this far from a mark that crosses their band
RULER_LENGTH_MM = 50.0
RULER_END_PAD_MM = 2.0  # room for the '0' and '50' numbers beyond the end ticks
RULER_DEPTH_MM = 4.5
LABEL_MAX_DEPTH_MM = 8.0
LABEL_MIN_LENGTH_MM = 30.0
_EPS = 1e-9

Side = Literal["top", "bottom", "left", "right"]
CutCue = Literal["crop_marks", "bleed_ticks", "none"]
BleedMode = Literal["separate", "abutting", "mixed"]
DuplexEdge = Literal["long", "short"]
FoldDirection = Literal["vertical", "horizontal"]
SIDES: tuple[Side, ...] = ("bottom", "top", "left", "right")


class ImpositionError(ValueError):
    """No usable layout: the message says which size or margin is to blame."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle; units are whatever the caller uses (mm here, pt when drawing)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def left(self) -> float:
        return self.x

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)

    def as_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1), the form PDF page boxes use."""
        return (self.left, self.bottom, self.right, self.top)

    def mirrored_x(self, page_width: float) -> Rect:
        return Rect(page_width - self.right, self.y, self.width, self.height)

    def mirrored_y(self, page_height: float) -> Rect:
        return Rect(self.x, page_height - self.top, self.width, self.height)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def scaled(self, factor: float) -> Rect:
        return Rect(self.x * factor, self.y * factor, self.width * factor, self.height * factor)

    def clipped(self, other: Rect) -> Rect:
        """The part inside `other` (zero-sized when they do not overlap)."""
        left, bottom = max(self.left, other.left), max(self.bottom, other.bottom)
        right, top = min(self.right, other.right), min(self.top, other.top)
        return Rect(left, bottom, max(0.0, right - left), max(0.0, top - bottom))

    @staticmethod
    def bounding(rects: Iterable[Rect]) -> Rect:
        rects = list(rects)
        left = min(r.left for r in rects)
        bottom = min(r.bottom for r in rects)
        return Rect(left, bottom, max(r.right for r in rects) - left, max(r.top for r in rects) - bottom)


@dataclass(frozen=True)
class Segment:
    """A straight line from (x0, y0) to (x1, y1)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return ((self.x1 - self.x0) ** 2 + (self.y1 - self.y0) ** 2) ** 0.5

    def mirrored_x(self, page_width: float) -> Segment:
        return Segment(page_width - self.x0, self.y0, page_width - self.x1, self.y1)

    def mirrored_y(self, page_height: float) -> Segment:
        return Segment(self.x0, page_height - self.y0, self.x1, page_height - self.y1)


@dataclass(frozen=True)
class Slot:
    """One card position. `index` is the card's place on the sheet in reading order of the fronts."""

    index: int
    row: int
    col: int
    trim: Rect
    bleed: Rect


@dataclass(frozen=True)
class MarginItem:
    """Where the label or the ruler goes.

    `vertical` items run bottom-to-top (text rotated 90° anticlockwise): in the local frame the item's
    length runs along the page's y axis. `outer_side` is the page edge the item's band lies against.
    """

    area: Rect
    vertical: bool
    outer_side: Side

    @property
    def length(self) -> float:
        return self.area.height if self.vertical else self.area.width

    @property
    def depth(self) -> float:
        return self.area.width if self.vertical else self.area.height


@dataclass(frozen=True)
class SheetPlan:
    """Everything needed to draw one sheet layout; all lengths in mm, origin bottom-left of the page.

    For `layout == 'fold'`, `fold_backs[k]` is the back of `slots[k]` on the same page, mirrored across
    `fold_line`. For `layout == 'grid'`, backs go on a separate page: see `duplex_back_slots`.
    """

    layout: Literal["grid", "fold"]
    paper: Paper
    card: CardSize
    bleed_mm: float
    min_margin_mm: float
    cols: int
    rows: int
    gap_x_mm: float
    gap_y_mm: float
    bleed_mode: BleedMode
    slots: tuple[Slot, ...]
    trim_box: Rect
    bleed_box: Rect
    cut_cues: dict[Side, CutCue]
    crop_marks: tuple[Segment, ...]
    bleed_ticks: tuple[Segment, ...]
    label: MarginItem | None
    ruler: MarginItem | None
    fold_backs: tuple[Slot, ...] = ()
    fold_direction: FoldDirection | None = None
    fold_line: Segment | None = None
    warnings: tuple[str, ...] = field(default=())

    @property
    def capacity(self) -> int:
        return len(self.slots)

    @property
    def page(self) -> Rect:
        return Rect(0.0, 0.0, self.paper.width_mm, self.paper.height_mm)


# ----------------------------------------------------------------------------- duplex backs


def duplex_flip_axis(paper: Paper, edge: DuplexEdge) -> Literal["x", "y"]:
    """Which coordinate a duplex flip mirrors on this page.

    The printer turns the physical sheet about its long or short edge. On a portrait page the long edge
    is vertical, so a long-edge flip mirrors x (left↔right); on a landscape page the long edge is
    horizontal, so the same setting mirrors y. Viewers rotate landscape pages onto the paper, which does
    not change this.
    """
    if edge not in ("long", "short"):
        raise ImpositionError(f"duplex edge must be 'long' or 'short', not {edge!r}")
    long_edge_vertical = paper.height_mm >= paper.width_mm
    if edge == "long":
        return "x" if long_edge_vertical else "y"
    return "y" if long_edge_vertical else "x"


def mirror_rect(rect: Rect, paper: Paper, edge: DuplexEdge) -> Rect:
    """The rectangle on the back page that lies exactly behind `rect` on the front page."""
    if duplex_flip_axis(paper, edge) == "x":
        return rect.mirrored_x(paper.width_mm)
    return rect.mirrored_y(paper.height_mm)


def duplex_back_slots(
    plan: SheetPlan, edge: DuplexEdge = "long", offset_mm: tuple[float, float] = (0.0, 0.0)
) -> tuple[Slot, ...]:
    """Back slot k lies behind front slot k, then moves by `offset_mm` to cancel a printer's drift.

    The mirror is taken about the page centre, not the grid's, so a grid that is not centred still
    registers. The offset is in back-page coordinates (x right, y up as seen on the back page), which is
    what the calibration sheet reads out.
    """
    if plan.layout != "grid":
        raise ImpositionError("duplex backs need a grid plan; a fold plan carries its backs in fold_backs")
    dx, dy = offset_mm
    axis = duplex_flip_axis(plan.paper, edge)
    backs = []
    for slot in plan.slots:
        row, col = (
            (slot.row, plan.cols - 1 - slot.col) if axis == "x" else (plan.rows - 1 - slot.row, slot.col)
        )
        backs.append(
            Slot(
                slot.index,
                row,
                col,
                mirror_rect(slot.trim, plan.paper, edge).shifted(dx, dy),
                mirror_rect(slot.bleed, plan.paper, edge).shifted(dx, dy),
            )
        )
    return tuple(backs)


def mirror_margin_item(item: MarginItem | None, paper: Paper, edge: DuplexEdge) -> MarginItem | None:
    """The label or ruler position for the back page: the mirrored band, text still upright."""
    if item is None:
        return None
    axis = duplex_flip_axis(paper, edge)
    swap: dict[Side, Side] = (
        {"left": "right", "right": "left"} if axis == "x" else {"top": "bottom", "bottom": "top"}
    )
    return MarginItem(
        mirror_rect(item.area, paper, edge), item.vertical, swap.get(item.outer_side, item.outer_side)
    )


# ----------------------------------------------------------------------------- planning


def plan_sheet(
    paper: Paper,
    card: CardSize,
    bleed_mm: float = 3.0,
    min_margin_mm: float = 5.0,
    orientation: Orientation | Literal["auto"] = "auto",
) -> SheetPlan:
    """The grid layout holding the most cards; ties go to room for the label, then to separate bleeds.

    `orientation` is the page's: 'auto' tries portrait and landscape (portrait wins ties).
    """
    return _best_plan(paper, card, bleed_mm, min_margin_mm, orientation, folds=(None,))


def plan_single_card(card: CardSize, bleed_mm: float = 3.0) -> SheetPlan:
    """One card a page, the page its bleed box: what print-on-demand services take.

    No marks, label or ruler (the service cuts to the TrimBox, which is the card); the back page is
    the same box, so the duplex mirror leaves it in place whatever the edge.
    """
    _check_lengths(bleed_mm, 0.0, card)
    page = Paper(f"{card.width_mm:g} × {card.height_mm:g} mm card", card.width_mm + 2 * bleed_mm,
                 card.height_mm + 2 * bleed_mm)
    trim = Rect(bleed_mm, bleed_mm, card.width_mm, card.height_mm)
    bleed = Rect(0.0, 0.0, page.width_mm, page.height_mm)
    return SheetPlan("grid", page, card, bleed_mm, 0.0, 1, 1, 0.0, 0.0, "separate", (Slot(0, 0, 0, trim, bleed),),
                     trim, bleed, {}, (), (), None, None)


def plan_fold_sheet(
    paper: Paper,
    card: CardSize,
    bleed_mm: float = 3.0,
    min_margin_mm: float = 5.0,
    orientation: Orientation | Literal["auto"] = "auto",
) -> SheetPlan:
    """A gutter-fold layout: fronts and their backs on one page, mirrored across a fold line.

    Fronts take the left (vertical fold) or top (horizontal fold) half; whichever page orientation and
    fold direction holds the most cards wins. Folding the sheet along the line puts each back exactly
    behind its front, whatever the printer's duplex drift.
    """
    return _best_plan(paper, card, bleed_mm, min_margin_mm, orientation, folds=("vertical", "horizontal"))


def _best_plan(
    paper: Paper,
    card: CardSize,
    bleed_mm: float,
    min_margin_mm: float,
    orientation: Orientation | Literal["auto"],
    folds: Sequence[FoldDirection | None],
) -> SheetPlan:
    _check_lengths(bleed_mm, min_margin_mm, card)
    if orientation == "auto":
        pages = [paper.oriented("portrait")]
        if paper.oriented("landscape") != pages[0]:
            pages.append(paper.oriented("landscape"))
    else:
        pages = [paper.oriented(orientation)]
    best: tuple[tuple, SheetPlan] | None = None
    order = 0
    for page in pages:
        for fold in folds:
            for separate_x in (True, False):
                for separate_y in (True, False):
                    plan = _plan_candidate(page, card, bleed_mm, min_margin_mm, fold, separate_x, separate_y)
                    order += 1
                    if plan is None:
                        continue
                    key = _rank(plan, order)
                    if best is None or key > best[0]:
                        best = (key, plan)
    if best is None:
        layout = "fold sheet (half a page per side)" if folds[0] else "sheet"
        raise ImpositionError(
            f"a {card.width_mm:g} × {card.height_mm:g} mm card with {bleed_mm:g} mm bleed does not fit on "
            f"{paper.name} paper ({layout}, {min_margin_mm:g} mm margins)"
        )
    return best[1]


def _check_lengths(bleed_mm: float, min_margin_mm: float, card: CardSize) -> None:
    if not bleed_mm >= 0:
        raise ImpositionError(f"bleed must be 0 mm or more, got {bleed_mm:g}")
    if not min_margin_mm >= 0:
        raise ImpositionError(f"margin must be 0 mm or more, got {min_margin_mm:g}")
    if not (card.width_mm > 0 and card.height_mm > 0):
        raise SizeError(f"card size must be positive, got {card.width_mm:g} × {card.height_mm:g} mm")


def _rank(plan: SheetPlan, order: int) -> tuple:
    label_fits = plan.label is not None and plan.label.depth + _EPS >= LABEL_BAND_MIN_MM
    separated = _separated_x(plan) + _separated_y(plan)
    label_depth = plan.label.depth if plan.label else 0.0
    return (plan.capacity, label_fits, separated, round(label_depth, 6), -order)


def _separated_x(plan: SheetPlan) -> bool:
    return plan.gap_x_mm > 0 or plan.cols == 1


def _separated_y(plan: SheetPlan) -> bool:
    return plan.gap_y_mm > 0 or plan.rows == 1


def _fit_count(space: float, size: float, gap: float) -> int:
    """How many `size`s with `gap` between them fit in `space`."""
    if space + _EPS < size:
        return 0
    return int((space + gap + _EPS) // (size + gap))


def _plan_candidate(
    page: Paper,
    card: CardSize,
    bleed: float,
    min_margin: float,
    fold: FoldDirection | None,
    separate_x: bool,
    separate_y: bool,
) -> SheetPlan | None:
    """One page orientation × fold × bleed mode, or None if no card fits or it duplicates another."""
    margin = max(min_margin, bleed)  # the outer bleed must still be on the paper
    fold_half = max(bleed, MIN_MARK_OFFSET_MM)  # trims keep off the fold so a sloppy fold is not seen
    width, height = page.width_mm, page.height_mm
    space_x, space_y = width - 2 * margin, height - 2 * margin
    if fold == "vertical":
        space_x = width / 2 - fold_half - margin
    elif fold == "horizontal":
        space_y = height / 2 - fold_half - margin
    gap_x, gap_y = (2 * bleed if separate_x else 0.0), (2 * bleed if separate_y else 0.0)
    cols = _fit_count(space_x, card.width_mm, gap_x)
    rows = _fit_count(space_y, card.height_mm, gap_y)
    if cols == 0 or rows == 0:
        return None
    # With one card along an axis, or no bleed, the gap means nothing: keep only the 'separate' variant.
    if (cols == 1 or bleed == 0) and not separate_x:
        return None
    if (rows == 1 or bleed == 0) and not separate_y:
        return None
    if cols == 1:
        gap_x = 0.0
    if rows == 1:
        gap_y = 0.0
    grid_w = cols * card.width_mm + (cols - 1) * gap_x
    grid_h = rows * card.height_mm + (rows - 1) * gap_y
    left = (width - grid_w) / 2
    top = (height + grid_h) / 2
    if fold == "vertical":
        left = width / 2 - fold_half - grid_w
    elif fold == "horizontal":
        top = height / 2 + fold_half + grid_h

    slots = _grid_slots(card, bleed, cols, rows, gap_x, gap_y, left, top)
    fold_backs: tuple[Slot, ...] = ()
    fold_line = None
    if fold == "vertical":
        fold_backs = tuple(
            Slot(s.index, s.row, 2 * cols - 1 - s.col, s.trim.mirrored_x(width), s.bleed.mirrored_x(width))
            for s in slots
        )
        fold_line = Segment(width / 2, PRINTER_MARGIN_MM, width / 2, height - PRINTER_MARGIN_MM)
    elif fold == "horizontal":
        fold_backs = tuple(
            Slot(s.index, 2 * rows - 1 - s.row, s.col, s.trim.mirrored_y(height), s.bleed.mirrored_y(height))
            for s in slots
        )
        fold_line = Segment(PRINTER_MARGIN_MM, height / 2, width - PRINTER_MARGIN_MM, height / 2)

    everything = slots + fold_backs
    trim_box = Rect.bounding(s.trim for s in everything)
    bleed_box = Rect.bounding(s.bleed for s in everything)
    chrome = _margin_chrome(page, trim_box, bleed, everything, fold, fold_line)
    shared = [gap == 0 for gap, count in ((gap_x, cols), (gap_y, rows)) if count > 1]
    bleed_mode: BleedMode = "separate" if not any(shared) else ("abutting" if all(shared) else "mixed")
    warnings = list(chrome.warnings)
    if min_margin < PRINTER_MARGIN_MM:
        warnings.append(
            f"margin {min_margin:g} mm is less than the {PRINTER_MARGIN_MM:g} mm most home printers leave "
            "unprinted: card edges may be cut off"
        )
    return SheetPlan(
        layout="fold" if fold else "grid",
        paper=page,
        card=card,
        bleed_mm=bleed,
        min_margin_mm=min_margin,
        cols=cols,
        rows=rows,
        gap_x_mm=gap_x,
        gap_y_mm=gap_y,
        bleed_mode=bleed_mode,
        slots=slots,
        trim_box=trim_box,
        bleed_box=bleed_box,
        cut_cues=chrome.cues,
        crop_marks=chrome.crop_marks,
        bleed_ticks=chrome.bleed_ticks,
        label=chrome.label,
        ruler=chrome.ruler,
        fold_backs=fold_backs,
        fold_direction=fold,
        fold_line=fold_line,
        warnings=tuple(warnings),
    )


def _grid_slots(
    card: CardSize, bleed: float, cols: int, rows: int, gap_x: float, gap_y: float, left: float, top: float
) -> tuple[Slot, ...]:
    """Slots in reading order; bleed on a shared (abutting) edge is 0 so neighbours never overlap."""
    slots = []
    for row in range(rows):
        for col in range(cols):
            x = left + col * (card.width_mm + gap_x)
            y = top - (row + 1) * card.height_mm - row * gap_y
            trim = Rect(x, y, card.width_mm, card.height_mm)
            bleed_left = bleed if (col == 0 or gap_x > 0) else 0.0
            bleed_right = bleed if (col == cols - 1 or gap_x > 0) else 0.0
            bleed_top = bleed if (row == 0 or gap_y > 0) else 0.0
            bleed_bottom = bleed if (row == rows - 1 or gap_y > 0) else 0.0
            bleed_rect = Rect(
                x - bleed_left,
                y - bleed_bottom,
                card.width_mm + bleed_left + bleed_right,
                card.height_mm + bleed_bottom + bleed_top,
            )
            slots.append(Slot(len(slots), row, col, trim, bleed_rect))
    return tuple(slots)


# ----------------------------------------------------------------------------- margins: marks, label, ruler


@dataclass(frozen=True)
class _Chrome:
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


def _margin_chrome(
    page: Paper,
    trim_box: Rect,
    bleed: float,
    slots: Sequence[Slot],
    fold: FoldDirection | None,
    fold_line: Segment | None,
) -> _Chrome:
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
        cues[side] = "crop_marks" if room[side] + _EPS >= MIN_MARK_MM else "bleed_ticks"

    label = ruler = None
    warnings: list[str] = []
    band_room = room[label_side]
    along_end = width if label_side in ("top", "bottom") else height
    cuts_along = x_cuts if label_side in ("top", "bottom") else y_cuts
    if band_room + _EPS >= LABEL_BAND_MIN_MM + LABEL_GAP_MM + MIN_MARK_MM:
        # Marks next to the grid, label band beyond them: the two never cross.
        mark_length[label_side] = min(MAX_MARK_MM, band_room - LABEL_BAND_MIN_MM - LABEL_GAP_MM)
        band_depth = band_room - mark_length[label_side] - LABEL_GAP_MM
        placed = _place_along(PRINTER_MARGIN_MM, along_end - PRINTER_MARGIN_MM, fold_positions[label_side])
    elif band_room > 1.5:
        band_depth = band_room
        if band_depth + _EPS < LABEL_BAND_MIN_MM:  # most cards came first (12 x 18 in, bridge: 25 cards)
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
            tick_limit[label_side] = mark_offset  # ticks stay in the bleed, clear of the label band
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
        elif tick_limit[side] + _EPS >= MIN_TICK_MM:
            ticks += [_outward(page, trim_box, side, c, 0.0, tick_limit[side]) for c in cuts]
        else:
            cues[side] = "none"
            warnings.append(f"no cutting cue fits on the {side} edge: raise the margin")
    return _Chrome(cues, tuple(crop_marks), tuple(ticks), label, ruler, tuple(warnings))


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
        if b - a + _EPS < ruler_need:
            continue
        rest = [iv for j, iv in enumerate(free) if j != i] + [(a + ruler_need, b)]
        label_interval = max(rest, key=lambda iv: (round(iv[1] - iv[0], 6), -iv[0]))
        if best is None or label_interval[1] - label_interval[0] > best[1][1] - best[1][0] + _EPS:
            best = ((a, a + ruler_need), label_interval)
    return best

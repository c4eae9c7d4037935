"""What a sheet plan is made of: rectangles, cut-mark segments, card slots, margin items, the plan.

Millimetres, origin at the bottom-left corner of the page, x to the right, y upwards (as in
reportlab and PDF); rows count from the top, so slot indices follow reading order. The limits
here (printer margin, mark lengths, label band) are the ones :mod:`pnp.render.sheets.imposition` plans to.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pnp.render.sheets.paper import CardSize, Paper

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
EPS = 1e-9

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

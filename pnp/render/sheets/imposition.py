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

The plan's parts are in :mod:`pnp.render.sheets.geometry`; the margins (marks, label, ruler) are
placed by :mod:`pnp.render.sheets.margins`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal

from pnp.render.sheets.geometry import (
    EPS,
    LABEL_BAND_MIN_MM,
    MIN_MARK_OFFSET_MM,
    PRINTER_MARGIN_MM,
    BleedMode,
    DuplexEdge,
    FoldDirection,
    ImpositionError,
    MarginItem,
    Rect,
    Segment,
    SheetPlan,
    Side,
    Slot,
)
from pnp.render.sheets.margins import margin_chrome
from pnp.render.sheets.paper import CardSize, Orientation, Paper, SizeError, parse_paper

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
    count: int | None = None,
) -> SheetPlan:
    """The grid layout holding the most cards; ties go to room for the label, then to separate bleeds.

    `orientation` is the page's: 'auto' tries portrait and landscape (portrait wins ties). `count`: the
    cards to impose, when known. A set that fits on one sheet gets only the rows (and, in one row, the
    columns) it fills, so no crop mark stands at an empty row and the label takes the room left: 80 of
    Rudy's coins had an empty row of marks on A4 above a label squeezed into 4 mm.
    """
    return _best_plan(paper, card, bleed_mm, min_margin_mm, orientation, folds=(None,), count=count)


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
    count: int | None = None,
) -> SheetPlan:
    """A gutter-fold layout: fronts and their backs on one page, mirrored across a fold line.

    Fronts take the left (vertical fold) or top (horizontal fold) half; whichever page orientation and
    fold direction holds the most cards wins. Folding the sheet along the line puts each back exactly
    behind its front, whatever the printer's duplex drift. `count` as for :func:`plan_sheet`.
    """
    return _best_plan(paper, card, bleed_mm, min_margin_mm, orientation, folds=("vertical", "horizontal"),
                      count=count)


def _best_plan(
    paper: Paper,
    card: CardSize,
    bleed_mm: float,
    min_margin_mm: float,
    orientation: Orientation | Literal["auto"],
    folds: Sequence[FoldDirection | None],
    count: int | None = None,
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
                    plan = _plan_candidate(page, card, bleed_mm, min_margin_mm, fold, separate_x, separate_y,
                                           count)
                    order += 1
                    if plan is None:
                        continue
                    key = _rank(plan, order, count)
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


def _rank(plan: SheetPlan, order: int, count: int | None = None) -> tuple:
    """Most cards a sheet (beyond ``count``, more room means nothing), then the label, then separate bleeds."""
    label_fits = plan.label is not None and plan.label.depth + EPS >= LABEL_BAND_MIN_MM
    separated = _separated_x(plan) + _separated_y(plan)
    label_depth = plan.label.depth if plan.label else 0.0
    held = plan.capacity if count is None else min(plan.capacity, count)
    return (held, label_fits, separated, round(label_depth, 6), -order)


def _separated_x(plan: SheetPlan) -> bool:
    return plan.gap_x_mm > 0 or plan.cols == 1


def _separated_y(plan: SheetPlan) -> bool:
    return plan.gap_y_mm > 0 or plan.rows == 1


def _fit_count(space: float, size: float, gap: float) -> int:
    """How many `size`s with `gap` between them fit in `space`."""
    if space + EPS < size:
        return 0
    return int((space + gap + EPS) // (size + gap))


def _plan_candidate(
    page: Paper,
    card: CardSize,
    bleed: float,
    min_margin: float,
    fold: FoldDirection | None,
    separate_x: bool,
    separate_y: bool,
    count: int | None = None,
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
    if count is not None and 0 < count < cols * rows:  # one sheet holds them all: only the rows they fill
        rows = -(-count // cols)
        if rows == 1:
            cols = count
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
    chrome = margin_chrome(page, trim_box, bleed, everything, fold, fold_line)
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


@cache
def paper_holds(paper: str, trim_mm: tuple[float, float], bleed_mm: float, fold: bool) -> bool:
    """Whether ``paper`` holds at least one such piece, on duplex sheets or, with ``fold``, on fold sheets:
    what a default build asks before planning sheets (pnp/commands/build.py)."""
    plan = plan_fold_sheet if fold else plan_sheet
    try:
        plan(parse_paper(paper), CardSize(trim_mm[0], trim_mm[1], "custom"), bleed_mm=bleed_mm)
    except ImpositionError:
        return False
    return True

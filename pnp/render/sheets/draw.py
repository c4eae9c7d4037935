"""Draw imposed card sheets into a PDF with reportlab.

The geometry comes from a `SheetPlan` (pnp/render/sheets/geometry.py, planned by imposition.py); this
module only turns it into PDF operators. Card art is drawn by callbacks, clipped to each card's
bleed rectangle, so a callback cannot paint over a neighbour or the cutting marks.

Page order for duplex: front of sheet 1, its backs, front of sheet 2, ... A sheet that is not full
still keeps every card in its slot, and its empty slots get no back, so the backs line up.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar

from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.files.atomic import atomic_write
from pnp.render.pdf.pdf_forms import end_form
from pnp.render.sheets.geometry import (
    RULER_DEPTH_MM,
    RULER_END_PAD_MM,
    RULER_LENGTH_MM,
    DuplexEdge,
    MarginItem,
    Rect,
    Segment,
    SheetPlan,
)
from pnp.render.sheets.imposition import duplex_back_slots, mirror_margin_item, mirror_rect
from pnp.render.sheets.paper import PT_PER_MM

T = TypeVar("T")
DrawCallback = Callable[[Canvas, T, Rect, Rect], None]
"""draw(canvas, card, trim_rect_pt, bleed_rect_pt): paint the card; art should fill the bleed rect."""

SheetsMode = Literal["duplex", "fronts", "fold"]

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


@dataclass(frozen=True)
class SheetLabels:
    """Texts printed in the sheet label; every string can be replaced by a translation.

    `sheet` and `backs` are format strings with {n} (this sheet) and {m} (sheet count).
    """

    game: str = ""
    component: str = ""
    sheet: str = "sheet {n} of {m}"
    backs: str = "backs of sheet {n} of {m}"
    print_note: str = "Print at 100% / actual size"
    duplex_long: str = "duplex: flip on long edge"
    duplex_short: str = "duplex: flip on short edge"
    fold_note: str = "fold at the dashed marks, glue, then cut"
    separator: str = " · "


@dataclass(frozen=True)
class SheetOptions:
    """How to print; the paper and bleed are part of the plan, since the layout depends on them.

    `label_font` must already be registered with reportlab (an embedded TrueType font), because a
    print shop rejects unembedded fonts. `back_offset_mm` moves every back page (x right, y up as seen
    on the back) to cancel a printer's duplex drift read off the calibration sheet. `ink_saver` is not
    used here; it travels with the options for the card callbacks.
    """

    label_font: str
    mode: SheetsMode = "duplex"
    duplex_edge: DuplexEdge = "long"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    labels: SheetLabels = field(default_factory=SheetLabels)
    title: str | None = None
    author: str = ""
    subject: str = ""
    ink_saver: bool = False
    mark_colour: Color = REGISTRATION
    round_pieces: bool = False  # shape = "round": each piece's art is cut to an ellipse, bleed around it
    lang: str | None = None  # the document's language (/Lang), for screen readers and text extraction


@dataclass(frozen=True)
class PagePlacement:
    """What one PDF page holds: (card index in the input, trim rect in mm) per placed card."""

    page_number: int
    side: Literal["front", "back", "fold"]
    sheet: int
    cards: tuple[tuple[int, Rect], ...]
    fold_backs: tuple[tuple[int, Rect], ...]
    trim_box: Rect
    bleed_box: Rect


@dataclass(frozen=True)
class SheetsResult:
    path: Path
    plan: SheetPlan
    mode: SheetsMode
    sheet_count: int
    pages: tuple[PagePlacement, ...]
    warnings: tuple[str, ...]

    @property
    def page_count(self) -> int:
        return len(self.pages)


def to_pt(rect: Rect) -> Rect:
    return rect.scaled(PT_PER_MM)


def new_canvas(target: object, font_name: str, title: str, author: str = "", subject: str = "",
               lang: str | None = None) -> Canvas:
    """A canvas that builds byte-identical files and never refers to an unembedded font.

    `invariant=1` fixes the document ID and, unless SOURCE_DATE_EPOCH is set (reportlab reads it),
    the dates (2000-01-01 UTC). `initialFontName` keeps reportlab's default Helvetica off every page.
    """
    canvas = Canvas(target, invariant=1, initialFontName=font_name, pageCompression=1, lang=lang)
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setSubject(subject)
    canvas.setCreator("pnp")
    return canvas


def write_card_sheets(
    path: str | os.PathLike[str],
    cards: Sequence[T],
    draw_face: DrawCallback[T],
    draw_back: DrawCallback[T] | None,
    plan: SheetPlan,
    options: SheetOptions,
) -> SheetsResult:
    """Write every card onto as many sheets as needed, atomically replacing `path`."""
    _check_mode(plan, options, draw_back)
    if not cards:
        raise ValueError("there are no cards to put on sheets")
    per_sheet = plan.capacity
    sheet_count = math.ceil(len(cards) / per_sheet)
    labels = options.labels
    title = options.title or labels.separator.join(t for t in (labels.game, labels.component) if t) or "Cards"
    pages: list[PagePlacement] = []
    with atomic_write(path) as handle:
        canvas = new_canvas(handle, options.label_font, title, options.author, options.subject, options.lang)
        for sheet in range(sheet_count):
            first = sheet * per_sheet
            on_sheet = list(enumerate(cards[first : first + per_sheet], start=first))
            pages.append(
                _draw_front_page(canvas, plan, options, on_sheet, draw_face, draw_back, sheet, sheet_count)
            )
            if options.mode == "duplex":
                assert draw_back is not None
                pages.append(_draw_back_page(canvas, plan, options, on_sheet, draw_back, sheet, sheet_count))
        canvas.save()
    return SheetsResult(Path(path), plan, options.mode, sheet_count, tuple(pages), plan.warnings)


def _check_mode(plan: SheetPlan, options: SheetOptions, draw_back: object) -> None:
    if options.mode not in ("duplex", "fronts", "fold"):
        raise ValueError(f"sheet mode must be 'duplex', 'fronts' or 'fold', not {options.mode!r}")
    if (options.mode == "fold") != (plan.layout == "fold"):
        needed = "plan_fold_sheet" if options.mode == "fold" else "plan_sheet"
        raise ValueError(f"mode {options.mode!r} needs a plan from {needed}, got a {plan.layout!r} plan")
    if options.mode != "fronts" and draw_back is None:
        raise ValueError(f"mode {options.mode!r} prints backs, so draw_back is required")


def _start_page(canvas: Canvas, plan: SheetPlan, trim_box: Rect, bleed_box: Rect) -> None:
    """Page size and boxes are per page in reportlab: they are read when showPage() closes the page."""
    canvas.setPageSize(plan.paper.size_pt)
    canvas.setTrimBox(to_pt(trim_box).as_box())
    canvas.setBleedBox(to_pt(bleed_box.clipped(plan.page)).as_box())


def _draw_card(canvas: Canvas, draw: DrawCallback[T], card: T, trim: Rect, bleed: Rect,
               round_bleed_mm: float | None = None) -> None:
    """``round_bleed_mm``: a round piece, whose art ends that far outside the ellipse its trim holds.

    The art then shows the piece's outline with a ring of bleed around it, so a circle cutter or
    scissors follow the shape, and the corners of its square, cut away anyway, take no ink. The crop
    marks still mark the square: its sides touch the cut at the top, bottom, left and right.
    """
    trim_pt, bleed_pt = to_pt(trim), to_pt(bleed)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(bleed_pt.x, bleed_pt.y, bleed_pt.width, bleed_pt.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    if round_bleed_mm is not None:  # a second clip narrows the first: the ellipse within the bleed box
        ring = round_bleed_mm * PT_PER_MM
        oval = canvas.beginPath()
        oval.ellipse(trim_pt.x - ring, trim_pt.y - ring, trim_pt.width + 2 * ring, trim_pt.height + 2 * ring)
        canvas.clipPath(oval, stroke=0, fill=0)
    draw(canvas, card, trim_pt, bleed_pt)
    canvas.restoreState()


def _round_bleed(plan: SheetPlan, options: SheetOptions) -> float | None:
    return plan.bleed_mm if options.round_pieces else None


def _draw_front_page(
    canvas: Canvas,
    plan: SheetPlan,
    options: SheetOptions,
    on_sheet: list[tuple[int, T]],
    draw_face: DrawCallback[T],
    draw_back: DrawCallback[T] | None,
    sheet: int,
    sheet_count: int,
) -> PagePlacement:
    _start_page(canvas, plan, plan.trim_box, plan.bleed_box)
    placed = []
    backs = []
    for slot, (index, card) in zip(plan.slots, on_sheet, strict=False):
        _draw_card(canvas, draw_face, card, slot.trim, slot.bleed, _round_bleed(plan, options))
        placed.append((index, slot.trim))
    if plan.layout == "fold":
        assert draw_back is not None
        for slot, (index, card) in zip(plan.fold_backs, on_sheet, strict=False):
            _draw_card(canvas, draw_back, card, slot.trim, slot.bleed, _round_bleed(plan, options))
            backs.append((index, slot.trim))
    draw_cut_cues(canvas, plan.crop_marks, plan.bleed_ticks, options.mark_colour)
    if plan.fold_line is not None:
        draw_fold_line(canvas, plan.fold_line, options.mark_colour)
    parts = [_sheet_text(options.labels.sheet, sheet, sheet_count)]
    if options.mode == "duplex":
        edge = options.labels.duplex_long if options.duplex_edge == "long" else options.labels.duplex_short
        parts.append(edge)
    if options.mode == "fold":
        parts.append(options.labels.fold_note)
    _draw_sheet_label(canvas, plan, options, plan.label, plan.ruler, parts)
    side: Literal["front", "fold"] = "fold" if plan.layout == "fold" else "front"
    page = PagePlacement(
        canvas.getPageNumber(), side, sheet + 1, tuple(placed), tuple(backs), plan.trim_box, plan.bleed_box
    )
    canvas.showPage()
    return page


def _draw_back_page(
    canvas: Canvas,
    plan: SheetPlan,
    options: SheetOptions,
    on_sheet: list[tuple[int, T]],
    draw_back: DrawCallback[T],
    sheet: int,
    sheet_count: int,
) -> PagePlacement:
    """Backs only, no cutting cues: the sheet is cut from the front, and marks on a drifting back
    would only mislead."""
    edge, (dx, dy) = options.duplex_edge, options.back_offset_mm
    trim_box = mirror_rect(plan.trim_box, plan.paper, edge).shifted(dx, dy)
    bleed_box = mirror_rect(plan.bleed_box, plan.paper, edge).shifted(dx, dy).clipped(plan.page)
    _start_page(canvas, plan, trim_box, bleed_box)
    placed = []
    for slot, (index, card) in zip(duplex_back_slots(plan, edge, (dx, dy)), on_sheet, strict=False):
        _draw_card(canvas, draw_back, card, slot.trim, slot.bleed, _round_bleed(plan, options))
        placed.append((index, slot.trim))
    label = mirror_margin_item(plan.label, plan.paper, edge)
    ruler = mirror_margin_item(plan.ruler, plan.paper, edge)
    _draw_sheet_label(
        canvas, plan, options, label, ruler, [_sheet_text(options.labels.backs, sheet, sheet_count)]
    )
    page = PagePlacement(canvas.getPageNumber(), "back", sheet + 1, tuple(placed), (), trim_box, bleed_box)
    canvas.showPage()
    return page


def _sheet_text(template: str, sheet: int, sheet_count: int) -> str:
    return template.format(n=sheet + 1, m=sheet_count)


def _draw_sheet_label(
    canvas: Canvas,
    plan: SheetPlan,
    options: SheetOptions,
    label: MarginItem | None,
    ruler: MarginItem | None,
    sheet_parts: list[str],
) -> None:
    labels = options.labels
    parts = [p for p in (labels.game, labels.component) if p] + sheet_parts
    parts += [plan.paper.name, labels.print_note]
    if label is not None:
        draw_label(canvas, label, parts, options.label_font, labels.separator)
    if ruler is not None:
        _place_ruler(canvas, ruler, options.label_font)


def _place_ruler(canvas: Canvas, ruler: MarginItem, font_name: str) -> None:
    """The ruler is the same on every sheet of a side: draw it once as a form and place it."""
    known = getattr(canvas, "_pnp_ruler_forms", None)
    if known is None:
        known = canvas._pnp_ruler_forms = {}
    key = (ruler, font_name)
    name = known.get(key)
    if name is None:
        name = known[key] = f"pnpRuler{len(known)}"
        canvas.beginForm(name)
        draw_ruler(canvas, ruler, font_name)
        end_form(canvas)
    canvas.doForm(name)


# ----------------------------------------------------------------------------- marks


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

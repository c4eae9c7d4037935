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

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnp.files.atomic import atomic_write
from pnp.render.pdf.pdf_forms import end_form
from pnp.render.sheets.geometry import (
    DuplexEdge,
    MarginItem,
    Rect,
    SheetPlan,
)
from pnp.render.sheets.imposition import duplex_back_slots, mirror_margin_item, mirror_rect
from pnp.render.sheets.marks import REGISTRATION, draw_cut_cues, draw_fold_line, draw_label, draw_ruler, to_pt
from pnp.render.sheets.paper import PT_PER_MM

T = TypeVar("T")
DrawCallback = Callable[[Canvas, T, Rect, Rect], None]
"""draw(canvas, card, trim_rect_pt, bleed_rect_pt): paint the card; art should fill the bleed rect."""

SheetsMode = Literal["duplex", "fronts", "fold"]


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

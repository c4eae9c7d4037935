"""The rulebook as a saddle-stitched booklet: half-sheet pages imposed two-up on A4 or Letter.

Fold a stack of landscape sheets in the middle and staple the fold, and the
pages read in order. The pages are typeset at exactly half the sheet (A5 on
A4, 5.5 × 8.5 in on Letter), so nothing is scaled and text stays the size the
styles chose for a small page.

Platypus draws pages in reading order, but a booklet sheet holds pages n and
1 side by side. :class:`BookletCanvas` therefore records each finished page
as a PDF form (drawn once, placed anywhere) and lays the forms out in
saddle-stitch order when the document is saved; reportlab's own docs suggest
an alternate canvas for n-up printing.

A PDF destination belongs to a page, not to a form, so the headings'
bookmarks cannot be set while their page is being drawn. The canvas instead
notes each one with its booklet page and its position on that page, and sets
it on the sheet side that shows the page when the forms are placed, moved by
the same offset as the form (left or right half). The outline entries keep
the rulebook's titles, levels and order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.compose.blocks import RuleText
from pnp.files.atomic import atomic_write
from pnp.model.game import Game
from pnp.render.pdf.pdf_forms import end_form
from pnp.render.rulebook.book import build_story, make_doc, prepare_rulebook, rulebook_story
from pnp.render.sheets.paper import Paper, parse_paper
from pnp.rules.base import GameRules

FOLD_MARK = HexColor("#9a9a9a")
FOLD_MARK_FROM_EDGE = (5 * mm, 9 * mm)  # home printers cannot print nearer the edge than about 5 mm


def saddle_stitch_order(pages: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Per sheet, (left, right) page numbers of the front side, then of the back side.

    ``pages`` must be a multiple of 4. Sheet s of n pages carries n-2s and 2s+1
    on its front and 2s+2 and n-2s-1 on its back: folded and nested, the
    pages run 1, 2, ..., n.
    """
    if pages <= 0 or pages % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {pages}")
    order = []
    for sheet in range(pages // 4):
        front = (pages - 2 * sheet, 2 * sheet + 1)
        back = (2 * sheet + 2, pages - 2 * sheet - 1)
        order.append((front, back))
    return order


def padded_page_count(pages: int) -> int:
    return max(4, -(-pages // 4) * 4)


def half_sheet(sheet: Paper) -> tuple[float, float]:
    """The booklet page in points: half the landscape sheet."""
    width, height = sheet.oriented("landscape").size_pt
    return width / 2, height


@dataclass(frozen=True)
class PendingBookmark:
    """A destination asked for while booklet page ``page`` was a form; coordinates are on that page."""

    key: str
    page: int
    fit: str
    left: float | None
    top: float | None
    bottom: float | None
    right: float | None
    zoom: float | None


class BookletCanvas(Canvas):
    """A canvas that turns every page into a form, then imposes the forms two-up in booklet order."""

    def __init__(self, *args: Any, sheet_size: tuple[float, float], page_size: tuple[float, float],
                 **kwargs: Any) -> None:
        kwargs["pagesize"] = sheet_size
        super().__init__(*args, **kwargs)
        self.sheet_size = sheet_size
        self.page_size = page_size
        self.pages_drawn = 0
        self.sheets_made = 0
        self.pending_bookmarks: list[PendingBookmark] = []
        self._imposing = False
        self._begin_page()

    @staticmethod
    def form_name(page: int) -> str:
        return f"pnpBookletPage{page}"

    def _begin_page(self) -> None:
        self.beginForm(self.form_name(self.pages_drawn + 1), 0, 0, *self.page_size)

    def setPageSize(self, size: tuple[float, float]) -> None:
        """Platypus resizes the canvas to its page template; the sheet keeps its size."""
        self._pagesize = self.sheet_size

    def bookmarkPage(self, key: str, fit: str = "Fit", left: float | None = None, top: float | None = None,
                     bottom: float | None = None, right: float | None = None, zoom: float | None = None) -> None:
        """While a page is a form, remember the destination; it is set on its sheet side in :meth:`save`.

        ``bookmarkHorizontal`` (the headings' bookmark) lands here with the
        position already in page coordinates, as every form starts untransformed.
        """
        if self._imposing:
            super().bookmarkPage(key, fit=fit, left=left, top=top, bottom=bottom, right=right, zoom=zoom)
            return
        self.pending_bookmarks.append(PendingBookmark(key, self.pages_drawn + 1, fit, left, top, bottom, right, zoom))

    def _set_bookmarks(self, page: int, dx: float, dy: float) -> None:
        """The destinations of booklet page ``page``, now shown at (dx, dy) on the current sheet side."""
        def shift(value: float | None, by: float) -> float | None:
            return None if value is None else value + by

        for mark in self.pending_bookmarks:
            if mark.page == page:
                self.bookmarkPage(mark.key, fit=mark.fit, left=shift(mark.left, dx), top=shift(mark.top, dy),
                                  bottom=shift(mark.bottom, dy), right=shift(mark.right, dx), zoom=mark.zoom)

    def showPage(self) -> None:
        end_form(self)
        self.pages_drawn += 1
        self._begin_page()

    def save(self) -> None:
        end_form(self)  # the page Platypus would have started next: empty
        pages = padded_page_count(self.pages_drawn)
        half_width = self.sheet_size[0] / 2
        x_offset = (half_width - self.page_size[0]) / 2
        y_offset = (self.sheet_size[1] - self.page_size[1]) / 2
        self._imposing = True
        for front, back in saddle_stitch_order(pages):
            for left, right in (front, back):
                for column, page in enumerate((left, right)):
                    if page <= self.pages_drawn:
                        dx = column * half_width + x_offset
                        self.saveState()
                        self.translate(dx, y_offset)
                        self.doForm(self.form_name(page))
                        self.restoreState()
                        self._set_bookmarks(page, dx, y_offset)
                self._fold_marks()
                Canvas.showPage(self)
            self.sheets_made += 1
        Canvas.save(self)

    def _fold_marks(self) -> None:
        """Short grey ticks on the fold, top and bottom, clear of the edge."""
        x = self.sheet_size[0] / 2
        near, far = FOLD_MARK_FROM_EDGE
        self.saveState()
        self.setStrokeColor(FOLD_MARK)
        self.setLineWidth(0.3)
        self.line(x, near, x, far)
        self.line(x, self.sheet_size[1] - near, x, self.sheet_size[1] - far)
        self.restoreState()


@dataclass(frozen=True)
class BookletResult:
    path: Path
    lang: str
    paper: str
    pages: int  # booklet pages with content
    padded_pages: int  # a multiple of 4; the last ones blank
    sheets: int  # physical sheets, each printed on both sides
    sheet_size: tuple[float, float]  # points, landscape
    page_size: tuple[float, float]  # points, one booklet page
    warnings: tuple[str, ...] = ()  # as the rulebook's: e.g. card chips drawn instead of faces


def write_booklet(game: Game, rules: GameRules, lang: str, rule_text: RuleText, paper: str | Paper, path: Path,
                  cache_dir: Path) -> BookletResult:
    """The rulebook as a booklet on ``paper`` (landscape, two pages a side; print duplex, flip on the short edge)."""
    sheet = parse_paper(paper)
    sheet_size = sheet.oriented("landscape").size_pt
    page_size = half_sheet(sheet)
    prepared = prepare_rulebook(game, rules, lang, rule_text, cache_dir)
    story, styles = rulebook_story(prepared, page_size)  # BookletCanvas moves the bookmarks onto the sheets
    made: list[BookletCanvas] = []

    def canvasmaker(*args: Any, **kwargs: Any) -> BookletCanvas:
        canvas = BookletCanvas(*args, sheet_size=sheet_size, page_size=page_size, **kwargs)
        made.append(canvas)
        return canvas

    with atomic_write(path) as handle:
        doc = make_doc(handle, page_size, styles, prepared, f"Rulebook booklet ({lang}, {sheet.name})")
        build_story(doc, story, prepared, f"rulebook booklet ({lang}, {sheet.name})", canvasmaker=canvasmaker)
    canvas = made[-1]
    return BookletResult(Path(path), lang, sheet.name, canvas.pages_drawn, padded_page_count(canvas.pages_drawn),
                         canvas.sheets_made, sheet_size, page_size, tuple(prepared.warnings))

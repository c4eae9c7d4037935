"""Draw resolved layout elements for one card face or back on a reportlab canvas.

Geometry arrives in points with reportlab's bottom-left origin (the trim and
bleed rectangles the imposition gives); layouts speak millimetres from the
trim's top-left corner. This module is the only place that converts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm

from pnp.compose.bind import Resolved
from pnp.render.cards import icons as icon_lib
from pnp.render.cards.textbox import Fit, draw_fit, fit_text, parse_card_markup
from pnp.render.text.fonts import FontSet
from pnp.render.text.linebreak import Icon as InlineIcon

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Rect = tuple[float, float, float, float]  # x, y, width, height in points, bottom-left origin
DEFAULT_TEXT_COLOUR = "#1a1a1a"


@lru_cache(maxsize=4096)
def colour_of(value: str) -> Color:
    """A layout colour ('#rrggbb') as reportlab's Color, parsed once: a deck asks for the same few
    colours thousands of times, and reportlab's parser is a visible part of drawing a card."""
    return HexColor(value)


def ink_saver_changes(element: Resolved) -> bool:
    """Whether the low-ink variant paints ``element`` differently: a filled rect that reaches the bleed
    or says ``ink = "heavy"`` loses its fill, and a pattern its fill and dark lines. Light ink on paper
    turns dark already when the element is bound (pnp/render/cards/ink_saver.py), so the bound values show it."""
    values = element.values
    if element.type == "rect":
        return bool(values.get("fill")) and (bool(values.get("bleed")) or values.get("ink") == "heavy")
    return element.type == "pattern"


@dataclass(frozen=True)
class TextIssue:
    """Text that had to shrink, or still overflows: reported at the end of a build."""

    card: str
    layout: str
    line: int | None
    text: str
    problem: str  # "shrunk" | "overflow" | "forced break"
    size: float
    max_size: float


class IconShelf(Mapping[str, InlineIcon]):
    """Icons by name, loaded on first use, for inline ``:name:`` markup and icon elements."""

    def __init__(self, search: Sequence[Path] = ()) -> None:
        self.search = tuple(search)
        self._icons: dict[str, icon_lib.Icon] = {}
        self._inline: dict[str, InlineIcon] = {}
        self._names = set(icon_lib.available_icons(self.search))

    def icon(self, name: str) -> icon_lib.Icon:
        if name not in self._icons:
            self._icons[name] = icon_lib.load_icon(name, self.search)
        return self._icons[name]

    def __getitem__(self, name: str) -> InlineIcon:
        if name not in self._names:
            raise KeyError(name)
        if name not in self._inline:
            icon = self.icon(name)
            # sit the icon on the baseline, as tall as the capitals; a wide one keeps that height
            draw = icon_lib.inline_drawer(icon, None, height=0.9, lift=0.08)
            self._inline[name] = InlineIcon(name, draw, icon.aspect)
        return self._inline[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


@dataclass
class FacePainter:
    fontset: FontSet
    icons: IconShelf
    ink_saver: bool = False
    recompress: bool = False  # re-deflate pass-through PNG data at level 9: smaller files, slower builds
    max_dpi: int | None = None  # resample art that would print finer than this
    sheet_bleed_mm: float = 3.0  # the bleed the sheets are printed with; art with bleed covers at least that
    issues: list[TextIssue] = field(default_factory=list)
    _fits: dict[tuple, object] = field(default_factory=dict, repr=False)

    def draw(self, canvas: Canvas, elements: Sequence[Resolved], trim: Rect, bleed: Rect, card_id: str,
             layout_name: str) -> None:
        for element in elements:
            self.paint(canvas, element, trim, bleed)
            self.report(element, trim, card_id, layout_name)

    def paint(self, canvas: Canvas, element: Resolved, trim: Rect, bleed: Rect) -> None:
        """Draw one element. Knows nothing of the card it belongs to, so its output can be shared
        between cards as a form (pnp/render/cards/forms.py); what is said about a card goes to report()."""
        getattr(self, f"_draw_{element.type}")(canvas, element, trim, bleed)

    def report(self, element: Resolved, trim: Rect, card_id: str, layout_name: str) -> None:
        """Note text that had to shrink or overflows: once for every card drawn, whether its text was
        painted for it or placed from a form shared with other cards."""
        if element.type != "text":
            return
        problem = self.text_problem(element.values, trim)
        if problem is not None:
            self.issues.append(TextIssue(card_id, layout_name, element.line, str(element.values.get("text", "")),
                                         *problem))

    def text_problem(self, values: Mapping, trim: Rect) -> tuple[str, float, float] | None:
        """(problem, size set, size asked for) when a text element does not fit as designed, else None."""
        fit = self.text_fit(values, trim)
        if fit is None or not (fit.overflow or fit.shrunk or fit.forced):
            return None
        problem = "overflow" if fit.overflow else ("forced break" if fit.forced else "shrunk")
        return problem, fit.size, values.get("size", 9.0)

    def text_fit(self, values: Mapping, trim: Rect) -> Fit | None:
        """How a text element sets in its box (None for blank text); depends on the trim's size only.

        The same text in the same box fits the same way, so fits are memoised: backs repeat one title
        on every card.
        """
        text = str(values.get("text", ""))
        if not text.strip():
            return None
        role = values.get("font", "regular")
        _, _, w, h = self._box(values, trim)
        max_size = values.get("size", 9.0)
        min_size = min(values.get("min_size", max(5.0, max_size * 0.6)), max_size)
        leading = values.get("leading", 1.2)
        key = (text, role, round(w, 3), round(h, 3), max_size, min_size, leading)
        fit = self._fits.get(key)
        if fit is None:
            runs = parse_card_markup(text, self.icons, style=role)
            fit = self._fits[key] = fit_text(runs, w, h, max_size, min_size, leading, self.fontset)
        return fit

    # --- geometry ---------------------------------------------------------------------------------
    @staticmethod
    def _box(values: Mapping, trim: Rect, bleed: Rect | None = None) -> Rect:
        """A layout box (mm from the trim's top-left) as a reportlab rect.

        With ``bleed``, edges that touch the trim are pushed out to the bleed
        edge, so background art reaches the cut with nothing white showing.
        """
        x0, y0, _, h0 = trim
        x = x0 + values.get("x", 0.0) * mm
        w = values.get("w", trim[2] / mm) * mm
        top = y0 + h0 - values.get("y", 0.0) * mm
        h = values.get("h", trim[3] / mm) * mm
        left, right, bottom = x, x + w, top - h
        if bleed is not None:
            bx, by, bw, bh = bleed
            if abs(left - x0) < 0.01:
                left = bx
            if abs(right - (x0 + trim[2])) < 0.01:
                right = bx + bw
            if abs(top - (y0 + h0)) < 0.01:
                top = by + bh
            if abs(bottom - y0) < 0.01:
                bottom = by
        return left, bottom, right - left, top - bottom

    # --- elements ---------------------------------------------------------------------------------
    def _draw_rect(self, canvas: Canvas, element: Resolved, trim: Rect, bleed: Rect) -> None:
        v = element.values
        fill = None if (self.ink_saver and ink_saver_changes(element)) else v.get("fill")
        stroke = v.get("stroke")
        if fill is None and stroke is None:
            return
        x, y, w, h = self._box(v, trim, bleed if v.get("bleed") else None)
        canvas.saveState()
        if fill:
            canvas.setFillColor(colour_of(fill))
        if stroke:
            canvas.setStrokeColor(colour_of(stroke))
            canvas.setLineWidth(v.get("stroke_width", 0.3) * mm)
        radius = v.get("radius", 0.0) * mm
        if radius:
            canvas.roundRect(x, y, w, h, radius, stroke=1 if stroke else 0, fill=1 if fill else 0)
        else:
            canvas.rect(x, y, w, h, stroke=1 if stroke else 0, fill=1 if fill else 0)
        canvas.restoreState()

    def _draw_frame(self, canvas: Canvas, element: Resolved, trim: Rect, _bleed: Rect) -> None:
        v = element.values
        inset = v.get("inset", 3.0) * mm
        x, y, w, h = trim
        canvas.saveState()
        canvas.setStrokeColor(colour_of(v.get("stroke") or DEFAULT_TEXT_COLOUR))
        canvas.setLineWidth(v.get("stroke_width", 0.4) * mm)
        radius = v.get("radius", 2.5) * mm
        canvas.roundRect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, radius, stroke=1, fill=0)
        canvas.restoreState()

    def _draw_line(self, canvas: Canvas, element: Resolved, trim: Rect, _bleed: Rect) -> None:
        v = element.values
        x0, y0, _, h0 = trim
        canvas.saveState()
        canvas.setStrokeColor(colour_of(v.get("stroke") or DEFAULT_TEXT_COLOUR))
        canvas.setLineWidth(v.get("stroke_width", 0.3) * mm)
        if v.get("dash"):
            canvas.setDash(1.5 * mm, 1 * mm)
        canvas.line(x0 + v["x1"] * mm, y0 + h0 - v["y1"] * mm, x0 + v["x2"] * mm, y0 + h0 - v["y2"] * mm)
        canvas.restoreState()

    def _draw_text(self, canvas: Canvas, element: Resolved, trim: Rect, _bleed: Rect) -> None:
        v = element.values
        fit = self.text_fit(v, trim)
        if fit is None:
            return
        x, y, w, h = self._box(v, trim)
        rotate = v.get("rotate", 0.0)
        if rotate:  # draw_fit keeps its own graphics state; only a rotation needs one around it
            canvas.saveState()
            cx, cy = x + w / 2, y + h / 2
            canvas.translate(cx, cy)
            canvas.rotate(rotate)
            canvas.translate(-cx, -cy)
        draw_fit(canvas, fit, x, y + h, w, h, align=v.get("align", "left"), valign=v.get("valign", "top"),
                 colour=colour_of(v.get("colour") or DEFAULT_TEXT_COLOUR), underline=bool(v.get("underline")))
        if rotate:
            canvas.restoreState()

    def _draw_icon(self, canvas: Canvas, element: Resolved, trim: Rect, _bleed: Rect) -> None:
        v = element.values
        name = str(v.get("name", "")).strip()
        if not name:
            return
        size = v.get("size", 6.0) * mm
        x0, y0, _, h0 = trim
        x = x0 + v.get("x", 0.0) * mm
        y = y0 + h0 - v.get("y", 0.0) * mm - size
        canvas.saveState()
        rotate = v.get("rotate", 0.0)
        if rotate:
            canvas.translate(x + size / 2, y + size / 2)
            canvas.rotate(rotate)
            canvas.translate(-(x + size / 2), -(y + size / 2))
        icon_lib.draw_icon(canvas, self.icons.icon(name), x, y, size, v.get("colour") or DEFAULT_TEXT_COLOUR)
        canvas.restoreState()

    def _draw_image(self, canvas: Canvas, element: Resolved, trim: Rect, bleed: Rect) -> None:
        from pnp.render.cards.images import art_bleed_box, draw_image
        from pnp.render.cards.vector_art import draw_svg

        v = element.values
        x, y, w, h = self._box(v, trim, art_bleed_box(trim, self.sheet_bleed_mm) if v.get("bleed") else None)
        if v.get("vector"):
            draw_svg(canvas, v["src"], x, y, w, h, v.get("fit", "cover"))
            return
        draw_image(canvas, v["src"], v["pixel_size"], x, y, w, h, v.get("fit", "cover"), recompress=self.recompress,
                   max_dpi=self.max_dpi)

    def _draw_pattern(self, canvas: Canvas, element: Resolved, trim: Rect, bleed: Rect) -> None:
        from pnp.render.cards.patterns import draw_pattern

        v = element.values
        draw_pattern(canvas, v.get("kind", "argyle"), bleed, trim, fill=v.get("fill"), stroke=v.get("stroke"),
                     spacing=v.get("spacing", 8.0) * mm, line_width=v.get("stroke_width", 0.3) * mm,
                     ink_saver=self.ink_saver)

    def _draw_pips(self, canvas: Canvas, element: Resolved, trim: Rect, _bleed: Rect) -> None:
        """Playing-card pips in the traditional arrangement for 1 to 10."""
        v = element.values
        count = int(v.get("count", 0))
        if count not in PIP_LAYOUTS:
            return
        x, y, w, h = self._box(v, trim)
        size = v.get("size", 8.0) * mm
        colour = colour_of(v.get("colour") or DEFAULT_TEXT_COLOUR)
        symbol, icon_name = v.get("symbol"), v.get("icon")
        for column, row in PIP_LAYOUTS[count]:
            cx, cy = x + column * w, y + h - row * h
            upside_down = row > 0.5 and count > 1
            canvas.saveState()
            canvas.translate(cx, cy)
            if upside_down:
                canvas.rotate(180)
            if icon_name:
                icon_lib.draw_icon(canvas, self.icons.icon(icon_name), -size / 2, -size / 2, size,
                                   v.get("colour") or DEFAULT_TEXT_COLOUR)
            elif symbol:
                canvas.setFillColor(colour)
                canvas.setFont(self.fontset.regular, size)
                canvas.drawCentredString(0, -size * 0.35, str(symbol))
            canvas.restoreState()


# (column, row) as fractions of the pip box, row 0 at the top
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
    5: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 1.0)),
    6: ((0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    7: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.0, 1.0), (1.0, 1.0)),
    8: ((0.0, 0.0), (1.0, 0.0), (0.5, 0.25), (0.0, 0.5), (1.0, 0.5), (0.5, 0.75), (0.0, 1.0), (1.0, 1.0)),
    9: ((0.0, 0.0), (1.0, 0.0), (0.0, 1 / 3), (1.0, 1 / 3), (0.5, 0.5), (0.0, 2 / 3), (1.0, 2 / 3), (0.0, 1.0),
        (1.0, 1.0)),
    10: ((0.0, 0.0), (1.0, 0.0), (0.5, 1 / 6), (0.0, 1 / 3), (1.0, 1 / 3), (0.0, 2 / 3), (1.0, 2 / 3),
         (0.5, 5 / 6), (0.0, 1.0), (1.0, 1.0)),
}

"""A Platypus flowable that sets body text with our kinsoku line breaker.

reportlab's ``Paragraph`` either splits Latin words (``wordWrap='CJK'``) or
cannot break Japanese at all, so rulebooks in both languages use this instead.
It shares :func:`break_lines` and :func:`draw_line` with card text boxes, so a
sentence breaks by the same kinsoku on a card and in the rulebook. A paragraph
adds a publisher's rules that a card's few lines do not need: JLReq punctuation
squeezing, numbers kept with their counters, no short last line, and (with
``alignment="justify"``) lines spread to the column's edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from reportlab.lib.colors import Color, black
from reportlab.platypus.flowables import Flowable

from pnp.model.runs import Run, Text
from pnp.render.text.fonts import FontSet
from pnp.render.text.linebreak import Line, PreparedText, slice_runs
from pnp.render.text.lines import Align, draw_line, justify_gap, line_x, make_measure
from pnp.render.text.phrases import phrase_starts

_SLACK = 1e-6
KEPT_LINES = 2  # lines a paragraph keeps together on each side of a page break (no widows, no orphans)


@dataclass(frozen=True)
class BodyStyle:
    """How a paragraph is set; sizes in points. ``leading`` is the baseline-to-baseline distance."""

    font_size: float = 10.0
    leading: float = 15.0
    first_line_indent: float = 0.0
    space_before: float = 0.0
    space_after: float = 0.0
    alignment: Align = "left"
    colour: Color = black
    whole_phrases: bool = False  # break Japanese only between phrases (headings: see text/phrases.py)


class KinsokuParagraph(Flowable):
    """Mixed Japanese/English text, bold runs and inline icons, split across frames by whole lines.

    Each line takes exactly ``leading`` of height, with the glyphs centred in it
    (half the spare leading above, half below), so stacked paragraphs keep an
    even rhythm.
    """

    def __init__(self, runs: Sequence[Run] | str, style: BodyStyle, fontset: FontSet) -> None:
        super().__init__()
        self.runs: tuple[Run, ...] = (Text(runs),) if isinstance(runs, str) else tuple(runs)
        self.style = style
        self.fontset = fontset
        self.spaceBefore = style.space_before
        self.spaceAfter = style.space_after
        self._lines_by_width: dict[float, list[Line]] = {}
        self._prepared: PreparedText | None = None
        self.width = 0.0
        self.height = 0.0

    def __repr__(self) -> str:
        text = "".join(run.text if isinstance(run, Text) else f":{run.name}:" for run in self.runs)
        return f"KinsokuParagraph({text[:40]!r}{'…' if len(text) > 40 else ''})"

    def lines(self, width: float) -> list[Line]:
        """The lines at ``width``; measured once, whatever widths the frames ask for."""
        if width not in self._lines_by_width:
            lines = self._break(width, self.style.whole_phrases)
            if self.style.whole_phrases and any(line.forced for line in lines):
                # a phrase wider than the line: break between characters by kinsoku, as body text does
                lines = self._break(width, False)
            self._lines_by_width[width] = lines
        return self._lines_by_width[width]

    def _break(self, width: float, whole_phrases: bool) -> list[Line]:
        prepared = self._prepared if whole_phrases == self.style.whole_phrases else None
        if prepared is None:
            size = self.style.font_size  # a full-width character's width: JLReq spacing and counters on
            prepared = PreparedText(self.runs, make_measure(self.fontset, size), em=size,
                                    phrases=phrase_starts if whole_phrases else None)
            if whole_phrases == self.style.whole_phrases:
                self._prepared = prepared
        return prepared.break_at(width, self.style.first_line_indent, avoid_short_last=True)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width = availWidth
        self.height = len(self.lines(availWidth)) * self.style.leading
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        lines = self.lines(availWidth)
        fitting = int((availHeight + _SLACK) // self.style.leading)
        if fitting <= 0:
            return []
        if fitting >= len(lines):
            return [self]
        # no line left alone on either side of a break: an answer's last line alone on the next page,
        # or a paragraph's first line alone at a page's foot, reads as a stray
        fitting = min(fitting, len(lines) - KEPT_LINES)
        if fitting < KEPT_LINES:
            return []
        cut = lines[fitting].start
        head_style = replace(self.style, space_after=0.0)
        head = KinsokuParagraph(slice_runs(self.runs, None, cut), head_style, self.fontset)
        head._lines_by_width[availWidth] = lines[:fitting]
        tail_style = replace(self.style, space_before=0.0, first_line_indent=0.0)
        tail = KinsokuParagraph(slice_runs(self.runs, cut), tail_style, self.fontset)
        return [head, tail]

    def draw(self) -> None:
        style = self.style
        lines = self.lines(self.width)
        descent = self.fontset.descent * style.font_size
        extent = self.fontset.ascent * style.font_size + descent
        # Baseline of the first line: its glyph box centred in the first leading-high slot.
        baseline = self.height - style.leading + (style.leading - extent) / 2 + descent
        canvas = self.canv
        canvas.saveState()
        canvas.setFillColor(style.colour)
        for index, line in enumerate(lines):
            indent = style.first_line_indent if index == 0 else 0.0
            x = line_x(line, indent, self.width - indent, style.alignment)
            gap = 0.0
            if style.alignment == "justify" and not line.ends_paragraph:
                gap = justify_gap(line, self.width - indent, style.font_size)
            draw_line(canvas, line, x, baseline, style.font_size, self.fontset, gap=gap)
            baseline -= style.leading
        canvas.restoreState()

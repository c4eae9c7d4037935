"""Card text in a fixed box: shrink until it fits, then draw it.

A card's text box cannot grow, so instead of overflowing we step the size down
to a floor; what still doesn't fit is reported in :class:`Fit` so the caller can
warn naming the card rather than print text over the art.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from reportlab.lib.colors import Color, black
from reportlab.pdfgen.canvas import Canvas

from pnp.diagnostics import DataError
from pnp.model.runs import Icon, Run, Text
from pnp.render.text.fonts import FontSet
from pnp.render.text.linebreak import Line, Piece, PreparedText
from pnp.render.text.lines import Align, draw_line, line_x, make_measure

VAlign = Literal["top", "middle", "bottom"]

SIZE_STEP = 0.25  # points; finer steps are invisible in print
#: an underline's middle below the baseline, and its thickness, in ems: clear of the digits and as
#: heavy as a bold stroke, so that it is seen at a glance from across the table
UNDERLINE_DROP = 0.12
UNDERLINE_THICKNESS = 0.07
_SLACK = 1e-6

_MARKUP = re.compile(r"\\(?P<escaped>.)|(?P<bold>\*\*)|:(?P<icon>[A-Za-z][A-Za-z0-9_-]*):", re.DOTALL)


@dataclass(frozen=True)
class Fit:
    """The outcome of fitting text: the size chosen and whether the caller must warn."""

    size: float
    leading: float
    lines: tuple[Line, ...]
    height: float  # from the top of the first line's glyphs to the bottom of the last's
    ascent: float  # distance from the top of the block to the first baseline
    shrunk: bool  # set below max_size to fit
    overflow: bool  # still too tall or too wide at min_size
    fontset: FontSet = field(repr=False, compare=False)

    @property
    def forced(self) -> bool:
        """A word was broken between characters: legible, but worth a warning."""
        return any(line.forced for line in self.lines)


def scale_lines(lines: Sequence[Line], factor: float) -> tuple[Line, ...]:
    """Lines broken at 1 pt, with widths for ``factor`` pt."""
    return tuple(
        replace(line, pieces=tuple(Piece(p.run, p.width * factor, tuple((i, w * factor) for i, w in p.squeeze))
                                   for p in line.pieces),
                width=line.width * factor)
        for line in lines
    )


def block_height(line_count: int, size: float, leading: float, fontset: FontSet) -> float:
    """Glyph extent of ``line_count`` lines: no half-leading above the first or below the last."""
    if line_count == 0:
        return 0.0
    return (line_count - 1) * leading + (fontset.ascent + fontset.descent) * size


def fit_text(
    runs: Sequence[Run],
    box_w: float,
    box_h: float,
    max_size: float,
    min_size: float,
    leading_ratio: float,
    fontset: FontSet,
) -> Fit:
    """Set ``runs`` at the largest size (in :data:`SIZE_STEP` steps) that fits the box.

    A size fits when every line is within ``box_w`` with no word broken by force
    and the block is within ``box_h``. Sizes are searched by bisection, since the
    fit is monotonic in all but freak cases, and most card texts fit at once.
    """
    if min_size > max_size:
        raise ValueError(f"min_size {min_size} is larger than max_size {max_size}")
    prepared = PreparedText(runs, make_measure(fontset))  # measured once at 1 pt, scaled below

    def attempt(size: float) -> tuple[Fit, bool]:
        leading = size * leading_ratio
        lines = prepared.break_at(box_w / size)
        height = block_height(len(lines), size, leading, fontset)
        too_wide = any(line.width * size > box_w + _SLACK for line in lines)
        too_tall = height > box_h + _SLACK
        overflow = too_wide or too_tall
        fit = Fit(size, leading, scale_lines(lines, size), height, fontset.ascent * size, size < max_size,
                  overflow, fontset)
        return fit, not (overflow or fit.forced)

    best, fits = attempt(max_size)
    if fits:
        return best
    smallest, fits = attempt(min_size)
    if not fits:
        return smallest
    steps = int((max_size - min_size) / SIZE_STEP + _SLACK)
    between = [max_size - SIZE_STEP * k for k in range(steps, 0, -1)]
    sizes = [min_size] + [size for size in between if size > min_size + _SLACK]  # ascending
    best, low, high = smallest, 1, len(sizes) - 1  # sizes[0] fits and max_size does not
    while low <= high:
        middle = (low + high) // 2
        candidate, fits = attempt(sizes[middle])
        if fits:
            best, low = candidate, middle + 1
        else:
            high = middle - 1
    return best


def draw_fit(
    canvas: Canvas,
    fit: Fit,
    x: float,
    y_top: float,
    box_w: float,
    box_h: float,
    align: Align = "left",
    valign: VAlign = "top",
    colour: Color = black,
    underline: bool = False,
) -> None:
    """Draw a :class:`Fit` in the box whose top-left corner is (``x``, ``y_top``).

    An overflowing fit is drawn anyway, past the box: the caller has been told. ``underline`` rules
    a line under each line of text, as printed cards mark a 6 that must not be read as a 9.
    """
    if valign == "top":
        block_top = y_top
    elif valign == "middle":
        block_top = y_top - (box_h - fit.height) / 2
    elif valign == "bottom":
        block_top = y_top - box_h + fit.height
    else:
        raise ValueError(f"unknown vertical alignment {valign!r}; use top, middle or bottom")
    canvas.saveState()
    canvas.setFillColor(colour)
    ink = "#{:02x}{:02x}{:02x}".format(*(round(part * 255) for part in colour.rgb()))  # inline icons take it
    baseline = block_top - fit.ascent
    for line in fit.lines:
        start = line_x(line, x, box_w, align)
        draw_line(canvas, line, start, baseline, fit.size, fit.fontset, ink)
        if underline and line.width > 0:
            thickness = UNDERLINE_THICKNESS * fit.size
            canvas.rect(start, baseline - UNDERLINE_DROP * fit.size - thickness / 2, line.width, thickness,
                        stroke=0, fill=1)
        baseline -= fit.leading
    canvas.restoreState()


def parse_card_markup(
    text: str,
    icons: Mapping[str, Icon],
    style: str = "regular",
    bold_style: str = "bold",
) -> list[Run]:
    """Turn card text with ``**bold**`` and ``:icon-name:`` into runs.

    A backslash makes the next character literal (``\\*\\*``, ``\\:``). Unknown
    icons and unclosed bold are data errors, not silent output, because a
    designer would otherwise find them only on paper.
    """
    runs: list[Run] = []
    buffer: list[str] = []
    bold = False

    def flush() -> None:
        if buffer:
            runs.append(Text("".join(buffer), bold_style if bold else style))
            buffer.clear()

    position = 0
    for match in _MARKUP.finditer(text):
        buffer.append(text[position:match.start()])
        position = match.end()
        if match["escaped"] is not None:
            # "\n" typed in a spreadsheet cell means a new line (it printed "Draw 1.nThen discard."); a
            # backslash before any other character keeps it literal
            buffer.append("\n" if match["escaped"] == "n" else match["escaped"])
        elif match["bold"] is not None:
            flush()
            bold = not bold
        else:
            name = match["icon"]
            if name not in icons:
                raise _unknown_icon(name, text, icons)
            flush()
            runs.append(icons[name])
    buffer.append(text[position:])
    if bold:
        raise DataError(
            f"'**' opens bold text that is never closed in {text!r}",
            fix="add the closing '**', or write '\\*\\*' for literal asterisks",
        )
    flush()
    return [run for run in runs if not (isinstance(run, Text) and not run.text)]


def _unknown_icon(name: str, text: str, icons: Mapping[str, Icon]) -> DataError:
    import difflib

    close = difflib.get_close_matches(name, list(icons), n=3)
    if close:
        fix = "did you mean " + " or ".join(f":{c}:" for c in close) + "?"
    elif icons:
        fix = "known icons: " + ", ".join(f":{c}:" for c in sorted(icons))
    else:
        fix = "no icons are defined for this game; write '\\:' for a literal colon"
    return DataError(f"unknown icon ':{name}:' in {text!r}", fix=fix)

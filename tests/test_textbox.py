"""Shrink-to-fit card text, drawing positions, and card markup.

Expected sizes are worked out by hand from one fact about Noto Sans CJK JP:
an ideograph is exactly 1 em wide, and the typographic ascent and descent are
0.88 and 0.12 em.
"""

from __future__ import annotations

import io

import pypdfium2
import pytest
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A6
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.diagnostics import DataError
from pnp.model.runs import Icon, Text
from pnp.render.cards.textbox import draw_fit, fit_text, parse_card_markup
from pnp.render.text.fonts import FontSet, UnpreparedTextError, prepare_fonts

TEN_IDEOGRAPHS = "一二三四五六七八九十"
CARD_TEXT = "**Surveillance**: 相手の手札を1枚見る。:coin: を2枚得る。"


@pytest.fixture(scope="module")
def fontset(tmp_path_factory: pytest.TempPathFactory) -> FontSet:
    texts = [TEN_IDEOGRAPHS * 2, CARD_TEXT, "Surveillance"]
    return prepare_fonts(texts, tmp_path_factory.mktemp("font-cache"))


def no_draw(canvas, x, y, size, ink=None) -> None:
    pass


ICONS = {"coin": Icon("coin", no_draw, 0.9), "key": Icon("key", no_draw, 1.0)}


def test_font_metrics_the_hand_calculations_rely_on(fontset: FontSet) -> None:
    assert stringWidth("一", fontset.regular, 10) == pytest.approx(10)
    assert (fontset.ascent, fontset.descent) == (pytest.approx(0.88), pytest.approx(0.12))


def test_text_that_fits_keeps_the_largest_size(fontset: FontSet) -> None:
    fit = fit_text([Text("一二")], 50, 20, 10, 4, 1.25, fontset)
    assert (fit.size, fit.shrunk, fit.overflow) == (10, False, False)
    assert [line.text for line in fit.lines] == ["一二"]


def test_shrinks_until_one_line_fits_the_width(fontset: FontSet) -> None:
    # Ten 1-em ideographs in 50 pt: 5 pt fits on one line; 5.25 pt needs two lines, 11.8 pt tall > 7.
    fit = fit_text([Text(TEN_IDEOGRAPHS)], 50, 7, 10, 4, 1.25, fontset)
    assert fit.size == pytest.approx(5.0)
    assert fit.shrunk and not fit.overflow
    assert [line.text for line in fit.lines] == [TEN_IDEOGRAPHS]


def test_shrinks_until_the_lines_fit_the_height(fontset: FontSet) -> None:
    # 20 ideographs, 50 x 30 pt box, leading 1.25: at 7 pt, 7 per line, 3 lines, 2 * 8.75 + 7 = 24.5 tall.
    # At 7.25 pt only 6 fit per line: 4 lines, 3 * 9.0625 + 7.25 = 34.4 > 30.
    fit = fit_text([Text(TEN_IDEOGRAPHS * 2)], 50, 30, 10, 4, 1.25, fontset)
    assert fit.size == pytest.approx(7.0)
    assert len(fit.lines) == 3
    assert fit.height == pytest.approx(24.5)
    assert fit.shrunk and not fit.overflow


def test_overflow_is_reported_at_the_minimum_size(fontset: FontSet) -> None:
    fit = fit_text([Text(TEN_IDEOGRAPHS)], 50, 7, 10, 6, 1.25, fontset)
    assert fit.size == pytest.approx(6.0)
    assert fit.shrunk and fit.overflow


def test_shrinks_rather_than_break_a_word(fontset: FontSet) -> None:
    unit = stringWidth("Surveillance", fontset.regular, 1)
    fit = fit_text([Text("Surveillance")], unit * 8.1, 40, 10, 4, 1.2, fontset)
    assert fit.size == pytest.approx(8.0)
    assert not fit.forced and [line.text for line in fit.lines] == ["Surveillance"]


def test_word_too_long_even_at_the_minimum_is_broken_and_flagged(fontset: FontSet) -> None:
    unit = stringWidth("Surveillance", fontset.regular, 1)
    fit = fit_text([Text("Surveillance")], unit * 5, 40, 10, 6, 1.2, fontset)
    assert fit.size == pytest.approx(6.0)
    assert fit.forced and len(fit.lines) == 2
    assert "".join(line.text for line in fit.lines) == "Surveillance"


class RecordingCanvas(Canvas):
    """Remembers where each text object starts and what icons are drawn where."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.text_origins: list[tuple[float, float]] = []

    def beginText(self, x=0, y=0, direction=None):  # noqa: N802 - reportlab's name
        self.text_origins.append((x, y))
        return super().beginText(x, y, direction)


def new_canvas(fontset: FontSet) -> tuple[RecordingCanvas, io.BytesIO]:
    buffer = io.BytesIO()
    return RecordingCanvas(buffer, pagesize=A6, invariant=1, initialFontName=fontset.regular), buffer


@pytest.mark.parametrize(
    ("align", "valign", "expected"),
    [
        # Box x=10, top y=200, 100 x 50; "一二" at 10 pt is 20 wide and 10 tall; baseline 8.8 below its top.
        ("left", "top", (10, 191.2)),
        ("center", "middle", (50, 171.2)),
        ("right", "bottom", (90, 151.2)),
    ],
)
def test_alignment_places_the_line_where_expected(fontset: FontSet, align, valign, expected) -> None:
    canvas, _ = new_canvas(fontset)
    fit = fit_text([Text("一二")], 100, 50, 10, 4, 1.25, fontset)
    draw_fit(canvas, fit, 10, 200, 100, 50, align=align, valign=valign)
    assert canvas.text_origins == [pytest.approx(expected)]


def test_inline_icon_is_drawn_on_the_baseline_and_takes_its_width(fontset: FontSet) -> None:
    calls = []
    star = Icon("star", lambda canvas, x, y, size, ink=None: calls.append((x, y, size, ink)), aspect=2.0)
    canvas, _ = new_canvas(fontset)
    fit = fit_text([Text("一二"), star, Text("三")], 100, 50, 10, 4, 1.25, fontset)
    draw_fit(canvas, fit, 10, 200, 100, 50, colour=HexColor("#c62828"))
    assert calls == [(pytest.approx(30), pytest.approx(191.2), pytest.approx(10), "#c62828")]  # the text's colour
    assert canvas.text_origins == [pytest.approx((10, 191.2)), pytest.approx((50, 191.2))]


def test_drawn_card_text_extracts_with_bold_and_japanese(fontset: FontSet) -> None:
    canvas, buffer = new_canvas(fontset)
    fit = fit_text(parse_card_markup(CARD_TEXT, ICONS), 160, 60, 9, 5, 1.25, fontset)
    draw_fit(canvas, fit, 20, 300, 160, 60)
    canvas.showPage()
    canvas.save()
    text = pypdfium2.PdfDocument(buffer.getvalue())[0].get_textpage().get_text_range()
    flat = "".join(text.split())
    assert flat == "Surveillance:相手の手札を1枚見る。を2枚得る。"


def test_text_never_given_to_prepare_fonts_is_refused_not_drawn_as_boxes(fontset: FontSet) -> None:
    assert not fontset.covers("鬱")
    with pytest.raises(UnpreparedTextError, match=r"U\+9B31"):
        fit_text([Text("一鬱")], 100, 50, 10, 4, 1.25, fontset)


def test_markup_gives_bold_runs_and_icons() -> None:
    runs = parse_card_markup("Pay **2** :coin: to draw", ICONS)
    assert runs == [Text("Pay "), Text("2", "bold"), Text(" "), ICONS["coin"], Text(" to draw")]


def test_markup_escapes_and_ordinary_colons_stay_text() -> None:
    runs = parse_card_markup(r"Cost: 3, time 10:30 \*\*not bold\*\* \:coin:", ICONS)
    assert runs == [Text("Cost: 3, time 10:30 **not bold** :coin:")]


def test_a_typed_backslash_n_is_a_new_line() -> None:
    """As a spreadsheet cell holds it: it printed "Draw 1.nThen discard."."""
    assert parse_card_markup(r"Draw 1.\nThen discard.", ICONS) == [Text("Draw 1.\nThen discard.")]


def test_unknown_icon_is_a_data_error_with_a_suggestion() -> None:
    with pytest.raises(DataError, match=":coins:") as caught:
        parse_card_markup("Gain :coins:", ICONS)
    assert ":coin:" in (caught.value.diagnostic.fix or "")


def test_unclosed_bold_is_a_data_error() -> None:
    with pytest.raises(DataError, match=r"\*\*"):
        parse_card_markup("**Draw two", ICONS)


def test_adjacent_icons_are_both_found() -> None:
    runs = parse_card_markup(":key::coin:", ICONS)
    assert runs == [ICONS["key"], ICONS["coin"]]

"""The duplex calibration sheet: targets where they should be, and readings that give the offset.

Target positions by hand for A4 (210 × 297 mm): corners 30 mm from both edges, C at the centre.
Long-edge flip mirrors x (x → 210 − x); short-edge flip mirrors y (y → 297 − y).
"""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import reportlab
from PIL import Image, ImageChops, ImageOps
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.render.sheets.calibration import (
    SCALE_OFFSET_MM,
    CalibrationTexts,
    calibration_targets,
    write_calibration_sheet,
)
from pnp.render.sheets.paper import PAPER_SIZES

pdfmetrics.registerFont(
    TTFont("Vera", os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf"))
)

A4 = PAPER_SIZES["a4"]
PT = 72 / 25.4
DPI = 254  # 10 pixels per mm keeps the arithmetic readable


def render(path: Path, page: int) -> Image.Image:
    document = pdfium.PdfDocument(path)
    try:
        return document[page].render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
    finally:
        document.close()


def px(x_mm: float, y_mm: float, page_h: float = 297.0) -> tuple[int, int]:
    return (round(x_mm * 10), round((page_h - y_mm) * 10))


def darkest_near(image: Image.Image, x_mm: float, y_mm: float, radius_px: int = 1) -> int:
    col, row = px(x_mm, y_mm)
    return image.crop(
        (col - radius_px, row - radius_px, col + radius_px + 1, row + radius_px + 1)
    ).getextrema()[0]


def dark_runs(values: list[int]) -> list[float]:
    """Centres (in pixels) of the dark runs along a scan line."""
    centres, start = [], None
    for i, value in enumerate([*values, 255]):
        if value < 160 and start is None:
            start = i
        elif value >= 160 and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


def test_target_positions_by_hand() -> None:
    long = {t.name: t for t in calibration_targets(A4, "long")}
    assert long["A"].front == (30.0, 267.0) and long["A"].back == (180.0, 267.0)
    assert long["C"].front == long["C"].back == (105.0, 148.5)
    assert long["E"].front == (180.0, 30.0) and long["E"].back == (30.0, 30.0)
    short = {t.name: t for t in calibration_targets(A4, "short")}
    assert short["A"].back == (30.0, 30.0) and short["D"].back == (30.0, 267.0)
    # A landscape page's long edge is horizontal, so a long-edge flip mirrors y there.
    landscape = {t.name: t for t in calibration_targets(A4.oriented("landscape"), "long")}
    assert landscape["A"].front == (30.0, 180.0) and landscape["A"].back == (30.0, 30.0)


def test_two_pages_with_embedded_fonts_and_instructions(tmp_path: Path) -> None:
    path = tmp_path / "calibration.pdf"
    write_calibration_sheet(path, A4, "Vera", duplex="short")
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 210 * PT, 297 * PT])
        for font in page["/Resources"]["/Font"].values():
            assert "Helvetica" not in font.get_object()["/BaseFont"]
    document = pdfium.PdfDocument(path)
    front = document[0].get_textpage().get_text_range()
    back = document[1].get_textpage().get_text_range()
    document.close()
    assert "flip on short edge" in front and "100% / actual size" in front
    assert "--back-offset X,Y" in back and "against a bright light" in back


def test_instructions_can_be_translated(tmp_path: Path) -> None:
    path = tmp_path / "de.pdf"
    texts = CalibrationTexts(
        title_front="Duplex-Kalibrierung: Vorderseite",
        edge_names={"long": "lange Kante", "short": "kurze Kante"},
        front_steps=("Beidseitig drucken, wenden an der {edge}.",),
    )
    write_calibration_sheet(path, A4, "Vera", texts=texts)
    document = pdfium.PdfDocument(path)
    front = document[0].get_textpage().get_text_range()
    document.close()
    assert "Vorderseite" in front and "wenden an der lange Kante." in front


def test_targets_and_ruler_are_drawn_where_planned(tmp_path: Path) -> None:
    path = tmp_path / "calibration.pdf"
    targets = write_calibration_sheet(path, A4, "Vera")
    front, back = render(path, 0), render(path, 1)
    for target in targets:
        fx, fy = target.front
        assert darkest_near(front, fx, fy) < 100 and darkest_near(front, fx + 12, fy) < 100
        assert darkest_near(front, fx + 12, fy + 12, 3) == 255
        bx, by = target.back
        assert darkest_near(back, bx, by) < 100  # the back's own small crosshair
        # X scale under the target: ticks every 0.5 mm at bx − 6 … bx + 6, gaps in between.
        row = by - SCALE_OFFSET_MM + 0.7
        assert darkest_near(back, bx, row, 0) < 160 and darkest_near(back, bx + 2, row, 0) < 160
        assert darkest_near(back, bx + 0.25, row, 0) > 200
        assert darkest_near(back, bx + SCALE_OFFSET_MM - 0.7, by + 1.5, 0) < 160  # Y scale tick
    # 50 mm ruler centred under everything: ticks at x = 80 and x = 130 mm, baseline 8.3 mm up.
    assert darkest_near(front, 80, 9.5) < 170 and darkest_near(front, 130, 9.5) < 170
    assert darkest_near(front, 80.5, 9.5, 0) > 200


@pytest.mark.parametrize("drift_mm", [(1.5, -1.0), (-0.5, 2.0), (0.0, 0.0)])
def test_reading_through_the_sheet_gives_the_back_offset(
    tmp_path: Path, drift_mm: tuple[float, float]
) -> None:
    """Simulate a printer that shifts the back by `drift` and read the scales as a user would.

    Looking at the back against the light, one sees the back page as printed (shifted) and the front
    page mirrored left-right (long-edge flip). The tick under the front's line must read -drift, the
    offset that cancels the drift.
    """
    path = tmp_path / "calibration.pdf"
    targets = {t.name: t for t in write_calibration_sheet(path, A4, "Vera")}
    dx, dy = drift_mm
    back = ImageChops.offset(render(path, 1), round(dx * 10), round(-dy * 10))
    seen_through = ImageOps.mirror(render(path, 0))
    for name in ("A", "C", "E"):  # corners are not symmetric about the flip: they catch a wrong mirror
        bx, by = targets[name].back
        # X: scan along the printed scale, 0.7 mm above its baseline, where the row crosses every tick.
        col0, row = px(bx + dx - 6.5, by - SCALE_OFFSET_MM + 0.7 + dy)
        width = 13 * 10
        ticks = dark_runs([back.getpixel((col0 + i, row)) for i in range(width)])
        [line] = dark_runs([seen_through.getpixel((col0 + i, row)) for i in range(width)])
        assert len(ticks) == 25  # -6 … +6 mm every 0.5 mm
        x_reading = (min(range(25), key=lambda i: abs(ticks[i] - line)) - 12) * 0.5
        # Y: scan the column 0.7 mm inside the Y scale's baseline.
        col, row0 = px(bx + SCALE_OFFSET_MM - 0.7 + dx, by + dy + 6.5)
        ticks_y = dark_runs([back.getpixel((col, row0 + i)) for i in range(width)])
        [line_y] = dark_runs([seen_through.getpixel((col, row0 + i)) for i in range(width)])
        assert len(ticks_y) == 25
        y_reading = (12 - min(range(25), key=lambda i: abs(ticks_y[i] - line_y))) * 0.5  # rows grow downwards
        assert (x_reading, y_reading) == (-dx, -dy), name
    bx, by = targets["C"].back
    # The scale ends are signed: '+' to the right of X and above Y, as the readings above assume.
    document = pdfium.PdfDocument(path)
    text_page = document[1].get_textpage()
    plus = []
    for i in range(text_page.count_chars()):
        if text_page.get_text_range(i, 1) == "+":
            left, bottom, right, top = text_page.get_charbox(i)
            plus.append(((left + right) / 2 / PT, (bottom + top) / 2 / PT))
    document.close()
    assert any(abs(x - (bx + 7.5)) < 1.5 and y < by - SCALE_OFFSET_MM for x, y in plus)
    assert any(x > bx + SCALE_OFFSET_MM and abs(y - (by + 7.5)) < 1.5 for x, y in plus)

"""PDF card sheets: page boxes, cutting cues, front/back registration, golden image, reproducibility.

Positions are checked on pages rasterised by pypdfium2; expected mm values are worked out by hand from
the card and paper sizes (see test_imposition.py for the layouts).

Golden image tests/golden/imposition/a4_poker_front.png: generated once with
PNP_UPDATE_GOLDEN=1, then viewed: nine poker cards 3 × 3 abutting on a portrait A4 page, light grey
bleed (light blue rendered in grayscale), each with a white centre and a black disc growing with the
card number, short crop marks outside the bleed on all four sides (none reaching the paper edge), and
under the grid a 0-50 mm ruler followed by the label "Two Ops · Number cards · sheet 1 of 1 · duplex:
flip on long edge · A4 · Print at 100% / actual size". Regenerate only after checking a changed
page by eye the same way.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import reportlab
from PIL import Image, ImageChops
from pypdf import PdfReader
from reportlab.lib.colors import Color, black, white
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.render.sheets.draw import SheetLabels, SheetOptions, write_card_sheets
from pnp.render.sheets.geometry import Rect, SheetPlan
from pnp.render.sheets.imposition import plan_fold_sheet, plan_sheet
from pnp.render.sheets.paper import CARD_SIZES, PAPER_SIZES, CardSize

pdfmetrics.registerFont(
    TTFont("Vera", os.path.join(os.path.dirname(reportlab.__file__), "fonts", "Vera.ttf"))
)

A4 = PAPER_SIZES["a4"]
LETTER = PAPER_SIZES["letter"]
POKER = CARD_SIZES["poker"]
PT = 72 / 25.4
GOLDEN = Path(__file__).parent / "golden" / "imposition" / "a4_poker_front.png"
LABELS = SheetLabels(game="Two Ops", component="Number cards")


def options(**kwargs: object) -> SheetOptions:
    return SheetOptions(label_font="Vera", labels=LABELS, **kwargs)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- drawing callbacks


def mark_offset_mm(card: int) -> tuple[float, float]:
    """Where card k's 2 mm registration square sits inside its trim (bottom-left corner, mm)."""
    return (8.0 + 5.0 * (card % 9), 12.0 + 7.0 * (card % 9))


def white_face(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
    canvas.setFillColor(white)
    canvas.rect(bleed.x, bleed.y, bleed.width, bleed.height, stroke=0, fill=1)
    u, v = mark_offset_mm(card)
    canvas.setFillColor(black)
    canvas.rect(trim.x + u * PT, trim.y + v * PT, 2 * PT, 2 * PT, stroke=0, fill=1)


def back_for(edge: str) -> Callable[[Canvas, int, Rect, Rect], None]:
    """A back that puts its square exactly behind the front's square once the sheet is flipped."""

    def draw(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
        canvas.setFillColor(white)
        canvas.rect(bleed.x, bleed.y, bleed.width, bleed.height, stroke=0, fill=1)
        u, v = mark_offset_mm(card)
        if edge == "long":
            u = trim.width / PT - u - 2
        else:
            v = trim.height / PT - v - 2
        canvas.setFillColor(black)
        canvas.rect(trim.x + u * PT, trim.y + v * PT, 2 * PT, 2 * PT, stroke=0, fill=1)

    return draw


def art_face(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
    canvas.setFillColor(Color(0.55, 0.75, 0.95))
    canvas.rect(bleed.x, bleed.y, bleed.width, bleed.height, stroke=0, fill=1)
    canvas.setFillColor(white)
    canvas.rect(trim.x + 12, trim.y + 12, trim.width - 24, trim.height - 24, stroke=0, fill=1)
    canvas.setFillColor(black)
    canvas.circle(trim.x + trim.width / 2, trim.y + trim.height / 2, 6 + 3 * card, stroke=0, fill=1)


def grey_face(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
    canvas.setFillColor(Color(0.5, 0.5, 0.5))
    canvas.rect(bleed.x, bleed.y, bleed.width, bleed.height, stroke=0, fill=1)


def spilling_face(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
    """Paints far beyond its bleed: the clip must keep the margins clean."""
    canvas.setFillColor(black)
    canvas.rect(bleed.x - 100, bleed.y - 100, bleed.width + 200, bleed.height + 200, stroke=0, fill=1)


# ----------------------------------------------------------------------------- raster helpers


def render(path: Path, page: int, dpi: int) -> Image.Image:
    document = pdfium.PdfDocument(path)
    try:
        return document[page].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    finally:
        document.close()


def pixel_box(
    x_mm: float, y_mm: float, radius_mm: float, dpi: int, page_h: float
) -> tuple[int, int, int, int]:
    scale = dpi / 25.4
    return (
        round((x_mm - radius_mm) * scale),
        round((page_h - y_mm - radius_mm) * scale),
        round((x_mm + radius_mm) * scale),
        round((page_h - y_mm + radius_mm) * scale),
    )


def darkest(
    image: Image.Image, x_mm: float, y_mm: float, page_h: float, dpi: int, radius_mm: float = 0.1
) -> int:
    return image.crop(pixel_box(x_mm, y_mm, radius_mm, dpi, page_h)).getextrema()[0]


def dark_centroid(
    image: Image.Image, x_mm: float, y_mm: float, page_h: float, dpi: int, radius_mm: float = 3.0
) -> tuple[float, float] | None:
    """Ink-weighted centre (mm, page coordinates) of whatever is dark near (x, y)."""
    box = pixel_box(x_mm, y_mm, radius_mm, dpi, page_h)
    crop = image.crop(box)
    width = crop.size[0]
    total = sum_x = sum_y = 0.0
    for i, value in enumerate(crop.tobytes()):
        if value < 250:
            weight = 255 - value
            total += weight
            sum_x += weight * (i % width + 0.5)
            sum_y += weight * (i // width + 0.5)
    if total == 0:
        return None
    scale = dpi / 25.4
    return ((box[0] + sum_x / total) / scale, page_h - (box[1] + sum_y / total) / scale)


def box_mm(box: object) -> list[float]:
    return [round(float(v) / PT, 3) for v in box]  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- boxes and metadata


def test_page_boxes_front_and_offset_back(tmp_path: Path) -> None:
    path = tmp_path / "cards.pdf"
    plan = plan_sheet(A4, POKER)
    result = write_card_sheets(
        path, list(range(12)), white_face, back_for("long"), plan, options(back_offset_mm=(1.5, -0.5))
    )
    assert (result.sheet_count, result.page_count) == (2, 4)
    pages = PdfReader(path).pages
    assert len(pages) == 4
    for page in pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 210 * PT, 297 * PT])
    # Fronts: 3 × 63.5 = 190.5 wide from (210 − 190.5)/2 = 9.75; 3 × 88.9 = 266.7 high from 15.15.
    assert box_mm(pages[0].trimbox) == pytest.approx([9.75, 15.15, 200.25, 281.85], abs=1e-3)
    assert box_mm(pages[0].bleedbox) == pytest.approx([6.75, 12.15, 203.25, 284.85], abs=1e-3)
    # Backs: the symmetric grid mirrors onto itself, then moves 1.5 mm right and 0.5 mm down.
    assert box_mm(pages[1].trimbox) == pytest.approx([11.25, 14.65, 201.75, 281.35], abs=1e-3)
    assert box_mm(pages[1].bleedbox) == pytest.approx([8.25, 11.65, 204.75, 284.35], abs=1e-3)
    assert [p.side for p in result.pages] == ["front", "back", "front", "back"]
    assert [len(p.cards) for p in result.pages] == [9, 9, 3, 3]


def test_letter_fronts_only_boxes_in_round_points(tmp_path: Path) -> None:
    path = tmp_path / "letter.pdf"
    write_card_sheets(
        path, list(range(9)), white_face, None, plan_sheet(LETTER, POKER), options(mode="fronts")
    )
    pages = PdfReader(path).pages
    assert len(pages) == 1
    assert [float(v) for v in pages[0].mediabox] == pytest.approx([0, 0, 612, 792])
    # Trims at 12.7 mm = 36 pt and 6.35 mm = 18 pt from the edges.
    assert [float(v) for v in pages[0].trimbox] == pytest.approx([36, 18, 576, 774], abs=1e-3)
    assert box_mm(pages[0].bleedbox) == pytest.approx([9.7, 3.35, 206.2, 276.05], abs=1e-3)


def test_fold_pages_hold_fronts_and_backs(tmp_path: Path) -> None:
    path = tmp_path / "fold.pdf"
    plan = plan_fold_sheet(A4, POKER)
    result = write_card_sheets(path, list(range(5)), white_face, back_for("long"), plan, options(mode="fold"))
    assert [p.side for p in result.pages] == ["fold", "fold"]
    assert [len(p.fold_backs) for p in result.pages] == [4, 1]
    page = PdfReader(path).pages[0]
    assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 297 * PT, 210 * PT])
    assert box_mm(page.trimbox) == pytest.approx([12.5, 13.1, 284.5, 196.9], abs=1e-3)


def test_fonts_embedded_and_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    path = tmp_path / "meta.pdf"
    write_card_sheets(
        path, [0, 1], white_face, back_for("long"), plan_sheet(A4, POKER), options(author="Bill", subject="x")
    )
    reader = PdfReader(path)
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            assert "Helvetica" not in font["/BaseFont"]
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant["/FontDescriptor"].get_object()
    info = reader.metadata
    assert (info.title, info.author, info.subject) == ("Two Ops · Number cards", "Bill", "x")
    assert info["/CreationDate"].startswith("D:20000101")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    write_card_sheets(path, [0], white_face, back_for("long"), plan_sheet(A4, POKER), options())
    assert PdfReader(path).metadata["/CreationDate"].startswith("D:20231114221320")


def test_label_text_is_extractable(tmp_path: Path) -> None:
    path = tmp_path / "label.pdf"
    write_card_sheets(path, list(range(10)), white_face, back_for("long"), plan_sheet(A4, POKER), options())
    document = pdfium.PdfDocument(path)
    front = document[0].get_textpage().get_text_range()
    back = document[1].get_textpage().get_text_range()
    document.close()
    for expected in ("Two Ops", "sheet 1 of 2", "A4", "Print at 100% / actual size", "flip on long edge"):
        assert expected in front
    assert "backs of sheet 1 of 2" in back


# ----------------------------------------------------------------------------- cutting cues on the page


def test_crop_marks_on_the_raster_and_nothing_near_the_edge(tmp_path: Path) -> None:
    path = tmp_path / "marks.pdf"
    dpi = 600
    write_card_sheets(
        path, list(range(9)), spilling_face, None, plan_sheet(A4, POKER), options(mode="fronts")
    )
    image = render(path, 0, dpi)
    # Top marks: in line with x = 9.75, 73.25, 136.75, 200.25, from 284.85 to 289.85 mm.
    for x in (9.75, 73.25, 136.75, 200.25):
        assert darkest(image, x, 287.0, 297, dpi) < 100
        assert darkest(image, x + 1.0, 287.0, 297, dpi) > 245  # a line, not a smear
    # Left marks: in line with y = 15.15, 104.05, 192.95, 281.85, from 4 to 6.75 mm.
    for y in (15.15, 104.05, 192.95, 281.85):
        assert darkest(image, 5.4, y, 297, dpi) < 100
    # Bottom marks, shortened to 3.15 mm above the label band: from 9.0 to 12.15 mm.
    assert darkest(image, 73.25, 10.5, 297, dpi) < 100
    assert darkest(image, 73.25, 8.6, 297, dpi) > 245
    # The black art is clipped to the bleed: just outside the bleed box the paper is white.
    assert darkest(image, 6.6, 150.0, 297, dpi) > 245
    assert darkest(image, 6.9, 150.0, 297, dpi) < 10
    # Nothing at all within 4 mm of the paper edge.
    width, height = image.size
    frame = round(4 * dpi / 25.4)
    for strip in ((0, 0, width, frame), (0, height - frame, width, height), (0, 0, frame, height)):
        assert image.crop(strip).getextrema()[0] == 255
    assert image.crop((width - frame, 0, width, height)).getextrema()[0] == 255


def test_a_squeezed_ruler_keeps_its_numbers_4_mm_from_the_edge(tmp_path: Path) -> None:
    """Bridge cards on 12 × 18 in leave the ruler a 2.4 mm band. Its ticks shrank to fit, but the
    0.6 mm under and between them did not, so the numbers reached 3.84 mm from the paper's edge."""
    path = tmp_path / "squeezed.pdf"
    plan = plan_sheet(PAPER_SIZES["12x18"], CARD_SIZES["bridge"])
    write_card_sheets(path, list(range(25)), white_face, None, plan, options(mode="fronts"))
    page = pdfium.PdfDocument(path)[0]
    width, height = page.get_size()
    text = page.get_textpage()
    boxes = [text.get_charbox(index) for index in range(text.count_chars())
             if not text.get_text_range(index, 1).isspace()]
    assert "50" in text.get_text_range() and len(boxes) > 20
    nearest = min(min(left, bottom, width - right, height - top) for left, bottom, right, top in boxes) / PT
    assert nearest >= 4.0 - 0.01, f"a character lies {nearest:.2f} mm from the paper's edge"


def test_round_pieces_are_cut_to_a_circle_with_a_ring_of_bleed(tmp_path: Path) -> None:
    """shape = "round" was read and then ignored: round tokens printed as squares of art."""
    token = CardSize(25.0, 25.0, "token")
    plan = plan_sheet(A4, token)
    path = tmp_path / "round.pdf"
    write_card_sheets(path, list(range(len(plan.slots))), grey_face, None, plan,
                      options(mode="fronts", round_pieces=True))
    image = render(path, 0, 300)
    top_row = max(slot.trim.top for slot in plan.slots)
    trim = next(slot.trim for slot in plan.slots if slot.trim.top == top_row)
    centre_x, centre_y = trim.x + trim.width / 2, trim.y + trim.height / 2
    assert darkest(image, centre_x, centre_y, 297, 300) < 160  # the art
    assert darkest(image, centre_x, trim.top + 2.0, 297, 300) < 160  # the bleed ring above the cut
    assert darkest(image, centre_x, trim.top + 3.6, 297, 300) > 245  # and no further
    # 1 mm inside the trim's corner lies 16.3 mm from the centre, outside the 15.5 mm of cut and bleed
    assert darkest(image, trim.x + 1.0, trim.top - 1.0, 297, 300) > 245
    square = tmp_path / "square.pdf"
    write_card_sheets(square, list(range(len(plan.slots))), grey_face, None, plan, options(mode="fronts"))
    assert darkest(render(square, 0, 300), trim.x + 1.0, trim.top - 1.0, 297, 300) < 160


def test_the_fold_line_shows_through_the_bleed_between_fronts_and_backs(tmp_path: Path) -> None:
    """Drawn under the art, the dashed line was hidden wherever the bleed reached the 4 mm limit, as with
    25 mm tokens on A4, on a sheet whose label says to fold at the dashed marks."""
    plan = plan_fold_sheet(A4, CardSize(25.0, 25.0, "token"))
    assert plan.fold_line is not None and plan.fold_line.y0 == plan.fold_line.y1  # a horizontal fold
    path = tmp_path / "fold.pdf"
    write_card_sheets(path, list(range(len(plan.slots))), grey_face, grey_face, plan, options(mode="fold"))
    image = render(path, 0, 600)
    fold_y = plan.fold_line.y0
    nearest_trim = min(abs(edge - fold_y) for slot in (*plan.slots, *plan.fold_backs)
                       for edge in (slot.trim.bottom, slot.trim.top))
    assert nearest_trim >= 2.9  # the line runs in the bleed, which is cut away
    for x in (4.5, 60.0, 105.0, 150.0, 205.0):  # at the paper's edge and across the sheet
        assert darkest(image, x, fold_y, 297, 600, radius_mm=1.2) < 60, x  # a dash, darker than the grey art
    assert darkest(image, 105.0, fold_y + nearest_trim + 0.3, 297, 600) > 100  # the cards are untouched


def test_letter_ticks_show_on_dark_bleed(tmp_path: Path) -> None:
    path = tmp_path / "ticks.pdf"
    dpi = 600
    write_card_sheets(
        path, list(range(9)), grey_face, None, plan_sheet(LETTER, POKER), options(mode="fronts")
    )
    image = render(path, 0, dpi)
    # Top ticks in line with x = 12.7, 76.2, 139.7, 203.2, from the trim (273.05) to 275.4 mm.
    for x in (12.7, 76.2, 139.7, 203.2):
        assert darkest(image, x, 274.2, 279.4, dpi, 0.03) < 60
        assert darkest(image, x + 0.15, 274.2, 279.4, dpi, 0.03) > 230  # white halo beside the tick
        assert 100 < darkest(image, x + 1.0, 274.2, 279.4, dpi, 0.03) < 160  # the grey bleed art
    # The bleed art may run into the 4 mm the printer cannot reach (it is cut off anyway), but no
    # tick or mark is drawn there: nothing darker than the grey art.
    frame = round(4 * dpi / 25.4)
    assert image.crop((0, 0, image.size[0], frame)).getextrema()[0] > 100


# ----------------------------------------------------------------------------- registration


def _check_registration(
    tmp_path: Path, edge: str, offset: tuple[float, float], card_count: int, dpi: int = 300
) -> None:
    path = tmp_path / f"reg_{edge}.pdf"
    plan: SheetPlan = plan_sheet(A4, POKER)
    write_card_sheets(
        path,
        list(range(card_count)),
        white_face,
        back_for(edge),
        plan,
        options(duplex_edge=edge, back_offset_mm=offset),
    )
    front, back = render(path, 0, dpi), render(path, 1, dpi)
    for k, slot in enumerate(plan.slots):
        u, v = mark_offset_mm(k)
        expected_front = (slot.trim.x + u + 1, slot.trim.y + v + 1)
        if edge == "long":
            behind = (210 - expected_front[0] + offset[0], expected_front[1] + offset[1])
        else:
            behind = (expected_front[0] + offset[0], 297 - expected_front[1] + offset[1])
        found_front = dark_centroid(front, *expected_front, 297, dpi)
        found_back = dark_centroid(back, *behind, 297, dpi)
        if k >= card_count:
            assert found_front is None and found_back is None, k  # empty slot: no front, no back
            continue
        assert found_front == pytest.approx(expected_front, abs=0.1), k
        assert found_back == pytest.approx(behind, abs=0.1), k


def test_long_edge_backs_register_on_a_partial_sheet(tmp_path: Path) -> None:
    _check_registration(tmp_path, "long", (0.0, 0.0), card_count=7)


def test_short_edge_backs_register(tmp_path: Path) -> None:
    _check_registration(tmp_path, "short", (0.0, 0.0), card_count=9)


def test_back_offset_moves_backs_exactly(tmp_path: Path) -> None:
    _check_registration(tmp_path, "long", (1.5, -0.8), card_count=5)


def test_fold_backs_register_across_the_fold(tmp_path: Path) -> None:
    path = tmp_path / "fold.pdf"
    dpi = 300
    plan = plan_fold_sheet(A4, POKER)
    write_card_sheets(path, list(range(3)), white_face, back_for("long"), plan, options(mode="fold"))
    image = render(path, 0, dpi)
    for k in range(3):
        u, v = mark_offset_mm(k)
        front = dark_centroid(image, plan.slots[k].trim.x + u + 1, plan.slots[k].trim.y + v + 1, 210, dpi)
        assert front is not None
        behind = (297 - front[0], front[1])  # mirrored across the fold at x = 148.5
        assert dark_centroid(image, *behind, 210, dpi) == pytest.approx(behind, abs=0.1)


# ----------------------------------------------------------------------------- golden, atomic, reproducible


def test_front_page_matches_golden(tmp_path: Path) -> None:
    path = tmp_path / "golden.pdf"
    write_card_sheets(path, list(range(9)), art_face, back_for("long"), plan_sheet(A4, POKER), options())
    image = render(path, 0, 72)
    if os.environ.get("PNP_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        image.save(GOLDEN)
        pytest.skip("golden image written; look at it before keeping it")
    golden = Image.open(GOLDEN).convert("L")
    assert golden.size == image.size
    difference = ImageChops.difference(golden, image)
    histogram = difference.histogram()
    pixels = image.size[0] * image.size[1]
    mean = sum(level * count for level, count in enumerate(histogram)) / pixels
    strongly_different = sum(histogram[48:]) / pixels
    assert mean < 1.0 and strongly_different < 0.002, (mean, strongly_different)


def test_failed_build_keeps_the_last_good_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.pdf"
    plan = plan_sheet(A4, POKER)
    write_card_sheets(path, [0, 1], white_face, back_for("long"), plan, options())
    good = path.read_bytes()

    def broken_face(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
        if card == 1:
            raise RuntimeError("art missing")
        white_face(canvas, card, trim, bleed)

    with pytest.raises(RuntimeError, match="art missing"):
        write_card_sheets(path, [0, 1, 2], broken_face, back_for("long"), plan, options())

    def interrupted_face(canvas: Canvas, card: int, trim: Rect, bleed: Rect) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_card_sheets(path, [0], interrupted_face, back_for("long"), plan, options())
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf"]


def test_rebuild_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plan = plan_sheet(LETTER, POKER)
    first, second = tmp_path / "a.pdf", tmp_path / "sub" / "b.pdf"
    second.parent.mkdir()
    for path in (first, second):
        write_card_sheets(path, list(range(11)), art_face, back_for("long"), plan, options())
    assert first.read_bytes() == second.read_bytes()


def test_mode_must_match_the_plan(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="plan_fold_sheet"):
        write_card_sheets(
            tmp_path / "x.pdf", [0], white_face, white_face, plan_sheet(A4, POKER), options(mode="fold")
        )
    with pytest.raises(ValueError, match="draw_back is required"):
        write_card_sheets(tmp_path / "x.pdf", [0], white_face, None, plan_sheet(A4, POKER), options())
    assert not (tmp_path / "x.pdf").exists()

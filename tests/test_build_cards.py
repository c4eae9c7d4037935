"""Built card PDFs, read as a printer would: pages, boxes, fonts, marks, registration, text, variants.

Everything is built through the CLI (`pnp build`) from the shipped games and read back with pypdf and
pypdfium2 only. Every expected number below is worked out by hand from millimetre geometry:

- A4 is 210 × 297 mm = 595.28 × 841.89 pt; Letter is 215.9 × 279.4 mm = 612 × 792 pt.
- Two Ops is 52 poker cards (63.5 × 88.9 mm). Both papers hold 3 × 3 with abutting cuts
  (docs/printing.md), so the grid is 190.5 × 266.7 mm, centred:
  A4 trims start at x = (210 − 190.5) / 2 = 9.75 and y = (297 − 266.7) / 2 = 15.15 mm;
  Letter at x = (215.9 − 190.5) / 2 = 12.7 and y = (279.4 − 266.7) / 2 = 6.35 mm.
  Bleed (3 mm) runs around the grid's outside only.
- 52 cards make 6 sheets (5 × 9 + 7), so the duplex PDF has 12 pages and the last sheet 7 cards.
- The gutter-fold sheet is A4 landscape (297 × 210 mm) with 2 × 2 fronts left of the fold and their
  backs right of it; the fronts are separated by 2 × 3 mm of bleed, so the fronts' block is
  2 × 63.5 + 6 = 133 mm wide and 2 × 88.9 + 6 = 183.8 mm tall, ending 3 mm left of the fold at
  148.5 mm: trims span x 12.5 … 284.5 and y (210 − 183.8) / 2 = 13.1 … 196.9 mm.

Card positions are found in the PDF's own vector objects (pypdfium2): on a Two Ops face the rounded
frame (inset 2.5 mm, so 58.5 × 83.9 mm) is centred on the card; on the Two Ops back the white title
box spans x 9 … 54.5 and y 36 … 53 mm from the trim's top-left (data/two-ops/layouts), so its centre
is the card's centre in x and 44.5 − 44.45 = 0.05 mm below it in y.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"
PT_PER_MM = 72 / 25.4
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAPER_PT = {"a4": (595.28, 841.89), "letter": (612.0, 792.0), "sra3": (1275.59, 907.09),  # sra3: landscape
            "jis-b5": (515.91, 728.50)}  # 182 × 257 mm
CARD_W, CARD_H = 63.5, 88.9
BLEED = 3.0
GRID_W, GRID_H = 3 * CARD_W, 3 * CARD_H  # 190.5 × 266.7 mm, abutting
GRID_ORIGIN_MM = {"a4": (9.75, 15.15), "letter": (12.7, 6.35)}  # bottom-left of the trim grid
BACK_BOX_BELOW_CENTRE_MM = 44.5 - CARD_H / 2  # the title box centre sits 0.05 mm below the card centre
REGISTRATION_TOLERANCE_MM = 0.1
BASE_14 = ("Helvetica", "Times-Roman", "Times-Bold", "Times-Italic", "Courier", "Symbol", "ZapfDingbats")
KINDS = ("cards-deck.pdf", "cards-deck-fold.pdf", "cards-deck-lowink.pdf", "calibration.pdf")


# ----------------------------------------------------------------------------- building


def run_build(out: Path, *args: str, data: Path = DATA) -> str:
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), *args])
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.output


@pytest.fixture(scope="session")
def two_ops(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two Ops in en and ja on A4 and Letter: cards, fold, low-ink and calibration PDFs, built once."""
    out = tmp_path_factory.mktemp("two-ops-build")
    run_build(out, "two-ops", "--what", "cards", "--what", "fold", "--what", "lowink", "--what", "calibration")
    return out / "two-ops"


def every_built_pdf() -> Iterator[tuple[str, str, str]]:
    for lang in ("en", "ja"):
        for paper in ("a4", "letter"):
            for name in KINDS:
                yield lang, paper, name


# ----------------------------------------------------------------------------- reading helpers


def box_mm(box: object) -> tuple[float, float, float, float]:
    left, bottom, right, top = (float(v) / PT_PER_MM for v in box)  # type: ignore[attr-defined]
    return left, bottom, right, top


def assert_box_close(actual: object, expected_mm: tuple[float, float, float, float], what: str) -> None:
    got = box_mm(actual)
    assert all(abs(a - e) < 0.01 for a, e in zip(got, expected_mm, strict=True)), (what, got, expected_mm)


def render_grey(path: Path, page_index: int, dpi: int) -> Image.Image:
    document = pdfium.PdfDocument(path)
    try:
        return document[page_index].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
    finally:
        document.close()


def page_lines(path: Path, page_index: int) -> list[str]:
    document = pdfium.PdfDocument(path)
    try:
        text = document[page_index].get_textpage().get_text_range()
    finally:
        document.close()
    return [line.strip() for line in text.splitlines() if line.strip()]


def dark_pixel_count(image: Image.Image, threshold: int = 128) -> int:
    return sum(image.histogram()[:threshold])


@dataclass(frozen=True)
class Found:
    x: float  # centre, mm from the page's bottom-left
    y: float


def path_centres(path: Path, page_index: int, width_mm: float, height_mm: float) -> list[Found]:
    """Centres of the page's vector paths whose bounds are about width × height mm (stroke included)."""
    document = pdfium.PdfDocument(path)
    try:
        page = document[page_index]
        found = []
        for item in page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_PATH]):
            left, bottom, right, top = (v / PT_PER_MM for v in item.get_bounds())
            if abs(right - left - width_mm) < 1.5 and abs(top - bottom - height_mm) < 1.5:
                found.append(Found((left + right) / 2, (bottom + top) / 2))
        return found
    finally:
        document.close()


def front_centres(path: Path, page_index: int) -> list[Found]:
    """Two Ops faces, by their 58.5 × 83.9 mm frame."""
    return path_centres(path, page_index, CARD_W - 5, CARD_H - 5)


def back_boxes(path: Path, page_index: int) -> list[Found]:
    """Two Ops backs, by their 45.5 × 17 mm white title box."""
    return path_centres(path, page_index, CARD_W - 18, 17)


def expected_slot_centre(paper: str, slot: int) -> Found:
    """Hand-computed centre of slot k (reading order) of the 3 × 3 abutting poker grid."""
    left, bottom = GRID_ORIGIN_MM[paper]
    top = bottom + GRID_H
    column, row = slot % 3, slot // 3
    return Found(left + column * CARD_W + CARD_W / 2, top - row * CARD_H - CARD_H / 2)


def assert_matched(expected: list[Found], found: list[Found], what: str) -> None:
    """Each expected point has its own found point within the registration tolerance (a bijection)."""
    assert len(found) == len(expected), (what, len(found), len(expected))
    unused = list(found)
    for point in expected:
        nearest = min(unused, key=lambda f: (f.x - point.x) ** 2 + (f.y - point.y) ** 2)
        distance = ((nearest.x - point.x) ** 2 + (nearest.y - point.y) ** 2) ** 0.5
        assert distance <= REGISTRATION_TOLERANCE_MM, (what, point, nearest, distance)
        unused.remove(nearest)


# ----------------------------------------------------------------------------- page sizes and boxes


def card_sheet_pdfs() -> list[tuple[str, str, str]]:
    return [case for case in every_built_pdf() if case[2] != "calibration.pdf"]


@pytest.mark.parametrize(("lang", "paper", "name"), card_sheet_pdfs())
def test_page_sizes_and_boxes_nest(two_ops: Path, lang: str, paper: str, name: str) -> None:
    assert_pages_sized_and_boxed(two_ops / lang / paper / name, paper)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_pages_carry_trim_and_bleed_boxes(two_ops: Path, paper: str) -> None:
    assert_pages_sized_and_boxed(two_ops / "en" / paper / "calibration.pdf", paper)


def assert_pages_sized_and_boxed(path: Path, paper: str) -> None:
    name = path.name
    reader = PdfReader(path)
    width, height = PAPER_PT[paper]
    if name.endswith("-fold.pdf"):
        width, height = height, width  # poker fold sheets are landscape on both papers (docs/printing.md)
    for number, page in enumerate(reader.pages, start=1):
        media = [float(v) for v in page.mediabox]
        assert media[:2] == [0.0, 0.0], (name, number, media)
        assert abs(media[2] - width) < 0.01 and abs(media[3] - height) < 0.01, (name, number, media)
        assert "/TrimBox" in page and "/BleedBox" in page, (name, number)
        trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
        assert bleed[0] <= trim[0] and bleed[1] <= trim[1] and trim[2] <= bleed[2] and trim[3] <= bleed[3]
        assert media[0] <= bleed[0] and media[1] <= bleed[1] and bleed[2] <= media[2] and bleed[3] <= media[3]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_trim_box_is_the_centred_three_by_three_grid(two_ops: Path, paper: str) -> None:
    reader = PdfReader(two_ops / "en" / paper / "cards-deck.pdf")
    assert len(reader.pages) == 12  # 6 sheets × (front + back)
    left, bottom = GRID_ORIGIN_MM[paper]
    paper_w, paper_h = PAPER_MM[paper]
    assert abs(left - (paper_w - left - GRID_W)) < 1e-9 and abs(bottom - (paper_h - bottom - GRID_H)) < 1e-9
    trim = (left, bottom, left + GRID_W, bottom + GRID_H)
    bleed = (left - BLEED, bottom - BLEED, left + GRID_W + BLEED, bottom + GRID_H + BLEED)
    for number, page in enumerate(reader.pages, start=1):
        # the grid is centred, so the backs' mirrored boxes are the same boxes
        assert_box_close(page.trimbox, trim, f"{paper} page {number} TrimBox")
        assert_box_close(page.bleedbox, bleed, f"{paper} page {number} BleedBox")


def test_a_print_shop_sheet_holds_eighteen_poker_cards(tmp_path: Path) -> None:
    """--paper sra3 (320 × 450 mm, the digital press sheet): landscape, 6 × 3 poker cards with their
    own bleed all round; 52 cards make 3 sheets, fronts and backs. The trim box is the grid: 6 × 63.5
    plus 5 gaps of 6 mm = 411 mm wide, centred on 450; 3 × 88.9 + 2 × 6 = 278.7 mm tall on 320."""
    run_build(tmp_path, "two-ops", "--what", "cards", "--lang", "en", "--paper", "sra3")
    path = tmp_path / "two-ops" / "en" / "sra3" / "cards-deck.pdf"
    assert_pages_sized_and_boxed(path, "sra3")
    reader = PdfReader(path)
    assert len(reader.pages) == 6
    left, bottom = (450 - 411) / 2, (320 - 278.7) / 2
    assert_box_close(reader.pages[0].trimbox, (left, bottom, left + 411, bottom + 278.7), "SRA3 TrimBox")
    assert "SRA3" in reader.pages[0].extract_text()  # the label names the paper to print on


def test_jis_b5_holds_four_poker_cards(tmp_path: Path) -> None:
    """--paper jis-b5 (182 × 257 mm, the B5 sold in Japan): 2 × 2 poker cards, since three rows need
    266.7 mm and three columns 190.5; 52 cards make 13 sheets, fronts and backs."""
    run_build(tmp_path, "two-ops", "--what", "cards", "--lang", "ja", "--paper", "jis-b5")
    path = tmp_path / "two-ops" / "ja" / "jis-b5" / "cards-deck.pdf"
    assert_pages_sized_and_boxed(path, "jis-b5")
    reader = PdfReader(path)
    assert len(reader.pages) == 26
    assert "JIS B5" in reader.pages[0].extract_text()


def test_singles_are_one_card_a_page_for_print_on_demand(tmp_path: Path) -> None:
    """--what singles: 52 cards, front then back, each page the card's bleed box (63.5 + 6 by 88.9 + 6
    mm) with the trim 3 mm in; no marks or label, fonts embedded, art and back pattern to the page edge."""
    from pnp.commands.build import WHAT

    assert "singles" not in WHAT  # a plain `pnp build` does not make them
    output = run_build(tmp_path, "two-ops", "--what", "singles", "--lang", "en")
    assert "wrote 1 file(s)" in output
    path = tmp_path / "two-ops" / "en" / "singles" / "cards-deck.pdf"
    reader = PdfReader(path)
    assert len(reader.pages) == 104
    for page in reader.pages[:4]:
        assert_box_close(page.mediabox, (0, 0, 69.5, 94.9), "MediaBox")
        assert_box_close(page.bleedbox, (0, 0, 69.5, 94.9), "BleedBox")
        assert_box_close(page.trimbox, (3, 3, 66.5, 91.9), "TrimBox")
        for font in fonts_in(page.get("/Resources")):
            descriptor = font_descriptor(font)
            assert descriptor is not None and ("/FontFile2" in descriptor or "/FontFile3" in descriptor)
    front, back = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert "A" in front and "♠" in front and "Two Ops" not in front
    assert back.strip() == "Two Ops"  # the back's title, and no sheet label on either
    corner = render_grey(path, 1, 72).getpixel((1, 1))  # 0.35 mm from the page corner, in the bleed
    assert corner < 128, corner  # the back's dark pattern reaches the page edge
    # no spot colour: the registration separation of the marks, set on pages that have none, was one a
    # print service's preflight flags
    assert not [page for page in reader.pages if "/ColorSpace" in page["/Resources"]]
    assert b"/All" not in path.read_bytes()


def test_fold_sheet_boxes_cover_fronts_and_backs(two_ops: Path) -> None:
    reader = PdfReader(two_ops / "en" / "a4" / "cards-deck-fold.pdf")
    assert len(reader.pages) == 13  # 52 cards, 4 per fold sheet
    for page in reader.pages:
        assert_box_close(page.trimbox, (12.5, 13.1, 284.5, 196.9), "fold TrimBox")
        assert_box_close(page.bleedbox, (9.5, 10.1, 287.5, 199.9), "fold BleedBox")


# ----------------------------------------------------------------------------- fonts


def fonts_in(resources: object, seen: set[int] | None = None) -> Iterator[DictionaryObject]:
    """Every font dictionary reachable from a resource dictionary, form XObjects included."""
    seen = set() if seen is None else seen
    if resources is None:
        return
    resources = resources.get_object()  # type: ignore[attr-defined]
    fonts = resources.get("/Font")
    if fonts is not None:
        for font in fonts.get_object().values():
            yield font.get_object()
    xobjects = resources.get("/XObject")
    for xobject in xobjects.get_object().values() if xobjects is not None else ():
        stream = xobject.get_object()
        if id(stream) in seen or stream.get("/Subtype") != "/Form":
            continue
        seen.add(id(stream))
        yield from fonts_in(stream.get("/Resources"), seen)


def font_descriptor(font: DictionaryObject) -> DictionaryObject | None:
    if font.get("/Subtype") == "/Type0":
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor.get_object() if descriptor is not None else None


@pytest.mark.parametrize(("lang", "paper", "name"), list(every_built_pdf()))
def test_every_font_is_embedded_and_no_base14_font_is_named(two_ops: Path, lang: str, paper: str,
                                                             name: str) -> None:
    path = two_ops / lang / paper / name
    reader = PdfReader(path)
    names = set()
    for number, page in enumerate(reader.pages, start=1):
        fonts = list(fonts_in(page.get("/Resources")))
        assert fonts, f"{name} page {number} uses no font at all (its label must be text)"
        for font in fonts:
            base = str(font.get("/BaseFont", ""))
            names.add(base)
            assert base.lstrip("/").split("+")[-1] not in BASE_14, (name, number, base)
            descriptor = font_descriptor(font)
            assert descriptor is not None, (name, number, base, "no FontDescriptor: not embedded")
            assert "/FontFile2" in descriptor or "/FontFile3" in descriptor, (name, number, base)
            assert re.fullmatch(r"/[A-Z]{6}\+.+", base), (name, number, base, "not a subset")
    raw = path.read_bytes()
    for base14 in BASE_14:
        assert f"/{base14}".encode() not in raw, (name, base14)
    assert names


# ----------------------------------------------------------------------------- cutting cues


def column_px(x_mm: float, dpi: int) -> int:
    return int(x_mm / 25.4 * dpi)


def row_px(y_mm: float, page_h_mm: float, dpi: int) -> int:
    return int((page_h_mm - y_mm) / 25.4 * dpi)


def darkest_in(image: Image.Image, x0_mm: float, y0_mm: float, x1_mm: float, y1_mm: float, page_h_mm: float,
               dpi: int) -> int:
    """Darkest grey level in a page-coordinate rectangle (mm, bottom-left origin)."""
    box = (column_px(x0_mm, dpi), row_px(y1_mm, page_h_mm, dpi),
           column_px(x1_mm, dpi) + 1, row_px(y0_mm, page_h_mm, dpi) + 1)
    return image.crop(box).getextrema()[0]


def test_a4_crop_marks_sit_on_the_cut_lines_outside_the_grid(two_ops: Path) -> None:
    dpi = 300
    page_h = 297.0
    image = render_grey(two_ops / "en" / "a4" / "cards-deck.pdf", 0, dpi)
    left, bottom = GRID_ORIGIN_MM["a4"]
    top = bottom + GRID_H
    x_cuts = [left + k * CARD_W for k in range(4)]  # 9.75, 73.25, 136.75, 200.25
    y_cuts = [bottom + k * CARD_H for k in range(4)]  # 15.15, 104.05, 192.95, 281.85
    # top and bottom: marks start beyond the 3 mm bleed; the bands are narrower than the shortest mark
    top_band = (top + BLEED + 0.3, top + BLEED + 2.5)
    bottom_band = (bottom - BLEED - 2.5, bottom - BLEED - 0.3)
    for y0, y1 in (top_band, bottom_band):
        for x in x_cuts:
            assert darkest_in(image, x - 0.15, y0, x + 0.15, y1, page_h, dpi) < 128, ("no mark at x", x, y0)
        for x in (left + CARD_W / 2, left + 1.5 * CARD_W):  # between cut lines: nothing
            assert darkest_in(image, x - 2, y0, x + 2, y1, page_h, dpi) > 230, ("stray ink at x", x, y0)
    # left and right margins are 9.75 mm: marks run from the bleed (6.75 mm) out to the 4 mm limit
    for x0, x1 in ((4.3, 6.5), (210 - 6.5, 210 - 4.3)):
        for y in y_cuts:
            assert darkest_in(image, x0, y - 0.15, x1, y + 0.15, page_h, dpi) < 128, ("no mark at y", y, x0)
        assert darkest_in(image, x0, 60 - 2, x1, 60 + 2, page_h, dpi) > 230  # between cut lines: nothing


@pytest.mark.parametrize(("paper", "name", "page_index"), [
    ("a4", "cards-deck.pdf", 0), ("letter", "cards-deck.pdf", 0), ("a4", "cards-deck-fold.pdf", 0),
    ("letter", "cards-deck-fold.pdf", 0), ("a4", "calibration.pdf", 0), ("a4", "calibration.pdf", 1),
    ("letter", "calibration.pdf", 0),
])
def test_nothing_dark_within_4_mm_of_the_paper_edge(two_ops: Path, paper: str, name: str, page_index: int) -> None:
    """Marks, label and ruler stay where home printers print. (Fronts and calibration pages only: a
    back's or fold sheet's dark bleed art may reach the edge strip, which docs/printing.md allows.)"""
    dpi = 300
    image = render_grey(two_ops / "en" / paper / name, page_index, dpi)
    width, height = image.size
    strip = int(4 / 25.4 * dpi)  # pixels lying wholly within 4 mm of the edge
    if name.endswith("-fold.pdf"):
        # the backs' navy art on the right half may run into the strip; check the fronts' half
        regions = [(0, 0, width // 2, strip), (0, height - strip, width // 2, height), (0, 0, strip, height)]
    else:
        regions = [(0, 0, width, strip), (0, height - strip, width, height), (0, 0, strip, height),
                   (width - strip, 0, width, height)]
    for region in regions:
        assert image.crop(region).getextrema()[0] > 200, (name, page_index, region)


def test_letter_cuts_are_cued_by_ticks_top_and_bottom(two_ops: Path) -> None:
    """Letter leaves 6.35 mm above and below the grid: too thin for a crop mark, so ticks in the bleed."""
    dpi = 300
    page_h = 279.4
    image = render_grey(two_ops / "en" / "letter" / "cards-deck.pdf", 0, dpi)
    left, bottom = GRID_ORIGIN_MM["letter"]
    top = bottom + GRID_H
    for x in (left + k * CARD_W for k in range(4)):
        assert darkest_in(image, x - 0.15, top + 0.3, x + 0.15, top + 1.8, page_h, dpi) < 128, ("top tick", x)
        assert darkest_in(image, x - 0.15, bottom - 1.8, x + 0.15, bottom - 0.3, page_h, dpi) < 128, ("bottom", x)


# ----------------------------------------------------------------------------- registration


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_backs_land_behind_their_fronts_on_a_long_edge_flip(two_ops: Path, paper: str) -> None:
    path = two_ops / "en" / paper / "cards-deck.pdf"
    width_mm = PAPER_MM[paper][0]
    for sheet, cards_on_sheet in enumerate([9, 9, 9, 9, 9, 7]):
        fronts = front_centres(path, 2 * sheet)
        assert_matched([expected_slot_centre(paper, k) for k in range(cards_on_sheet)], fronts,
                       f"{paper} fronts of sheet {sheet + 1}")
        mirrored = [Found(width_mm - f.x, f.y - BACK_BOX_BELOW_CENTRE_MM) for f in fronts]
        assert_matched(mirrored, back_boxes(path, 2 * sheet + 1), f"{paper} backs of sheet {sheet + 1}")


def test_last_sheet_keeps_its_seven_backs_in_the_mirrored_slots(two_ops: Path) -> None:
    """Sheet 6 holds cards 46-52 in slots 0-6; slots 7 and 8 (bottom middle and right) stay empty, so
    on the back page the two mirrored slots (bottom middle and bottom left) have no back."""
    path = two_ops / "en" / "a4" / "cards-deck.pdf"
    backs = back_boxes(path, 11)
    assert len(backs) == 7
    bottom_row_y = expected_slot_centre("a4", 6).y - BACK_BOX_BELOW_CENTRE_MM
    in_bottom_row = [b for b in backs if abs(b.y - bottom_row_y) < 1]
    assert len(in_bottom_row) == 1
    assert in_bottom_row[0].x == pytest.approx(210 - expected_slot_centre("a4", 6).x, abs=0.1)  # the right column


def test_back_offset_moves_every_back_by_exactly_the_offset(tmp_path: Path) -> None:
    """docs/printing.md: +X moves the backs right and +Y moves them up, as seen on the back page."""
    run_build(tmp_path, "two-ops", "--what", "cards", "--lang", "en", "--paper", "a4", "--back-offset", "1.5,-2")
    path = tmp_path / "two-ops" / "en" / "a4" / "cards-deck.pdf"
    reader = PdfReader(path)
    left, bottom = GRID_ORIGIN_MM["a4"]
    assert_box_close(reader.pages[0].trimbox, (left, bottom, left + GRID_W, bottom + GRID_H), "front unmoved")
    assert_box_close(reader.pages[1].trimbox, (left + 1.5, bottom - 2, left + GRID_W + 1.5, bottom + GRID_H - 2),
                     "back moved")
    for sheet, cards_on_sheet in ((0, 9), (5, 7)):
        fronts = front_centres(path, 2 * sheet)
        assert_matched([expected_slot_centre("a4", k) for k in range(cards_on_sheet)], fronts, "fronts unmoved")
        moved = [Found(210 - f.x + 1.5, f.y - BACK_BOX_BELOW_CENTRE_MM - 2) for f in fronts]
        assert_matched(moved, back_boxes(path, 2 * sheet + 1), f"offset backs of sheet {sheet + 1}")


def test_short_edge_backs_are_mirrored_top_to_bottom(tmp_path: Path) -> None:
    run_build(tmp_path, "two-ops", "--what", "cards", "--lang", "en", "--paper", "a4", "--duplex-edge", "short")
    path = tmp_path / "two-ops" / "en" / "a4" / "cards-deck.pdf"
    for sheet, cards_on_sheet in ((0, 9), (5, 7)):
        fronts = front_centres(path, 2 * sheet)
        assert_matched([expected_slot_centre("a4", k) for k in range(cards_on_sheet)], fronts, "fronts")
        mirrored = [Found(f.x, 297 - f.y - BACK_BOX_BELOW_CENTRE_MM) for f in fronts]
        assert_matched(mirrored, back_boxes(path, 2 * sheet + 1), f"short-edge backs of sheet {sheet + 1}")


# ----------------------------------------------------------------------------- text that extracts


def text_on_cards(path: Path) -> str:
    """The text inside the TrimBox of every front page (so not the sheet label), pages joined."""
    document = pdfium.PdfDocument(path)
    try:
        texts = []
        for index in range(0, len(document), 2):
            page = document[index]
            texts.append(page.get_textpage().get_text_bounded(*page.get_trimbox()))
        return "\n".join(texts)
    finally:
        document.close()


def test_court_card_functions_extract_in_english(two_ops: Path) -> None:
    """Each of the 4 queens prints Q/neither = max(a, b), "the greater number", and Q/both = max(a, b) + 5
    (data/two-ops/rules.toml); each of the 12 court cards labels its three lines."""
    text = text_on_cards(two_ops / "en" / "a4" / "cards-deck.pdf")
    assert text.count("the greater number + 5") == 4
    assert text.count("the greater number") == 8
    assert text.count("average (half the sum)") == 4
    assert text.count("neither matches") == text.count("both match") == text.count("one matches") == 12


def test_court_card_functions_extract_in_japanese(two_ops: Path) -> None:
    text = text_on_cards(two_ops / "ja" / "a4" / "cards-deck.pdf")
    assert text.count("大きい方の数 ＋ 5") == 4
    assert text.count("大きい方の数") == 8
    assert text.count("平均（和の半分）") == 4
    assert text.count("両方が同色") == 12
    assert "\ufffd" not in text


def test_sheet_label_extracts_in_both_languages(two_ops: Path) -> None:
    english = " ".join(page_lines(two_ops / "en" / "a4" / "cards-deck.pdf", 10))
    assert "sheet 6 of 6" in english and "Print at 100% / actual size" in english
    japanese = " ".join(page_lines(two_ops / "ja" / "letter" / "cards-deck.pdf", 11))
    assert "シート 6 / 6 の裏面" in japanese and "Letter" in japanese


def test_take_over_that_job_goal_cards_extract_in_japanese(tmp_path: Path) -> None:
    run_build(tmp_path, "take-over-that-job", "--what", "cards", "--lang", "ja", "--paper", "a4")
    text = text_on_cards(tmp_path / "take-over-that-job" / "ja" / "a4" / "cards-goals.pdf")
    assert text.count("目標カード") == 16  # 4 animals × goals 2-5, each headed by the goal-card word
    assert "ねこの目標 2" in text and "うさぎの目標 5" in text


# ----------------------------------------------------------------------------- variants


def test_fold_sheet_holds_fronts_and_their_backs_across_a_fold_line(two_ops: Path) -> None:
    path = two_ops / "en" / "a4" / "cards-deck-fold.pdf"
    width_mm, height_mm = 297.0, 210.0
    fronts = front_centres(path, 0)
    expected_fronts = [Found(12.5 + column * (CARD_W + 2 * BLEED) + CARD_W / 2,
                             196.9 - row * (CARD_H + 2 * BLEED) - CARD_H / 2)
                       for row in range(2) for column in range(2)]
    assert_matched(expected_fronts, fronts, "fold fronts")
    assert all(f.x < width_mm / 2 for f in fronts)
    mirrored = [Found(width_mm - f.x, f.y - BACK_BOX_BELOW_CENTRE_MM) for f in fronts]
    assert_matched(mirrored, back_boxes(path, 0), "fold backs")
    # the dashed fold line shows in the top margin, above the bleed (199.9 mm) and below the 4 mm limit
    dpi = 200
    image = render_grey(path, 0, dpi)
    column = column_px(width_mm / 2, dpi)
    band = image.crop((column - 1, row_px(205.5, height_mm, dpi), column + 2, row_px(200.5, height_mm, dpi)))
    levels = [min(band.getpixel((x, y)) for x in range(band.size[0])) for y in range(band.size[1])]
    assert min(levels) < 128 and max(levels) > 200, "expected a dashed line: dark dashes and light gaps"
    # and it is a line, not a smear: 1-2 mm either side (short of the crop marks 3 mm away) stays white
    for x0, x1 in ((width_mm / 2 - 2, width_mm / 2 - 1), (width_mm / 2 + 1, width_mm / 2 + 2)):
        assert darkest_in(image, x0, 200.5, x1, 205.5, height_mm, dpi) > 200, (x0, x1)


def test_low_ink_backs_use_far_less_ink(two_ops: Path) -> None:
    dpi = 50
    normal = render_grey(two_ops / "en" / "a4" / "cards-deck.pdf", 1, dpi)
    low_ink = render_grey(two_ops / "en" / "a4" / "cards-deck-lowink.pdf", 1, dpi)
    pixels = normal.size[0] * normal.size[1]
    grid_share = GRID_W * GRID_H / (210 * 297)
    assert dark_pixel_count(normal) > 0.6 * grid_share * pixels  # the navy argyle fills the grid
    assert dark_pixel_count(low_ink) < 0.3 * dark_pixel_count(normal)


def test_low_ink_keeps_the_card_texts(two_ops: Path) -> None:
    normal = text_on_cards(two_ops / "en" / "a4" / "cards-deck.pdf")
    low_ink = text_on_cards(two_ops / "en" / "a4" / "cards-deck-lowink.pdf")
    assert low_ink == normal and "the greater number + 5" in low_ink


def test_layouts_see_ink_saver_in_the_low_ink_build(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "my-game"]).exit_code == 0
    manifest = data / "my-game" / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "[components.deck]\n", '[components.deck]\nface = "ink-aware"\n', 1), encoding="utf-8")
    (data / "my-game" / "layouts").mkdir()
    (data / "my-game" / "layouts" / "ink-aware.toml").write_text(
        '[[element]]\ntype = "text"\nwhen = "ink_saver"\nx = 5\ny = 5\nw = 50\nh = 10\ntext = "LOW INK"\n'
        '[[element]]\ntype = "text"\nwhen = "not ink_saver"\nx = 5\ny = 20\nw = 50\nh = 10\ntext = "FULL INK"\n',
        encoding="utf-8")
    run_build(tmp_path / "out", "my-game", "--what", "cards", "--what", "lowink", "--paper", "a4", data=data)
    folder = tmp_path / "out" / "my-game" / "en" / "a4"
    normal = " ".join(page_lines(folder / "cards-deck.pdf", 0))  # 9 cards on the first sheet
    low_ink = " ".join(page_lines(folder / "cards-deck-lowink.pdf", 0))
    assert normal.count("FULL INK") == 9 and "LOW INK" not in normal
    assert low_ink.count("LOW INK") == 9 and "FULL INK" not in low_ink


# ----------------------------------------------------------------------------- reproducible files


def pdf_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.pdf"))}


def test_rebuild_is_byte_identical(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    what = ["--what", "cards", "--what", "fold", "--what", "lowink", "--what", "calibration"]
    for name in ("first", "second"):
        run_build(tmp_path / name, "two-ops", "--lang", "en", "--paper", "a4", *what)
    first, second = pdf_bytes(tmp_path / "first"), pdf_bytes(tmp_path / "second")
    assert len(first) == 4 and first.keys() == second.keys()
    for name in first:
        assert first[name] == second[name], f"{name} differs between two identical builds"
    reader = PdfReader(tmp_path / "first" / "two-ops" / "en" / "a4" / "cards-deck.pdf")
    assert str(reader.metadata["/CreationDate"]).startswith("D:20000101000000")


def test_rebuild_with_source_date_epoch_is_byte_identical_and_dated(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    for name in ("first", "second"):
        run_build(tmp_path / name, "two-ops", "--lang", "en", "--paper", "a4", "--what", "cards",
                  "--what", "calibration")
    first, second = pdf_bytes(tmp_path / "first"), pdf_bytes(tmp_path / "second")
    assert len(first) == 2 and first == second
    for name in first:
        reader = PdfReader(tmp_path / "first" / name)
        assert str(reader.metadata["/CreationDate"]).startswith("D:20231114221320"), name


# ----------------------------------------------------------------------------- --only: reprint chosen cards


def test_only_reprints_chosen_cards_into_files_of_their_own(tmp_path: Path) -> None:
    """A card of each of two components: those two get a one-sheet reprint, the third component
    nothing, and no deck file is replaced by a sheet of one card."""
    out = tmp_path / "out"
    run_build(out, "take-over-that-job", "--only", "green-1", "--only", "marker-red", "--what", "cards",
              "--lang", "en", "--paper", "a4")
    folder = out / "take-over-that-job" / "en" / "a4"
    assert sorted(p.name for p in folder.iterdir()) == ["cards-markers-reprint.pdf", "cards-numbers-reprint.pdf"]
    pngs = CliRunner().invoke(cli, ["build", "--data", str(DATA), "--out", str(out), "take-over-that-job", "--only",
                                    "green-1", "--png", "--what", "cards", "--lang", "en", "--paper", "a4"])
    assert pngs.exit_code == 0, pngs.output
    reprinted = out / "take-over-that-job" / "en" / "png" / "numbers-reprint"
    assert sorted(p.name for p in reprinted.iterdir()) == ["back.png", "green-1.png"]
    assert reprinted.with_name("numbers-reprint-contact-sheet.png").is_file()
    numbers = PdfReader(folder / "cards-numbers-reprint.pdf")
    assert len(numbers.pages) == 2  # one sheet: the front and its backs
    assert "Green 1" in numbers.pages[0].extract_text() and "Green 2" not in numbers.pages[0].extract_text()


def test_only_with_an_unknown_id_builds_nothing_and_says_which(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "--out", str(tmp_path), "two-ops", "--only",
                                      "7h", "--only", "ZZ", "--only", "7H", "--what", "cards"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "error: --only 7h: no printed card has that id" in result.output
    assert "did you mean 7H?" in result.output and "error: --only ZZ" in result.output
    assert "--only 7H:" not in result.output
    assert list(tmp_path.rglob("*.pdf")) == []


# ----------------------------------------------------------------------------- any paper


def test_a_paper_given_in_mm_is_imposed_and_named_on_the_label(tmp_path: Path) -> None:
    """--paper 330x480 (a print shop's 13 × 19 in, near enough): its own folder, its size in the label."""
    run_build(tmp_path, "two-ops", "--what", "cards", "--lang", "en", "--paper", "330x480")
    reader = PdfReader(tmp_path / "two-ops" / "en" / "330x480" / "cards-deck.pdf")
    width, height = sorted(box_mm(reader.pages[0].mediabox)[2:])
    assert abs(width - 330) < 0.01 and abs(height - 480) < 0.01
    assert "330 × 480 mm" in reader.pages[0].extract_text()


def test_a_paper_smaller_than_a5_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "--out", str(tmp_path), "two-ops",
                                      "--paper", "100x140"])
    assert result.exit_code == 2 and "smaller than A5 (148 × 210 mm)" in result.output
    assert "use --what singles" in result.output


def test_a_card_too_big_for_the_paper_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """A 140 × 200 mm card with 3 mm bleed and 5 mm margins cannot lie on A5 either way round."""
    data = tmp_path / "data"
    shutil.copytree(DATA / "two-ops", data / "two-ops")
    manifest = data / "two-ops" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert 'size = "poker"' in text
    manifest.write_text(text.replace('size = "poker"', "size = [140, 200]"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(tmp_path / "out"), "two-ops",
                                      "--what", "cards", "--lang", "en", "--paper", "a5"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "/a5/cards-deck.pdf: a 140 × 200 mm card with 3 mm bleed does not fit on A5 paper (sheet" in result.output
    assert "fix: choose a bigger --paper, or a smaller --bleed" in result.output

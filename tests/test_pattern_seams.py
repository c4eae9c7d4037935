"""Back patterns on an uncut sheet: continuous across the shared cut lines, the same on every card.

Poker cards (63.5 × 88.9 mm) sit 3 × 3 on A4 and on Letter with abutting cuts: neighbours share a cut
line and bleed runs only round the grid (docs/printing.md). A game made here has one nine-card
component per back: the built-in argyle-back and default-back ("titled"), and pattern-only layouts
for grid, dots and stripes. It is built with `pnp build` (long- and short-edge duplex) and each backs
page is rasterised with pypdfium2 at a resolution where the page and a card are whole numbers of
pixels (A4 at 10 px/mm: 2100 × 2970 px, cards 635 × 889; Letter at 200 dpi: 1700 × 2200 px, cards
500 × 700), so every card of a sheet lands on the same sub-pixel phase and two cards compare pixel
for pixel.

What "continuous" means, without assuming how a pattern is built: a card's pattern runs on into its
bleed (pnp/render/cards/patterns.py), so the grid's outer bleed shows how the pattern goes on past a trim
edge. A cut line shared by two cards is seamless when the strip across it looks like the strips
across the grid's outer trim edges in line with it. With each card's pattern centred on the card and
a repeat that does not divide the card, the shared cut was a mirror join instead: two grid lines
3.5 mm apart, argyle diagonals bent into chevrons, a doubled column of dots.

The rule itself (docs/layouts.md, pattern): the tile is fitted so that a whole number of tiles spans
the trim, laid from the trim's corner; every tile is symmetric, so every card is too.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.render.cards.patterns import fit_tiles, tile_size
from pnp.render.sheets.geometry import Slot
from pnp.render.sheets.imposition import duplex_back_slots, plan_sheet
from pnp.render.sheets.paper import CardSize, parse_paper

PX_PER_MM = {"a4": 10.0, "letter": 200 / 25.4}
PAGE_PX = {"a4": (2100, 2970), "letter": (1700, 2200)}
CARD = CardSize(63.5, 88.9)
BLEED_MM = 3.0
STRIP_MM = 2.5  # each side of a cut line; within the 3 mm bleed
EDGE_INSET_MM = 1.0  # a strip along a cut keeps this far from the cuts that cross it
MAX_MEAN_DIFFERENCE = 2.0  # of 255, per channel
MAX_SHARE_STRONGLY_DIFFERENT = 0.005
STRONG_DIFFERENCE = 40

GAME = "pattern-seams"
PATTERN_ONLY = {  # component: (pattern kind, spacing mm, stroke width mm)
    "grid": ("grid", 6, 0.2),
    "dots": ("dots", 5, 0.3),
    "stripes": ("stripes", 6, 0.3),
}
BACKS = {"argyle": "argyle-back", "titled": "default-back", **{name: f"{name}-back" for name in PATTERN_ONLY}}
SYMMETRY = {"argyle": "mirror", "grid": "mirror", "dots": "mirror", "stripes": "half-turn"}
SQUARE_ON = ("titled", "grid", "dots")  # nothing slants: the pixels either side of a cut can be compared
PAPERS = ("a4", "letter")
EDGES = ("long", "short")


def game_toml() -> str:
    components = "".join(
        f'[components.{name}]\nkind = "cards"\nname = {{ en = "{name}" }}\ncount = 9\nsize = "poker"\n'
        f'cards = "cards/{name}.csv"\nback = "{back}"\n\n'
        for name, back in BACKS.items()
    )
    return f"""\
id = "{GAME}"
source_language = "en"
languages = ["en"]
players = [2, 3]

[title]
en = "Pattern Seams"

[credits]
author = "pnp tests"

[terms]
en = "Test data."

[kinds.number]
name = {{ en = "number card" }}

{components}[[setup]]
players = [2, 3]
pool = "argyle"
in_play = 9
hand = 1
revealed = 0
"""


def make_game(data: Path) -> None:
    folder = data / GAME
    (folder / "cards").mkdir(parents=True)
    (folder / "layouts").mkdir()
    (folder / "game.toml").write_text(game_toml(), encoding="utf-8")
    for name in BACKS:
        rows = "".join(f"{name}-{i},1,number,,,{i},{name.title()} {i}\n" for i in range(1, 10))
        (folder / "cards" / f"{name}.csv").write_text("id,count,kind,suit,colour,rank,name.en\n" + rows,
                                                      encoding="utf-8")
    for name, (kind, spacing, width) in PATTERN_ONLY.items():
        (folder / "layouts" / f"{name}-back.toml").write_text(
            f'description = "{kind} only"\n\n[[element]]\ntype = "pattern"\nkind = "{kind}"\n'
            f'fill = "#37474f"\nstroke = "#ffca28"\nspacing = {spacing}\nstroke_width = {width}\n',
            encoding="utf-8")


def build(data: Path, out: Path, edge: str) -> None:
    result = CliRunner().invoke(cli, ["build", "--data", str(data), GAME, "--what", "cards", "--paper", "a4",
                                      "--paper", "letter", "--duplex-edge", edge, "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output + repr(result.exception)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The game's output folder (…/en) per duplex edge."""
    data = tmp_path_factory.mktemp("pattern-seams-data")
    make_game(data)
    folders = {}
    for edge in EDGES:
        out = tmp_path_factory.mktemp(f"pattern-seams-{edge}")
        build(data, out, edge)
        folders[edge] = out / GAME / "en"
    return folders


@functools.lru_cache(maxsize=4)
def _render_backs(path: Path, paper: str) -> np.ndarray:
    """pypdfium2 sizes the bitmap as ceil(page size × scale) and fits the page to it; the A4 box, read
    back as float32, lands a hair above 2970 px, so the scale is nudged down by a ten-millionth to keep
    the page from being stretched onto 2971."""
    document = pdfium.PdfDocument(path)
    try:
        image = document[1].render(scale=PX_PER_MM[paper] * 25.4 / 72 * (1 - 1e-7)).to_pil().convert("RGB")
    finally:
        document.close()
    assert image.size == PAGE_PX[paper]
    return np.asarray(image)


def backs_page(built: dict[str, Path], edge: str, paper: str, component: str) -> np.ndarray:
    """The first sheet's backs (page 2) as an RGB array, rows from the top."""
    return _render_backs(built[edge] / paper / f"cards-{component}.pdf", paper)


def back_slots(paper: str, edge: str) -> tuple[tuple[Slot, ...], float]:
    """Where the build puts the backs (mm, bottom-left origin), and the page height in mm."""
    plan = plan_sheet(parse_paper(paper), CARD, bleed_mm=BLEED_MM)
    assert plan.bleed_mode == "abutting" and (plan.cols, plan.rows) == (3, 3), (plan.bleed_mode, plan.cols)
    return duplex_back_slots(plan, edge), plan.paper.height_mm


def px(mm: float, paper: str) -> int:
    """The pixel edge nearest to `mm`; halves round up (and 104.05 mm, 1040.4999… px, is a half), so
    edges on the same sub-pixel phase get the same rounding."""
    return math.floor(mm * PX_PER_MM[paper] + 0.5 + 1e-6)


def differences(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Mean absolute difference per channel, and the share of pixels off by more than STRONG_DIFFERENCE."""
    assert a.shape == b.shape, (a.shape, b.shape)
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16))
    return float(diff.mean()), float((diff.max(axis=2) > STRONG_DIFFERENCE).mean())


def assert_alike(a: np.ndarray, b: np.ndarray, what: str) -> None:
    mean, strong = differences(a, b)
    assert mean < MAX_MEAN_DIFFERENCE and strong < MAX_SHARE_STRONGLY_DIFFERENT, (
        f"{what}: mean difference {mean:.2f}, {strong:.2%} of pixels differ by more than {STRONG_DIFFERENCE}")


def shared_cuts(paper: str, edge: str) -> list[tuple[str, int, int, int, int, int]]:
    """Every cut line between two cards, with the grid's outer trim edges in line with it:
    (axis, cut, outer edge before, outer edge after, span start, span end) in pixels of the page image.
    A cut between columns (axis x) is followed down its row of cards; one between rows, across its column."""
    slots, page_h = back_slots(paper, edge)
    inset = EDGE_INSET_MM
    found = []
    for slot in slots:
        left, right = slot.trim.left, slot.trim.right
        top, bottom = page_h - slot.trim.top, page_h - slot.trim.bottom  # mm from the page's top
        row = sorted((s for s in slots if s.row == slot.row), key=lambda s: s.col)
        column = sorted((s for s in slots if s.col == slot.col), key=lambda s: s.row)
        if slot.col < len(row) - 1:  # the cut on this card's right, shared with the next card
            found.append(("x", px(right, paper), px(row[0].trim.left, paper), px(row[-1].trim.right, paper),
                          px(top + inset, paper), px(bottom - inset, paper)))
        if slot.row < len(column) - 1:  # the cut below this card, shared with the card under it
            found.append(("y", px(bottom, paper), px(page_h - column[0].trim.top, paper),
                          px(page_h - column[-1].trim.bottom, paper), px(left + inset, paper),
                          px(right - inset, paper)))
    assert len(found) == 12  # 3 × 3 cards: 2 cuts between columns and 2 between rows, 3 cards long each
    return found


def strip(page: np.ndarray, axis: str, at: int, start: int, stop: int, half: int) -> np.ndarray:
    """The pixels within `half` px of the line `at` (a column for axis x, a row for axis y), from start to
    stop along it; a strip across a row cut is turned so that both read across the cut from left to right."""
    if axis == "x":
        return page[start:stop, at - half:at + half]
    return page[at - half:at + half, start:stop].transpose(1, 0, 2)


def card_crops(page: np.ndarray, paper: str, edge: str, inset: int = 1) -> list[np.ndarray]:
    """Each card's trim from the backs page, all the same size since a card is a whole number of pixels;
    `inset` pixels inside the trim, clear of the hairline where a cut falls inside a pixel."""
    slots, page_h = back_slots(paper, edge)
    w, h = px(CARD.width_mm, paper), px(CARD.height_mm, paper)
    crops = []
    for slot in slots:
        x, y = px(slot.trim.left, paper), px(page_h - slot.trim.top, paper)
        crops.append(page[y + inset:y + h - inset, x + inset:x + w - inset])
    return crops


# ----------------------------------------------------------------------------- the rule


def test_tiles_fit_a_whole_number_of_times_across_the_card() -> None:
    assert fit_tiles(63.5, 10) == (6, pytest.approx(63.5 / 6))  # 6.35 tiles: 6 of 10.58 mm
    assert fit_tiles(88.9, 15) == (6, pytest.approx(88.9 / 6))  # argyle's tile is 1.5 × spacing tall
    assert fit_tiles(63.5, 6) == (11, pytest.approx(63.5 / 11))  # default-back's grid
    assert fit_tiles(10.5, 3) == (4, 2.625)  # 3.5 tiles: ties go up
    assert fit_tiles(4, 10) == (1, 4.0)  # never fewer than one
    trim = (10.0, 20.0, 180.0, 252.0)  # a poker card in pt
    width, height = tile_size("argyle", trim, 10 * 72 / 25.4)
    assert (180 / width, 252 / height) == (pytest.approx(6), pytest.approx(6))
    width, height = tile_size("grid", trim, 6 * 72 / 25.4)
    assert (180 / width, 252 / height) == (pytest.approx(11), pytest.approx(15))


# ----------------------------------------------------------------------------- the sheet


@pytest.mark.parametrize("edge", EDGES)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("component", sorted(BACKS))
def test_pattern_runs_on_across_every_shared_cut_line(built, component: str, paper: str, edge: str) -> None:
    """Across each shared cut, the strip looks like the strips across the grid's outer trim edges in
    line with it: there, one card's pattern runs on into its own bleed."""
    page = backs_page(built, edge, paper, component)
    half = px(STRIP_MM, paper)
    for axis, at, before, after, start, stop in shared_cuts(paper, edge):
        cut = strip(page, axis, at, start, stop, half)
        leading = strip(page, axis, before, start, stop, half)  # bleed, then the first card
        trailing = strip(page, axis, after, start, stop, half)  # the last card, then bleed
        what = f"{component} on {paper} ({edge}-edge duplex), cut at {axis} = {at} px"
        # the pixels next to the line are left out: where a cut falls inside a pixel (on A4), pdfium
        # antialiases the two cards' clip edges one after the other and the pixel comes out lighter, a
        # hairline that is no part of the PDF and would show between any two abutting pictures
        before, after = slice(0, half - 1), slice(half + 1, 2 * half)
        # before the cut a card ends as the last card does; after it one starts as the first card does
        assert_alike(cut[:, before], trailing[:, before], f"{what}: cards end differently")
        assert_alike(cut[:, after], leading[:, after], f"{what}: cards start differently")
        # the seam: the next card goes on as a card's own pattern goes on into its bleed, both ways
        assert_alike(cut[:, after], trailing[:, after], f"{what}: the pattern jumps at the cut")
        assert_alike(cut[:, before], leading[:, before], f"{what}: the pattern jumps at the cut (looking back)")
        if component in SQUARE_ON:
            # the pixels a quarter of a millimetre either side of the cut agree
            near = px(0.25, paper)
            before_cut, after_cut = cut[:, half - 1 - near:half - near], cut[:, half + near:half + near + 1]
            assert_alike(before_cut, after_cut, f"{what}: the two sides of the cut")


@pytest.mark.parametrize("edge", EDGES)
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("component", sorted(BACKS))
def test_every_card_on_the_sheet_looks_the_same(built, component: str, paper: str, edge: str) -> None:
    page = backs_page(built, edge, paper, component)
    crops = card_crops(page, paper, edge)
    for index, crop in enumerate(crops[1:], start=1):
        assert_alike(crop, crops[0], f"{component} on {paper} ({edge}-edge duplex): back {index} and back 0")


@pytest.mark.parametrize("component", sorted(SYMMETRY))
def test_each_card_is_symmetric_about_its_centre(built, component: str) -> None:
    """On Letter the trims start on whole pixels (12.7 mm = 100 px, 6.35 mm = 50 px), so a crop of the
    trim is centred on the card and can be flipped about its centre."""
    page = backs_page(built, "long", "letter", component)
    for crop in card_crops(page, "letter", "long", inset=0):
        if SYMMETRY[component] == "mirror":
            assert_alike(crop, crop[:, ::-1], f"{component}: left and right")
            assert_alike(crop, crop[::-1, :], f"{component}: top and bottom")
        else:
            assert_alike(crop, crop[::-1, ::-1], f"{component}: turned upside down")


def test_grid_lines_keep_off_the_cut(built) -> None:
    """Grid lines keep half a tile off every cut: the first line inside the trim is 2.9 mm in (63.5 / 11
    / 2 across, 88.9 / 15 / 2 down), so a cut that wanders a little shows no sliver of a line."""
    paper = "letter"
    crop = card_crops(backs_page(built, "long", paper, "grid"), paper, "long", inset=0)[4].astype(np.int16)
    background = crop[px(10, paper), px(10, paper)]  # (10, 10) mm from the corner is inside a cell
    line = np.abs(crop - background).max(axis=2) > STRONG_DIFFERENCE
    band = px(2.0, paper)  # 2 mm inside each cut
    # a line along a cut would colour a whole column (or row) of the band; lines crossing it, a few pixels
    for columns in (line[:, :band], line[:, -band:]):
        assert columns.mean(axis=0).max() < 0.2
    for rows in (line[:band, :], line[-band:, :]):
        assert rows.mean(axis=1).max() < 0.2
    assert line.mean(axis=0).max() > 0.9 and line.mean(axis=1).max() > 0.9  # inside, lines run right through


def test_rebuild_is_byte_identical(built, tmp_path: Path) -> None:
    data = tmp_path / "data"
    make_game(data)
    build(data, tmp_path / "again", "long")
    for paper in PAPERS:
        for name in BACKS:
            first = built["long"] / paper / f"cards-{name}.pdf"
            again = tmp_path / "again" / GAME / "en" / paper / f"cards-{name}.pdf"
            assert first.read_bytes() == again.read_bytes(), f"{paper} {name}"

"""Built-in icons and drawing them: lookup, overrides, placement, recolouring, vector output.

Pixel checks render our own PDF with pypdfium2 at 150 dpi and look only at
where ink is, so they hold for any reasonable drawing of an icon: the expected
boxes come from the layout the test itself chooses.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
import zipfile
from collections.abc import Callable
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageDraw, ImageOps
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.diagnostics import DataError
from pnp.render.cards.icons import available_icons, builtin_folder, draw_icon, inline_drawer, load_icon

REQUIRED = [
    "key", "eye", "gem", "clover", "moon", "mask", "crown", "spade", "heart", "diamond", "club",
    "triangle", "rhombus", "circle", "star", "square", "leaf", "coin", "sensor", "gadget",
    "cat", "dog", "rabbit", "bear", "die", "trump", "down",
]  # fmt: skip

DPI = 150
PX = DPI / 72  # pixels per point
SQUARE = 36.0  # points: each test icon's box
GAP = 24.0
DARK = 128  # luminance below this is ink
MARGIN_PX = 3  # anti-aliasing may bleed this far past a square

HALF_LEFT_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="50" height="100"/></svg>'
WIDE_SVG = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100"/></svg>'

Box = tuple[float, float, float, float]  # left, top, right, bottom in pixels


def render(width: float, height: float, paint: Callable[[Canvas], None]) -> tuple[Image.Image, bytes]:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height))
    paint(canvas)
    canvas.save()
    pdf = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        image = pdf[0].render(scale=PX).to_pil().convert("RGB")
    finally:
        pdf.close()
    return image, buffer.getvalue()


def pixel_box(x: float, y: float, w: float, h: float, page_height: float) -> Box:
    return (x * PX, (page_height - y - h) * PX, (x + w) * PX, (page_height - y) * PX)


def ink_fraction(image: Image.Image, box: Box) -> float:
    crop = image.crop(tuple(round(v) for v in box)).convert("L")
    histogram = crop.histogram()
    return sum(histogram[:DARK]) / (crop.width * crop.height)


def ink_bbox(image: Image.Image) -> tuple[int, int, int, int] | None:
    """Bounding box of dark pixels, (left, top, right, bottom) exclusive."""
    return ImageOps.invert(image.convert("L")).point(lambda v: 255 if v > 255 - DARK else 0).getbbox()


def pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def write(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.svg"
    path.write_bytes(data)
    return path


# -- the built-in set --------------------------------------------------------


def test_every_required_icon_is_built_in() -> None:
    assert set(REQUIRED) <= set(available_icons())


@pytest.mark.parametrize("name", REQUIRED)
def test_each_required_icon_loads_with_a_square_frame(name: str) -> None:
    icon = load_icon(name)
    assert icon.name == name
    assert icon.aspect == pytest.approx(1.0)


@pytest.mark.parametrize("name", REQUIRED)
def test_icon_files_follow_the_drawing_rules(name: str) -> None:
    """Hand-drawn, filled, self-contained: what LICENSE.md promises and recolouring relies on."""
    data = (builtin_folder() / f"{name}.svg").read_bytes()
    assert len(data) < 2500, "keep icons small and hand-written"
    root = ElementTree.fromstring(data)
    assert root.get("viewBox") == "0 0 100 100"
    shapes = {"path", "circle", "ellipse", "rect", "polygon"}
    seen_shape = False
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        assert tag in shapes | {"svg", "g"}, f"<{tag}> is not allowed in a built-in icon"
        assert not any("href" in attribute or "stroke" in attribute for attribute in element.attrib)
        seen_shape |= tag in shapes
    assert seen_shape
    # Every shape is black, set on itself or on an enclosing group.
    painted = {id(e) for g in root.iter() if g.get("fill") == "#000" for e in g.iter()}
    assert all(id(e) in painted for e in root.iter() if e.tag.rsplit("}", 1)[-1] in shapes)


def test_icon_licence_is_cc0() -> None:
    assert "CC0" in (builtin_folder() / "LICENSE.md").read_text(encoding="utf-8")


def test_an_icon_is_parsed_once_and_shared() -> None:
    assert load_icon("key") is load_icon("key")


def test_an_icon_saved_again_is_read_again(tmp_path: Path) -> None:
    """`pnp watch` runs builds in one process: an edited icon must not be drawn from the memo."""
    import os

    path = write(tmp_path / "icons", "meeple", HALF_LEFT_SVG)
    first = load_icon("meeple", [tmp_path / "icons"])
    assert load_icon("meeple", [tmp_path / "icons"]) is first
    path.write_bytes(WIDE_SVG)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    again = load_icon("meeple", [tmp_path / "icons"])
    assert again is not first
    assert again.drawing.width != first.drawing.width or again.drawing.height != first.drawing.height


# -- lookup errors -----------------------------------------------------------


def test_unknown_name_suggests_close_matches_and_lists_the_set() -> None:
    with pytest.raises(DataError) as caught:
        load_icon("hart")
    assert "'heart'" in str(caught.value)
    assert "rabbit" not in str(caught.value), "only close matches belong in the message"
    fix = caught.value.diagnostic.fix or ""
    assert all(name in fix for name in REQUIRED)


def test_unknown_name_suggests_the_games_own_icons(tmp_path: Path) -> None:
    write(tmp_path / "icons", "meeple", HALF_LEFT_SVG)
    with pytest.raises(DataError, match="'meeple'"):
        load_icon("meple", search=[tmp_path / "icons"])


@pytest.mark.parametrize("name", ["../icons/key", "key.svg", "", "a b"])
def test_names_cannot_leave_the_icon_folders(name: str) -> None:
    with pytest.raises(DataError, match="not an icon name"):
        load_icon(name)


@pytest.mark.parametrize(
    "data",
    [b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect", b"<html/>",
     b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'/>"],
    ids=["broken-xml", "not-svg", "empty"],
)
def test_a_bad_game_icon_is_a_data_error_naming_the_file(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path, "broken", data)
    with pytest.raises(DataError, match="broken.svg") as caught:
        load_icon("broken", search=[tmp_path])
    assert caught.value.diagnostic.file == path


@pytest.mark.parametrize("colour", ["red", "#f00", "#gg0000", "ff0000"])
def test_a_bad_colour_is_a_data_error(colour: str) -> None:
    with pytest.raises(DataError, match="#rrggbb"):
        inline_drawer(load_icon("heart"), colour)


# -- game folders ------------------------------------------------------------


def test_game_icon_overrides_the_built_in_one(tmp_path: Path) -> None:
    folder = tmp_path / "icons"
    write(folder, "heart", HALF_LEFT_SVG)
    game_heart = load_icon("heart", search=[folder])
    assert game_heart.origin.startswith(str(folder))

    def paint(canvas: Canvas) -> None:
        draw_icon(canvas, game_heart, 0, 0, SQUARE)
        draw_icon(canvas, load_icon("heart"), SQUARE + GAP, 0, SQUARE)

    image, _ = render(2 * SQUARE + GAP, SQUARE, paint)
    half = SQUARE / 2
    inset = MARGIN_PX / PX
    assert ink_fraction(image, pixel_box(inset, inset, half - 2 * inset, SQUARE - 2 * inset, SQUARE)) > 0.95
    assert ink_fraction(image, pixel_box(half + inset, 0, half - inset, SQUARE, SQUARE)) == 0
    # The built-in heart, drawn the same way, does reach the right half: the override really replaced it.
    assert ink_fraction(image, pixel_box(SQUARE + GAP + half + inset, 0, half - inset, SQUARE, SQUARE)) > 0.1


def test_game_icons_are_listed_with_the_built_in_ones(tmp_path: Path) -> None:
    write(tmp_path, "meeple", HALF_LEFT_SVG)
    names = available_icons(search=[tmp_path])
    assert "meeple" in names and set(REQUIRED) <= set(names)
    assert "meeple" not in available_icons()


def test_icons_load_from_a_folder_that_is_not_on_disk(tmp_path: Path) -> None:
    """A zipped game (or a wheel) gives a Traversable with no real file behind it."""
    archive = tmp_path / "game.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("icons/meeple.svg", HALF_LEFT_SVG)
    icon = load_icon("meeple", search=[zipfile.Path(archive, "icons/")])
    assert icon.aspect == pytest.approx(1.0)


def test_each_file_is_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import svglib.svglib

    calls: list[object] = []
    real = svglib.svglib.svg2rlg

    def counting(source: object):
        calls.append(source)
        return real(source)

    monkeypatch.setattr(svglib.svglib, "svg2rlg", counting)
    write(tmp_path, "meeple", HALF_LEFT_SVG)
    first = load_icon("meeple", search=[tmp_path])
    second = load_icon("meeple", search=[tmp_path])
    assert len(calls) == 1 and first.drawing is second.drawing


# -- drawing -----------------------------------------------------------------


def grid_layout(names: list[str], columns: int = 7) -> tuple[float, float, dict[str, tuple[float, float]]]:
    """Bottom-left corners of one square per icon, GAP apart, and the page size."""
    rows = -(-len(names) // columns)
    width = GAP + columns * (SQUARE + GAP)
    height = GAP + rows * (SQUARE + GAP)
    corners = {
        name: (GAP + (i % columns) * (SQUARE + GAP), height - (i // columns + 1) * (SQUARE + GAP))
        for i, name in enumerate(names)
    }
    return width, height, corners


@pytest.fixture(scope="module")
def grid() -> tuple[Image.Image, bytes, float, dict[str, tuple[float, float]]]:
    width, height, corners = grid_layout(REQUIRED)

    def paint(canvas: Canvas) -> None:
        for name, (x, y) in corners.items():
            draw_icon(canvas, load_icon(name), x, y, SQUARE)

    image, pdf = render(width, height, paint)
    return image, pdf, height, corners


@pytest.mark.parametrize("name", REQUIRED)
def test_each_icon_inks_its_own_square_and_fills_it(grid, name: str) -> None:
    image, _, height, corners = grid
    box = pixel_box(*corners[name], SQUARE, SQUARE, height)
    assert ink_fraction(image, box) > 0.1, "too faint to read at card size"
    ink = ink_bbox(image.crop(tuple(round(v) for v in box)))
    assert ink is not None
    longest = max(ink[2] - ink[0], ink[3] - ink[1])
    assert longest > 0.8 * SQUARE * PX, "an icon should be scaled to fill its square"


def test_no_ink_outside_the_squares(grid) -> None:
    image, _, height, corners = grid
    masked = image.copy()
    draw = ImageDraw.Draw(masked)
    for x, y in corners.values():
        left, top, right, bottom = pixel_box(x, y, SQUARE, SQUARE, height)
        draw.rectangle((left - MARGIN_PX, top - MARGIN_PX, right + MARGIN_PX, bottom + MARGIN_PX), fill="white")
    assert ink_bbox(image) is not None
    assert ink_bbox(masked) is None


def test_icons_are_drawn_as_vectors(grid) -> None:
    _, pdf, _, _ = grid
    page = PdfReader(io.BytesIO(pdf)).pages[0]

    def images_in(resources) -> list[str]:
        found = []
        for name, ref in (resources or {}).get("/XObject", {}).items():
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Image":
                found.append(name)
            elif xobject.get("/Subtype") == "/Form":
                found += images_in(xobject.get("/Resources"))
        return found

    assert images_in(page.get("/Resources")) == []
    content = page.get_contents().get_data()
    assert content.count(b"\nf") + content.count(b" f\n") + content.count(b"f*") >= len(REQUIRED), "icons as fills"


def test_recolouring_paints_red_and_leaves_the_shared_icon_black() -> None:
    heart = load_icon("heart")

    def paint(canvas: Canvas) -> None:
        draw_icon(canvas, heart, 0, 0, SQUARE, "#ff0000")
        draw_icon(canvas, heart, SQUARE + GAP, 0, SQUARE)

    image, _ = render(2 * SQUARE + GAP, SQUARE, paint)
    red = image.crop(tuple(round(v) for v in pixel_box(0, 0, SQUARE, SQUARE, SQUARE)))
    inked = [p for p in pixels(red) if min(p) < 200]
    assert len(inked) > 0.3 * red.width * red.height
    assert all(r > 200 and max(g, b) < r - 50 for r, g, b in inked)
    black = image.crop(tuple(round(v) for v in pixel_box(SQUARE + GAP, 0, SQUARE, SQUARE, SQUARE)))
    assert ink_fraction(black, (0, 0, black.width, black.height)) > 0.3
    assert all(max(p) < 60 for p in pixels(black) if min(p) < 30), "the plain icon must stay black"


def test_wide_icon_sits_at_its_corner_scaled_by_its_longer_side(tmp_path: Path) -> None:
    write(tmp_path, "banner", WIDE_SVG)
    icon = load_icon("banner", search=[tmp_path])
    assert icon.aspect == pytest.approx(2.0)
    x, y, size, page = 10.0, 12.0, 48.0, 72.0

    image, _ = render(page, page, lambda canvas: draw_icon(canvas, icon, x, y, size))
    expected = pixel_box(x, y, size, size / 2, page)
    found = ink_bbox(image)
    assert found is not None
    assert all(abs(f - e) <= 1.5 for f, e in zip(found, expected, strict=True)), (found, expected)


def test_inline_icon_is_one_font_size_tall_on_the_baseline(tmp_path: Path) -> None:
    write(tmp_path, "banner", WIDE_SVG)
    draw = inline_drawer(load_icon("banner", search=[tmp_path]))
    x, baseline, size, page = 6.0, 20.0, 14.0, 72.0

    image, _ = render(page, page, lambda canvas: draw(canvas, x, baseline, size))
    expected = pixel_box(x, baseline, 2 * size, size, page)
    found = ink_bbox(image)
    assert found is not None
    assert all(abs(f - e) <= 1.5 for f, e in zip(found, expected, strict=True)), (found, expected)


def test_an_icon_with_text_is_refused_like_svg_art(tmp_path: Path) -> None:
    """svglib would set the text in Helvetica, which is never embedded: a print shop rejects the PDF."""
    write(tmp_path / "icons", "label", b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
                                      b'<rect width="50" height="100"/><text x="10" y="50">Hi</text></svg>')
    with pytest.raises(DataError, match="contains text"):
        load_icon("label", [tmp_path / "icons"])


def test_a_wide_icon_in_card_text_fills_the_room_the_text_layout_gives_it(tmp_path: Path) -> None:
    """The layout reserves aspect × size across; the drawer cards use must scale by height to fill it."""
    from pnp.render.cards.faces import IconShelf

    write(tmp_path, "banner", WIDE_SVG)
    inline = IconShelf([tmp_path])["banner"]
    assert inline.aspect == 2
    x, baseline, size, page = 6.0, 20.0, 14.0, 72.0
    image, _ = render(page, page, lambda canvas: inline.draw(canvas, x, baseline, size))
    found = ink_bbox(image)
    assert found is not None
    width_pt = (found[2] - found[0]) / PX
    assert abs(width_pt - 2 * 0.9 * size) <= 1.5, width_pt  # as wide as 2 × 0.9 font sizes, not 0.9


TWO_COLOUR_SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
                  b'<rect width="50" height="100" fill="#000000"/>'
                  b'<rect x="50" width="50" height="100" fill="#0000ff"/></svg>')


def test_an_icon_in_card_text_takes_the_texts_colour_unless_it_has_colours_of_its_own(tmp_path: Path) -> None:
    """':coin:' in white text on a dark band printed a black coin."""
    from pnp.model.runs import Text
    from pnp.render.cards.faces import IconShelf
    from pnp.render.cards.textbox import draw_fit, fit_text
    from pnp.render.text.fonts import prepare_fonts

    write(tmp_path / "icons", "block", WIDE_SVG)
    write(tmp_path / "icons", "flag", TWO_COLOUR_SVG)
    shelf = IconShelf([tmp_path / "icons"])
    assert shelf.icon("block").single_colour and shelf.icon("coin").single_colour
    assert not shelf.icon("flag").single_colour
    fontset = prepare_fonts(["x"], tmp_path / "fonts")
    page = 200.0

    def paint(canvas: Canvas) -> None:
        from reportlab.lib.colors import HexColor

        for row, name in enumerate(("block", "flag")):
            fit = fit_text([Text("x"), shelf[name]], 180, 40, 30, 30, 1.2, fontset)
            draw_fit(canvas, fit, 10, page - 10 - 60 * row, 180, 40, colour=HexColor("#ff0000"))

    image, _ = render(page, page, paint)
    single = [p for p in pixels(image.crop((0, 0, image.width, round(60 * PX)))) if min(p) < 200]
    assert single and all(r > 200 and r - max(g, b) > 50 for r, g, b in single), "the glyph is red, as its text"
    several = pixels(image.crop((0, round(60 * PX), image.width, round(120 * PX))))
    assert any(b > 200 and max(r, g) < 60 for r, g, b in several), "the flag keeps its blue"
    assert any(max(p) < 40 for p in several), "and its black"

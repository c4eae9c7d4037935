"""Phone photos and scans: EXIF Orientation says how a picture's stored pixels are turned for display.

Every photo viewer honours it and a PDF does not, so a portrait photo stored landscape printed on its
side. The expected picture comes from Pillow's own reading of the tag (``ImageOps.exif_transpose``),
saved upright as a PNG and drawn in the same box.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageOps
from test_images import BOX, image_objects, ours, pdf_with, raster

from pnp.render.cards import images
from pnp.render.cards.images import inspect_image

QUADRANTS = ((220, 30, 30), (30, 160, 30), (30, 30, 220), (230, 200, 40))  # top-left, top-right, bottom-left, -right


def stored(path: Path, orientation: int, mode: str = "RGB") -> Path:
    """A 60 x 40 picture of four solid quadrants whose EXIF says ``orientation``: a JPEG's APP1 or,
    for a .png path, a PNG's eXIf chunk (``mode`` RGBA makes one that pnp decodes)."""
    image = Image.new(mode, (60, 40))
    for index, colour in enumerate(QUADRANTS):
        left, top = (index % 2) * 30, (index // 2) * 20
        image.paste(colour if mode == "RGB" else (*colour, 255), (left, top, left + 30, top + 20))
    exif = Image.Exif()
    exif[0x0112] = orientation
    options = {"quality": 95} if path.suffix == ".jpg" else {}
    image.save(path, exif=exif.tobytes(), **options)
    return path


def quadrant_colours(page: Image.Image) -> list[tuple[int, int, int]]:
    """The colours at the middle of each quarter of the box (the tests draw at scale 2, y down)."""
    x, y, w, h = BOX
    points = [(x + w * fx, y + h * fy) for fy in (0.75, 0.25) for fx in (0.25, 0.75)]  # top row first
    return [page.getpixel((round(px * 2), round((180 - py) * 2))) for px, py in points]


def close(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return max(abs(i - j) for i, j in zip(a, b, strict=True)) <= 24


#: (suffix, mode, passes through): a JPEG's APP1 and a PNG's eXIf chunk; RGBA is decoded and stored upright
PICTURES = {"jpeg": ("jpg", "RGB", True), "png": ("png", "RGB", True), "png-alpha": ("png", "RGBA", False)}


@pytest.mark.parametrize("orientation", range(1, 9))
@pytest.mark.parametrize("picture", PICTURES)
def test_a_picture_prints_as_a_photo_viewer_shows_it(tmp_path: Path, picture: str, orientation: int) -> None:
    suffix, mode, passes = PICTURES[picture]
    path = stored(tmp_path / f"o{orientation}.{suffix}", orientation, mode)
    source = inspect_image(path)
    assert source.passes_through == passes and source.orientation == orientation
    with Image.open(path) as opened:
        upright = ImageOps.exif_transpose(opened).convert("RGB")
    assert source.shown_size == upright.size
    upright.save(tmp_path / "upright.png")
    ours_page = raster(pdf_with(tmp_path, "ours.pdf", ours(path, source.shown_size)))
    expected = raster(pdf_with(tmp_path, "expected.pdf", ours(tmp_path / "upright.png", upright.size)))
    got, want = quadrant_colours(ours_page), quadrant_colours(expected)
    assert all(close(g, w) for g, w in zip(got, want, strict=True)), (got, want)
    assert len(set(want)) == 4  # the four points do see four different quadrants


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_decoded_art_is_turned_upright_before_it_is_resampled(tmp_path: Path, orientation: int) -> None:
    """--max-dpi decodes the JPEG (here it prints at 18 to 24 dpi in the box, the limit is 9): the
    stored stream is then upright, smaller, in the shown proportions."""
    path = stored(tmp_path / "big.jpg", orientation)
    source = inspect_image(path)
    with Image.open(path) as opened:
        upright = ImageOps.exif_transpose(opened)
    upright.save(tmp_path / "upright.png")
    small = pdf_with(tmp_path, "small.pdf", ours(path, source.shown_size, max_dpi=9))
    (image,) = image_objects(small)
    shown_w, shown_h = source.shown_size
    assert image["/Width"] < shown_w and abs(image["/Width"] * shown_h / shown_w - image["/Height"]) <= 1
    resampled = raster(small)
    expected = raster(pdf_with(tmp_path, "expected.pdf", ours(tmp_path / "upright.png", upright.size)))
    got, want = quadrant_colours(resampled), quadrant_colours(expected)
    assert all(close(g, w) for g, w in zip(got, want, strict=True)), (got, want)


def test_the_orientation_is_remembered_with_the_other_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    path = stored(tmp_path / "turned.jpg", 6)
    assert inspect_image(path).orientation == 6
    images.save_image_facts()
    images._SOURCES.clear()
    monkeypatch.setattr(images, "analyse", lambda *args: pytest.fail("the file was read again"))
    from pnp.load import digests

    digests.save_digests()
    again = inspect_image(path)
    assert again.orientation == 6 and again.shown_size == (40, 60)


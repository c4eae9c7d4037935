"""--max-dpi: art that would print finer than asked is resampled once; everything else passes through."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageDraw, ImageStat
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from test_image_deck import MANIFEST  # the minimal image-deck game of the image-deck tests

from pnp.cli import cli
from pnp.render.cards.images import draw_image, resampled_size

BOX = (36.0, 36.0, 144.0, 108.0)  # 2 × 1.5 inches: a 1200 × 900 px picture prints at 600 dpi


def picture(mode: str = "RGB", size: tuple[int, int] = (1200, 900)) -> Image.Image:
    """Smooth gradients and hard-edged shapes: what resampling must keep, and what shows its faults."""
    image = Image.new("RGB", size)
    pixels = image.load()
    for y in range(size[1]):
        for x in range(size[0]):
            pixels[x, y] = (x * 255 // size[0], y * 255 // size[1], 128)
    draw = ImageDraw.Draw(image)
    draw.ellipse((300, 200, 700, 600), fill=(240, 200, 20))
    draw.rectangle((800, 100, 1100, 400), fill=(20, 30, 200))
    # painted art has texture, which is what makes 600 dpi files big: a little grain on every pixel
    grain = Image.effect_noise(size, 24).convert("RGB")
    image = ImageChops.add(ImageChops.subtract(image, Image.new("RGB", size, (12, 12, 12))), grain, 4.0, -20)
    return image.convert(mode) if mode != "RGB" else image


def pdf_of(tmp_path: Path, name: str, source: Path, pixels: tuple[int, int], max_dpi: float | None) -> Path:
    path = tmp_path / name
    canvas = Canvas(str(path), pagesize=(216, 180), invariant=1)
    draw_image(canvas, source, pixels, *BOX, max_dpi=max_dpi)
    canvas.showPage()
    canvas.save()
    return path


def images_in(pdf: Path) -> list:
    page = PdfReader(pdf).pages[0]
    return [ref.get_object() for ref in page["/Resources"]["/XObject"].values()]


def raster(pdf: Path) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[0].render(scale=150 / 72).to_pil().convert("RGB")
    finally:
        document.close()


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean)


def test_the_size_keeps_the_shape_and_only_ever_shrinks():
    assert resampled_size((1200, 900), 144.0, 300) == (600, 450)
    assert resampled_size((1200, 900), 144.0, 600) is None  # prints at exactly 600 dpi
    assert resampled_size((300, 225), 144.0, 300) is None  # 150 dpi: never enlarged
    assert resampled_size((1201, 901), 144.0, 150) == (300, 225)


def test_png_art_is_resampled_and_prints_the_same(tmp_path):
    source = tmp_path / "art.png"
    picture().save(source)
    full = pdf_of(tmp_path, "full.pdf", source, (1200, 900), None)
    fewer = pdf_of(tmp_path, "fewer.pdf", source, (1200, 900), 300)
    (image,) = images_in(fewer)
    assert (image["/Width"], image["/Height"]) == (600, 450)
    assert image["/Filter"] == "/FlateDecode" and image["/DecodeParms"]["/Predictor"] == 15
    assert mean_difference(raster(full), raster(fewer)) < 1.5  # at 150 dpi the page cannot tell
    assert fewer.stat().st_size < full.stat().st_size / 2


def test_jpeg_art_stays_a_jpeg(tmp_path):
    source = tmp_path / "art.jpg"
    picture().save(source, quality=95)
    full = pdf_of(tmp_path, "full.pdf", source, (1200, 900), None)
    fewer = pdf_of(tmp_path, "fewer.pdf", source, (1200, 900), 200)
    (image,) = images_in(fewer)
    assert (image["/Width"], image["/Height"]) == (400, 300)
    assert image["/Filter"] == "/DCTDecode" and image["/ColorSpace"] == "/DeviceRGB"
    assert mean_difference(raster(full), raster(fewer)) < 2.5


def test_alpha_is_resampled_with_the_colour(tmp_path):
    source = tmp_path / "art.png"
    art = picture().convert("RGBA")
    ImageDraw.Draw(art).rectangle((0, 0, 599, 899), fill=(0, 0, 0, 0))  # left half transparent
    art.save(source)
    fewer = pdf_of(tmp_path, "fewer.pdf", source, (1200, 900), 300)
    (image,) = images_in(fewer)
    mask = image["/SMask"].get_object()
    assert (image["/Width"], image["/Height"]) == (mask["/Width"], mask["/Height"]) == (600, 450)
    page = raster(fewer)
    x, y, w, h = (value * 150 / 72 for value in BOX)
    top = page.height - (y + h)
    assert page.getpixel((round(x + w / 4), round(top + h / 2))) == (255, 255, 255)  # paper shows through


@pytest.mark.parametrize("dpi", [None, 600, 1200])
def test_art_at_or_under_the_limit_passes_through_untouched(tmp_path, dpi):
    source = tmp_path / "art.jpg"
    picture().save(source, quality=90)
    pdf = pdf_of(tmp_path, "same.pdf", source, (1200, 900), dpi)
    (image,) = images_in(pdf)
    assert image.get_data() == source.read_bytes()


def test_cmyk_jpeg_keeps_its_pixels(tmp_path):
    """Converting CMYK needs the art's colour profile, which pnp does not read: it is left alone."""
    source = tmp_path / "art.jpg"
    picture("CMYK").save(source, quality=90)
    pdf = pdf_of(tmp_path, "cmyk.pdf", source, (1200, 900), 150)
    (image,) = images_in(pdf)
    assert (image["/Width"], image["/Height"]) == (1200, 900)
    assert image.get_data() == source.read_bytes()


def picture_game(tmp_path: Path, names: str, alpha: bool) -> Path:
    """A data folder with one game of a card per letter of ``names``, each its own picture at 600 dpi
    (69.5 x 94.9 mm, poker with bleed), the pictures a pixel apart."""
    data = tmp_path / "data"
    game = data / "art-deck"
    (game / "cards").mkdir(parents=True)
    (game / "images").mkdir()
    (game / "game.toml").write_text(MANIFEST.format(count=len(names)), encoding="utf-8")
    rows = "".join(f"{name},1,\n" for name in names)
    (game / "cards" / "deck.csv").write_text("id,count,image\n" + rows, encoding="utf-8")
    for index, name in enumerate(names):
        art = picture(size=(1642, 2242)).convert("RGBA" if alpha else "RGB")
        art.putpixel((index, index), (0, 0, 0, 0) if alpha else (0, 0, 0))
        art.save(game / "images" / f"{name}.png")
    return data


def test_build_option_rebuilds_and_shrinks_an_image_deck(tmp_path):
    data = picture_game(tmp_path, "ab", alpha=False)
    out = tmp_path / "out"

    def build(*extra: str) -> str:
        result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), "--what", "cards",
                                          "--paper", "a4", "--jobs", "1", *extra])
        assert result.exit_code == 0, result.output
        return result.output

    build()
    pdf = out / "art-deck" / "en" / "a4" / "cards-deck.pdf"
    full = tmp_path / "full.pdf"
    shutil.copy(pdf, full)
    assert "wrote 1 file(s)" in build("--max-dpi", "300")  # the option is part of the output's key
    assert "wrote 0 file(s)" in build("--max-dpi", "300")
    widths = {image["/Width"] for image in images_in(pdf) if image.get("/Subtype") == "/Image"}
    assert widths == {821}
    assert pdf.stat().st_size < full.stat().st_size / 2


def record_decodes(monkeypatch) -> list[tuple]:
    """(digest, size) of every picture decoded from here on."""
    from pnp.render.cards import images

    decoded: list[tuple] = []
    real = images.decoded
    monkeypatch.setattr(images, "decoded", lambda source, recompress, size=None: (
        decoded.append((source.digest, size)), real(source, recompress, size))[1])
    return decoded


def test_art_is_decoded_ahead_once_and_the_pdf_is_the_same_without(tmp_path, monkeypatch):
    """decode_ahead works out each resampled size as drawing does: every picture is decoded once,
    and the PDF is byte for byte the one drawing alone makes."""
    from pnp.render.cards import art, images

    data = picture_game(tmp_path, "abc", alpha=True)  # alpha: decoded even without --max-dpi
    decoded = record_decodes(monkeypatch)

    def build(out: Path) -> bytes:
        images._MADE.clear()
        result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), "--what", "cards",
                                          "--paper", "a4", "--jobs", "1", "--max-dpi", "300", "--force"])
        assert result.exit_code == 0, result.output
        return (out / "art-deck" / "en" / "a4" / "cards-deck.pdf").read_bytes()

    ahead = build(tmp_path / "ahead")
    assert len(decoded) == len(set(decoded)) == 3
    assert {size for _, size in decoded} == {(821, 1121)}
    monkeypatch.setattr(art, "decode_art_ahead", lambda bound, painter: None)
    monkeypatch.setattr("pnp.render.cards.card_pdf.decode_art_ahead", lambda bound, painter: None)
    assert build(tmp_path / "alone") == ahead


def test_a_wider_sheet_bleed_scales_every_card_alike_and_decodes_each_picture_once(tmp_path, monkeypatch):
    """With --bleed 5 (wider than the art's 3 mm) the art grows to cover 5 mm on every edge of every
    card. It used to grow 5 mm only on the sheet's outer edges and 3 mm where cards abut, so cards were
    scaled by where they sat, and each picture was resampled again at its slot's size."""
    from pnp.render.cards import images

    data = picture_game(tmp_path, "abc", alpha=False)
    decoded = record_decodes(monkeypatch)
    images._MADE.clear()
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(tmp_path / "out"), "--what",
                                      "cards", "--paper", "a4", "--jobs", "1", "--max-dpi", "300", "--bleed", "5"])
    assert result.exit_code == 0, result.output
    assert len(decoded) == len(set(decoded)) == 3  # each picture once, at one size
    # poker 63.5 × 88.9 mm plus 5 mm on every edge is 73.5 × 98.9 mm; the 1642 × 2242 art covers it
    # by its width (73.5 / 1642 > 98.9 / 2242), so it prints 73.5 × 100.4 mm: 868 × 1185 px at 300 dpi
    assert {size for _, size in decoded} == {(868, 1185)}
    pdf = tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck.pdf"
    widths = [image["/Width"] for image in images_in(pdf) if image.get("/Subtype") == "/Image"]
    assert widths == [868, 868, 868]

"""Image pass-through: what goes into the PDF, and that it prints the same as reportlab's decoded path.

Every fixture image is generated here with pillow, or written by the small PNG writer below where
pillow cannot (16-bit RGB, interlaced). The reference for "prints the same" is reportlab's own
``drawImage``, which decodes each file with pillow; both pages are rasterised by pypdfium2.
"""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.render.cards import images
from pnp.render.cards.images import draw_image, embed_image, inspect_image, printed_dpi
from pnp.render.pdf.stream_contents import ImageChangedError

BOX = (20.0, 30.0, 160.0, 120.0)  # x, y, w, h in points: every test image is 4:3, so it fills the box


# ----------------------------------------------------------------------------- fixtures


def noise(mode: str, size: tuple[int, int], seed: int = 1) -> Image.Image:
    """Pixels no two neighbours share: a wrong sample layout or palette shows everywhere."""
    bands = len(Image.new(mode, (1, 1)).getbands())
    return Image.frombytes(mode, size, random.Random(seed).randbytes(size[0] * size[1] * bands))


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png(path: Path, width: int, height: int, colour_type: int, depth: int, rows: list[bytes],
              interlaced: bool = False) -> None:
    """A minimal PNG writer for what pillow will not write. ``rows`` are unfiltered sample rows."""
    if interlaced:
        pixel = len(rows[0]) // width
        raw = b""
        for x0, y0, dx, dy in ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
                               (0, 1, 1, 2)):
            columns = range(x0, width, dx)
            if not columns:
                continue
            for y in range(y0, height, dy):
                raw += b"\0" + b"".join(rows[y][x * pixel:(x + 1) * pixel] for x in columns)
    else:
        raw = b"".join(b"\0" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 1 if interlaced else 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
                     + chunk(b"IEND", b""))


def idat_of(path: Path) -> bytes:
    """The PNG's IDAT chunk data, concatenated: read independently of pnp's parser."""
    data, position, found = path.read_bytes(), 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        if kind == b"IDAT":
            found += data[position + 8:position + 8 + length]
        position += 12 + length
    return found


# ----------------------------------------------------------------------------- PDF helpers


def pdf_with(tmp_path: Path, name: str, draw) -> Path:
    path = tmp_path / name
    canvas = Canvas(str(path), pagesize=(200, 180), invariant=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return path


def ours(path: Path, size: tuple[int, int], **options):
    return lambda canvas: draw_image(canvas, path, size, *BOX, **options)


def reportlabs(path: Path):
    return lambda canvas: canvas.drawImage(str(path), *BOX, mask="auto")


def raster(pdf: Path) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[0].render(scale=2).to_pil().convert("RGB")
    finally:
        document.close()


def largest_difference(a: Image.Image, b: Image.Image) -> int:
    return max(high for _, high in ImageChops.difference(a, b).getextrema())


def image_objects(pdf: Path) -> list:
    """Every image XObject in the file, soft masks included, each once."""
    reader = PdfReader(pdf)
    found = {}
    for number in range(1, len(reader.xref_objStm) + reader.trailer["/Size"]):
        try:
            obj = reader.get_object(number)
        except Exception:  # noqa: BLE001 - numbers past the table are simply absent
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            found[number] = obj
    return list(found.values())


def raw_stream(obj) -> bytes:
    """The stream's bytes as stored in the file, before any filter is undone."""
    return obj._data


def centre_pixel(pdf: Path) -> tuple[int, int, int]:
    image = raster(pdf)
    x, y, w, h = BOX
    return image.getpixel((round((x + w / 2) * 2), round((180 - y - h / 2) * 2)))


# ----------------------------------------------------------------------------- pass-through


def test_jpeg_stream_is_the_file(tmp_path: Path) -> None:
    source = tmp_path / "art.jpg"
    noise("RGB", (40, 30)).save(source, quality=90)
    pdf = pdf_with(tmp_path, "jpeg.pdf", ours(source, (40, 30)))
    (image,) = image_objects(pdf)
    assert image["/Filter"] == "/DCTDecode"
    assert raw_stream(image) == source.read_bytes()


def test_rgb_png_stream_is_its_idat_data(tmp_path: Path) -> None:
    source = tmp_path / "art.png"
    noise("RGB", (40, 30)).save(source, compress_level=1)
    pdf = pdf_with(tmp_path, "png.pdf", ours(source, (40, 30)))
    (image,) = image_objects(pdf)
    assert raw_stream(image) == idat_of(source)
    assert image["/Filter"] == "/FlateDecode"
    assert image["/ColorSpace"] == "/DeviceRGB"
    assert dict(image["/DecodeParms"]) == {"/Predictor": 15, "/Colors": 3, "/BitsPerComponent": 8, "/Columns": 40}
    assert largest_difference(raster(pdf), raster(pdf_with(tmp_path, "rl.pdf", reportlabs(source)))) <= 1


@pytest.mark.parametrize("mode, colours", [("P", 200), ("P", 5), ("L", None)])
def test_palette_and_grey_png_print_like_the_decoded_path(tmp_path: Path, mode: str, colours: int | None) -> None:
    source = tmp_path / "art.png"
    art = noise("RGB", (40, 30)).quantize(colours) if mode == "P" else noise("L", (40, 30))
    art.save(source)
    assert inspect_image(source).passes_through
    pdf = pdf_with(tmp_path, "ours.pdf", ours(source, (40, 30)))
    (image,) = image_objects(pdf)
    assert raw_stream(image) == idat_of(source)
    if mode == "P":
        assert image["/ColorSpace"][0] == "/Indexed"
        assert image["/ColorSpace"][2] == colours - 1
    reference = pdf_with(tmp_path, "rl.pdf", reportlabs(source))
    assert largest_difference(raster(pdf), raster(reference)) <= 1


def test_png_with_alpha_gets_a_soft_mask(tmp_path: Path) -> None:
    source = tmp_path / "half.png"
    Image.new("RGBA", (40, 30), (255, 0, 0, 128)).save(source)
    pdf = pdf_with(tmp_path, "alpha.pdf", ours(source, (40, 30)))
    colour = next(o for o in image_objects(pdf) if "/SMask" in o)
    mask = colour["/SMask"].get_object()
    assert mask["/ColorSpace"] == "/DeviceGray"
    assert (mask["/Width"], mask["/Height"]) == (40, 30)
    assert set(mask.get_data()) == {128}
    # red at alpha 128/255 over white paper: 255, 255 - 255 * 128/255 = 127 for green and blue
    red, green, blue = centre_pixel(pdf)
    assert red >= 254 and abs(green - 127) <= 1 and abs(blue - 127) <= 1
    noisy = tmp_path / "noisy.png"
    noise("RGBA", (40, 30)).save(noisy)
    ours_pdf = pdf_with(tmp_path, "noisy.pdf", ours(noisy, (40, 30)))
    assert largest_difference(raster(ours_pdf), raster(pdf_with(tmp_path, "rl.pdf", reportlabs(noisy)))) <= 1


def test_png_colour_key_becomes_a_pdf_mask(tmp_path: Path) -> None:
    """tRNS on an RGB PNG marks one colour transparent; PDF's /Mask says the same without decoding.

    (reportlab's drawImage ignores such a key and prints the colour; every PNG viewer hides it.)
    """
    source = tmp_path / "keyed.png"
    art = Image.new("RGB", (4, 3), (200, 0, 0))
    art.paste((10, 20, 30), (0, 0, 2, 3))  # left half in the key colour
    art.save(source, transparency=(10, 20, 30))
    assert inspect_image(source).passes_through
    pdf = pdf_with(tmp_path, "keyed.pdf", ours(source, (4, 3)))
    (image,) = image_objects(pdf)
    assert list(image["/Mask"]) == [10, 10, 20, 20, 30, 30]
    x, y, w, h = BOX
    page = raster(pdf)
    row = round((180 - y - h / 2) * 2)
    assert page.getpixel((round((x + w / 4) * 2), row)) == (255, 255, 255)  # paper shows through
    assert page.getpixel((round((x + 3 * w / 4) * 2), row)) == (200, 0, 0)


def test_sixteen_bit_png_is_decoded(tmp_path: Path) -> None:
    source = tmp_path / "deep.png"
    # every pixel 0x80FF 0x4000 0x0110: the high bytes 128, 64, 1 are what prints
    write_png(source, 4, 3, 2, 16, [bytes.fromhex("80ff40000110") * 4] * 3)
    assert inspect_image(source).decode_reason == "16-bit"
    pdf = pdf_with(tmp_path, "deep.pdf", ours(source, (4, 3)))
    (image,) = image_objects(pdf)
    assert image["/BitsPerComponent"] == 8
    assert image["/DecodeParms"]["/Predictor"] == 15  # decoded pixels are deflated with PNG row filters
    assert image.get_data() == bytes([128, 64, 1]) * 12
    assert centre_pixel(pdf) == (128, 64, 1)


def test_interlaced_png_is_decoded_and_prints_the_same(tmp_path: Path) -> None:
    art = noise("RGB", (40, 30))
    source = tmp_path / "interlaced.png"
    rows = [art.tobytes()[y * 120:(y + 1) * 120] for y in range(30)]
    write_png(source, 40, 30, 2, 8, rows, interlaced=True)
    with Image.open(source) as check:
        assert check.tobytes() == art.tobytes()  # the writer above is right
    assert inspect_image(source).decode_reason == "interlaced"
    pdf = pdf_with(tmp_path, "interlaced.pdf", ours(source, (40, 30)))
    (image,) = image_objects(pdf)
    assert raw_stream(image) != idat_of(source)
    assert image.get_data() == art.tobytes()
    assert largest_difference(raster(pdf), raster(pdf_with(tmp_path, "rl.pdf", reportlabs(source)))) <= 1


def test_each_distinct_image_is_embedded_once(tmp_path: Path) -> None:
    first, copy, other = tmp_path / "a.png", tmp_path / "copy-of-a.png", tmp_path / "b.jpg"
    noise("RGB", (40, 30)).save(first)
    copy.write_bytes(first.read_bytes())
    noise("RGB", (40, 30), seed=2).save(other)

    def nine_cards_each(canvas: Canvas) -> None:
        for index in range(9):
            x, y = 10 + 20 * (index % 3), 10 + 20 * (index // 3)
            for path in (first, copy, other):
                draw_image(canvas, path, (40, 30), x, y, 16, 12)

    pdf = pdf_with(tmp_path, "nine.pdf", nine_cards_each)
    assert len(image_objects(pdf)) == 2
    assert PdfReader(pdf).pages[0].get_contents().get_data().count(b" Do") == 27


def test_spliced_save_writes_the_same_bytes_as_an_inline_save(tmp_path: Path) -> None:
    """The save copies image bytes from disk and moves every xref offset; getpdfdata() holds them inline."""
    sources = []
    for index, (mode, suffix) in enumerate((("RGB", "png"), ("RGB", "jpg"), ("RGBA", "png"), ("L", "png"))):
        sources.append(tmp_path / f"art{index}.{suffix}")
        noise(mode, (40, 30), seed=index).save(sources[-1])

    def draw(canvas: Canvas) -> None:
        for page in range(2):
            for index, path in enumerate(sources):
                draw_image(canvas, path, (40, 30), 10 + 40 * index, 10 + 40 * page, 32, 24)
            canvas.showPage()

    saved = pdf_with(tmp_path, "saved.pdf", draw)
    canvas = Canvas(str(tmp_path / "unused.pdf"), pagesize=(200, 180), invariant=1)
    draw(canvas)
    canvas.showPage()
    assert saved.read_bytes() == canvas.getpdfdata()
    PdfReader(saved, strict=True).pages[1].extract_text()  # a strict reader accepts the offsets


def test_an_image_changed_before_the_save_stops_it(tmp_path: Path) -> None:
    source = tmp_path / "art.png"
    noise("RGB", (40, 30)).save(source)
    canvas = Canvas(str(tmp_path / "changed.pdf"), invariant=1)
    draw_image(canvas, source, (40, 30), *BOX)
    noise("RGB", (40, 30), seed=9).save(source, compress_level=9)
    with pytest.raises(ImageChangedError):
        canvas.save()


def test_recompress_is_smaller_and_prints_the_same(tmp_path: Path) -> None:
    source = tmp_path / "flat.png"
    Image.linear_gradient("L").convert("RGB").resize((160, 120)).save(source, compress_level=0)
    plain = pdf_with(tmp_path, "plain.pdf", ours(source, (160, 120)))
    small = pdf_with(tmp_path, "small.pdf", ours(source, (160, 120), recompress=True))
    (stored,), (squeezed,) = image_objects(plain), image_objects(small)
    assert len(raw_stream(squeezed)) < len(raw_stream(stored)) / 4  # level 0 stores the data uncompressed
    assert squeezed.get_data() == stored.get_data()
    assert largest_difference(raster(plain), raster(small)) == 0


def test_damaged_png_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "damaged.png"
    noise("RGB", (40, 30)).save(source)
    data = bytearray(source.read_bytes())
    data[60] ^= 0xFF  # inside the IDAT data: only the CRC tells
    source.write_bytes(bytes(data))
    with pytest.raises(images.ImageFormatError, match="bad CRC"):
        embed_image(Canvas(str(tmp_path / "x.pdf")), source)


def test_printed_dpi_for_the_bleed_box() -> None:
    # poker art with 3 mm bleed, 69.5 × 94.9 mm: across 821 / 69.5 × 25.4 = 300.05 dpi, down
    # 1121 / 94.9 × 25.4 = 300.04 dpi; covering prints at the lower of the two
    assert printed_dpi((821, 1121), (69.5, 94.9)) == pytest.approx(300.04, abs=0.005)
    # covering a wider box stretches by the tighter axis: 600 px over 50.8 mm = 300, 600 over 25.4 = 600
    assert printed_dpi((600, 600), (50.8, 25.4), "cover") == pytest.approx(300)
    assert printed_dpi((600, 600), (50.8, 25.4), "contain") == pytest.approx(600)

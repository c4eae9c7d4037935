"""Embedded ICC profiles: passed through as ICCBased colour spaces, or applied when pnp decodes the pixels.

The profiles are real: Pillow's (LittleCMS's) sRGB profile, and matrix/TRC profiles written below
by hand from the ICC specification (version 2.1): sRGB's primaries with a tone curve of gamma 1.0,
which makes a stored 128 mean half the light (sRGB 188), so a viewer that honours the profile
prints mid-grey art clearly lighter than one that prints the numbers as device RGB.
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from test_images import (
    BOX,
    centre_pixel,
    image_objects,
    largest_difference,
    noise,
    ours,
    pdf_with,
    raster,
    raw_stream,
)

from pnp.load.user_cache import read_json_cache
from pnp.render.cards import images
from pnp.render.cards.images import draw_image, inspect_image

GREY = (128, 128, 128)
SRGB_OF_LINEAR_128 = 188  # 128/255 of the light, written with the sRGB tone curve


# ----------------------------------------------------------------------------- profiles


def s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def xyz(x: float, y: float, z: float) -> bytes:
    return b"XYZ \0\0\0\0" + s15(x) + s15(y) + s15(z)


def assemble_profile(device_class: bytes, space: bytes, pcs: bytes, name: bytes,
                     tags: list[tuple[bytes, bytes]]) -> bytes:
    """An ICC 2.1 profile: the 128-byte header, the tag table, then the tags, each padded to 4 bytes.

    Every profile here has a description, a D50 white point and a copyright, before ``tags``.
    """
    text = name + b"\0"
    desc = b"desc\0\0\0\0" + struct.pack(">I", len(text)) + text + bytes(4 + 4 + 2 + 1 + 67)
    tags = [(b"desc", desc), (b"wtpt", xyz(0.9642, 1.0, 0.8249)), (b"cprt", b"text\0\0\0\0none\0\0\0\0"), *tags]
    offset = 128 + 4 + 12 * len(tags)
    table, body = struct.pack(">I", len(tags)), b""
    for signature, data in tags:
        data += bytes(-len(data) % 4)
        table += signature + struct.pack(">II", offset + len(body), len(data))
        body += data
    header = (struct.pack(">I", offset + len(body)) + bytes(4) + bytes.fromhex("02100000") + device_class + space
              + pcs + bytes(12) + b"acsp" + bytes(24) + struct.pack(">I", 0) + s15(0.9642) + s15(1.0)
              + s15(0.8249) + bytes(48))
    assert len(header) == 128
    return header + table + body


def icc_profile(space: str = "RGB", gamma: float = 1.0, padding: int = 0) -> bytes:
    """A display profile: sRGB's primaries (D50-adapted) or grey, each channel with a pure gamma curve.

    ``padding`` adds a private tag of that many bytes, to make a profile too big for one JPEG segment.
    """
    curve = b"curv\0\0\0\0" + struct.pack(">IH", 1, round(gamma * 256)) + b"\0\0"
    if space == "RGB":
        tags = [(b"rXYZ", xyz(0.4361, 0.2225, 0.0139)), (b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
                (b"bXYZ", xyz(0.1431, 0.0606, 0.7141)), (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)]
    else:
        tags = [(b"kTRC", curve)]
    if padding:
        tags.append((b"pnpz", b"data\0\0\0\0\0\0\0\0" + bytes(padding)))
    return assemble_profile(b"mntr", b"RGB " if space == "RGB" else b"GRAY", b"XYZ ", b"pnp test profile", tags)


def cmyk_profile() -> bytes:
    """A CMYK input profile (ICC 2.1): an 8-bit lookup table (lut8, 'mft1') from CMYK to Lab on a 2-point
    grid. Every ink darkens without a hue: cyan alone is a neutral grey (Lab 67, 0, 0; sRGB 164), where
    a CMYK that ignores the profile prints it cyan. Paper is Lab 90/30/0, which the relative intents
    map to white."""
    paper = (90.0, 30.0, 0.0)
    clut = b""
    for c in (0, 1):
        for m in (0, 1):
            for y in (0, 1):
                for k in (0, 1):
                    lightness, a, b = paper if not (c or m or y or k) else (
                        max(5.0, paper[0] * (1 - 0.25 * (c + m + y)) * (1 - 0.9 * k)), 0.0, 0.0)
                    clut += bytes([round(lightness / 100 * 255), round(a + 128), round(b + 128)])
    identity = b"".join(s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
    ramp = bytes(range(256))
    lut = b"mft1\0\0\0\0" + bytes([4, 3, 2, 0]) + identity + ramp * 4 + clut + ramp * 3
    return assemble_profile(b"scnr", b"CMYK", b"Lab ", b"pnp cmyk test profile", [(b"A2B0", lut)])


LINEAR = icc_profile()
SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()


def littlecms_reads(profile: bytes, mode: str) -> bool:
    """The hand-made profile is one: LittleCMS takes it, and it maps a stored 128 to sRGB 188."""
    linear = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    out = ImageCms.profileToProfile(Image.new(mode, (1, 1), 128), linear, ImageCms.createProfile("sRGB"),
                                    outputMode="RGB")
    return abs(out.getpixel((0, 0))[0] - SRGB_OF_LINEAR_128) <= 1


# ----------------------------------------------------------------------------- helpers


def art(tmp_path: Path, name: str, image: Image.Image, profile: bytes | None = None, **options) -> Path:
    path = tmp_path / name
    if profile is not None:
        options["icc_profile"] = profile
    image.save(path, **options)
    return path


def grey_card(tmp_path: Path, name: str, profile: bytes | None = None, mode: str = "RGB") -> Path:
    return art(tmp_path, name, Image.new(mode, (40, 30), GREY if mode != "L" else 128), profile)


def icc_streams(pdf: Path) -> list:
    reader = PdfReader(pdf)
    found = {}
    for number in range(1, reader.trailer["/Size"]):
        obj = reader.get_object(number)
        if hasattr(obj, "get") and "/N" in obj and "/Alternate" in obj:
            found[number] = obj
    return list(found.values())


def iccp_data(path: Path) -> bytes:
    """The compressed profile in a PNG's iCCP chunk, read independently of pnp's parser."""
    data, position = path.read_bytes(), 8
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        if kind == b"iCCP":
            chunk = data[position + 8:position + 8 + length]
            return chunk[chunk.index(b"\0") + 2:]
        position += 12 + length
    raise AssertionError("no iCCP chunk")


def app2_segments(path: Path) -> list[tuple[int, int]]:
    """(offset, length) of each ICC_PROFILE APP2 segment, marker included."""
    data, position, found = path.read_bytes(), 2, []
    while data[position + 1] != 0xDA:
        (length,) = struct.unpack(">H", data[position + 2:position + 4])
        if data[position + 1] == 0xE2 and data[position + 4:position + 16] == b"ICC_PROFILE\0":
            found.append((position, length + 2))
        position += 2 + length
    return found


# ----------------------------------------------------------------------------- pass-through


def test_a_tagged_png_carries_its_profile_and_prints_lighter(tmp_path: Path) -> None:
    assert littlecms_reads(LINEAR, "RGB")
    tagged = grey_card(tmp_path, "linear.png", LINEAR)
    plain = grey_card(tmp_path, "plain.png")
    pdf = pdf_with(tmp_path, "tagged.pdf", ours(tagged, (40, 30)))
    (image,) = image_objects(pdf)
    space = image["/ColorSpace"]
    assert space[0] == "/ICCBased"
    icc = space[1].get_object()
    assert (icc["/N"], icc["/Alternate"], icc["/Filter"]) == (3, "/DeviceRGB", "/FlateDecode")
    assert icc.get_data() == LINEAR
    assert raw_stream(icc) == iccp_data(tagged)  # spliced as it is in the file, not inflated and deflated
    assert raw_stream(image) == raw_stream(image_objects(pdf_with(tmp_path, "plain.pdf", ours(plain, (40, 30))))[0])
    assert centre_pixel(pdf_with(tmp_path, "plain.pdf", ours(plain, (40, 30)))) == GREY
    lighter = centre_pixel(pdf)
    assert all(abs(value - SRGB_OF_LINEAR_128) <= 3 for value in lighter), lighter


@pytest.mark.parametrize("suffix", ["png", "jpg"])
def test_srgb_tagged_art_prints_like_untagged_art(tmp_path: Path, suffix: str) -> None:
    picture = noise("RGB", (40, 30))
    tagged = art(tmp_path, f"srgb.{suffix}", picture, SRGB)
    plain = art(tmp_path, f"plain.{suffix}", picture)
    pdf = pdf_with(tmp_path, "tagged.pdf", ours(tagged, (40, 30)))
    (image,) = image_objects(pdf)
    assert image["/ColorSpace"][0] == "/ICCBased"
    assert image["/ColorSpace"][1].get_object().get_data() == SRGB
    assert largest_difference(raster(pdf), raster(pdf_with(tmp_path, "plain.pdf", ours(plain, (40, 30))))) <= 2


def test_a_palette_png_gets_an_indexed_space_on_its_profile(tmp_path: Path) -> None:
    tagged = art(tmp_path, "palette.png", Image.new("RGB", (40, 30), GREY).quantize(4), LINEAR)
    assert inspect_image(tagged).passes_through
    pdf = pdf_with(tmp_path, "palette.pdf", ours(tagged, (40, 30)))
    (image,) = image_objects(pdf)
    indexed, base, hival, palette = image["/ColorSpace"]
    assert (indexed, base[0], base[1].get_object()["/N"]) == ("/Indexed", "/ICCBased", 3)
    assert base[1].get_object().get_data() == LINEAR
    assert (hival + 1) * 3 == len(palette.original_bytes)  # one RGB triple per index, none missing
    assert all(abs(value - SRGB_OF_LINEAR_128) <= 3 for value in centre_pixel(pdf))


def test_a_jpeg_profile_split_over_two_segments_is_joined_in_order(tmp_path: Path) -> None:
    big = icc_profile(padding=100_000)  # Pillow writes at most 65,519 profile bytes per APP2 segment
    tagged = art(tmp_path, "linear.jpg", Image.new("RGB", (40, 30), GREY), big, quality=95)
    segments = app2_segments(tagged)
    assert len(segments) == 2
    # swap the two segments in the file: the sequence numbers, not the file order, say how they join
    data = tagged.read_bytes()
    (first, first_length), (second, second_length) = segments
    assert first + first_length == second
    swapped = tmp_path / "swapped.jpg"
    end = second + second_length
    swapped.write_bytes(data[:first] + data[second:end] + data[first:second] + data[end:])
    with Image.open(swapped) as check:
        assert check.info["icc_profile"] == big  # Pillow agrees
    plain = art(tmp_path, "plain.jpg", Image.new("RGB", (40, 30), GREY), quality=95)
    plain_pixel = centre_pixel(pdf_with(tmp_path, "plain.pdf", ours(plain, (40, 30))))
    for path in (tagged, swapped):
        pdf = pdf_with(tmp_path, f"{path.stem}.pdf", ours(path, (40, 30)))
        (image,) = image_objects(pdf)
        assert raw_stream(image) == path.read_bytes()
        icc = image["/ColorSpace"][1].get_object()
        assert (icc["/N"], icc["/Alternate"], "/Filter" in icc) == (3, "/DeviceRGB", False)
        assert icc.get_data() == big
        pixel = centre_pixel(pdf)
        assert all(ours_ >= plain_ + 40 for ours_, plain_ in zip(pixel, plain_pixel, strict=True)), pixel


def test_cards_with_one_profile_share_one_icc_stream(tmp_path: Path) -> None:
    cards = [art(tmp_path, f"card{index}.png", noise("RGB", (40, 30), seed=index), LINEAR) for index in range(3)]
    cards.append(art(tmp_path, "card.jpg", noise("RGB", (40, 30), seed=9), LINEAR))
    cards.append(art(tmp_path, "srgb.png", noise("RGB", (40, 30), seed=5), SRGB))
    cards.append(art(tmp_path, "plain.png", noise("RGB", (40, 30), seed=6)))

    def two_pages(canvas: Canvas) -> None:
        for _page in range(2):
            for index, path in enumerate(cards):
                draw_image(canvas, path, (40, 30), 5 + 32 * index, 10, 30, 22)
            canvas.showPage()

    pdf = pdf_with(tmp_path, "deck.pdf", two_pages)
    profiles = sorted(bytes(stream.get_data()) for stream in icc_streams(pdf))
    assert profiles == sorted([LINEAR, SRGB])
    spaces = [image["/ColorSpace"] for image in image_objects(pdf)]
    linear_refs = {space[1].idnum for space in spaces if space[0] == "/ICCBased"
                   and space[1].get_object().get_data() == LINEAR}
    assert len(linear_refs) == 1
    assert sum(1 for space in spaces if space == "/DeviceRGB") == 1
    # the same deck again is the same bytes; and an inline save (getpdfdata) agrees with the spliced one
    assert pdf_with(tmp_path, "again.pdf", two_pages).read_bytes() == pdf.read_bytes()
    canvas = Canvas(str(tmp_path / "unused.pdf"), pagesize=(200, 180), invariant=1)
    two_pages(canvas)
    canvas.showPage()
    assert canvas.getpdfdata() == pdf.read_bytes()
    PdfReader(pdf, strict=True).pages[1].extract_text()


def test_only_a_profile_that_fits_the_image_is_embedded(tmp_path: Path) -> None:
    grey_profile = icc_profile("GRAY")
    assert littlecms_reads(grey_profile, "L")
    rgb_with_grey_profile = grey_card(tmp_path, "wrong.png", grey_profile)
    jpeg_with_grey_profile = art(tmp_path, "wrong.jpg", Image.new("RGB", (40, 30), GREY), grey_profile)
    grey_with_rgb_profile = grey_card(tmp_path, "wrong-grey.png", LINEAR, mode="L")
    grey_with_grey_profile = grey_card(tmp_path, "grey.png", grey_profile, mode="L")
    not_a_profile = grey_card(tmp_path, "garbage.png", b"not an ICC profile" * 20)
    for path in (rgb_with_grey_profile, jpeg_with_grey_profile, grey_with_rgb_profile, not_a_profile):
        assert inspect_image(path).profile is None
        pdf = pdf_with(tmp_path, f"{path.stem}.pdf", ours(path, (40, 30)))
        (image,) = image_objects(pdf)
        assert image["/ColorSpace"] in ("/DeviceRGB", "/DeviceGray")
        assert icc_streams(pdf) == []
        assert centre_pixel(pdf) == GREY or path.suffix == ".jpg"
    pdf = pdf_with(tmp_path, "grey.pdf", ours(grey_with_grey_profile, (40, 30)))
    (image,) = image_objects(pdf)
    icc = image["/ColorSpace"][1].get_object()
    assert (icc["/N"], icc["/Alternate"], icc.get_data()) == (1, "/DeviceGray", grey_profile)
    assert all(abs(value - SRGB_OF_LINEAR_128) <= 3 for value in centre_pixel(pdf))


def test_a_damaged_iccp_chunk_is_ignored(tmp_path: Path) -> None:
    tagged = grey_card(tmp_path, "linear.png", LINEAR)
    data = tagged.read_bytes()
    start = data.index(b"iCCP")
    length = struct.unpack(">I", data[start - 4:start])[0]
    chunk = bytearray(data[start + 4:start + 4 + length])
    chunk[-6:] = bytes(6)  # the end of the zlib stream, checksum included: CRC right, profile wrong
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(data[:start - 4] + struct.pack(">I", length) + b"iCCP" + bytes(chunk)
                        + struct.pack(">I", zlib.crc32(b"iCCP" + bytes(chunk))) + data[start + 8 + length:])
    assert inspect_image(tagged).profile is not None
    assert inspect_image(damaged).profile is None
    assert centre_pixel(pdf_with(tmp_path, "damaged.pdf", ours(damaged, (40, 30)))) == GREY


def test_recompressed_png_keeps_its_profile(tmp_path: Path) -> None:
    gradient = Image.linear_gradient("L").convert("RGB").resize((160, 120))
    tagged = art(tmp_path, "linear.png", gradient, LINEAR, compress_level=0)
    plain = pdf_with(tmp_path, "plain.pdf", ours(tagged, (160, 120)))
    small = pdf_with(tmp_path, "small.pdf", ours(tagged, (160, 120), recompress=True))
    (image,) = image_objects(small)
    assert image["/ColorSpace"][1].get_object().get_data() == LINEAR
    assert len(raw_stream(image)) < len(raw_stream(image_objects(plain)[0])) / 4
    assert largest_difference(raster(plain), raster(small)) == 0


# ----------------------------------------------------------------------------- decoded art


def test_decoded_art_is_converted_to_srgb(tmp_path: Path) -> None:
    """An RGBA PNG is decoded (alpha becomes a soft mask): its profile is applied to the pixels."""
    tagged = art(tmp_path, "linear.png", Image.new("RGBA", (40, 30), (*GREY, 255)), LINEAR)
    assert inspect_image(tagged).decode_reason == "alpha"
    pdf = pdf_with(tmp_path, "decoded.pdf", ours(tagged, (40, 30)))
    colour = next(o for o in image_objects(pdf) if "/SMask" in o)
    assert colour["/ColorSpace"] == "/DeviceRGB"
    assert icc_streams(pdf) == []
    assert set(colour.get_data()) == {SRGB_OF_LINEAR_128}
    # the same pixels passed through with their profile print the same
    passed = pdf_with(tmp_path, "passed.pdf", ours(grey_card(tmp_path, "rgb.png", LINEAR), (40, 30)))
    assert largest_difference(raster(pdf), raster(passed)) <= 2


def test_decoded_grey_stays_grey_in_srgb(tmp_path: Path) -> None:
    tagged = art(tmp_path, "grey.png", Image.new("LA", (40, 30), (128, 255)), icc_profile("GRAY"))
    pdf = pdf_with(tmp_path, "grey.pdf", ours(tagged, (40, 30)))
    colour = next(o for o in image_objects(pdf) if "/SMask" in o)
    assert colour["/ColorSpace"] == "/DeviceGray"
    assert set(colour.get_data()) == {SRGB_OF_LINEAR_128}


def test_resampled_art_is_converted_to_srgb(tmp_path: Path) -> None:
    tagged = art(tmp_path, "linear.png", Image.new("RGB", (400, 300), GREY), LINEAR)
    path = tmp_path / "resampled.pdf"
    canvas = Canvas(str(path), pagesize=(200, 180), invariant=1)
    draw_image(canvas, tagged, (400, 300), *BOX, max_dpi=100)  # 400 px over 160 pt is 180 dpi
    canvas.showPage()
    canvas.save()
    (image,) = image_objects(path)
    assert image["/Width"] < 400
    assert image["/ColorSpace"] == "/DeviceRGB"
    assert set(image.get_data()) == {SRGB_OF_LINEAR_128}


# ----------------------------------------------------------------------------- remembered facts


def test_the_profile_is_remembered_with_the_other_facts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(images, "_FACTS", {})
    monkeypatch.setattr(images, "_NEW_FACTS", {})
    monkeypatch.setattr(images, "_facts_loaded", set())
    source = inspect_image(art(tmp_path, "linear.jpg", Image.new("RGB", (40, 30), GREY), LINEAR))
    assert source.profile is not None and source.profile.components == 3
    images.save_image_facts()
    stored = read_json_cache(images.facts_file(str(source.path.parent)))
    assert source.digest in json.dumps(stored)
    images._FACTS.clear()
    images._facts_loaded.clear()
    remembered = images._remembered_facts(str(source.path), source.digest)
    assert remembered is not None
    # facts written before profiles were remembered (six fields) are not trusted: the file is read again
    images._FACTS["0" * 64] = ["png", 40, 30, None, [], [[8, 10]]]
    assert images._remembered_facts(str(source.path), "0" * 64) is None
    assert images.SourceImage(source.path, source.digest, source.signature, *remembered) == source


@pytest.mark.parametrize("suffix", ["png", "jpg"])
def test_a_version_4_profile_makes_the_file_pdf_1_5(tmp_path: Path, suffix: str) -> None:
    """PDF 1.4 names ICC.1:1998 (version 2) for ICCBased spaces; version 4 profiles came with PDF 1.5,
    so a preflight that reads the header against the profiles expects 1.5. A version 2 profile, or
    none, leaves the file as it was."""
    assert SRGB[8] == 4 and LINEAR[8] == 2  # LittleCMS writes version 4; the hand-made one is 2.1
    picture = noise("RGB", (40, 30))
    headers = {}
    for name, profile in (("v4", SRGB), ("v2", LINEAR), ("none", None)):
        path = art(tmp_path, f"{name}.{suffix}", picture, profile)
        headers[name] = pdf_with(tmp_path, f"{name}.pdf", ours(path, (40, 30))).read_bytes()[:8]
    assert headers["v4"] == b"%PDF-1.5"
    assert headers["v2"] == headers["none"] < b"%PDF-1.5"  # reportlab's own choice, 1.3 for this page


CYAN = (255, 0, 0, 0)


def neutral(pixel: tuple[int, int, int]) -> bool:
    return max(pixel) - min(pixel) <= 12


def test_the_cmyk_test_profile_is_one_littlecms_reads() -> None:
    profile = ImageCms.ImageCmsProfile(io.BytesIO(cmyk_profile()))
    out = ImageCms.profileToProfile(Image.new("CMYK", (1, 1), CYAN), profile, ImageCms.createProfile("sRGB"),
                                    outputMode="RGB")
    assert neutral(out.getpixel((0, 0))) and 150 <= out.getpixel((0, 0))[0] <= 180


def test_a_tagged_cmyk_jpeg_passes_through_on_its_profile(tmp_path: Path) -> None:
    """The JPEG goes in as it is, on [/ICCBased] with /N 4; pdfium prints cyan ink as the profile
    says, a neutral grey, where the same file without the profile prints cyan."""
    tagged = art(tmp_path, "tagged.jpg", Image.new("CMYK", (40, 30), CYAN), cmyk_profile(), quality=95)
    plain = art(tmp_path, "plain.jpg", Image.new("CMYK", (40, 30), CYAN), quality=95)
    pdf = pdf_with(tmp_path, "tagged.pdf", ours(tagged, (40, 30)))
    (image,) = image_objects(pdf)
    assert image["/ColorSpace"][0] == "/ICCBased" and image["/Filter"] == "/DCTDecode"
    icc = image["/ColorSpace"][1].get_object()
    assert (icc["/N"], icc["/Alternate"]) == (4, "/DeviceCMYK") and icc.get_data() == cmyk_profile()
    assert raw_stream(image) == tagged.read_bytes()
    assert neutral(centre_pixel(pdf)), centre_pixel(pdf)
    red, green, blue = centre_pixel(pdf_with(tmp_path, "plain.pdf", ours(plain, (40, 30))))
    assert blue - red > 100  # without the profile, cyan


def test_decoded_cmyk_art_is_converted_with_its_profile(tmp_path: Path) -> None:
    """A CMYK TIFF cannot pass through: it is decoded, and converted to sRGB with its profile."""
    tagged = art(tmp_path, "tagged.tif", Image.new("CMYK", (40, 30), CYAN), cmyk_profile())
    pdf = pdf_with(tmp_path, "tiff.pdf", ours(tagged, (40, 30)))
    (image,) = image_objects(pdf)
    assert image["/ColorSpace"] == "/DeviceRGB"
    assert neutral(centre_pixel(pdf)), centre_pixel(pdf)

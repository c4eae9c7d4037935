"""Images pnp has to make: art a PDF cannot carry as it is, decoded once and parked in a spool file.

Alpha becomes a soft mask, 16-bit samples and palettes with transparency become 8-bit RGB, an
embedded ICC profile converts the pixels to sRGB, and ``--max-dpi`` resamples; ``--recompress``
deflates a PNG's data again without decoding it. Everything made goes to a temporary spool file,
so no image bytes stay in memory, and the PDF writer copies them from there.
"""

from __future__ import annotations

import io
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from pnp.render.pdf.image_files import ImageFormatError, SourceImage, icc_components, png_chunks
from pnp.render.pdf.pdf_images import IccProfile, ImageStream
from pnp.render.pdf.stream_contents import FileRanges, Spool

if TYPE_CHECKING:
    from PIL import Image

DEFAULT_LEVEL = 6  # zlib's default, as reportlab uses for decoded images
RECOMPRESS_LEVEL = 9
JPEG_QUALITY = 90  # resampled JPEG art: visually lossless at print sizes
RELATIVE_COLORIMETRIC = 1  # LittleCMS rendering intent; PDF's default for images, so decoded art matches


def profile_stream(source: SourceImage) -> IccProfile | None:
    """The profile a pass-through stream carries, copied from the file when the PDF is saved."""
    profile = source.profile
    if profile is None:
        return None
    content = FileRanges(source.path, profile.ranges, source.signature)
    return IccProfile(profile.digest, profile.components, content, profile.flate, profile.version)


_SPOOL = Spool()


def _fresh_state_after_fork() -> None:
    """A forked build worker gets its own spool: a shared file would share its read/write offset."""
    global _SPOOL
    _SPOOL = Spool()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_state_after_fork)


def _unchanged(source: SourceImage) -> None:
    stat = os.stat(source.path)
    if (stat.st_size, stat.st_mtime_ns) != source.signature:
        raise ImageFormatError(f"{source.path.name} changed during the build; build again")


def recompressed(source: SourceImage) -> tuple[ImageStream, ImageStream | None]:
    """The same PNG predictor data, deflated at level 9: smaller, lossless, no pixel decoded."""
    _unchanged(source)
    with open(source.path, "rb") as handle:
        compressed = b"".join(_read_range(handle, offset, length) for offset, length in source.ranges)
    data = zlib.compress(zlib.decompress(compressed), RECOMPRESS_LEVEL)
    return ImageStream(source.width, source.height, source.entries, _SPOOL.add(data), profile_stream(source)), None


def _read_range(handle: BinaryIO, offset: int, length: int) -> bytes:
    handle.seek(offset)
    return handle.read(length)


def decoded(source: SourceImage, recompress: bool,
             size: tuple[int, int] | None = None) -> tuple[ImageStream, ImageStream | None]:
    """The image decoded once (and, with ``size``, resampled to it with a Lanczos filter).

    Pixels are deflated with their alpha as a soft mask; a resampled JPEG stays a JPEG (quality 90).
    An embedded ICC profile that fits the pixels converts them to sRGB (LittleCMS, relative
    colorimetric, as PDF viewers render ICCBased images), and they go in untagged as device grey or
    RGB, like all other decoded art: one colour space for everything pnp makes.
    """
    from PIL import Image
    level = RECOMPRESS_LEVEL if recompress else DEFAULT_LEVEL
    _unchanged(source)
    try:
        with Image.open(source.path) as opened:
            opened.load()
            image = _upright(opened, source.orientation)
            alpha = _alpha(image)
            colour, profile = _colour(image)
            if size is not None:
                colour = colour.resize(size, Image.Resampling.LANCZOS)
                alpha = alpha.resize(size, Image.Resampling.LANCZOS) if alpha is not None else None
            if profile is not None:
                colour = _to_srgb(colour, profile)
    except (OSError, ValueError) as exc:  # CRCs can be right and the data still wrong
        raise ImageFormatError(f"{source.path.name} cannot be decoded ({exc})") from None
    space = "/DeviceGray" if colour.mode == "L" else "/DeviceRGB"
    if size is not None and source.kind == "jpeg":
        encoded = io.BytesIO()
        colour.save(encoded, "JPEG", quality=JPEG_QUALITY, optimize=False)
        entries = (("BitsPerComponent", "8"), ("ColorSpace", space), ("Filter", "/DCTDecode"))
        colour_stream = ImageStream(colour.width, colour.height, entries, _SPOOL.add(encoded.getvalue()))
    else:
        colour_stream = _flate_stream(colour, space, level)
    mask_stream = _flate_stream(alpha, "/DeviceGray", level) if alpha is not None else None
    return colour_stream, mask_stream


def _upright(image: Image.Image, orientation: int) -> Image.Image:
    """The pixels as shown: decoded art is stored upright, since only a passed-through stream can be
    turned where it is drawn. Only the orientation pnp read counts, so a picture looks the same
    whether it passes through or is decoded."""
    from PIL import Image
    turns = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
             5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
             8: Image.Transpose.ROTATE_90}
    return image.transpose(turns[orientation]) if orientation in turns else image


def _flate_stream(image: Image.Image, space: str, level: int) -> ImageStream:
    """Decoded pixels as a Flate stream with PNG row prediction: Pillow's PNG encoder picks a filter
    per row, which halves the size of smooth art against deflating raw rows. The PNG's IDAT data
    is the stream, exactly as pass-through embeds a PNG file's."""
    encoded = io.BytesIO()
    image.save(encoded, "PNG", compress_level=level)
    data = encoded.getvalue()
    idat = [(kind, start, length) for kind, start, length in png_chunks(Path("decoded.png"), data) if kind == b"IDAT"]
    colours = 1 if image.mode == "L" else 3
    entries = (("BitsPerComponent", "8"), ("ColorSpace", space), ("Filter", "/FlateDecode"),
               ("DecodeParms", f"<< /Predictor 15 /Colors {colours} /BitsPerComponent 8 /Columns {image.width} >>"))
    content = b"".join(data[start:start + length] for _, start, length in idat)
    return ImageStream(image.width, image.height, entries, _SPOOL.add(content))


def _alpha(image: Image.Image) -> Image.Image | None:
    if image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in image.info:
        return image.convert("RGBA").getchannel("A")
    return None


def _colour(image: Image.Image) -> tuple[Image.Image, bytes | None]:
    """8-bit colour pixels, and the ICC profile to convert them from (None: print them as they are).

    A profile whose colour space does not match the pixels is ignored, as pass-through ignores it.
    CMYK pixels are only kept as CMYK for their profile to convert.
    """
    profile = image.info.get("icc_profile") or None
    if profile is not None and image.mode == "CMYK" and icc_components(profile) == 4:
        return image, profile
    colour = _eight_bit(image)
    if profile is not None and image.mode != "CMYK" and icc_components(profile) == len(colour.getbands()):
        return colour, profile
    return colour, None


def _to_srgb(colour: Image.Image, profile: bytes) -> Image.Image:
    """Pixels converted from their profile to sRGB; grey stays grey. A profile LittleCMS refuses is ignored."""
    from PIL import ImageCms

    global _srgb
    try:
        if _srgb is None:
            _srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))
        converted = ImageCms.profileToProfile(colour, ImageCms.ImageCmsProfile(io.BytesIO(profile)), _srgb,
                                              renderingIntent=RELATIVE_COLORIMETRIC,
                                              outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError):
        return _eight_bit(colour)
    assert converted is not None
    return converted.convert("L") if colour.mode == "L" else converted


_srgb = None  # LittleCMS's sRGB profile, made on first use


def _eight_bit(image: Image.Image) -> Image.Image:
    """Grey stays grey; everything else becomes RGB. 16-bit grey keeps its high byte."""
    if image.mode.startswith("I"):
        return image.convert("I").point(lambda value: value * (1 / 256)).convert("L")
    if image.mode in ("1", "L", "LA", "La"):
        return image.convert("L")
    return image.convert("RGB")


"""What an image file holds, read without decoding a pixel: PNG chunks and JPEG segments.

A PDF can carry a JPEG as is and most PNGs as is, so the build needs only each file's size,
colour space, compressed-data ranges, ICC profile and EXIF orientation, and whether it must be
decoded after all (alpha, 16-bit samples, interlacing, palette transparency, other formats).
These facts are what :mod:`pnp.render.cards.images` remembers per content digest, so a later build
reads none of them again.
"""

from __future__ import annotations

import hashlib
import io
import os
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnp.diagnostics import DataError
from pnp.load.digests import digest_of_bytes
from pnp.render.pdf.pdf_images import ICC_REFERENCE

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PASS_THROUGH_DEPTHS = {0: (1, 2, 4, 8), 2: (8,), 3: (1, 2, 4, 8)}  # PNG colour type -> bit depths a PDF takes
COLOURS = {0: 1, 2: 3, 3: 1}

ICC_SPACES = {b"GRAY": 1, b"RGB ": 3, b"CMYK": 4}  # profile colour space signature -> components
ICC_CLASSES = {b"scnr", b"mntr", b"prtr", b"spac"}  # the device classes a PDF ICCBased space takes
ICC_HEADER = 128
MAX_PROFILE = 64 << 20  # an iCCP chunk inflating to more than this is no profile worth trusting
JPEG_ICC = b"ICC_PROFILE\0"  # APP2 payload: this, sequence number (from 1), count, profile piece
JPEG_EXIF = b"Exif\0\0"  # APP1 payload: this, then a TIFF structure whose first IFD may hold Orientation
EXIF_ORIENTATION = 0x0112
QUARTER_TURNS = frozenset({5, 6, 7, 8})  # EXIF orientations that swap width and height


class ImageFormatError(DataError, ValueError):
    """The file is not an image pnp can read, or it is damaged: the user's to fix, so no traceback."""

    def __init__(self, message: str, file: Path | None = None) -> None:
        super().__init__(message, file, None, "save the picture again as PNG or JPEG")


@dataclass(frozen=True)
class ProfileFacts:
    """An embedded ICC profile that fits the image, and where its bytes are in the file."""

    digest: str  # sha256 of the profile itself (not of its compressed form)
    components: int  # 1, 3 or 4: the N of the ICCBased space
    flate: bool  # the ranges hold the profile zlib-compressed (PNG iCCP), not as it is (JPEG APP2)
    ranges: tuple[tuple[int, int], ...]  # (offset, length), joined in order
    version: int = 2  # the ICC major version: 4 needs PDF 1.5 (PDF 1.4 names ICC.1:1998, version 2)


@dataclass(frozen=True)
class SourceImage:
    """What a file holds and how it goes into a PDF; ``decode_reason`` is None for pass-through."""

    path: Path
    digest: str  # sha256 of the file's bytes
    signature: tuple[int, int]  # (size, mtime_ns) when hashed
    kind: Literal["png", "jpeg", "other"]
    width: int
    height: int
    decode_reason: str | None
    entries: tuple[tuple[str, str], ...] = ()  # stream dictionary for pass-through
    ranges: tuple[tuple[int, int], ...] = ()  # (offset, length) of the bytes copied for pass-through
    profile: ProfileFacts | None = None  # pass-through only; ``entries`` then name ICC_REFERENCE
    orientation: int = 1  # EXIF Orientation (1-8; a JPEG's APP1, a PNG's eXIf): how the pixels turn for display

    @property
    def passes_through(self) -> bool:
        return self.decode_reason is None

    @property
    def shown_size(self) -> tuple[int, int]:
        """Width and height as every photo viewer shows the picture: EXIF orientations 5 to 8 turn it
        a quarter, so a phone's portrait photo stored landscape is a portrait card."""
        return (self.height, self.width) if self.orientation in QUARTER_TURNS else (self.width, self.height)



def analyse(path: Path, data: bytes, stat: os.stat_result) -> SourceImage:
    digest = digest_of_bytes(path, stat, data)
    signature = (stat.st_size, stat.st_mtime_ns)
    if data.startswith(PNG_SIGNATURE):
        return _analyse_png(path, data, digest, signature)
    if data.startswith(b"\xff\xd8"):
        jpeg = _analyse_jpeg(path, data, digest, signature)
        if jpeg is not None:
            return jpeg
    from PIL import Image  # only for formats a PDF cannot carry as they are

    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except Image.DecompressionBombError:
        # Pillow's own limit, a hundred times what a card needs: say so without its "DOS attack"
        raise ImageFormatError(f"{path.name} has more pixels than pnp decodes (at most "
                               f"{2 * Image.MAX_IMAGE_PIXELS / 1e6:.0f} megapixels): resample it") from None
    except (OSError, ValueError) as exc:
        # Pillow names the buffer it was given ("<_io.BytesIO object at 0x...>"): of no use to the user
        why = "" if "cannot identify image file" in str(exc) else f" ({exc})"
        raise ImageFormatError(f"{path.name} is not an image pnp can read{why}: use PNG, JPEG or SVG") from None
    return SourceImage(path, digest, signature, "other", width, height, "not PNG or JPEG")


def png_chunks(path: Path, data: bytes) -> Iterator[tuple[bytes, int, int]]:
    """(type, data offset, data length) of each chunk up to IEND, CRCs checked.

    Pass-through copies bytes without decoding them, so this is the one place a damaged file can
    be caught before it reaches the printer.
    """
    position = len(PNG_SIGNATURE)
    while True:
        if position + 8 > len(data):
            raise ImageFormatError(f"{path.name}: PNG ends before its IEND chunk")
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        start, end = position + 8, position + 8 + length
        if end + 4 > len(data):
            raise ImageFormatError(f"{path.name}: PNG chunk {kind!r} runs past the end of the file")
        (crc,) = struct.unpack(">I", data[end:end + 4])
        if zlib.crc32(data[position + 4:end]) != crc:
            raise ImageFormatError(f"{path.name}: PNG chunk {kind.decode('latin-1')} is damaged (bad CRC)")
        yield kind, start, length
        if kind == b"IEND":
            return
        position = end + 4


def _analyse_png(path: Path, data: bytes, digest: str, signature: tuple[int, int]) -> SourceImage:
    header = palette = transparency = iccp = None
    orientation = 1
    idat: list[tuple[int, int]] = []
    for kind, start, length in png_chunks(path, data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[start:start + 13])
        elif kind == b"PLTE":
            palette = data[start:start + length]
        elif kind == b"tRNS":
            transparency = data[start:start + length]
        elif kind == b"IDAT":
            idat.append((start, length))
        elif kind == b"iCCP" and iccp is None:
            iccp = (start, length)
        elif kind == b"eXIf" and orientation == 1:  # the TIFF structure a JPEG's APP1 holds after "Exif"
            orientation = _exif_orientation(data[start:start + length])
    if header is None or not idat:
        raise ImageFormatError(f"{path.name}: PNG without IHDR or image data")
    width, height, depth, colour_type, _compression, _filter, interlace = header
    reason = _png_decode_reason(depth, colour_type, interlace, palette, transparency)
    if reason is not None:
        return SourceImage(path, digest, signature, "png", width, height, reason, orientation=orientation)
    profile = _png_profile(data, *iccp, 1 if colour_type == 0 else 3) if iccp is not None else None
    entries = [("BitsPerComponent", str(depth)),
               ("ColorSpace", _png_colour_space(colour_type, palette, profile is not None)),
               ("Filter", "/FlateDecode"),
               ("DecodeParms", f"<< /Predictor 15 /Colors {COLOURS[colour_type]} /BitsPerComponent {depth} "
                               f"/Columns {width} >>")]
    if transparency is not None:  # grey or RGB colour key: PDF's Mask takes the same ranges
        samples = struct.unpack(f">{len(transparency) // 2}H", transparency)
        entries.append(("Mask", "[" + " ".join(f"{v} {v}" for v in samples) + "]"))
    return SourceImage(path, digest, signature, "png", width, height, None, tuple(entries), tuple(idat), profile,
                       orientation)


def _png_decode_reason(depth: int, colour_type: int, interlace: int, palette: bytes | None,
                       transparency: bytes | None) -> str | None:
    if colour_type in (4, 6):
        return "alpha"
    if colour_type == 3 and transparency is not None:
        return "alpha"  # palette transparency is per entry: it needs a soft mask
    if colour_type == 3 and not palette:
        return "palette missing"
    if interlace:
        return "interlaced"
    if depth not in PASS_THROUGH_DEPTHS.get(colour_type, ()):
        return f"{depth}-bit"
    return None


def _png_colour_space(colour_type: int, palette: bytes | None, tagged: bool = False) -> str:
    """The PDF colour space; ``tagged``: ICCBased on the profile (a palette's base space is)."""
    if colour_type == 0:
        return f"[/ICCBased {ICC_REFERENCE}]" if tagged else "/DeviceGray"
    base = f"[/ICCBased {ICC_REFERENCE}]" if tagged else "/DeviceRGB"
    if colour_type == 2:
        return base
    assert palette is not None
    return f"[/Indexed {base} {len(palette) // 3 - 1} <{palette.hex()}>]"


def _png_profile(data: bytes, start: int, length: int, components: int) -> ProfileFacts | None:
    """The iCCP chunk's profile if it is sound and fits the image; its compressed bytes are what is embedded.

    The chunk holds a name (1 to 79 bytes), a zero byte, the compression method (0: zlib) and the
    zlib stream, which is exactly a PDF FlateDecode stream. It is inflated once, to check the header.
    """
    end = start + length
    null = data.find(b"\0", start, min(end, start + 80))
    if null <= start or null + 2 >= end or data[null + 1] != 0:
        return None
    inflater = zlib.decompressobj()
    try:
        profile = inflater.decompress(data[null + 2:end], MAX_PROFILE)
    except zlib.error:
        return None
    if not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
        return None
    return _profile_facts(profile, components, True, ((null + 2, end - null - 2),))


def _profile_facts(profile: bytes, components: int, flate: bool,
                   ranges: tuple[tuple[int, int], ...]) -> ProfileFacts | None:
    """Facts of a profile whose colour space has the image's components; None: print as if untagged."""
    if icc_components(profile) != components:
        return None
    return ProfileFacts(hashlib.sha256(profile).hexdigest(), components, flate, ranges, profile[8])


def icc_components(profile: bytes) -> int | None:
    """The components of a profile's colour space, from a header that looks like an ICC profile's."""
    if len(profile) < ICC_HEADER + 4 or profile[36:40] != b"acsp" or profile[12:16] not in ICC_CLASSES:
        return None
    (size,) = struct.unpack(">I", profile[:4])
    if not ICC_HEADER + 4 <= size <= len(profile):
        return None
    return ICC_SPACES.get(profile[16:20])


SOF_PASS_THROUGH = {0xC0, 0xC1, 0xC2}  # baseline, extended sequential, progressive (Huffman)
SOF_OTHER = {0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
STANDALONE = {0x01, *range(0xD0, 0xD9)}


def _analyse_jpeg(path: Path, data: bytes, digest: str, signature: tuple[int, int]) -> SourceImage | None:
    """Size and components from the frame header; None if the file is not a JPEG we can read.

    The markers are read up to the first scan, so APP2 profile pieces after the frame header count too.
    """
    position, adobe, frame, orientation = 2, False, None, 1
    icc: list[tuple[int, int, int, int]] = []  # (sequence number, count, offset, length) of profile pieces
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            break
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        if marker in STANDALONE:
            position += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, start of scan: no more headers
            break
        (length,) = struct.unpack(">H", data[position + 2:position + 4])
        segment = data[position + 4:position + 2 + length]
        if marker == 0xEE and segment.startswith(b"Adobe"):
            adobe = True
        elif marker == 0xE1 and segment.startswith(JPEG_EXIF) and orientation == 1:
            orientation = _exif_orientation(segment[len(JPEG_EXIF):])
        elif marker == 0xE2 and segment.startswith(JPEG_ICC) and len(segment) > len(JPEG_ICC) + 2:
            skip = len(JPEG_ICC) + 2
            icc.append((segment[skip - 2], segment[skip - 1], position + 4 + skip, len(segment) - skip))
        elif (marker in SOF_PASS_THROUGH or marker in SOF_OTHER) and frame is None:
            if len(segment) < 6:
                return None
            frame = marker, *struct.unpack(">BHHB", segment[:6])
        position += 2 + length
    if frame is None:
        return None
    marker, precision, height, width, components = frame
    if marker in SOF_OTHER or precision != 8 or components not in (1, 3, 4):
        return SourceImage(path, digest, signature, "jpeg", width, height, "JPEG coding PDF lacks",
                           orientation=orientation)
    profile = _jpeg_profile(data, icc, components)
    space = {1: "/DeviceGray", 3: "/DeviceRGB", 4: "/DeviceCMYK"}[components]
    if profile is not None:
        space = f"[/ICCBased {ICC_REFERENCE}]"
    entries = [("BitsPerComponent", "8"), ("ColorSpace", space), ("Filter", "/DCTDecode")]
    if components == 4 and adobe:  # Adobe writes CMYK inverted; Pillow reads it so too
        entries.append(("Decode", "[1 0 1 0 1 0 1 0]"))
    return SourceImage(path, digest, signature, "jpeg", width, height, None, tuple(entries),
                       ((0, len(data)),), profile, orientation)


def _exif_orientation(tiff: bytes) -> int:
    """The Orientation tag of an Exif block's first IFD (1 to 8); 1 when absent or unreadable.

    A TIFF structure: byte order (``II`` little-endian, ``MM`` big-endian), 42, the first IFD's
    offset; an IFD is a count and 12-byte entries (tag, type, count, value), a SHORT value first.
    """
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    order = "<" if tiff[:2] == b"II" else ">"
    (ifd,) = struct.unpack(order + "I", tiff[4:8])
    if ifd + 2 > len(tiff):
        return 1
    (count,) = struct.unpack(order + "H", tiff[ifd:ifd + 2])
    for entry in range(ifd + 2, min(ifd + 2 + 12 * count, len(tiff) - 11), 12):
        tag, kind, _, value = struct.unpack(order + "HHIH", tiff[entry:entry + 10])
        if tag == EXIF_ORIENTATION and kind == 3:  # SHORT
            return value if 1 <= value <= 8 else 1
    return 1


def _jpeg_profile(data: bytes, pieces: list[tuple[int, int, int, int]], components: int) -> ProfileFacts | None:
    """The profile the APP2 pieces make, joined by sequence number, if they are complete and it fits."""
    if not pieces:
        return None
    count = pieces[0][1]
    pieces = sorted(pieces)
    if [piece[0] for piece in pieces] != list(range(1, count + 1)) or any(piece[1] != count for piece in pieces):
        return None
    ranges = tuple((offset, length) for _, _, offset, length in pieces)
    return _profile_facts(b"".join(data[offset:offset + length] for offset, length in ranges), components,
                          False, ranges)

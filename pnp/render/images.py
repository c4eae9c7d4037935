"""Card art from image files, placed in a box and clipped to it, at the speed of copying the file.

Decoding and re-encoding art is what makes card tools slow (issue 9). A PDF can carry a JPEG as is
(DCTDecode) and most PNGs as is: 8-bit or less, not interlaced, grey, RGB or palette, no alpha. Their
compressed IDAT data is already a FlateDecode stream with the PNG predictor, so it is copied byte for
byte. Only what a PDF cannot carry is decoded, once per process: alpha (split into a soft mask),
16-bit samples, interlacing, palette transparency, and formats other than PNG and JPEG.

An embedded ICC profile (a PNG's iCCP chunk, a JPEG's ICC_PROFILE APP2 segments) goes along as an
ICCBased colour space, again without decoding a pixel: the iCCP data is already a FlateDecode stream,
the APP2 payloads joined are the profile. Pixels pnp decodes are converted to sRGB with it instead.

An image is known by a hash of its content, so the same art under two names, or drawn on every card
back, is embedded once per document. The hash is computed once per process per file; a file's size
and modification time only tell us when to compute it again.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import struct
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pnp.diagnostics import DataError
from pnp.load.digests import digest_of_bytes, known_digest, remembered_digests
from pnp.load.user_cache import merge_json_cache, read_json_cache, user_cache_dir
from pnp.render.pdf_images import (
    ICC_REFERENCE,
    FileRanges,
    IccProfile,
    ImageStream,
    Spool,
    draw_registered,
    register_image,
)

if TYPE_CHECKING:
    from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DEFAULT_LEVEL = 6  # zlib's default, as reportlab uses for decoded images
RECOMPRESS_LEVEL = 9
JPEG_QUALITY = 90  # resampled JPEG art: visually lossless at print sizes
PASS_THROUGH_DEPTHS = {0: (1, 2, 4, 8), 2: (8,), 3: (1, 2, 4, 8)}  # PNG colour type -> bit depths a PDF takes
COLOURS = {0: 1, 2: 3, 3: 1}
ART_BLEED_MM = 3.0  # the bleed card art is drawn with (docs/image-decks.md): 69.5 × 94.9 mm for poker
PT_PER_MM = 72 / 25.4


ICC_SPACES = {b"GRAY": 1, b"RGB ": 3, b"CMYK": 4}  # profile colour space signature -> components
ICC_CLASSES = {b"scnr", b"mntr", b"prtr", b"spac"}  # the device classes a PDF ICCBased space takes
ICC_HEADER = 128
MAX_PROFILE = 64 << 20  # an iCCP chunk inflating to more than this is no profile worth trusting
JPEG_ICC = b"ICC_PROFILE\0"  # APP2 payload: this, sequence number (from 1), count, profile piece
JPEG_EXIF = b"Exif\0\0"  # APP1 payload: this, then a TIFF structure whose first IFD may hold Orientation
EXIF_ORIENTATION = 0x0112
QUARTER_TURNS = frozenset({5, 6, 7, 8})  # EXIF orientations that swap width and height
RELATIVE_COLORIMETRIC = 1  # LittleCMS rendering intent; PDF's default for images, so decoded art matches


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


# ----------------------------------------------------------------------------- public API


def draw_image(canvas, path: Path, pixel_size: tuple[int, int], x: float, y: float, w: float, h: float,
               fit: str = "cover", recompress: bool = False, max_dpi: float | None = None) -> None:
    """Scale to cover (fill, cropping) or contain (fit whole) the box, centred; ``pixel_size`` is the
    picture's size as shown (:attr:`SourceImage.shown_size`).

    ``recompress`` trades speed for a smaller file: PNG data is inflated and deflated again at
    zlib level 9 (still lossless, no pixels decoded); JPEGs are always kept as they are.
    ``max_dpi``: art that would print finer than this is resampled down to it (:func:`resampled_size`).
    """
    image_w, image_h = pixel_size
    scale = (max if fit == "cover" else min)(w / image_w, h / image_h)
    draw_w, draw_h = image_w * scale, image_h * scale
    size = resampled_size(pixel_size, draw_w, max_dpi) if max_dpi else None
    name, orientation = embed_image(canvas, Path(path), recompress, size)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    draw_registered(canvas, name, x + (w - draw_w) / 2, y + (h - draw_h) / 2, draw_w, draw_h, orientation)
    canvas.restoreState()


def embed_image(canvas, path: Path, recompress: bool = False,
                size: tuple[int, int] | None = None) -> tuple[str, int]:
    """Register the file's image in the canvas's document (once): the name that draws it, and the EXIF
    orientation its stream still has (a passed-through JPEG keeps its pixels as stored; pnp turns
    what it decodes upright).

    ``size``: the pixels to resample the image to, as shown (after its orientation), or None.
    """
    source = inspect_image(path)
    if size is not None and (size == source.shown_size or not can_resample(source)):
        size = None
    key = source.digest[:32] + ("z" if recompress and source.kind != "jpeg" else "")
    if size is not None:
        key += f"r{size[0]}x{size[1]}"
    colour, mask = image_streams(source, recompress, size)
    passed_through = size is None and source.passes_through
    return register_image(canvas, key, colour, mask), source.orientation if passed_through else 1


def decode_ahead(requests: Iterable[tuple[Path, tuple[int, int] | None]], recompress: bool = False) -> None:
    """Make the streams of art that must be decoded (alpha, other formats, resampling), on all cores,
    before drawing asks for them one by one.

    ``requests`` are (file, size to resample to or None) as drawing will ask. Pillow releases the GIL
    while it decodes, resamples and encodes, so threads share the work: a deck of 900 RGBA PNGs is
    decoded in about half the time on two cores. Best effort: art that fails here, or is asked for
    at another size when drawn, is made (and any problem reported) when it is drawn.
    """
    wanted: dict[tuple, tuple[SourceImage, tuple[int, int] | None]] = {}
    for path, size in requests:
        try:
            source = inspect_image(Path(path))
        except (DataError, OSError):
            continue
        if size is not None and (size == (source.width, source.height) or not can_resample(source)):
            size = None
        if size is None and source.passes_through and (not recompress or source.kind == "jpeg"):
            continue  # copied as it is: nothing to make
        key = (source.digest, recompress, size)
        with _LOCK:
            known = key in _MADE
        if not known:
            wanted.setdefault(key, (source, size))
    workers = min(os.cpu_count() or 1, len(wanted))
    if workers < 2:
        return

    def make(item: tuple[SourceImage, tuple[int, int] | None]) -> None:
        with contextlib.suppress(DataError, OSError):
            image_streams(item[0], recompress, item[1])

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(make, wanted.values()):
            pass


def resampled_size(pixel_size: tuple[int, int], drawn_width_pt: float, max_dpi: float) -> tuple[int, int] | None:
    """The pixels the art needs to print at ``max_dpi`` where it is drawn this wide; None if it has no more.

    Both sides shrink by the same factor, so the art keeps its shape; a home printer gains nothing from
    art finer than it prints, and a 600 dpi deck makes a PDF four times the size of a 300 dpi one.
    """
    image_w, image_h = pixel_size
    dpi = image_w / (drawn_width_pt / 72)
    if dpi <= max_dpi + 0.5:
        return None
    factor = max_dpi / dpi
    return max(1, round(image_w * factor)), max(1, round(image_h * factor))


def can_resample(source: SourceImage) -> bool:
    """JPEGs in CMYK keep their pixels (and profile): resampling would turn a print-ready file into RGB."""
    return not (source.kind == "jpeg" and ("ColorSpace", "/DeviceCMYK") in source.entries)


def art_bleed_mm(sheet_bleed_mm: float) -> float:
    """How far art drawn with bleed reaches past the trim on every edge: its own bleed, or the sheet's
    if that is wider (the art is then scaled up a little so the wider bleed is still covered)."""
    return max(ART_BLEED_MM, sheet_bleed_mm)


def art_bleed_box(trim: tuple[float, float, float, float], sheet_bleed_mm: float) -> tuple[float, float, float, float]:
    """The box that art drawn with bleed should cover: the trim grown by :func:`art_bleed_mm` on every edge.

    The same on every card of the sheet, wherever it sits: not the slot's bleed rectangle, which
    stops at the trim where cards abut on a shared cut line. Art scaled into that would shrink and
    show its bleed inside the card, and with a sheet bleed wider than the art's, cards on the
    sheet's edge would be scaled unlike those inside (and their art embedded at several sizes).
    The imposition clips the art to the slot's bleed rectangle.
    """
    grow = art_bleed_mm(sheet_bleed_mm) * PT_PER_MM
    x, y, w, h = trim
    return x - grow, y - grow, w + 2 * grow, h + 2 * grow


def printed_dpi(pixel_size: tuple[int, int], box_mm: tuple[float, float], fit: str = "cover") -> float:
    """Pixels per inch of the art as printed: covering a box stretches it by the tighter axis."""
    (image_w, image_h), (box_w, box_h) = pixel_size, box_mm
    per_mm = (min if fit == "cover" else max)(image_w / box_w, image_h / box_h)
    return per_mm * 25.4


def inspect_image(path: Path) -> SourceImage:
    """Hash and parse a file once (again only if its stat changes), reading nothing when it is known.

    Memoised by absolute path, so a deck drawing the same art thousands of times pays one ``stat``
    per draw. Across builds, a file whose digest the index remembers (:mod:`pnp.load.digests`) and
    whose facts are remembered under that digest is not read at all until its bytes are copied.
    """
    key = os.path.abspath(path)
    stat = os.stat(key)
    signature = (stat.st_size, stat.st_mtime_ns)
    with _LOCK:
        known = _SOURCES.get(key)
    if known is not None and known.signature == signature:
        return known
    absolute = Path(key)
    digest = known_digest(key, stat)
    facts = _remembered_facts(digest) if digest is not None else None
    if digest is not None and facts is not None:
        source = SourceImage(absolute, digest, signature, *facts)
    else:
        data = absolute.read_bytes()
        if len(data) != signature[0]:
            raise ImageFormatError(f"{absolute} changed while it was being read")
        source = _analyse(absolute, data, stat)
        _remember_facts(source)
    with _LOCK:
        _SOURCES[key] = source
    return source


def learn_from_bytes(path: Path, stat: os.stat_result, data: bytes) -> None:
    """Analyse an image from bytes read for another reason (hashing), so the build need not read it again.

    A file that is not an image pnp can pass through, or a damaged one, is left for
    :func:`inspect_image` to read and report when a layout uses it.
    """
    if not (data.startswith(PNG_SIGNATURE) or data.startswith(b"\xff\xd8")):
        return
    try:
        source = _analyse(Path(os.path.abspath(path)), data, stat)
    except ImageFormatError:
        return
    _remember_facts(source)
    with _LOCK:
        _SOURCES[os.path.abspath(path)] = source


def save_image_facts() -> None:
    """Add the facts learnt by this process to the user cache, for the next build to skip reading."""
    with _LOCK:
        if not _NEW_FACTS:
            return
        new = dict(_NEW_FACTS)
        _NEW_FACTS.clear()
    def contents_some_file_has(remembered: dict) -> dict:
        # facts of contents no remembered file has any more (art re-exported since) are dropped
        live = remembered_digests() | set(new)
        return {digest: facts for digest, facts in remembered.items() if digest in live}

    merge_json_cache(user_cache_dir() / FACTS_NAME, new, PRUNE_FACTS_ABOVE, contents_some_file_has, MAX_FACTS)


def _remembered_facts(digest: str) -> tuple | None:
    """What :func:`_analyse` found in a file with this digest, from this process or the user cache.

    Facts are keyed by content, so they hold for any file with these bytes; a PNG is only
    remembered after its chunks' CRCs were checked.
    """
    global _facts_from
    path = user_cache_dir() / FACTS_NAME
    with _LOCK:
        if _facts_from != path:
            _FACTS.update(read_json_cache(path))
            _facts_from = path
        entry = _FACTS.get(digest)
    try:
        kind, width, height, reason, entries, ranges, profile, orientation = entry
        if profile is not None:
            profile_digest, components, flate, profile_ranges, version = profile
            profile = ProfileFacts(str(profile_digest), int(components), bool(flate),
                                   tuple((int(o), int(n)) for o, n in profile_ranges), int(version))
        return (kind, int(width), int(height), reason, tuple((str(k), str(v)) for k, v in entries),
                tuple((int(o), int(n)) for o, n in ranges), profile, int(orientation))
    except (TypeError, ValueError):
        return None


def _remember_facts(source: SourceImage) -> None:
    profile = source.profile
    entry = [source.kind, source.width, source.height, source.decode_reason,
             [list(e) for e in source.entries], [list(r) for r in source.ranges],
             None if profile is None else [profile.digest, profile.components, profile.flate,
                                           [list(r) for r in profile.ranges], profile.version],
             source.orientation]
    with _LOCK:
        _FACTS[source.digest] = entry
        _NEW_FACTS[source.digest] = entry


def image_streams(source: SourceImage, recompress: bool = False,
                  size: tuple[int, int] | None = None) -> tuple[ImageStream, ImageStream | None]:
    """The colour stream and, for images with alpha, the soft mask stream (``size``: resampled to it).

    Streams that pnp makes (decoded, recompressed or resampled) are made once per process and parked
    in a temporary spool file, so neither the document nor this cache holds image bytes in memory.
    """
    if size is None and source.passes_through and (not recompress or source.kind == "jpeg"):
        content = FileRanges(source.path, source.ranges, source.signature)
        return ImageStream(source.width, source.height, source.entries, content, _icc(source)), None
    key = (source.digest, recompress, size)
    with _LOCK:
        made = _MADE.get(key)
    if made is None:
        if size is not None:
            made = _decoded(source, recompress, size)
        else:
            made = _recompressed(source) if source.passes_through else _decoded(source, recompress)
        with _LOCK:
            _MADE[key] = made
    return made


# ----------------------------------------------------------------------------- parsing


_LOCK = threading.Lock()
_SOURCES: dict[str, SourceImage] = {}
_FACTS: dict[str, list] = {}  # content digest -> facts, as remembered in FACTS_NAME
_NEW_FACTS: dict[str, list] = {}
_facts_from: Path | None = None
FACTS_NAME = "image-facts-v5.json"  # v2: ICC profile; v3: its version; v4: EXIF orientation; v5: in PNGs
PRUNE_FACTS_ABOVE = 5_000  # read on every build that draws art: past this, a save keeps only live contents
MAX_FACTS = 100_000
_MADE: dict[tuple[str, bool, tuple[int, int] | None], tuple[ImageStream, ImageStream | None]] = {}


def _analyse(path: Path, data: bytes, stat: os.stat_result) -> SourceImage:
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
    except (OSError, ValueError) as exc:
        # Pillow names the buffer it was given ("<_io.BytesIO object at 0x...>"): of no use to the user
        why = "" if "cannot identify image file" in str(exc) else f" ({exc})"
        raise ImageFormatError(f"{path.name} is not an image pnp can read{why}: use PNG, JPEG or SVG") from None
    return SourceImage(path, digest, signature, "other", width, height, "not PNG or JPEG")


def _png_chunks(path: Path, data: bytes) -> Iterator[tuple[bytes, int, int]]:
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
    for kind, start, length in _png_chunks(path, data):
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
    if _icc_components(profile) != components:
        return None
    return ProfileFacts(hashlib.sha256(profile).hexdigest(), components, flate, ranges, profile[8])


def _icc_components(profile: bytes) -> int | None:
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


def _icc(source: SourceImage) -> IccProfile | None:
    """The profile a pass-through stream carries, copied from the file when the PDF is saved."""
    profile = source.profile
    if profile is None:
        return None
    content = FileRanges(source.path, profile.ranges, source.signature)
    return IccProfile(profile.digest, profile.components, content, profile.flate, profile.version)


# ----------------------------------------------------------------------------- images pnp has to make


_SPOOL = Spool()


def _fresh_state_after_fork() -> None:
    """A forked build worker gets its own spool: a shared file would share its read/write offset."""
    global _LOCK, _SPOOL
    _LOCK, _SPOOL = threading.Lock(), Spool()
    _MADE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_state_after_fork)


def _unchanged(source: SourceImage) -> None:
    stat = os.stat(source.path)
    if (stat.st_size, stat.st_mtime_ns) != source.signature:
        raise ImageFormatError(f"{source.path.name} changed during the build; build again")


def _recompressed(source: SourceImage) -> tuple[ImageStream, ImageStream | None]:
    """The same PNG predictor data, deflated at level 9: smaller, lossless, no pixel decoded."""
    _unchanged(source)
    with open(source.path, "rb") as handle:
        compressed = b"".join(_read_range(handle, offset, length) for offset, length in source.ranges)
    data = zlib.compress(zlib.decompress(compressed), RECOMPRESS_LEVEL)
    return ImageStream(source.width, source.height, source.entries, _SPOOL.add(data), _icc(source)), None


def _read_range(handle, offset: int, length: int) -> bytes:
    handle.seek(offset)
    return handle.read(length)


def _decoded(source: SourceImage, recompress: bool,
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
    idat = [(kind, start, length) for kind, start, length in _png_chunks(Path("decoded.png"), data) if kind == b"IDAT"]
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
    if profile is not None and image.mode == "CMYK" and _icc_components(profile) == 4:
        return image, profile
    colour = _eight_bit(image)
    if profile is not None and image.mode != "CMYK" and _icc_components(profile) == len(colour.getbands()):
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

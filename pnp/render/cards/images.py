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

This module is the part the renderers call, and what it remembers: reading files is
:mod:`pnp.render.pdf.image_files`, making the streams pnp must decode :mod:`pnp.render.pdf.image_decoding`.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.diagnostics import DataError
from pnp.load.digests import known_digest, remembered_digests
from pnp.load.guarded import read_input
from pnp.load.user_cache import FOLDER_KEY, folder_shard, merge_folder_shard, read_json_cache, user_cache_dir
from pnp.render.pdf.image_decoding import decoded, profile_stream, recompressed
from pnp.render.pdf.image_files import PNG_SIGNATURE, ImageFormatError, ProfileFacts, SourceImage, analyse
from pnp.render.pdf.pdf_images import ImageStream, draw_registered, register_image
from pnp.render.pdf.stream_contents import FileRanges

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

ART_BLEED_MM = 3.0  # the bleed card art is drawn with (docs/image-decks.md): 69.5 × 94.9 mm for poker
PT_PER_MM = 72 / 25.4

_LOCK = threading.Lock()
_SOURCES: dict[str, SourceImage] = {}
_FACTS: dict[str, list] = {}  # content digest -> facts, from this process or the shards read
_NEW_FACTS: dict[str, dict[str, list]] = {}  # folder -> {digest: facts} learnt here, not yet on disk
_facts_loaded: set[tuple[Path, str]] = set()  # (cache folder, picture folder) whose facts were read
# v2: ICC profile; v3: its version; v4: EXIF orientation; v5: in PNGs; v6: one file per folder of pictures
FACTS_FOLDER = "image-facts-v6"
PRUNE_FACTS_ABOVE = 2_000  # facts of one folder: past this, a save keeps only contents its files have
MAX_FACTS = 100_000
_MADE: dict[tuple[str, bool, tuple[int, int] | None], tuple[ImageStream, ImageStream | None]] = {}


def _fresh_state_after_fork() -> None:
    """A forked build worker starts with its own lock and makes its own streams (in its own spool)."""
    global _LOCK
    _LOCK = threading.Lock()
    _MADE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_state_after_fork)


def draw_image(canvas: Canvas, path: Path, pixel_size: tuple[int, int], x: float, y: float, w: float, h: float,
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


def embed_image(canvas: Canvas, path: Path, recompress: bool = False,
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
    facts = _remembered_facts(key, digest) if digest is not None else None
    if digest is not None and facts is not None:
        source = SourceImage(absolute, digest, signature, *facts)
    else:
        data = read_input(absolute, "art")
        if len(data) != signature[0]:
            raise ImageFormatError(f"{absolute} changed while it was being read")
        source = analyse(absolute, data, stat)
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
        source = analyse(Path(os.path.abspath(path)), data, stat)
    except ImageFormatError:
        return
    _remember_facts(source)
    with _LOCK:
        _SOURCES[os.path.abspath(path)] = source


def facts_file(folder: str) -> Path:
    """Where the facts of the pictures in ``folder`` (an absolute path) are remembered."""
    return folder_shard(FACTS_FOLDER, folder)


def save_image_facts() -> None:
    """Add the facts learnt by this process to the user cache, for the next build to skip reading."""
    with _LOCK:
        if not _NEW_FACTS:
            return
        new = dict(_NEW_FACTS)
        _NEW_FACTS.clear()
    for folder, facts in new.items():
        def contents_its_files_have(remembered: dict, folder: str = folder, facts: dict = facts) -> dict:
            # facts of contents no file of the folder has any more (art re-exported since) are dropped
            live = remembered_digests(folder) | set(facts)
            return {digest: entry for digest, entry in remembered.items() if digest in live}

        merge_folder_shard(FACTS_FOLDER, folder, facts, PRUNE_FACTS_ABOVE, contents_its_files_have, MAX_FACTS)


def _remembered_facts(path: str, digest: str) -> tuple | None:
    """What :func:`~pnp.render.pdf.image_files.analyse` found in a file with this digest, from this process
    or the user cache (the facts of the folder of ``path``, an absolute path).

    Facts are keyed by content, so they hold for any file with these bytes; a PNG is only
    remembered after its chunks' CRCs were checked.
    """
    folder = os.path.dirname(path)
    loaded = (user_cache_dir(), folder)
    if loaded not in _facts_loaded:
        remembered = read_json_cache(facts_file(folder))
        with _LOCK:
            remembered.pop(FOLDER_KEY, None)
            for known, entry in remembered.items():
                _FACTS.setdefault(known, entry)
            _facts_loaded.add(loaded)
    with _LOCK:
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
        _NEW_FACTS.setdefault(os.path.dirname(os.path.abspath(source.path)), {})[source.digest] = entry


def image_streams(source: SourceImage, recompress: bool = False,
                  size: tuple[int, int] | None = None) -> tuple[ImageStream, ImageStream | None]:
    """The colour stream and, for images with alpha, the soft mask stream (``size``: resampled to it).

    Streams that pnp makes (decoded, recompressed or resampled) are made once per process and parked
    in a temporary spool file, so neither the document nor this cache holds image bytes in memory.
    """
    if size is None and source.passes_through and (not recompress or source.kind == "jpeg"):
        content = FileRanges(source.path, source.ranges, source.signature)
        return ImageStream(source.width, source.height, source.entries, content, profile_stream(source)), None
    key = (source.digest, recompress, size)
    with _LOCK:
        made = _MADE.get(key)
    if made is None:
        if size is not None:
            made = decoded(source, recompress, size)
        else:
            made = recompressed(source) if source.passes_through else decoded(source, recompress)
        with _LOCK:
            _MADE[key] = made
    return made

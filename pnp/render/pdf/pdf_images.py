"""Image XObjects whose bytes reportlab never sees: embedded once, copied into the file at save time.

reportlab's own ``drawImage`` decodes every PNG and deflates the pixels again (ASCII85 on top), and
keeps the result in memory until ``save()``, where it is copied twice more. For a deck of card art
that is both the slow part and the memory. Here an image is described by its stream dictionary and a
:class:`StreamContent` that says where its bytes live (a file's byte ranges, or a spool file for
images that had to be decoded; pnp/render/pdf/stream_contents.py). While reportlab formats the
document, each such stream is written as a short placeholder; the save then copies the file,
splicing each image's bytes in from disk and correcting the cross-reference offsets. The document
in memory holds no image bytes at any time.

A document saved any other way (``canvas.getpdfdata()``, or an encrypted document) gets its image
bytes inline, so the output is always a valid PDF.

An image may carry an ICC profile (:class:`IccProfile`): its colour space names ICC_REFERENCE, and
the profile is written once per document as an ICC stream, shared by every image with that profile,
spliced the same way.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO

from reportlab.pdfbase.pdfdoc import NoEncryption, PDFDocument, PDFObject, PDFObjectReference
from reportlab.pdfbase.pdfdoc import format as pdf_format

from pnp.render.pdf.stream_contents import FileRanges, ImageChangedError, StreamContent, read_all

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

MARKER_PREFIX = b"%%pnp-spliced-image:"
ICC_REFERENCE = "{icc}"  # in an ImageStream's entries: replaced by the reference to its ICC stream
ALTERNATES = {1: "/DeviceGray", 3: "/DeviceRGB", 4: "/DeviceCMYK"}  # ICC stream /N -> /Alternate


@dataclass(frozen=True)
class IccProfile:
    """An ICC profile for ``[/ICCBased ...]`` colour spaces, embedded once per document by ``digest``."""

    digest: str  # of the profile itself, so a profile compressed differently is still the same one
    components: int  # /N: 1, 3 or 4
    content: StreamContent
    flate: bool = False  # ``content`` is the profile zlib-compressed (a PNG's iCCP data): /FlateDecode
    version: int = 2  # ICC major version; 4 (ICC.1:2001 and later) first appears in PDF 1.5


@dataclass(frozen=True)
class ImageStream:
    """One image XObject: its dictionary entries (besides Length and SMask) and its content.

    ``entries`` are written as given, e.g. ``("ColorSpace", "/DeviceRGB")``, so the caller decides
    the exact PDF, and tests can predict it; with a ``profile``, ICC_REFERENCE in them becomes the
    reference to its ICC stream, e.g. ``("ColorSpace", "[/ICCBased {icc}]")``.
    """

    width: int
    height: int
    entries: tuple[tuple[str, str], ...]
    content: StreamContent
    profile: IccProfile | None = None


class SplicedImageXObject(PDFObject):
    """An image XObject formatted by us, so reportlab neither re-encodes nor holds its bytes."""

    def __init__(self, stream: ImageStream, store: DocumentImages, smask: PDFObjectReference | None = None,
                 icc: PDFObjectReference | None = None):
        self.stream = stream
        self.store = store
        self.smask = smask
        self.icc = icc

    def format(self, document: PDFDocument) -> bytes:
        stream = self.stream
        parts = [f"/Type /XObject /Subtype /Image /Width {stream.width} /Height {stream.height}"]
        parts += [f"/{key} {value}" for key, value in stream.entries]
        head = " ".join(parts)
        if self.icc is not None:
            head = head.replace(ICC_REFERENCE, pdf_format(self.icc, document).decode("latin-1"))
        head = head.encode("latin-1")
        if self.smask is not None:
            head += b" /SMask " + pdf_format(self.smask, document)
        return _spliced_stream(self.store, document, head, stream.content)


class SplicedIccProfile(PDFObject):
    """An ICC stream (the profile behind ``[/ICCBased ...]``), its bytes spliced like an image's."""

    def __init__(self, profile: IccProfile, store: DocumentImages):
        self.profile = profile
        self.store = store

    def format(self, document: PDFDocument) -> bytes:
        profile = self.profile
        head = f"/N {profile.components} /Alternate {ALTERNATES[profile.components]}"
        if profile.flate:
            head += " /Filter /FlateDecode"
        return _spliced_stream(self.store, document, head.encode("latin-1"), profile.content)


def _spliced_stream(store: DocumentImages, document: PDFDocument, head: bytes, content: StreamContent) -> bytes:
    """A stream object: a placeholder for its bytes in a splicing save, else the bytes themselves."""
    if store.splicing and isinstance(document.encrypt, NoEncryption):
        body, length = store.placeholder(content), content.length
    else:
        body = document.encrypt.encode(read_all(content))
        length = len(body)
    return b"<< " + head + b" /Length %d >>\nstream\n" % length + body + b"\nendstream\n"


@dataclass
class DocumentImages:
    """The images of one PDF document: which are registered, and the placeholders of a save."""

    names: dict[str, str] = field(default_factory=dict)  # image key -> XObject name
    profiles: dict[str, PDFObjectReference] = field(default_factory=dict)  # profile digest -> ICC stream
    splicing: bool = False
    pending: list[tuple[bytes, StreamContent]] = field(default_factory=list)
    nonce: bytes = b""

    def begin_save(self) -> None:
        """Placeholders carry a random part, so no text printed on a card can imitate one."""
        self.splicing, self.pending, self.nonce = True, [], os.urandom(12).hex().encode()

    def placeholder(self, content: StreamContent) -> bytes:
        marker = MARKER_PREFIX + self.nonce + b":%08d" % len(self.pending)
        self.pending.append((marker, content))
        return marker


def document_images(canvas: Canvas) -> DocumentImages:
    """The image registry of the canvas's document, created (with the splicing save) on first use."""
    doc = canvas._doc
    store = getattr(doc, "_pnp_images", None)
    if store is None:
        store = DocumentImages()
        doc._pnp_images = store
        # an instance attribute shadows PDFDocument.SaveToFile for this document only
        doc.SaveToFile = lambda filename, canvas: save_spliced(doc, store, filename, canvas)
    return store


def register_image(canvas: Canvas, key: str, colour: ImageStream, mask: ImageStream | None = None) -> str:
    """Add an image XObject once per document; returns the name that draws it."""
    store = document_images(canvas)
    name = store.names.get(key)
    if name is not None:
        return name
    doc = canvas._doc
    name = f"pnp{key}"
    icc_ref = None
    if colour.profile is not None:
        icc_ref = store.profiles.get(colour.profile.digest)
        if icc_ref is None:
            icc_ref = doc.Reference(SplicedIccProfile(colour.profile, store), f"pnpICC{colour.profile.digest[:32]}")
            if colour.profile.version >= 4:  # the header says 1.4 otherwise, which names ICC version 2 only
                doc._pdfVersion = max(doc._pdfVersion, (1, 5))
            store.profiles[colour.profile.digest] = icc_ref
    smask_ref = None
    if mask is not None:
        smask_ref = doc.Reference(SplicedImageXObject(mask, store), doc.getXObjectName(name + "m"))
    doc.Reference(SplicedImageXObject(colour, store, smask_ref, icc_ref), doc.getXObjectName(name))
    store.names[key] = name
    return name


#: EXIF orientation -> the matrix that turns the unit square an image fills, so the stored pixels show
#: as a photo viewer shows them (2 and 4 mirror, 3 turns half, 6 and 8 a quarter, 5 and 7 transpose)
ORIENTATION_MATRICES = {
    1: (1, 0, 0, 1, 0, 0), 2: (-1, 0, 0, 1, 1, 0), 3: (-1, 0, 0, -1, 1, 1), 4: (1, 0, 0, -1, 0, 1),
    5: (0, -1, -1, 0, 1, 1), 6: (0, -1, 1, 0, 0, 1), 7: (0, 1, 1, 0, 0, 0), 8: (0, 1, -1, 0, 1, 0),
}


def draw_registered(canvas: Canvas, name: str, x: float, y: float, width: float, height: float,
                    orientation: int = 1) -> None:
    """Paint a registered image into the rectangle: the same operators reportlab's drawImage writes,
    turned for its EXIF ``orientation`` (the rectangle is the picture as shown)."""
    canvas._currentPageHasImages = 1  # reportlab lists the image procedure sets for such pages
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(width, height)
    if orientation != 1:
        canvas.transform(*ORIENTATION_MATRICES[orientation])
    canvas.doForm(name)
    canvas.restoreState()


# ----------------------------------------------------------------------------- the save


def save_spliced(doc: PDFDocument, store: DocumentImages, filename: str | BinaryIO, canvas: Canvas) -> None:
    """PDFDocument.SaveToFile, but image bytes go from their files straight to the output."""
    if getattr(doc, "_savedToFile", False):
        raise RuntimeError("a PDF document can only be saved once")
    doc._savedToFile = True
    store.begin_save()
    try:
        data = doc.GetPDFData(canvas)
    finally:
        store.splicing = False
    if callable(getattr(filename, "write", None)):
        write_spliced(filename, data, store.pending)
    else:
        with open(filename, "wb") as handle:
            write_spliced(handle, data, store.pending)


def write_spliced(out: BinaryIO, data: bytes, pieces: Sequence[tuple[bytes, StreamContent]]) -> None:
    """Write ``data`` with each placeholder replaced by its content, and the xref offsets moved to match.

    reportlab writes one classic cross-reference table (``xref``, ``0 N``, N 20-byte entries) and
    the ``startxref`` offset; everything after a placeholder moves by the content's length less the
    placeholder's.
    """
    starts: list[int] = []
    shifts: list[int] = []  # cumulative shift for offsets after starts[i]
    position, total = 0, 0
    for marker, content in pieces:
        found = data.find(marker, position)
        if found < 0:
            raise RuntimeError(f"image placeholder {marker!r} missing from the formatted PDF")
        out.write(data[position:found])
        if isinstance(content, FileRanges):
            written = content.write_to(out)
        else:
            written = 0
            for block in content.chunks():
                out.write(block)
                written += len(block)
        if written != content.length:
            raise ImageChangedError(f"an image stream gave {written} bytes, {content.length} were expected")
        total += written - len(marker)
        starts.append(found)
        shifts.append(total)
        position = found + len(marker)
    xref_at = _startxref(data)
    if position > xref_at:
        raise RuntimeError("image placeholder found after the cross-reference table")
    out.write(data[position:xref_at])

    def moved(offset: int) -> int:
        index = bisect.bisect_left(starts, offset) - 1
        return offset + (shifts[index] if index >= 0 else 0)

    trailer_at = data.index(b"trailer", xref_at)
    out.write(_shift_xref(data[xref_at:trailer_at], moved))
    startxref_at = data.rindex(b"startxref")
    out.write(data[trailer_at:startxref_at])
    out.write(b"startxref\n%d\n%%%%EOF\n" % moved(xref_at))


def _startxref(data: bytes) -> int:
    tail = data[data.rindex(b"startxref") + len(b"startxref"):]
    return int(tail.split()[0])


def _shift_xref(table: bytes, moved: Callable[[int], int]) -> bytes:
    lines = table.split(b"\n")
    if lines[0] != b"xref":
        raise RuntimeError("unexpected cross-reference table from reportlab")
    out = []
    for line in lines:
        fields = line.split()
        if len(fields) == 3 and fields[2] == b"n":
            line = b"%010d %s n " % (moved(int(fields[0])), fields[1])
        out.append(line)
    return b"\n".join(out)

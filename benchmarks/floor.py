"""The floor: copy each PNG's compressed image data into a minimal PDF, decoding nothing.

Independent of pnp and of reportlab on purpose: this is the least work any tool can do for the
same sheets (3 x 3 poker cards on A4 with crop marks, then a mirrored page of backs), so a tool's
time divided by this one's says how much it spends beyond reading and writing the bytes.

    python benchmarks/floor.py ART_DIR COUNT OUT.pdf
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

PT = 72 / 25.4
PAGE = (210 * PT, 297 * PT)
CARD = (63.5, 88.9)
BLEED = 3.0
COLS, ROWS = 3, 3


def png_image(path: Path) -> tuple[bytes, bytes]:
    """(dictionary, IDAT data) for an 8-bit RGB PNG: the chunks are read, the pixels are not."""
    data = path.read_bytes()
    position, idat, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data[position + 8:position + 21])
        elif kind == b"IDAT":
            idat.append(data[position + 8:position + 8 + length])
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if (depth, colour_type, interlace) != (8, 2, 0):
        raise SystemExit(f"{path}: the floor takes 8-bit RGB, non-interlaced PNGs only")
    content = b"".join(idat)
    dictionary = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB "
                  b"/BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 "
                  b"/BitsPerComponent 8 /Columns %d >> /Length %d >>" % (width, height, width, len(content)))
    return dictionary, content


def slots(mirrored: bool) -> list[tuple[float, float]]:
    """Bottom-left corners (pt) of the trims, reading order; the grid abuts on shared cut lines."""
    x0 = (210 - COLS * CARD[0]) / 2
    y0 = (297 - ROWS * CARD[1]) / 2
    found = []
    for row in range(ROWS):
        for col in range(COLS):
            column = COLS - 1 - col if mirrored else col
            found.append(((x0 + column * CARD[0]) * PT, (y0 + (ROWS - 1 - row) * CARD[1]) * PT))
    return found


def clip_for(col: int, row: int, x: float, y: float) -> tuple[float, float, float, float]:
    """The card's bleed, only on the grid's outer edges."""
    w, h, b = CARD[0] * PT, CARD[1] * PT, BLEED * PT
    left = b if col == 0 else 0
    right = b if col == COLS - 1 else 0
    bottom = b if row == ROWS - 1 else 0
    top = b if row == 0 else 0
    return x - left, y - bottom, w + left + right, h + bottom + top


def crop_marks() -> bytes:
    x0, y0 = (210 - COLS * CARD[0]) / 2 * PT, (297 - ROWS * CARD[1]) / 2 * PT
    x1, y1 = x0 + COLS * CARD[0] * PT, y0 + ROWS * CARD[1] * PT
    gap, length = (BLEED + 1) * PT, 4 * PT
    lines = []
    for col in range(COLS + 1):
        x = x0 + col * CARD[0] * PT
        lines += [(x, y1 + gap, x, y1 + gap + length), (x, y0 - gap, x, y0 - gap - length)]
    for row in range(ROWS + 1):
        y = y0 + row * CARD[1] * PT
        lines += [(x0 - gap, y, x0 - gap - length, y), (x1 + gap, y, x1 + gap + length, y)]
    return b"0.25 w " + b" ".join(b"%.2f %.2f m %.2f %.2f l S" % line for line in lines) + b"\n"


class Writer:
    """Objects go to the file as they are made; only their offsets are kept."""

    def __init__(self, out) -> None:
        self.out = out
        self.offsets: dict[int, int] = {}
        self.position = 0
        self.next_number = 3  # 1: catalog, 2: page tree
        self.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.position += len(data)

    def number(self) -> int:
        self.next_number += 1
        return self.next_number - 1

    def add(self, number: int, dictionary: bytes, stream: bytes | None = None) -> None:
        self.offsets[number] = self.position
        self.write(b"%d 0 obj\n" % number + dictionary)
        if stream is not None:
            self.write(b"\nstream\n")
            self.write(stream)
            self.write(b"\nendstream")
        self.write(b"\nendobj\n")

    def finish(self, pages: list[int]) -> None:
        self.add(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        kids = b" ".join(b"%d 0 R" % page for page in pages)
        self.add(2, b"<< /Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 %.2f %.2f] >>" % (kids, len(pages), *PAGE))
        xref = self.position
        count = self.next_number
        table = [b"xref\n0 %d\n0000000000 65535 f \n" % count]
        table += [b"%010d 00000 n \n" % self.offsets[n] for n in range(1, count)]
        self.write(b"".join(table))
        self.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (count, xref))


def page(writer: Writer, content: bytes, images: dict[bytes, int]) -> int:
    stream_number, page_number = writer.number(), writer.number()
    writer.add(stream_number, b"<< /Length %d >>" % len(content), content)
    xobjects = b" ".join(b"/%s %d 0 R" % (name, number) for name, number in images.items())
    writer.add(page_number, b"<< /Type /Page /Parent 2 0 R /Resources << /XObject << %s >> >> /Contents %d 0 R "
               b"/TrimBox [0 0 %.2f %.2f] >>" % (xobjects, stream_number, *PAGE))
    return page_number


def main(art: Path, count: int, target: Path) -> None:
    paths = [art / f"card-{index:04d}.png" for index in range(count)]
    with open(target, "wb") as out:
        writer = Writer(out)
        pages = []
        for first in range(0, count, COLS * ROWS):
            sheet = paths[first:first + COLS * ROWS]
            images, content = {}, []
            for slot, ((x, y), path) in enumerate(zip(slots(False), sheet, strict=False)):
                dictionary, data = png_image(path)
                number = writer.number()
                writer.add(number, dictionary, data)
                name = b"Im%d" % slot
                images[name] = number
                cx, cy, cw, ch = clip_for(slot % COLS, slot // COLS, x, y)
                art_w, art_h = (CARD[0] + 2 * BLEED) * PT, (CARD[1] + 2 * BLEED) * PT
                content.append(b"q %.2f %.2f %.2f %.2f re W n %.2f 0 0 %.2f %.2f %.2f cm /%s Do Q" % (
                    cx, cy, cw, ch, art_w, art_h, x - BLEED * PT, y - BLEED * PT, name))
            pages.append(page(writer, b"\n".join(content) + b"\n" + crop_marks(), images))
            backs = [b"0.2 0.3 0.4 rg"]
            for slot, (x, y) in enumerate(slots(True)[:len(sheet)]):
                backs.append(b"%.2f %.2f %.2f %.2f re f" % clip_for(COLS - 1 - slot % COLS, slot // COLS, x, y))
            pages.append(page(writer, b"\n".join(backs) + b"\n", {}))
        writer.finish(pages)


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))

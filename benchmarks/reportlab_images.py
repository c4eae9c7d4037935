"""Baseline: a plain reportlab script drawing each card's PNG with ``drawImage``.

What a person would write without pnp: the same sheets as benchmarks/floor.py (3 x 3 poker cards on
A4 with crop marks, then a mirrored page of backs), each card art drawn by reportlab's default path,
which decodes the PNG and compresses its pixels again.

    python benchmarks/reportlab_images.py ART_DIR COUNT OUT.pdf
"""

from __future__ import annotations

import sys
from pathlib import Path

from floor import BLEED, CARD, COLS, PT, ROWS, clip_for, slots
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas


def crop_marks(canvas: Canvas) -> None:
    x0, y0 = (210 - COLS * CARD[0]) / 2 * PT, (297 - ROWS * CARD[1]) / 2 * PT
    x1, y1 = x0 + COLS * CARD[0] * PT, y0 + ROWS * CARD[1] * PT
    gap, length = (BLEED + 1) * PT, 4 * PT
    canvas.setLineWidth(0.25)
    for col in range(COLS + 1):
        x = x0 + col * CARD[0] * PT
        canvas.line(x, y1 + gap, x, y1 + gap + length)
        canvas.line(x, y0 - gap, x, y0 - gap - length)
    for row in range(ROWS + 1):
        y = y0 + row * CARD[1] * PT
        canvas.line(x0 - gap, y, x0 - gap - length, y)
        canvas.line(x1 + gap, y, x1 + gap + length, y)


def main(art: Path, count: int, target: Path) -> None:
    paths = [art / f"card-{index:04d}.png" for index in range(count)]
    canvas = Canvas(str(target), pagesize=A4, invariant=1)
    for first in range(0, count, COLS * ROWS):
        sheet = paths[first:first + COLS * ROWS]
        for slot, ((x, y), path) in enumerate(zip(slots(False), sheet, strict=False)):
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(*clip_for(slot % COLS, slot // COLS, x, y))
            canvas.clipPath(clip, stroke=0, fill=0)
            canvas.drawImage(str(path), x - BLEED * PT, y - BLEED * PT, (CARD[0] + 2 * BLEED) * PT,
                             (CARD[1] + 2 * BLEED) * PT)
            canvas.restoreState()
        crop_marks(canvas)
        canvas.showPage()
        canvas.setFillColorRGB(0.2, 0.3, 0.4)
        for slot, (x, y) in enumerate(slots(True)[:len(sheet)]):
            canvas.rect(*clip_for(COLS - 1 - slot % COLS, slot // COLS, x, y), stroke=0, fill=1)
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))

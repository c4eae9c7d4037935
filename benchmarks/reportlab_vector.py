"""Baseline: a bare reportlab script drawing the vector faces pnp draws for benchmarks' vector deck.

Primitive for primitive the faces of the `bench-face` layout (benchmarks/fixtures.py): white card
and colour stripe into the bleed, corner index, big rank, name, a rule text wrapped with reportlab's
simpleSplit, a rounded frame; backs with a fill and the title; crop marks, a label and a 50 mm
ruler per sheet. No layouts, no text fitting, no checks: the ceiling pnp is measured against.
It uses the same embedded fonts as pnp (the subsets pnp cached), so font work is equal.

    python benchmarks/reportlab_vector.py CARDS.csv FONT_DIR OUT.pdf
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from floor import BLEED, CARD, COLS, PT, ROWS, clip_for, slots
from reportlab.lib.colors import HexColor, white
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab_images import crop_marks

COLOURS = {"spades": "#1b1b1b", "clubs": "#1b1b1b", "hearts": "#c62828", "diamonds": "#c62828"}


def newest(folder: Path, pattern: str) -> Path:
    return max(folder.glob(pattern), key=lambda path: path.stat().st_mtime)


def face(canvas: Canvas, card: dict[str, str], x: float, y: float) -> None:
    w, h = CARD[0] * PT, CARD[1] * PT
    top = y + h
    colour = HexColor(COLOURS[card["suit"]])
    canvas.setFillColor(white)
    canvas.rect(x - BLEED * PT, y - BLEED * PT, w + 2 * BLEED * PT, h + 2 * BLEED * PT, stroke=0, fill=1)
    canvas.setFillColor(colour)
    canvas.rect(x - BLEED * PT, y - BLEED * PT, (6.5 + BLEED) * PT, h + 2 * BLEED * PT, stroke=0, fill=1)
    canvas.setFont("bold", 24)
    canvas.drawString(x + 8 * PT, top - 3.5 * PT - 24 * 0.88, card["rank"])
    canvas.setFont("bold", 64)
    canvas.drawCentredString(x + 33.5 * PT, top - 39 * PT - 64 * 0.35, card["rank"])
    canvas.setFillColor(HexColor("#444444"))
    canvas.setFont("regular", 10)
    canvas.drawCentredString(x + 34.25 * PT, top - 60 * PT - 3.5, card["name.en"])
    canvas.setFillColor(HexColor("#1a1a1a"))
    canvas.setFont("regular", 9)
    for line_number, line in enumerate(simpleSplit(card["text.en"], "regular", 9, 48.5 * PT)):
        canvas.drawString(x + 10 * PT, top - 66.5 * PT - 9 * 0.88 - line_number * 10.8, line)
    canvas.setStrokeColor(HexColor("#1a1a1a"))
    canvas.setLineWidth(0.4 * PT)
    canvas.roundRect(x + 3 * PT, y + 3 * PT, w - 6 * PT, h - 6 * PT, 2.5 * PT, stroke=1, fill=0)


def back(canvas: Canvas, x: float, y: float) -> None:
    w, h = CARD[0] * PT, CARD[1] * PT
    canvas.setFillColor(HexColor("#334d66"))
    canvas.rect(x - BLEED * PT, y - BLEED * PT, w + 2 * BLEED * PT, h + 2 * BLEED * PT, stroke=0, fill=1)
    canvas.setFillColor(white)
    canvas.setFont("bold", 16)
    canvas.drawCentredString(x + w / 2, y + h - 44 * PT - 5.6, "Benchmark")


def label_and_ruler(canvas: Canvas, text: str) -> None:
    canvas.setFillColor(HexColor("#000000"))
    canvas.setLineWidth(0.3)
    base = 6 * PT
    canvas.lines([(10 * PT + mm * PT, base, 10 * PT + mm * PT, base + (2.5 if mm % 10 == 0 else 1.0) * PT)
                  for mm in range(51)])
    canvas.setFont("regular", 4.5)
    for mm in range(0, 51, 10):
        canvas.drawCentredString(10 * PT + mm * PT, base + 2.8 * PT, str(mm))
    canvas.setFont("regular", 6)
    canvas.drawString(64 * PT, base, text)


def clipped(canvas: Canvas, slot: int, x: float, y: float, draw) -> None:
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(*clip_for(slot % COLS, slot // COLS, x, y))
    canvas.clipPath(path, stroke=0, fill=0)
    draw()
    canvas.restoreState()


def main(cards_csv: Path, fonts: Path, target: Path) -> None:
    pdfmetrics.registerFont(TTFont("regular", str(newest(fonts, "NotoSansCJKjp-Regular-*.ttf"))))
    pdfmetrics.registerFont(TTFont("bold", str(newest(fonts, "NotoSansCJKjp-Bold-*.ttf"))))
    with open(cards_csv, encoding="utf-8") as handle:
        cards = list(csv.DictReader(handle))
    canvas = Canvas(str(target), pagesize=A4, invariant=1, initialFontName="regular", pageCompression=1)
    per_sheet = COLS * ROWS
    sheets = (len(cards) + per_sheet - 1) // per_sheet
    for number, first in enumerate(range(0, len(cards), per_sheet), start=1):
        sheet = cards[first:first + per_sheet]
        for slot, ((x, y), card) in enumerate(zip(slots(False), sheet, strict=False)):
            clipped(canvas, slot, x, y, lambda card=card, x=x, y=y: face(canvas, card, x, y))
        crop_marks(canvas)
        label_and_ruler(canvas, f"Benchmark · Deck · sheet {number} of {sheets} · A4 · Print at 100% / actual size")
        canvas.showPage()
        for slot, (x, y) in enumerate(slots(True)[:len(sheet)]):
            clipped(canvas, COLS - 1 - slot % COLS + slot // COLS * COLS, x, y, lambda x=x, y=y: back(canvas, x, y))
        label_and_ruler(canvas, f"backs of sheet {number} of {sheets}")
        canvas.showPage()
    canvas.save()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))

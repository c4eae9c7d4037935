"""One PNG per card at 300 dpi with bleed, and a proof contact sheet.

Print-on-demand services want card images, not sheets. We draw each card
on a PDF page the size of its bleed box with the same painter as the sheets,
then rasterise that page with pypdfium2, so the PNG is exactly what the PDF
prints.
"""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.model.game import Game
from pnp.records import record
from pnp.render.deck import BoundComponent, DeckRenderer, make_painter
from pnp.render.faces import TextIssue
from pnp.render.fonts import FontSet
from pnp.write.atomic import atomic_write

DPI = 300
CONTACT_COLUMNS = 8
CONTACT_CARD_WIDTH_PX = 240


@record(frozen=True)
class PngResult:
    written: tuple[Path, ...]
    issues: tuple[TextIssue, ...]


def card_pages_pdf(game: Game, bound: BoundComponent, fontset: FontSet,
                   bleed_mm: float) -> tuple[bytes, list[TextIssue]]:
    """Every distinct card's face, one page each, page = bleed box; then every card's back, in order."""
    width, height = bound.component.trim_mm
    page = ((width + 2 * bleed_mm) * mm, (height + 2 * bleed_mm) * mm)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=page, invariant=1, initialFontName=fontset.regular, pageCompression=1)
    renderer = DeckRenderer(bound, make_painter(fontset, game, ink_saver=False, sheet_bleed_mm=bleed_mm))
    trim = (bleed_mm * mm, bleed_mm * mm, width * mm, height * mm)
    bleed = (0.0, 0.0, page[0], page[1])
    for draw in (renderer.draw_face, renderer.draw_back):
        for card in bound.cards:
            canvas.setPageSize(page)
            canvas.setTrimBox((trim[0], trim[1], trim[0] + trim[2], trim[1] + trim[3]))
            draw(canvas, card, trim, bleed)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue(), renderer.issues


def write_card_pngs(game: Game, bound: BoundComponent, fontset: FontSet, bleed_mm: float,
                    folder: Path) -> PngResult:
    data, issues = card_pages_pdf(game, bound, fontset, bleed_mm)
    document = pdfium.PdfDocument(data)
    written = []
    thumbnails = []
    folder.mkdir(parents=True, exist_ok=True)
    for index, card in enumerate(bound.cards):
        image = document[index].render(scale=DPI / 72).to_pil().convert("RGB")
        path = folder / f"{card.card.id}.png"
        _save_png(image, path)
        written.append(path)
        thumbnails.append((card.card.id, card.card.count, image))
    written.extend(_write_backs(document, bound, folder))
    contact = folder / "contact-sheet.png"
    _save_png(contact_sheet(thumbnails, fontset), contact)
    written.append(contact)
    document.close()
    return PngResult(tuple(written), tuple(issues))


def _write_backs(document: pdfium.PdfDocument, bound: BoundComponent, folder: Path) -> list[Path]:
    """The backs, which print-on-demand services ask for beside the faces: ``back.png`` when every card
    has the same back (the usual deck), else ``<card id>.back.png`` for each card."""
    count = len(bound.cards)
    backs = [document[count + index].render(scale=DPI / 72).to_pil().convert("RGB") for index in range(count)]
    if not backs:
        return []
    if all(back.tobytes() == backs[0].tobytes() for back in backs[1:]):
        named_back = any(card.card.id == "back" for card in bound.cards)  # its face is back.png
        path = folder / ("back.back.png" if named_back else "back.png")
        _save_png(backs[0], path)
        return [path]
    paths = []
    for card, back in zip(bound.cards, backs, strict=True):
        path = folder / f"{card.card.id}.back.png"
        _save_png(back, path)
        paths.append(path)
    return paths


def contact_sheet(cards: list[tuple[str, int, Image.Image]], fontset: FontSet) -> Image.Image:
    """All of a component's cards small, each with its id and count, for proofreading."""
    if not cards:
        return Image.new("RGB", (CONTACT_CARD_WIDTH_PX, CONTACT_CARD_WIDTH_PX), "white")
    first = cards[0][2]
    thumb_w = CONTACT_CARD_WIDTH_PX
    thumb_h = round(first.height * thumb_w / first.width)
    caption = 28
    gap = 12
    columns = min(CONTACT_COLUMNS, len(cards))
    rows = (len(cards) + columns - 1) // columns
    sheet = Image.new("RGB", (gap + columns * (thumb_w + gap), gap + rows * (thumb_h + caption + gap)), "white")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(fontset.paths["regular"]), 16)
    for index, (card_id, count, image) in enumerate(cards):
        column, row = index % columns, index // columns
        x = gap + column * (thumb_w + gap)
        y = gap + row * (thumb_h + caption + gap)
        sheet.paste(image.resize((thumb_w, thumb_h), Image.Resampling.LANCZOS), (x, y))
        draw.rectangle((x - 1, y - 1, x + thumb_w, y + thumb_h), outline="#999999")
        label = card_id if count == 1 else f"{card_id} ×{count}"
        draw.text((x, y + thumb_h + 4), label, fill="#222222", font=font)
    return sheet


def _save_png(image: Image.Image, path: Path) -> None:
    with atomic_write(path) as handle:
        image.save(handle, format="PNG", dpi=(DPI, DPI), optimize=False)

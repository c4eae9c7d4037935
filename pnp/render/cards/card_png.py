"""One PNG per card at 300 dpi with bleed, and a proof contact sheet.

Print-on-demand services want card images, not sheets. We draw each card
on a PDF page the size of its bleed box with the same painter as the sheets,
then rasterise that page with pypdfium2, so the PNG is exactly what the PDF
prints.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from pnp.compose.deck import BoundComponent
from pnp.diagnostics import DataError
from pnp.files.atomic import atomic_write
from pnp.model.game import Game, where
from pnp.render.cards.deck import DeckRenderer, make_painter
from pnp.render.cards.faces import TextIssue
from pnp.render.sheets.paper import MM_PER_INCH
from pnp.render.text.fonts import FontSet

DPI = 300
CONTACT_COLUMNS = 8
CONTACT_CARD_WIDTH_PX = 240


@dataclass(frozen=True)
class PngResult:
    written: tuple[Path, ...]
    issues: tuple[TextIssue, ...]


def printed_cards(bound: BoundComponent) -> BoundComponent:
    """The cards a print service gets: a card counted 0 is in the list but not in the deck, and the
    singles PDF leaves it out too."""
    return replace(bound, cards=tuple(card for card in bound.cards if card.card.count > 0))


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


def pixels(length_mm: float) -> int:
    """A length at 300 dpi, to the nearest pixel: 69.85 mm (2.75 in) is the 825 px print services ask for."""
    return round(length_mm / MM_PER_INCH * DPI)


def write_card_pngs(game: Game, bound: BoundComponent, fontset: FontSet, bleed_mm: float,
                    folder: Path) -> PngResult:
    """``folder``/<card id>.png and its back, and ``<folder>-contact-sheet.png`` beside the folder, so the
    folder holds only what a print service should get. PNGs of cards no longer there are removed."""
    bound = printed_cards(bound)
    width, height = bound.component.trim_mm
    size = (pixels(width + 2 * bleed_mm), pixels(height + 2 * bleed_mm))
    data, issues = card_pages_pdf(game, bound, fontset, bleed_mm)
    document = pdfium.PdfDocument(data)
    pages = [_rendered(document, index, size) for index in range(len(document))]
    document.close()
    count = len(bound.cards)
    faces = {f"{card.card.id}.png": image for card, image in zip(bound.cards, pages[:count], strict=True)}
    backs = _backs(bound, pages[count:])
    pictures = {**faces, **backs}
    _refuse_colliding_names(bound, [*faces, *backs], folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, image in pictures.items():
        _save_png(image, folder / name)
        written.append(folder / name)
    for stale in folder.glob("*.png"):
        if stale.name not in pictures:
            stale.unlink(missing_ok=True)
    contact = folder.with_name(f"{folder.name}-contact-sheet.png")
    thumbnails = [(card.card.id, card.card.count, image) for card, image in zip(bound.cards, pages, strict=False)]
    _save_png(contact_sheet(thumbnails, fontset), contact)
    written.append(contact)
    written.append(_write_card_list(bound, list(faces), list(backs), folder))
    return PngResult(tuple(written), tuple(issues))


def _write_card_list(bound: BoundComponent, faces: list[str], backs: list[str], folder: Path) -> Path:
    """``<folder>-cards.csv``: each face PNG with its back and how many copies to print, the list a print
    service that takes one picture per distinct card asks for (the counts were only on the contact sheet)."""
    import csv

    path = folder.with_name(f"{folder.name}-cards.csv")
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\n")
    writer.writerow(["card", "count", "front", "back"])
    for index, (card, face) in enumerate(zip(bound.cards, faces, strict=True)):
        back = backs[0] if len(backs) == 1 else backs[index] if backs else ""
        writer.writerow([card.card.id, card.card.count, f"{folder.name}/{face}",
                         f"{folder.name}/{back}" if back else ""])
    with atomic_write(path) as handle:
        handle.write(rows.getvalue().encode("utf-8"))
    return path


def _rendered(document: pdfium.PdfDocument, index: int, size: tuple[int, int]) -> Image.Image:
    """A page at 300 dpi, cut to ``size``: pdfium rounds a page's pixels up, so 69.85 mm gave 826 px."""
    image = document[index].render(scale=DPI / 72).to_pil().convert("RGB")
    if image.size != size:
        image = image.crop((0, 0, min(size[0], image.width), min(size[1], image.height)))
    return image


def _backs(bound: BoundComponent, backs: list[Image.Image]) -> dict[str, Image.Image]:
    """The backs, which print-on-demand services ask for beside the faces: ``back.png`` when every card
    has the same back (the usual deck), else ``<card id>.back.png`` for each card."""
    if not backs:
        return {}
    if all(back.tobytes() == backs[0].tobytes() for back in backs[1:]):
        named_back = any(card.card.id == "back" for card in bound.cards)  # its face is back.png
        return {"back.back.png" if named_back else "back.png": backs[0]}
    return {f"{card.card.id}.back.png": back for card, back in zip(bound.cards, backs, strict=True)}


def _refuse_colliding_names(bound: BoundComponent, names: list[str], folder: Path) -> None:
    """Two cards whose files would have one name, or names that differ only in case (one file on macOS,
    Windows and in a zip for upload): the second silently overwrote the first ('x' and 'x.back' with
    backs of their own, or 'Ace' and 'ace')."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.casefold()
        if key in seen:
            raise DataError(f"component {bound.component.id!r}: the PNG files {seen[key]} and {name} are the same "
                            f"file in {folder.name}/ on most systems (card ids that differ only in case, or one "
                            "that ends in .back)", *where(bound.component.source), fix="rename one of the cards")
        seen[key] = name


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

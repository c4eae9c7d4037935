"""Card art found, read and measured before anything is drawn: pictures, their resolution and bleed.

Making a deck ready to draw (:func:`pnp.render.cards.deck.ready_to_draw`) hands each image element
here: the file is found (a ``src`` without a suffix finds a .png, .jpg or .jpeg), its size read
without decoding. What would print badly (too few dots, no bleed, SVG features svglib leaves out)
is found here per deck and worded by the validate stage (pnp/validate/card_layouts.py), which only
drawing's own code can measure. The renderer then draws art that is known to be there.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.compose.bind import Resolved
from pnp.compose.image_paths import image_path
from pnp.diagnostics import DataError, clipped
from pnp.load.guarded import check_input
from pnp.model.fields import closest
from pnp.model.game import Card, Component, Game, where
from pnp.render.cards.faces import FacePainter

if TYPE_CHECKING:
    from pnp.compose.deck import BoundCard, BoundComponent

MIN_DPI = 300
#: a picture with more pixels is refused: Pillow itself refuses to open one (twice its
#: MAX_IMAGE_PIXELS, a decompression bomb), and passed through undecoded it would make every PDF
#: reader and printer decode it (a 20,000-pixel square is 400 MB of grey)
LARGEST_IMAGE_PIXELS = 178_956_970
FINE_DPI = 600  # the resolution suggested for a picture that has far too many pixels


def nearest_picture(wanted: Path, src: str) -> str:
    """"did you mean 'art/logo.svg'?" when the folder holds a picture of a name like the one written."""
    try:
        pictures = [entry.name for entry in wanted.parent.iterdir() if entry.suffix in IMAGE_SUFFIXES]
    except OSError:
        pictures = []
    hint = closest(wanted.name, pictures)
    if hint is None:
        return "add the file, or fix the path"
    return f"did you mean {(Path(src).parent / hint).as_posix()!r}? Or add the file"


def raster_art(bound: BoundComponent) -> Iterator[tuple[BoundCard, dict]]:
    """Each card's pixel pictures (faces and backs), with their bound values: what dpi and decoding concern."""
    for card in bound.cards:
        for element in (*card.face, *card.back):
            values = element.values
            if element.type == "image" and not values.get("vector") and "pixel_size" in values:
                yield card, values


@dataclass(frozen=True)
class LowResolution:
    """A card's picture that prints below MIN_DPI, in the box the layout gives it (mm)."""

    card: BoundCard
    src: str  # as the card list or layout would write it
    dpi: float
    box: tuple[float, float]


def low_resolution_art(game: Game, bound: BoundComponent) -> list[LowResolution]:
    """The art that prints below MIN_DPI, card by card (a box of no size is the layout's error,
    said already: "-300 dpi" said it again)."""
    from pnp.render.cards.images import printed_dpi

    found = []
    for card, values in raster_art(bound):
        box = printed_box_mm(values, bound.component)
        if min(box) <= 0:
            continue
        dpi = printed_dpi(values["pixel_size"], box, values.get("fit", "cover"))
        if dpi < MIN_DPI - 0.5:
            found.append(LowResolution(card, in_game(game, values["src"]), dpi, box))
    return found


def in_game(game: Game, path: Path) -> str:
    """A picture's path as the card list or layout would write it: inside the game folder (image
    paths are resolved, see bind.image_path, so the folder is too)."""
    folder = game.path.resolve()
    return Path(path).relative_to(folder).as_posix() if Path(path).is_relative_to(folder) else str(path)


def pixels_at_min_dpi(width_mm: float, height_mm: float) -> str:
    return _pixels_at_dpi(width_mm, height_mm, MIN_DPI)


def _pixels_at_dpi(width_mm: float, height_mm: float, dpi: int) -> str:
    return f"{math.ceil(width_mm / 25.4 * dpi)} × {math.ceil(height_mm / 25.4 * dpi)}"


NO_BLEED_TOLERANCE = 0.005  # proportions within half a percent of the trim's: drawn to the cut line


def art_without_bleed(bound: BoundComponent) -> list[str]:
    """The cards whose full-card picture is drawn to the trim, without bleed.

    Such art has the card's proportions (63.5 : 88.9), not the bleed's (69.5 : 94.9): covering the
    bleed enlarges it by a tenth, and the cut takes about 3 mm of every edge, with whatever the
    designer put there. Art of any other shape is left alone; it was never meant to fit exactly.
    """
    from pnp.render.cards.images import ART_BLEED_MM

    trim_w, trim_h = bound.component.trim_mm
    bleed_ratio = (trim_w + 2 * ART_BLEED_MM) / (trim_h + 2 * ART_BLEED_MM)
    if abs(bleed_ratio / (trim_w / trim_h) - 1) < NO_BLEED_TOLERANCE:
        return []  # a square card's art has its proportions with bleed or without: nothing tells them apart
    return [card.card.id for card in bound.cards for element in card.face
            if element.type == "image" and element.values.get("bleed") and not element.values.get("vector")
            and _fills_card(element.values, bound.component)
            and abs(_ratio(element.values["pixel_size"]) / (trim_w / trim_h) - 1) < NO_BLEED_TOLERANCE]


def svg_left_out(bound: BoundComponent) -> list[tuple[Path, tuple[str, ...]]]:
    """Each SVG file that uses what the art will print without (opacity, filters, masks...), with
    those features: it printed solid, or not at all, with nothing said."""
    from pnp.render.cards.vector_art import left_out_features

    files = dict.fromkeys(element.values["src"] for card in bound.cards for element in (*card.face, *card.back)
                          if element.type == "image" and element.values.get("vector"))
    found = []
    for path in files:
        features = left_out_features(Path(path))
        if features:
            found.append((Path(path), features))
    return found


def _fills_card(values: dict, component: Component) -> bool:
    card_w, card_h = component.trim_mm
    x, y = values.get("x", 0.0), values.get("y", 0.0)
    w, h = values.get("w", card_w), values.get("h", card_h)
    return abs(x) < 0.01 and abs(y) < 0.01 and abs(w - card_w) < 0.01 and abs(h - card_h) < 0.01


def _ratio(size: tuple[int, int]) -> float:
    return size[0] / size[1]


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG", ".svg", ".SVG")


def prepare_image(game: Game, component: Component, card: Card, element: Resolved,
                  one_file: bool = False) -> None:
    """Find, read and size-check a card's image before anything is drawn.

    A ``src`` without a suffix (``images/<card id>``) finds a .png, .jpg or .jpeg of that name, so
    a designer can drop art in a folder without naming each file in the card list. ``one_file``: the
    layout names the same file for every card (a missing one is then named, not its folder).
    """
    # the image modules load with the first deck that has art, not with every build
    from pnp.render.cards.images import ImageFormatError, inspect_image
    from pnp.render.cards.vector_art import load_svg

    location = where(card.source)
    src = str(element.values["src"] if "src" in element.values else card_picture(card)).strip()
    try:
        candidates = [image_path(game, src + suffix) for suffix in IMAGE_SUFFIXES] if src and not Path(
            src).suffix else [image_path(game, src)]
    except ValueError as exc:
        raise DataError(f"card {card.id!r}: {exc}", *location,
                        "copy the picture into the game folder (images/ is the usual place), so the game "
                        "travels whole") from None
    try:
        path = next((p for p in candidates if p.is_file()), None)
    except OSError as exc:  # a name too long for the file system, say: the name is the mistake
        raise DataError(f"card {card.id!r}: image {clipped(src, 60)!r} cannot be looked up: {exc.strerror or exc}",
                        *location, "use a shorter file name") from None
    if src and path is None and candidates[0].is_dir():
        raise DataError(f"card {card.id!r}: image {src!r} is a folder, not a picture", *location,
                        "name a PNG, JPEG or SVG file in it")
    if src and path is None and not one_file and not candidates[0].parent.exists():
        # the folder itself is missing (renamed, say): one mistake, reported once for all its cards
        folder = os.path.relpath(candidates[0].parent, game.path)
        looked = (f" (a card with no picture named looks for {folder}/<its id>.png, .jpg, .jpeg or .svg)"
                  if not Path(src).suffix else "")
        raise DataError(f"card {card.id!r}: image folder '{folder}/' not found{looked}", *location,
                        _folder_fix(game.path, candidates[0].name, folder))
    if not src or path is None:
        tried = f"{src}.png, .jpg, .jpeg or .svg" if src and not Path(src).suffix else repr(src)
        raise DataError(f"card {card.id!r}: image {tried} not found", *location,
                        nearest_picture(candidates[0], src) if src else "add the file, or fix the path")
    try:
        check_input(path, "art")  # a regular file inside the game folder, within its cap (SECURITY.md)
    except DataError as exc:
        raise DataError(f"card {card.id!r}: {exc.diagnostic.message}", *location,
                        exc.diagnostic.fix) from None
    if path.suffix.lower() == ".svg":
        # vector art: no pixels to count, so no resolution warning
        try:
            drawing = load_svg(path)
        except DataError as exc:  # at the card's row, as a PNG's problem is (docs/image-decks.md)
            said = exc.diagnostic.message
            raise DataError(f"card {card.id!r}: image {src!r}: {said}", *location, exc.diagnostic.fix) from None
        element.values.update(src=path, pixel_size=(drawing.width, drawing.height), vector=True)
        return
    try:
        source = inspect_image(path)
    except (ImageFormatError, OSError) as exc:
        raise DataError(f"card {card.id!r}: image {src!r} cannot be read: {exc}", *location,
                        "save it again as PNG or JPEG") from None
    pixels = source.shown_size
    too_many = too_many_pixels(*pixels)
    if too_many:
        box = printed_box_mm(element.values, component)
        raise DataError(f"card {card.id!r}: image {src!r} is {too_many}", *location,
                        f"resample it: {_pixels_at_dpi(*box, FINE_DPI)} pixels print its {box[0]:g} × {box[1]:g} mm "
                        f"box at {FINE_DPI} dpi")
    element.values["src"] = path
    element.values["pixel_size"] = pixels
    # its resolution is judged per deck, in low_resolution_art


def too_many_pixels(width: int, height: int) -> str | None:
    """How a picture of this size has more pixels than anything should decode (LARGEST_IMAGE_PIXELS), or None.
    Said alike by pnp check, at the card, and by pnp new --images, at the file."""
    if width * height <= LARGEST_IMAGE_PIXELS:
        return None
    return (f"{width:,} × {height:,} pixels ({width * height / 1e6:,.0f} megapixels), more than a PDF reader or a "
            f"printer should be asked to decode (at most {LARGEST_IMAGE_PIXELS / 1e6:.0f})")


def _folder_fix(game_folder: Path, name: str, missing: str) -> str:
    """Where a picture the card list looks for in a missing folder is after all, if anywhere."""
    # keyed by the folder's time too: under pnp watch a folder renamed back changes the answer
    pictures = _folders_by_picture(game_folder, os.stat(game_folder).st_mtime_ns)
    found = pictures.get(name) or pictures.get(os.path.splitext(name)[0])
    if found is not None and found != missing:
        return f"the pictures are in {found}/: rename it back to {missing}/, or change the paths to {found}/"
    return f"create {missing}/ in the game folder with the pictures, or fix the paths"


@functools.lru_cache(maxsize=8)
def _folders_by_picture(game_folder: Path, _modified: int) -> dict[str, str]:
    """Each picture file name (and name without suffix) in the game folder -> the folder holding it;
    made once for all the cards a missing folder hits."""
    found: dict[str, str] = {}
    for directory, subfolders, files in os.walk(game_folder):
        subfolders.sort()
        folder = os.path.relpath(directory, game_folder)
        for file in sorted(files):
            if file.endswith(IMAGE_SUFFIXES):
                found.setdefault(file, folder)
                found.setdefault(os.path.splitext(file)[0], folder)
    return found


def decode_art_ahead(bound: BoundComponent, painter: FacePainter) -> None:
    """Decode on all cores the art this component's cards will ask for (see images.decode_ahead).

    The size to resample to is worked out as drawing will (the art's box, grown by its bleed);
    where the two disagree, drawing makes the stream itself: slower, never wrong.
    """
    requests = []
    for _, values in raster_art(bound):
        from pnp.render.cards.images import resampled_size  # a deck without art never loads the image code

        size = None
        if painter.max_dpi:
            box_w, box_h = printed_box_mm(values, bound.component, painter.sheet_bleed_mm)
            pixels_w, pixels_h = values["pixel_size"]
            fit = max if values.get("fit", "cover") == "cover" else min
            drawn_width_pt = pixels_w * fit(box_w / pixels_w, box_h / pixels_h) * 72 / 25.4
            size = resampled_size(values["pixel_size"], drawn_width_pt, painter.max_dpi)
        requests.append((values["src"], size))
    if requests:
        from pnp.render.cards.images import decode_ahead

        decode_ahead(requests, painter.recompress)


def card_picture(card: Card) -> str:
    """An image element without ``src`` draws the card's own picture: its ``image`` field, else
    ``images/<card id>`` (any picture suffix). The built-in full-bleed-image layout relies on it, so an
    image deck's faces need no template at all."""
    named = card.fields.get("image")
    return str(named).strip() if named is not None and str(named).strip() else f"images/{card.id}"


def printed_box_mm(values: dict, component: Component, sheet_bleed_mm: float = 0.0) -> tuple[float, float]:
    """The image box in mm, grown by the art's bleed (see images.art_bleed_mm) on each edge that
    `bleed = true` pushes out: as drawing works it out, so art decoded ahead is the size drawn."""
    from pnp.render.cards.images import art_bleed_mm

    card_w, card_h = component.trim_mm
    x, y = values.get("x", 0.0), values.get("y", 0.0)
    w, h = values.get("w", card_w), values.get("h", card_h)
    if values.get("bleed"):
        edges_w = (abs(x) < 0.01) + (abs(x + w - card_w) < 0.01)
        edges_h = (abs(y) < 0.01) + (abs(y + h - card_h) < 0.01)
        grow = art_bleed_mm(sheet_bleed_mm)
        w, h = w + edges_w * grow, h + edges_h * grow
    return w, h

"""Card faces for one game and language: bind layouts, prepare fonts, draw.

A :class:`DeckRenderer` is built once per (game, language). It resolves every
card's layout up front, so the fonts can be subset to exactly the characters
printed and every layout problem is known before the first page is drawn.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.compose.bind import (
    Binder,
    BindError,
    Resolved,
    TextsInError,
    card_context,
    forget_resolved_folders,
    image_path,
)
from pnp.compose.sandbox import time_limit
from pnp.diagnostics import CardErrors, DataError, Diagnostic, Level, Report, listed
from pnp.model.fields import closest
from pnp.model.game import Card, Component, Game, where
from pnp.model.layout import Element, Layout, LayoutLibrary, load_library, text_outside_safe_zone
from pnp.render.cards.faces import FacePainter, IconShelf, Rect, TextIssue
from pnp.render.cards.forms import SidePlan, form_box, shelf_of
from pnp.render.cards.ink_saver import on_white_paper
from pnp.render.cards.textbox import parse_card_markup
from pnp.render.text.fonts import FontSet
from pnp.rules.base import GameRules

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

DEFAULT_FACE = {"cards": "default-face", "tokens": "token-face"}
DEFAULT_BACK = {"cards": "default-back", "tokens": "token-back"}
MIN_DPI = 300
#: a picture with more pixels is refused: Pillow itself refuses to open one (twice its
#: MAX_IMAGE_PIXELS, a decompression bomb), and passed through undecoded it would make every PDF
#: reader and printer decode it (a 20,000-pixel square is 400 MB of grey)
LARGEST_IMAGE_PIXELS = 178_956_970
FINE_DPI = 600  # the resolution suggested for a picture that has far too many pixels


@dataclass
class BoundCard:
    card: Card
    face: list[Resolved]
    back: list[Resolved]


@dataclass
class BoundComponent:
    component: Component
    face_layout: str
    back_layout: str
    cards: list[BoundCard] = field(default_factory=list)

    def texts(self) -> Iterable[str]:
        """Every string the cards draw as glyphs, so the font subset covers each one."""
        for bound in self.cards:
            for element in (*bound.face, *bound.back):
                if element.type == "text":
                    yield str(element.values.get("text", ""))
                elif element.type == "pips" and element.values.get("symbol"):
                    yield str(element.values["symbol"])


def face_layout_name(component: Component) -> str:
    return component.face or DEFAULT_FACE.get(component.kind, "default-face")


def back_layout_name(component: Component) -> str:
    return component.back or DEFAULT_BACK.get(component.kind, "default-back")


def bind_game(game: Game, rules: GameRules, lang: str, report: Report, ink_saver: bool = False,
              library: LayoutLibrary | None = None,
              components: tuple[str | None, ...] | None = None,
              leave_out: Collection[str] = ()) -> dict[str, BoundComponent]:
    """Resolve every printed component's cards (or only ``components``), but those ``leave_out`` names;
    problems go to ``report``."""
    library = library or load_library(game.path, report)
    forget_resolved_folders()
    binder = Binder(game)
    shelf = IconShelf([game.path / "icons"])
    generated = rules.card_texts(game, lang)
    if rules.data_has_errors(game):
        generated = TextsInError(generated)
    bound: dict[str, BoundComponent] = {}
    for component in game.components.values():
        if not component.printed or not component.cards:
            continue
        if components is not None and component.id not in components:
            continue
        layouts = {}
        for role, name in (("face", face_layout_name(component)), ("back", back_layout_name(component))):
            layout = library.get(name)
            if layout is None and name in library.in_error:
                continue  # its file is there, with errors reported at their lines: not "unknown" too
            if layout is None:
                line = component.source.line if component.source else None
                if game.manifest is not None:  # the face = or back = line, where the name was written
                    line = game.manifest.line_of("components", component.id, role) or line
                report.error(f"component {component.id!r}: unknown {role} layout {name!r}",
                             game.manifest.path if game.manifest else None, line,
                             f"available: {', '.join(library.names())}; or add layouts/{name}.toml to the game")
            else:
                layouts[role] = layout
                _warn_safe_zone(layout, component, report)
        if len(layouts) < 2:
            continue
        result = BoundComponent(component, layouts["face"].name, layouts["back"].name)
        failed: dict[LayoutProblem, list[str]] = {}  # one layout problem, the cards it hits
        pictures = CardErrors()  # problems of the cards' own pictures
        with time_limit(running=False) as clock:  # each card's layouts get their own time (10 s)
            for card in component.cards:
                if card.id in leave_out or game.names_unknown_terms(card) or not component.fields_known:
                    continue  # a misspelt term or unreadable fields are reported; its faces would fail on them
                context = card_context(game, component, card, lang, generated, ink_saver)
                mistakes: list[BindError] = []  # every element in error, face and back: all said at once
                with clock:
                    face = binder.resolve(layouts["face"], context, mistakes)
                    back = binder.resolve(layouts["back"], context, mistakes)
                for exc in mistakes:
                    key = LayoutProblem(exc.layout.name, exc.layout.path, exc.line, str(exc),
                                        "fix this value of the layout" if exc.static
                                        else "fix the expression, or the card data it reads", static=exc.static)
                    failed.setdefault(key, []).append(card.id)
                # the elements that did resolve are still checked (a missing image beside a misspelt
                # colour): every mistake of a layout in one run
                problems = [problem for role, elements in (("face", face), ("back", back))
                            for problem in _check_elements(game, component, card, layouts[role], elements, shelf,
                                                           report)]
                for problem in problems:
                    if isinstance(problem, LayoutProblem):  # the layout's: one error for all the cards it hits
                        failed.setdefault(problem, []).append(card.id)
                    else:  # the card's own picture: at its row in the card list (a missing folder once for all)
                        pictures.add(problem.message.removeprefix(f"card {card.id!r}: "), problem.file, problem.line,
                                     problem.fix, card.id)
                if problems or mistakes:
                    continue
                if ink_saver:
                    size = component.trim_mm
                    face, back = on_white_paper(face, size), on_white_paper(back, size)
                result.cards.append(BoundCard(card, face, back))
        pictures.report_to(report)
        _report_layout_problems(failed, len(component.cards), report)
        _warn_low_resolution(game, result, report)
        _warn_art_without_bleed(result, report)
        _warn_svg_left_out(game, result, report)
        bound[component.id] = result
    return bound


CARDS_NAMED = 4
SAME_LINE_SHOWN = 6  # distinct problems one layout line gives different cards, said in one error


def _report_layout_problems(failed: dict[LayoutProblem, list[str]], cards: int, report: Report) -> None:
    """One error per layout line. A value that differs by card fails differently on each: "{{ colour.icon
    }}x" was four errors, "unknown icon 'starx'", "'moonx'"..., for one typo; they are said together."""
    by_line: dict[tuple, list[tuple[LayoutProblem, list[str]]]] = {}
    for problem, card_ids in failed.items():
        by_line.setdefault((problem.layout, problem.path, problem.line), []).append((problem, card_ids))
    for (layout, path, line), found in by_line.items():
        fix = found[0][0].fix  # the first card's: the others differ only in the name they would add
        card_ids = [card_id for _, ids in found for card_id in ids]
        every = len(card_ids) == cards
        hit = "" if all(problem.static for problem, _ in found) and every else f", {cards_named(card_ids)}"
        messages = [problem.message for problem, _ in found]  # each kept: they may be different mistakes
        message = " / ".join(messages[:SAME_LINE_SHOWN])
        if len(messages) > SAME_LINE_SHOWN:
            message += f" / and {len(messages) - SAME_LINE_SHOWN} more"
        report.error(f"layout {layout!r}{hit}: {message}", Path(path), line, fix)


def _nearest_picture(wanted: Path, src: str) -> str:
    """"did you mean 'art/logo.svg'?" when the folder holds a picture of a name like the one written."""
    try:
        pictures = [entry.name for entry in wanted.parent.iterdir() if entry.suffix in IMAGE_SUFFIXES]
    except OSError:
        pictures = []
    hint = closest(wanted.name, pictures)
    if hint is None:
        return "add the file, or fix the path"
    return f"did you mean {(Path(src).parent / hint).as_posix()!r}? Or add the file"


def cards_named(card_ids: list[str]) -> str:
    """"card 'red-1'", or "cards 'red-1', 'red-2', 'red-3', 'red-4' and 6 more": a problem of the
    layout itself (a typo in an expression) hits every card the same way, and is one problem."""
    if len(card_ids) == 1:
        return f"card {card_ids[0]!r}"
    return "cards " + listed((repr(card_id) for card_id in card_ids), CARDS_NAMED)


LOW_DPI_LISTED = 5  # more cards than this below MIN_DPI: one warning for the deck, not one per card


def raster_art(bound: BoundComponent) -> Iterator[tuple[BoundCard, dict]]:
    """Each card's pixel pictures (faces and backs), with their bound values: what dpi and decoding concern."""
    for card in bound.cards:
        for element in (*card.face, *card.back):
            values = element.values
            if element.type == "image" and not values.get("vector") and "pixel_size" in values:
                yield card, values


def _warn_low_resolution(game: Game, bound: BoundComponent, report: Report) -> None:
    """Art that prints below MIN_DPI: a warning per card, or one for the deck when there are more than
    LOW_DPI_LISTED (a deck exported at 150 dpi would otherwise bury the report under 900 of them)."""
    from pnp.render.cards.images import printed_dpi

    found = []
    for card, values in raster_art(bound):
        box = _printed_box_mm(values, bound.component)
        if min(box) <= 0:
            continue  # a box of no size is the layout's error, said already ("-300 dpi" said it again)
        dpi = printed_dpi(values["pixel_size"], box, values.get("fit", "cover"))
        if dpi < MIN_DPI - 0.5:
            found.append((card, _in_game(game, values["src"]), dpi, box))
    if not found:
        return

    def need(box: tuple[float, float]) -> str:
        return f"supply at least {_pixels_at_min_dpi(*box)} pixels for its {box[0]:g} × {box[1]:g} mm box"

    if len(found) <= LOW_DPI_LISTED:
        for card, src, dpi, box in found:
            report.warning(f"card {card.card.id!r}: image {src!r} prints at {dpi:.0f} dpi (below {MIN_DPI})",
                           *where(card.card.source), need(box))
        return
    _, src, dpi, box = min(found, key=lambda item: item[2])
    ids = [item[0].card.id for item in found]
    shown = listed(repr(i) for i in ids)
    report.warning(f"component {bound.component.id!r}: the art of {len(found)} card(s) prints below {MIN_DPI} dpi "
                   f"({shown}); the lowest is {src!r} at {dpi:.0f} dpi", *where(bound.component.source), need(box))


def _in_game(game: Game, path: Path) -> str:
    """A picture's path as the card list or layout would write it: inside the game folder (image
    paths are resolved, see bind.image_path, so the folder is too)."""
    folder = game.path.resolve()
    return Path(path).relative_to(folder).as_posix() if Path(path).is_relative_to(folder) else str(path)


def _pixels_at_min_dpi(width_mm: float, height_mm: float) -> str:
    return _pixels_at_dpi(width_mm, height_mm, MIN_DPI)


def _pixels_at_dpi(width_mm: float, height_mm: float, dpi: int) -> str:
    return f"{math.ceil(width_mm / 25.4 * dpi)} × {math.ceil(height_mm / 25.4 * dpi)}"


NO_BLEED_TOLERANCE = 0.005  # proportions within half a percent of the trim's: drawn to the cut line


def _warn_art_without_bleed(bound: BoundComponent, report: Report) -> None:
    """One warning per component for full-card pictures drawn to the trim, without bleed.

    Such art has the card's proportions (63.5 : 88.9), not the bleed's (69.5 : 94.9): covering the
    bleed enlarges it by a tenth, and the cut takes about 3 mm of every edge, with whatever the
    designer put there. Art of any other shape is left alone; it was never meant to fit exactly.
    """
    from pnp.render.cards.images import ART_BLEED_MM

    trim_w, trim_h = bound.component.trim_mm
    bleed_ratio = (trim_w + 2 * ART_BLEED_MM) / (trim_h + 2 * ART_BLEED_MM)
    if abs(bleed_ratio / (trim_w / trim_h) - 1) < NO_BLEED_TOLERANCE:
        return  # a square card's art has its proportions with bleed or without: nothing tells them apart
    cards = [card.card.id for card in bound.cards for element in card.face
             if element.type == "image" and element.values.get("bleed") and not element.values.get("vector")
             and _fills_card(element.values, bound.component)
             and abs(_ratio(element.values["pixel_size"]) / (trim_w / trim_h) - 1) < NO_BLEED_TOLERANCE]
    if not cards:
        return
    shown = listed(repr(card) for card in cards)
    art_w, art_h = trim_w + 2 * ART_BLEED_MM, trim_h + 2 * ART_BLEED_MM
    report.warning(f"component {bound.component.id!r}: the art of {len(cards)} card(s) ({shown}) has the card's "
                   f"proportions, drawn without bleed: it is enlarged to cover the bleed, so about "
                   f"{ART_BLEED_MM:g} mm of each edge is cut off", *where(bound.component.source),
                   f"export the art with {ART_BLEED_MM:g} mm bleed on every side: {art_w:g} × {art_h:g} mm "
                   f"({_pixels_at_min_dpi(art_w, art_h)} pixels at {MIN_DPI} dpi)")


def _warn_svg_left_out(game: Game, bound: BoundComponent, report: Report) -> None:
    """One warning per SVG file that uses what the art will print without (opacity, filters, masks...):
    it printed solid, or not at all, with nothing said."""
    from pnp.render.cards.vector_art import left_out_features

    files = dict.fromkeys(element.values["src"] for card in bound.cards for element in (*card.face, *card.back)
                          if element.type == "image" and element.values.get("vector"))
    for path in files:
        features = left_out_features(Path(path))
        if features:
            report.warning(f"SVG {_in_game(game, path)} uses what pnp's SVG drawing leaves out, so it prints "
                           f"without it: {', '.join(features)}", Path(path), None,
                           "export the art as a PNG at 300 dpi (it prints as you see it), or flatten those "
                           "effects in your drawing program")


def _fills_card(values: dict, component: Component) -> bool:
    card_w, card_h = component.trim_mm
    x, y = values.get("x", 0.0), values.get("y", 0.0)
    w, h = values.get("w", card_w), values.get("h", card_h)
    return abs(x) < 0.01 and abs(y) < 0.01 and abs(w - card_w) < 0.01 and abs(h - card_h) < 0.01


def _ratio(size: tuple[int, int]) -> float:
    return size[0] / size[1]


@dataclass(frozen=True)
class LayoutProblem:
    """A problem at a line of a layout, the same for every card it hits: reported once, naming them."""

    layout: str
    path: str
    line: int | None
    message: str
    fix: str | None
    static: bool = False  # a value that reads no card: the same mistake for every card


def _check_elements(game: Game, component: Component, card: Card, layout: Layout, elements: list[Resolved],
                    shelf: IconShelf, report: Report) -> list[Diagnostic | LayoutProblem]:
    """Everything that would otherwise fail mid-drawing: images, markup, icon names.

    A problem of the card's own picture is a Diagnostic at its row in the card list; one of the
    layout (a markup error, an unknown icon) a LayoutProblem at the key's line, which `bind_game`
    reports once for all the cards it hits.
    """
    problems: list[Diagnostic | LayoutProblem] = []
    for element in elements:
        try:
            if element.type == "image":
                _prepare_image(game, component, card, element, report, one_file=_src_is_literal(layout, element))
            elif element.type == "text":
                text = str(element.values.get("text", ""))
                if _MARKUP_CHARS.intersection(text):  # plain text cannot hold a markup error
                    parse_card_markup(text, shelf, style=str(element.values.get("font", "regular")))
            elif element.type in ("icon", "pips") and element.values.get("name" if element.type == "icon" else "icon"):
                name = str(element.values.get("name" if element.type == "icon" else "icon")).strip()
                if name and name not in shelf:
                    shelf.icon(name)  # raises the DataError with close matches
        except DataError as exc:
            found = exc.diagnostic
            message = found.message if f"card {card.id!r}" in found.message else f"card {card.id!r}: {found.message}"
            if found.file is not None and element.type == "image" and not _src_is_literal(layout, element):
                # the card's own picture (its image field, images/<id>, a src made from card fields):
                # fixed in the card list or the art folder, not in the layout, which may be built in;
                # point at the card (or the art file), and say which layout asked
                problems.append(Diagnostic(
                    Level.ERROR, f"{message} (layout {Path(layout.path).name}, line {element.line})",
                    found.file, found.line, found.fix))
                continue
            key = {"text": "text", "icon": "name", "pips": "icon"}.get(element.type)
            raw = _written(layout, element)
            line = raw.line_of(key) if raw is not None else element.line
            said = found.message.replace(f"card {card.id!r}: ", "", 1)
            if (element.type == "text" and raw is not None and card.source is not None
                    and _reads_the_card(raw) and not _written_text_fails(raw, shelf, element)):
                # the markup the card's own text brings (":coins:", an unclosed "**" in text.en): fixed in
                # the card list, so said at its row, naming the layout line that prints it
                problems.append(Diagnostic(Level.ERROR, f"{message} (printed by layout {Path(layout.path).name}, "
                                           f"line {line})", *where(card.source), found.fix))
                continue
            if element.type == "text" and raw is not None and _written_text_fails(raw, shelf, element):
                # the layout's own text is at fault, whatever each card fills in: quote it as written,
                # so that every card it hits is one error ("in '**Red 1'", "in '**Red 2'"... were ten)
                resolved = str(element.values.get("text", ""))
                said = said.replace(repr(resolved), repr(str(raw.values.get("text", ""))))
            problems.append(LayoutProblem(layout.name, layout.path, line, said, found.fix))
    return problems


_PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)


def _reads_the_card(raw: Element) -> bool:
    """Whether a text element's template prints something of the card (its text, name or fields)."""
    written = raw.values.get("text")
    return isinstance(written, str) and "card." in written


def _written_text_fails(raw: Element, shelf: IconShelf, element: Resolved) -> bool:
    """Whether a text element's markup fails as the layout writes it, each placeholder a plain word."""
    written = raw.values.get("text")
    if not isinstance(written, str):
        return False
    try:
        parse_card_markup(_PLACEHOLDER.sub("x", written), shelf, style=str(element.values.get("font", "regular")))
    except DataError:
        return True
    return False


def _written(layout: Layout, element: Resolved) -> Element | None:
    """The layout's element as written (its keys' lines, its unevaluated values) for a resolved one."""
    return next((e for e in layout.elements if e.line == element.line), None)


def _src_is_literal(layout: Layout, element: Resolved) -> bool:
    """Whether the layout names one file for every card (then the layout is what to fix)."""
    raw = _written(layout, element)
    src = raw.values.get("src") if raw is not None else None
    return isinstance(src, str) and "{" not in src


#: the characters card markup is made of (``**bold**``, ``:icon:``, ``\`` escapes)
_MARKUP_CHARS = frozenset("*:\\")


def _warn_safe_zone(layout: Layout, component: Component, report: Report) -> None:
    if component.size is None:
        return
    for element in text_outside_safe_zone(layout, *component.size):
        report.warning(f"layout {layout.name!r}: text box reaches within {layout.safe_zone:g} mm of the trim "
                       f"(component {component.id!r}); a print shop's cut may clip it",
                       Path(layout.path), element.line, "move the box inside the safe zone")


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG", ".svg", ".SVG")


def _prepare_image(game: Game, component: Component, card: Card, element: Resolved, report: Report,
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
    src = str(element.values["src"] if "src" in element.values else _card_picture(card)).strip()
    try:
        candidates = [image_path(game, src + suffix) for suffix in IMAGE_SUFFIXES] if src and not Path(
            src).suffix else [image_path(game, src)]
    except ValueError as exc:
        raise DataError(f"card {card.id!r}: {exc}", *location,
                        "copy the picture into the game folder (images/ is the usual place), so the game "
                        "travels whole") from None
    path = next((p for p in candidates if p.is_file()), None)
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
                        _nearest_picture(candidates[0], src) if src else "add the file, or fix the path")
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
        box = _printed_box_mm(element.values, component)
        raise DataError(f"card {card.id!r}: image {src!r} is {too_many}", *location,
                        f"resample it: {_pixels_at_dpi(*box, FINE_DPI)} pixels print its {box[0]:g} × {box[1]:g} mm "
                        f"box at {FINE_DPI} dpi")
    element.values["src"] = path
    element.values["pixel_size"] = pixels
    # its resolution is judged per deck, in _warn_low_resolution


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
            box_w, box_h = _printed_box_mm(values, bound.component, painter.sheet_bleed_mm)
            pixels_w, pixels_h = values["pixel_size"]
            fit = max if values.get("fit", "cover") == "cover" else min
            drawn_width_pt = pixels_w * fit(box_w / pixels_w, box_h / pixels_h) * 72 / 25.4
            size = resampled_size(values["pixel_size"], drawn_width_pt, painter.max_dpi)
        requests.append((values["src"], size))
    if requests:
        from pnp.render.cards.images import decode_ahead

        decode_ahead(requests, painter.recompress)


def _card_picture(card: Card) -> str:
    """An image element without ``src`` draws the card's own picture: its ``image`` field, else
    ``images/<card id>`` (any picture suffix). The built-in full-bleed-image layout relies on it, so an
    image deck's faces need no template at all."""
    named = card.fields.get("image")
    return str(named).strip() if named is not None and str(named).strip() else f"images/{card.id}"


def _printed_box_mm(values: dict, component: Component, sheet_bleed_mm: float = 0.0) -> tuple[float, float]:
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


_renderer_numbers = itertools.count()


@dataclass
class DeckRenderer:
    """Draw callbacks for the imposition, for one bound component.

    What a card's side shares with other cards of the deck is drawn once per document as a form and
    placed wherever it repeats (pnp/render/cards/forms.py); what is the card's own, such as its name, is
    drawn in place. ``share_forms=False`` draws every element of every card.
    """

    bound: BoundComponent
    painter: FacePainter
    share_forms: bool = True
    _plans: dict[tuple, SidePlan] = field(default_factory=dict, repr=False)
    _slots: dict[str, set[Rect]] = field(default_factory=dict, repr=False)  # trims drawn at, by side
    _sheet_known: set[str] = field(default_factory=set, repr=False)  # sides whose slots have all been seen
    # in form keys, stands for this renderer's painter (fonts, ink saver) and its numbering of elements
    _number: int = field(default_factory=lambda: next(_renderer_numbers), repr=False)

    def draw_face(self, canvas: Canvas, card: BoundCard, trim: Rect, bleed: Rect) -> None:
        self._draw_side(canvas, "face", card, _tuple(trim), _tuple(bleed))

    def draw_back(self, canvas: Canvas, card: BoundCard, trim: Rect, bleed: Rect) -> None:
        self._draw_side(canvas, "back", card, _tuple(trim), _tuple(bleed))

    @property
    def issues(self) -> list[TextIssue]:
        return self.painter.issues

    def _draw_side(self, canvas: Canvas, side: str, card: BoundCard, trim: Rect, bleed: Rect) -> None:
        elements: list[Resolved] = card.face if side == "face" else card.back
        painter = self.painter
        if not self.share_forms:
            painter.draw(canvas, elements, trim, bleed, card.card.id, self._layout(side))
            return
        side_plan = self._side_plan(side, trim)
        plan = side_plan.card(card, elements)
        slots = self._slots.setdefault(side, set())
        if trim in slots:
            self._sheet_known.add(side)  # a slot comes round again: the first sheet is done
        else:
            slots.add(trim)
        share = side in self._sheet_known
        shelf = shelf_of(canvas)
        for start, stop, run, reaches_bleed in plan.pieces:
            # the first sheet is drawn in place: until it is done, how often each slot repeats is unknown
            if run is None or not share or not side_plan.sharing.worth_a_form(run, len(slots)):
                for element in elements[start:stop]:
                    painter.paint(canvas, element, trim, bleed)
                continue
            # a form is drawn in page coordinates, so it belongs to one slot: the trim is in its key
            key = (self._number, side, run, trim, bleed if reaches_bleed else None)
            name = shelf.names.get(key)
            if name is None:
                paint = self._painting(elements[start:stop], trim, bleed)
                name = shelf.name_for(canvas, key, paint, form_box(trim, bleed))
            canvas.doForm(name)
        for index, problem in plan.problems:
            element = elements[index]
            painter.issues.append(TextIssue(card.card.id, self._layout(side), element.line,
                                            str(element.values.get("text", "")), *problem))

    def _layout(self, side: str) -> str:
        return self.bound.face_layout if side == "face" else self.bound.back_layout

    def _painting(self, run: Sequence[Resolved], trim: Rect, bleed: Rect) -> Callable[[object], None]:
        def paint(canvas: Canvas) -> None:
            for element in run:
                self.painter.paint(canvas, element, trim, bleed)
        return paint

    def _side_plan(self, side: str, trim: Rect) -> SidePlan:
        """Planned once per side and card size, counting the whole deck."""
        plan = self._plans.get((side, trim[2], trim[3]))
        if plan is None:
            sides = [(bound, bound.face if side == "face" else bound.back, bound.card.count)
                     for bound in self.bound.cards]
            plan = self._plans[(side, trim[2], trim[3])] = SidePlan.of_deck(self.painter, trim, sides)
        return plan


def _tuple(rect: Sequence[float]) -> Rect:
    """The imposition's Rect (points) as the painter's (x, y, width, height)."""
    return (rect.x, rect.y, rect.width, rect.height) if not isinstance(rect, tuple) else rect


def chosen_cards(bound: BoundComponent, only: Sequence[str] = ()) -> list[BoundCard]:
    """The cards to print, in card-list order: all of them, or the ids ``--only`` reprints."""
    return [b for b in bound.cards if not only or b.card.id in only]


def expand_copies(bound: BoundComponent, only: Sequence[str] = ()) -> list[BoundCard]:
    """One entry per printed copy, in card-list order; ``only`` reprints chosen ids."""
    return [b for b in chosen_cards(bound, only) for _ in range(b.card.count)]


def make_painter(fontset: FontSet, game: Game, ink_saver: bool, recompress: bool = False,
                 max_dpi: int | None = None, sheet_bleed_mm: float = 3.0) -> FacePainter:
    return FacePainter(fontset=fontset, icons=IconShelf([game.path / "icons"]), ink_saver=ink_saver,
                       recompress=recompress, max_dpi=max_dpi, sheet_bleed_mm=sheet_bleed_mm)

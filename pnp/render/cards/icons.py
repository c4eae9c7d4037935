"""Icons from SVG files, drawn as vector shapes on a reportlab canvas.

A game names icons (``:coin:`` in card text, a suit on a card face). The name
is looked up first in the game's own ``icons/`` folder, so a designer can
replace any built-in icon, and then in the built-in set that ships inside the
wheel (``pnp_templates/icons``). Built-in icons are reached through
importlib's Traversable, so they work from a zip or wheel as well as from a
checkout; nothing here assumes a real file path.

Every SVG is parsed by svglib once per process and kept; a card sheet draws
the same few icons hundreds of times. Recolouring works on a copy, so the kept
drawing always stays as the file drew it. Icons stay vector (no rasterising),
so they print sharp at any size and keep the PDF small.

Units: every size and position here is in PDF points, the canvas's own unit.
For millimetres multiply by ``reportlab.lib.units.mm`` (4 mm = 11.34 pt).
"""

from __future__ import annotations

import copy
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import Color

from pnp.compose.bind import HEX_COLOUR
from pnp.diagnostics import DataError
from pnp.load.guarded import read_input
from pnp.render.cards.vector_art import parse_svg
from pnp.resources import templates_root

if TYPE_CHECKING:  # svglib and reportlab.graphics load only when an icon is first drawn
    from reportlab.graphics.shapes import Drawing

#: Names usable as ``:name:`` in card text; also keeps a name from leaving its folder ("../x").
ICON_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_SUFFIX = ".svg"

Folder = Traversable | Path
#: Draws an inline icon ``draw(canvas, x, baseline_y, size, ink=None)``, as text layout expects; ``ink``
#: is the colour of the text around it ("#rrggbb").
InlineDraw = Callable[..., None]


@dataclass(frozen=True, eq=False)
class Icon:
    """One parsed icon, shared by every caller in the process.

    ``drawing`` is the memoised original: treat it as read-only and let
    :func:`draw_icon` make recoloured copies.
    """

    name: str
    origin: str  # where the SVG came from, for messages and tests
    drawing: Drawing = field(repr=False)
    _recoloured: dict[str, Drawing] = field(default_factory=dict, repr=False)

    @property
    def aspect(self) -> float:
        """Width over height of the SVG's own frame (its viewBox), padding included.

        Text layout reserves ``aspect × font size`` for an inline icon; using the
        viewBox rather than the ink bounds keeps icons of one set the same size.
        """
        return self.drawing.width / self.drawing.height

    @cached_property  # a frozen dataclass still has a __dict__, which cached_property writes to
    def single_colour(self) -> bool:
        """Whether every painted part of the icon has one colour (a glyph, as the built-in icons are),
        so that it can take the colour of the text it stands in; a picture of several colours keeps them."""
        inks = {(round(paint.red, 3), round(paint.green, 3), round(paint.blue, 3))
                for shape in _shapes(self.drawing)
                for paint in (getattr(shape, "fillColor", None), getattr(shape, "strokeColor", None))
                if paint is not None and hasattr(paint, "red")}
        return len(inks) <= 1


def builtin_folder() -> Traversable:
    return templates_root() / "icons"


def available_icons(search: Sequence[Folder] = ()) -> list[str]:
    """Every icon name that :func:`load_icon` would find, sorted, built-in ones included."""
    names: set[str] = set()
    for folder in (*search, builtin_folder()):
        names.update(_names_in(folder))
    return sorted(names)


def load_icon(name: str, search: Sequence[Folder] = ()) -> Icon:
    """Find ``name.svg`` in the ``search`` folders, then among the built-in icons.

    Search folders come first so that a game's ``icons/heart.svg`` replaces the
    built-in heart for that game only. An unknown name is a data error naming
    close matches, since it is almost always a typo in the game's files.
    """
    if not ICON_NAME.fullmatch(name):
        raise _not_an_icon_name(name)
    for folder in (*search, builtin_folder()):
        candidate = folder / f"{name}{_SUFFIX}"
        try:
            found = candidate.is_file()
        except OSError:  # a name too long for the file system (a pasted paragraph) names no file in it
            found = False
        if found:
            return _parsed(name, candidate)
    raise _unknown_icon(name, available_icons(search))


def draw_icon(canvas: Any, icon: Icon, x: float, y: float, size: float, colour: str | None = None) -> None:
    """Draw ``icon`` as vector shapes, its frame's bottom-left corner at (x, y).

    The icon is scaled uniformly so that its longer side is ``size`` points
    (pass ``n * mm`` for millimetres); a wide icon is therefore ``size`` wide and
    less tall, and is not centred, so callers that reserve ``size × aspect`` get
    exactly that box. ``colour`` ("#rrggbb") repaints every filled and stroked
    shape in that one ink, which is how a suit or faction colour is applied to
    an icon drawn in black.
    """
    drawing = icon.drawing if colour is None else _recoloured(icon, colour)
    scale = size / max(drawing.width, drawing.height)
    canvas.saveState()
    try:
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        # reportlab parks bookkeeping attributes on the nodes while it draws, so a
        # drawing shared across threads must not be drawn by two of them at once.
        with _RENDER_LOCK:
            # renderPDF starts from Helvetica unless told otherwise, which would put an unembedded
            # font reference into every page with an icon: start from the canvas's embedded font
            drawing.initialFontName = canvas._fontname
            drawing.initialFontSize = canvas._fontsize
            from reportlab.graphics import renderPDF

            renderPDF.draw(drawing, canvas, 0, 0)
    finally:
        canvas.restoreState()


def inline_drawer(icon: Icon, colour: str | None = None, height: float = 1.0, lift: float = 0.0) -> InlineDraw:
    """A drawing callback for inline icons in text, which sit on the baseline, ``height`` font sizes
    tall, ``lift`` font sizes below it (negative: above).

    Text layout reserves ``icon.aspect × size`` across, so a wide icon must be
    scaled by its height, not its longer side as :func:`draw_icon` does.
    """
    if colour is not None:
        _recoloured(icon, colour)  # reject a bad colour now, while the data is being read

    def draw(canvas: Any, x: float, baseline_y: float, size: float, ink: str | None = None) -> None:
        """``ink``: the colour of the text around the icon, which a single-colour icon takes (a white
        :coin: in white text on a dark band, not a black one); ``colour``, when given, wins."""
        paint = colour if colour is not None else ink if ink is not None and icon.single_colour else None
        draw_icon(canvas, icon, x, baseline_y - size * lift, size * height * max(1.0, icon.aspect), paint)

    return draw


# -- parsing and memoising ---------------------------------------------------

_PARSED: dict[tuple[str, tuple[int, ...]], Icon] = {}
_PARSE_LOCK = threading.Lock()
_RENDER_LOCK = threading.Lock()


def _parsed(name: str, source: Folder) -> Icon:
    # Keyed by location, not name: the same name means different files in different games; and by
    # the file's size and time, so `pnp watch` draws an icon the designer just saved, not the old one.
    key = (str(source), _signature(source))
    with _PARSE_LOCK:
        icon = _PARSED.get(key)
        if icon is None:
            icon = Icon(name, key[0], _parse_svg(source))
            _PARSED[key] = icon
    return icon


def _signature(source: Folder) -> tuple[int, ...]:
    """(size, mtime) of an icon file on disk; built-in icons inside a wheel never change."""
    if not isinstance(source, Path):
        return ()
    try:
        info = source.stat()
    except OSError:
        return ()
    return (info.st_size, info.st_mtime_ns)


def _parse_svg(source: Folder) -> Drawing:
    """Read through the Traversable, since a wheel may hold no real file; an icon must also draw
    something, as it is recoloured shape by shape."""
    file = source if isinstance(source, Path) else None
    data = read_input(file, "art") if file is not None else source.read_bytes()  # a wheel's own icons: trusted
    drawing = parse_svg(data, f"icon {source.name}", file)
    if not any(_shapes(drawing)):
        raise DataError(
            f"icon {source.name} draws nothing",
            file=file,
            fix="give the <svg> a viewBox and draw filled shapes, e.g. fill=\"#000\"",
        )
    return drawing


def icon_problem(name: str, search: Sequence[Folder] = ()) -> DataError | None:
    """The error :func:`load_icon` would raise for ``name``, without drawing it: for names written in the
    data (a colour's icon), checked once where they are written rather than at each layout that draws them."""
    if not ICON_NAME.fullmatch(name):
        return _not_an_icon_name(name)
    known = available_icons(search)
    return None if name in known else _unknown_icon(name, known)


def _not_an_icon_name(name: str) -> DataError:
    return DataError(f"{name!r} is not an icon name",
                     fix="icon names use letters, digits, '-' and '_', and start with a letter")


def _names_in(folder: Folder) -> Iterable[str]:
    if not folder.is_dir():
        return []
    return [
        entry.name.removesuffix(_SUFFIX)
        for entry in folder.iterdir()
        if entry.name.endswith(_SUFFIX) and ICON_NAME.fullmatch(entry.name.removesuffix(_SUFFIX)) and entry.is_file()
    ]


def _unknown_icon(name: str, known: list[str]) -> DataError:
    import difflib

    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    message = f"unknown icon {name!r}"
    if close:
        message += "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    fix = "available icons: " + ", ".join(known) + "; or add " + f"icons/{name}{_SUFFIX} to the game folder"
    return DataError(message, fix=fix)


# -- recolouring -------------------------------------------------------------


def _recoloured(icon: Icon, colour: str) -> Drawing:
    """A copy of the icon in one ink, kept per colour since a deck repeats a few colours many times."""
    drawing = icon._recoloured.get(colour.lower())
    if drawing is None:
        ink = _parse_colour(colour)
        drawing = copy.deepcopy(icon.drawing)
        for shape in _shapes(drawing):
            _repaint(shape, ink)
        icon._recoloured[colour.lower()] = drawing
    return drawing


def _parse_colour(colour: str) -> Color:
    if not HEX_COLOUR.fullmatch(colour):
        raise DataError(f"icon colour {colour!r} is not a #rrggbb colour", fix="write it like \"#c0392b\"")
    value = int(colour[1:], 16)
    return Color((value >> 16 & 0xFF) / 255, (value >> 8 & 0xFF) / 255, (value & 0xFF) / 255)


def _shapes(node: Any) -> Iterable[Any]:
    """Every drawable leaf under ``node``; groups only carry transforms."""
    from reportlab.graphics.shapes import Group

    if isinstance(node, Group):
        for child in node.contents:
            yield from _shapes(child)
    else:
        yield node


def _repaint(shape: Any, ink: Color) -> None:
    # Only paint that exists is replaced: an unfilled outline must not become a filled blob.
    # Each paint keeps its own transparency.
    for attribute in ("fillColor", "strokeColor"):
        paint = getattr(shape, attribute, None)
        if paint is not None:
            setattr(shape, attribute, Color(ink.red, ink.green, ink.blue, alpha=getattr(paint, "alpha", 1)))

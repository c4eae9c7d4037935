"""SVG card art, drawn as vectors with svglib.

Text inside an SVG would print in a font reportlab does not embed, which a
print shop rejects, so such art is refused with a message to convert its
text to paths.
"""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.diagnostics import DataError
from pnp.load.guarded import LIMITS, read_input

if TYPE_CHECKING:  # svglib and reportlab.graphics load only for decks that have SVG art
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas

_LOCK = threading.Lock()
_LOADED: dict[tuple[str, int, int], tuple[Drawing, tuple[str, ...]]] = {}


def load_svg(path: Path) -> Drawing:
    """Parse once per process and file version (`pnp watch` redraws art saved since); a broken file
    or one with text is a data error."""
    return _loaded(path)[0]


def left_out_features(path: Path) -> tuple[str, ...]:
    """What the SVG file uses that will not print as drawn (a designer's Inkscape export: a group at 50 %
    opacity printed solid, a drop shadow vanished), named as a designer would; () when nothing."""
    return _loaded(path)[1]


def _loaded(path: Path) -> tuple[Drawing, tuple[str, ...]]:
    info = path.stat()
    key = (str(path.resolve()), info.st_size, info.st_mtime_ns)
    with _LOCK:
        known = _LOADED.get(key)
    if known is None:
        data = read_input(path, "art")
        root = _svg_root(data, f"SVG {path.name}", path)  # first: a damaged file is said as such
        known = (_drawing(data, f"SVG {path.name}", path), _features(root))
        with _LOCK:
            _LOADED[key] = known
    return known


def parse_svg(data: bytes, what: str, file: Path | None) -> Drawing:
    """An SVG file's bytes as a reportlab drawing, for card art and icons alike; ``what`` names it in
    messages ("SVG dragon.svg", "icon coin")."""
    _svg_root(data, what, file)
    return _drawing(data, what, file)


def _svg_root(data: bytes, what: str, file: Path | None) -> Any:
    """The SVG's XML, parsed strictly: svglib's parser recovers from broken XML and draws whatever
    survived, so a damaged file is a clear error here instead."""
    import xml.etree.ElementTree as ElementTree  # only once a deck has SVG art or icons

    if b"<!ENTITY" in data:  # entities expanding into entities: a few bytes that stand for gigabytes
        raise DataError(f"{what} declares XML entities (<!ENTITY>), which no drawing program writes", file, None,
                        "save it again from your drawing program")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise DataError(f"{what} is not valid SVG: {error}", file, None,
                        "save it again from your drawing program") from None
    if not root.tag.endswith("svg"):
        raise DataError(f"{what} is not an SVG file (its root element is <{root.tag}>)", file)
    _within_limits(root, what, file)
    refuse_linked_pictures(root, what, file)
    return root


def _within_limits(root: Any, what: str, file: Path | None) -> None:
    """Counted before svglib parses it: svglib draws an element at a time, recursively, so a file of a
    million elements or nested a thousand deep would take minutes, or end in a RecursionError."""
    most, deepest = LIMITS["svg elements"], LIMITS["svg depth"]
    count, stack = 0, [(root, 1)]
    while stack:
        element, depth = stack.pop()
        count += 1
        if count > most:
            raise DataError(f"{what} has more than {most:,} elements: too many to draw", file, None,
                            "simplify it in your drawing program (or export it as a PNG)")
        if depth > deepest:
            raise DataError(f"{what} nests its elements more than {deepest} deep", file, None,
                            "ungroup it in your drawing program")
        stack.extend((child, depth + 1) for child in element)


def _drawing(data: bytes, what: str, file: Path | None) -> Drawing:
    """svglib's drawing of it. svglib gets a file object, not a path, which also stops it following
    references to other files."""
    from svglib.svglib import svg2rlg

    try:
        drawing = svg2rlg(io.BytesIO(data))
    except Exception as exc:  # svglib raises many kinds of errors on bad input
        raise DataError(f"{what} cannot be read: {exc}", file) from None
    if drawing is None or not drawing.width or not drawing.height:
        raise DataError(f"{what} has no drawable size", file, None,
                        "give the <svg> element a width and height or a viewBox")
    refuse_text(drawing, what, file)
    return drawing


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
EMBEDDED_PICTURE = ("data:image/png;", "data:image/jpeg;", "data:image/jpg;")


def refuse_linked_pictures(root: Any, what: str, file: Path | None) -> None:
    """A picture the SVG only links to (a file beside it, a web address) or embeds in a form svglib cannot
    draw (GIF, SVG) was left out of the print, with nothing said but svglib's log line: refuse it."""
    for element in root.iter():
        if not (isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "image"):
            continue
        href = (element.get(XLINK_HREF) or element.get("href") or "").strip()
        if href.lower().startswith(EMBEDDED_PICTURE):
            continue
        shown = href if len(href) <= 60 else href[:40] + "…"
        raise DataError(f"{what} links to a picture pnp cannot draw ({shown or 'no address'}): only pictures "
                        "embedded in the SVG as PNG or JPEG are drawn", file, None,
                        "embed the picture as PNG or JPEG (Inkscape: Extensions > Images > Embed Images), or "
                        "place it as a layout image element of its own")


#: what SVG art may hold that svglib, which draws it, leaves out or gets wrong: the art prints without it
LEFT_OUT_ELEMENTS = {"mask": "masks", "filter": "filters (shadows, blurs)", "pattern": "pattern fills",
                     "foreignObject": "embedded HTML", "flowRoot": "flowed text"}
_CSS_EFFECTS = re.compile(r"(?<![-\w])(opacity|filter|mask|mix-blend-mode)\s*:\s*([^;}]+)")


def _features(root: Any) -> tuple[str, ...]:
    found: set[str] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        tag = element.tag.rsplit("}", 1)[-1]
        if tag in LEFT_OUT_ELEMENTS:
            found.add(LEFT_OUT_ELEMENTS[tag])
        elif tag == "svg" and element is not root:
            found.add("nested <svg> elements")
        elif tag == "style" and element.text:
            for name, value in _CSS_EFFECTS.findall(element.text):
                _effect(name, value.strip(), found)
        properties = {name.rsplit("}", 1)[-1]: value for name, value in element.attrib.items()}
        for declaration in properties.pop("style", "").split(";"):
            name, colon, value = declaration.partition(":")
            if colon:
                properties[name.strip()] = value
        for name, value in properties.items():
            _effect(name, value.strip(), found)
    return tuple(sorted(found))


def _effect(name: str, value: str, found: set[str]) -> None:
    if name in ("mask", "filter") and value and value != "none":
        found.add(LEFT_OUT_ELEMENTS[name])
    elif name in ("opacity", "stop-opacity") and _below_one(value):
        found.add("opacity" if name == "opacity" else "see-through gradient stops")
    elif name == "mix-blend-mode" and value not in ("", "normal"):
        found.add("blend modes")
    elif name == "stroke" and value.startswith("url("):
        found.add("gradient or pattern outlines")
    elif name == "gradientTransform":
        found.add("turned or stretched gradients")
    elif name == "spreadMethod" and value in ("reflect", "repeat"):
        found.add("repeating gradients")


def _below_one(value: str) -> bool:
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return False
    return number < 1


def refuse_text(drawing: Drawing, what: str, file: Path | None) -> None:
    """Text in an SVG would print in svglib's default font, Helvetica, never embedded: refuse it."""
    from reportlab.graphics.shapes import String

    if any(isinstance(node, String) for node in _walk(drawing)):
        raise DataError(f"{what} contains text, which would print in an unembedded font", file, None,
                        "convert the text to paths in your drawing program (Inkscape: Path > Object to Path)")


def _walk(node: Any) -> list:
    from reportlab.graphics.shapes import Group

    found = [node]
    if isinstance(node, Group):  # a Drawing is a Group
        for child in node.contents:
            found.extend(_walk(child))
    return found


def draw_svg(canvas: Canvas, path: Path, x: float, y: float, w: float, h: float, fit: str = "cover") -> None:
    """Scale to cover or contain the box, centred and clipped to it, as raster art is."""
    from reportlab.graphics import renderPDF

    drawing = load_svg(path)
    scale = (max if fit == "cover" else min)(w / drawing.width, h / drawing.height)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(x + (w - drawing.width * scale) / 2, y + (h - drawing.height * scale) / 2)
    canvas.scale(scale, scale)
    with _LOCK:
        # renderPDF starts from Helvetica unless told otherwise: an unembedded font a print shop rejects
        drawing.initialFontName = canvas._fontname
        drawing.initialFontSize = canvas._fontsize
        _renderer().draw(renderPDF.renderScaledDrawing(drawing), canvas, 0, 0)
    canvas.restoreState()


def _renderer() -> Any:
    """renderPDF's renderer, but a picture the SVG embeds goes in as an image object of its own.

    renderPDF writes it inline in the page's content, which reportlab can only do with ASCII85 encoding:
    with that off (binary streams, pnp/render/__init__.py) every SVG holding a picture ended the build
    with a TypeError. An image object also carries the picture's transparency, which inline images lose.
    """
    from reportlab.graphics.renderPDF import _PDFRenderer
    from reportlab.lib.utils import ImageReader

    class PictureObjects(_PDFRenderer):
        def drawImage(self, image: Any) -> None:  # noqa: N802 - reportlab's name
            picture = image.path
            if picture is not None and hasattr(picture, "mode"):  # svglib hands over a PIL image
                self._canvas.drawImage(ImageReader(picture), image.x, image.y, image.width, image.height,
                                       mask="auto")

    return PictureObjects()

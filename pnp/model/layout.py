"""Declarative card layouts: TOML files of elements bound to card fields.

Units are millimetres; the origin is the top-left corner of the card's trim;
x grows to the right and y grows downwards, as a designer measures a card on
paper. The bleed lies outside 0..width and 0..height. Element values that
name card data are Jinja2 expressions evaluated in Jinja2's sandbox, so a
layout from someone else cannot run code.

Built-in layouts live in ``templates/layouts/``; a game may add or override
layouts in its own ``layouts/`` folder.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.diagnostics import DataError, Report
from pnp.load.layout_files import builtin_layout_files, game_layout_files
from pnp.load.toml_lines import TomlDoc, load_toml, parse_toml
from pnp.model.fields import closest
from pnp.model.nesting import expression_nesting_problem

ELEMENT_KEYS: dict[str, set[str]] = {
    "rect": {"x", "y", "w", "h", "fill", "stroke", "stroke_width", "radius", "bleed", "ink"},
    "frame": {"inset", "radius", "stroke", "stroke_width"},
    "line": {"x1", "y1", "x2", "y2", "stroke", "stroke_width", "dash"},
    "text": {"x", "y", "w", "h", "text", "size", "min_size", "font", "align", "valign", "colour", "leading",
             "rotate", "underline"},
    "icon": {"x", "y", "size", "name", "colour", "rotate"},
    "image": {"x", "y", "w", "h", "src", "fit", "bleed"},
    "pattern": {"kind", "fill", "stroke", "spacing", "stroke_width", "ink"},
    "pips": {"x", "y", "w", "h", "count", "symbol", "icon", "size", "colour"},
}
COMMON_KEYS = {"type", "when", "id"}
#: keys whose values come from a fixed set; checked when the layout is read and again once bound
CHOICES: dict[str, tuple[str, ...]] = {
    "align": ("left", "center", "right"),
    "valign": ("top", "middle", "bottom"),
    "font": ("regular", "bold"),
    "fit": ("cover", "contain"),
    "kind": ("argyle", "stripes", "dots", "grid", "solid"),
}
REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "line": ("x1", "y1", "x2", "y2"),
    "text": ("text",),
    "icon": ("name",),
    "pips": ("count",),
}


def value_type_problem(key: str, value: object) -> str | None:
    """Why a value written in a layout file cannot stand for ``key`` (a list where a number belongs),
    or None. Strings are expressions and templates, checked once bound to a card."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if key in NUMERIC_KEYS:
        wanted = None if number or isinstance(value, str) else 'a number, or an expression in quotes ("width / 2")'
    elif key in BOOLEAN_KEYS:
        wanted = None if isinstance(value, bool) else "true or false, without quotes"
    elif key in CONDITION_KEYS:
        wanted = None if isinstance(value, str | bool) else 'a condition in quotes ("card.rank is not none")'
    elif key in TEXT_OR_NUMBER_KEYS:
        wanted = None if number or isinstance(value, str) else "text in quotes"
    else:
        wanted = None if isinstance(value, str) else "text in quotes"
    if wanted is None:
        return None
    return f"{key} = {_toml_value(value)} should be {wanted}"


#: layout numbers are mm, pt or degrees: none is sensibly more than ten metres (reportlab refuses
#: the largest, and a card is a few centimetres)
LARGEST_MEASURE = 10_000
#: keys whose number must be above zero
POSITIVE_KEYS = ("w", "h", "size", "min_size", "stroke_width", "spacing")
#: a pattern repeats at most this finely (mm): a finer one prints as a grey, and drawing a
#: 0.001 mm repeat over a card would take hours
FINEST_SPACING = 1.0
#: line spacing, as a multiple of the text size: tighter, the lines of a box print over each other
TIGHTEST_LEADING = 0.5


def number_problem(key: str, value: float) -> str | None:
    """What is wrong with a number (written, or given by an expression) as ``key``'s value, said of
    it ("must be positive"), or None."""
    if not math.isfinite(value) or abs(value) > LARGEST_MEASURE:
        return f"is out of range (at most {LARGEST_MEASURE:,} either way)"
    if key in POSITIVE_KEYS and value <= 0:
        return "must be positive"
    if key == "spacing" and value < FINEST_SPACING:
        return f"is finer than a pattern can repeat (at least {FINEST_SPACING:g} mm)"
    if key == "leading" and value < TIGHTEST_LEADING:
        return f"is too tight: the lines would print over each other (at least {TIGHTEST_LEADING:g} times the size)"
    return None


def _toml_value(value: object) -> str:
    """A value as the layout file writes it, for a message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }" if value else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


#: words meant for a choice that spelling alone would not find: "centre" is close to "center", not "middle"
MEANT = {("valign", "centre"): "middle", ("valign", "center"): "middle", ("align", "centre"): "center",
         ("align", "middle"): "center", ("font", "italic"): "regular", ("font", "normal"): "regular"}


def choice_hint(key: str, value: object) -> str | None:
    """The choice a value not allowed for ``key`` most likely meant."""
    return MEANT.get((key, str(value).lower())) or closest(str(value), CHOICES.get(key, ()))


def choice_problem(key: str, value: object) -> str | None:
    """Why ``value`` is not allowed for ``key``, or None when it is."""
    allowed = CHOICES.get(key)
    if allowed is None or value in allowed:
        return None
    hint = choice_hint(key, value)
    return (f"{key} = {value!r} is not one of {', '.join(allowed)}"
            + (f" (did you mean {hint!r}?)" if hint else ""))
#: keys that take true or false, written as such (a quoted "false" would read as true)
BOOLEAN_KEYS = {"bleed", "dash"}
#: keys that take true, false or a condition on the card, evaluated like ``when``
CONDITION_KEYS = {"when", "underline"}
#: keys whose text may also be written as a bare number (text = 5, symbol = 7)
TEXT_OR_NUMBER_KEYS = {"text", "symbol"}
LAYOUT_KEYS = {"name", "description", "element", "safe_zone"}
SAFE_ZONE_MM = 3.0


@dataclass(frozen=True)
class Element:
    type: str
    values: dict[str, Any]
    when: str | None
    line: int | None
    key_lines: dict[str, int] = field(default_factory=dict, compare=False)  # where each key is written

    def line_of(self, key: str | None) -> int | None:
        """The line of ``key`` in the layout file, else the element's own."""
        return self.key_lines.get(key, self.line) if key else self.line


@dataclass(frozen=True)
class Layout:
    name: str
    path: str  # for messages: where the layout file is
    elements: tuple[Element, ...]
    description: str = ""
    safe_zone: float = SAFE_ZONE_MM


@dataclass
class LayoutLibrary:
    """Layouts by name: a game's own first, then the built-in set.

    Built-in layouts are parsed on first use: a deck uses one or two of the six, and parsing them
    all cost a 90-card build more than binding its cards. They are pnp's own, tested files, so a
    problem in one is a bug, raised, not a report entry.
    """

    layouts: dict[str, Layout] = field(default_factory=dict)
    unparsed_builtins: dict[str, Any] = field(default_factory=dict)  # name -> its file (a Traversable)
    in_error: set[str] = field(default_factory=set)  # the game's layouts that could not be read (reported)

    def get(self, name: str) -> Layout | None:
        layout = self.layouts.get(name)
        if layout is None and name in self.unparsed_builtins:
            layout = self.layouts[name] = _parse_builtin(name, self.unparsed_builtins.pop(name))
        return layout

    def names(self) -> list[str]:
        return sorted({*self.layouts, *self.unparsed_builtins})


def _parse_builtin(name: str, file: Any) -> Layout:
    report = Report()
    label = f"templates/layouts/{file.name}"
    layout = _parse(name, label, parse_toml(file.read_bytes().decode("utf-8"), Path(label)), report)
    if report.diagnostics:
        raise RuntimeError(f"built-in layout {name!r} is broken: {report.diagnostics}")
    return layout


#: keys whose string value is an expression giving a number, not a template
NUMERIC_KEYS = {"x", "y", "w", "h", "size", "min_size", "stroke_width", "radius", "inset", "x1", "y1", "x2", "y2",
                "spacing", "leading", "rotate", "count"}
_WHOLE_PLACEHOLDER = re.compile(r"\s*\{\{((?:(?!\{\{|\}\}).)*)\}\}\s*", re.DOTALL)


def as_expression(value: Any) -> Any:
    """``"{{ card.rank * 2 }}"`` where an expression is expected means ``"card.rank * 2"``.

    Text keys take templates and number keys take bare expressions (docs/layouts.md); people write
    the braces in both, and Jinja2 then reads ``{{`` as the start of a dict, a baffling syntax error.
    """
    if isinstance(value, str):
        match = _WHOLE_PLACEHOLDER.fullmatch(value)
        if match is not None:
            return match.group(1).strip()
    return value


def load_library(game_path: Path | None, report: Report) -> LayoutLibrary:
    library = LayoutLibrary(unparsed_builtins=builtin_layout_files())
    if game_path is not None:
        for path in game_layout_files(game_path):
            library.unparsed_builtins.pop(path.stem, None)  # the game's own layout of that name wins
            try:
                doc = load_toml(path)
            except DataError as exc:
                report.diagnostics.append(exc.diagnostic)
                library.in_error.add(path.stem)
                continue
            layout = _parse(path.stem, str(path), doc, report)
            if layout:
                library.layouts[path.stem] = layout
            else:
                library.in_error.add(path.stem)
    return library


def _parse(name: str, label: str, doc: TomlDoc, report: Report) -> Layout | None:
    data = doc.data
    for key in data:
        if key not in LAYOUT_KEYS:
            report.warning(f"layout {name!r}: unknown key {key!r} (ignored)", doc.path, doc.line_of(key))
    for key in ("name", "description"):  # read by people only: a wrong one is ignored, and said so
        if key in data and not isinstance(data[key], str):
            report.warning(f"layout {name!r}: {key} = {_toml_value(data[key])} should be text in quotes (ignored)",
                           doc.path, doc.line_of(key))
    elements = []
    raw_elements = data.get("element", [])
    if raw_elements == []:  # written as element = [], or no [[element]] at all: nothing would be drawn
        report.warning(f"layout {name!r} has no elements: the cards it draws print blank", doc.path,
                       doc.line_of("element") if "element" in data else None,
                       "add [[element]] tables (pnp docs layouts); a side meant to be blank can be one rect "
                       "filled white")
    if not isinstance(raw_elements, list) or not all(isinstance(raw, dict) for raw in raw_elements):
        report.error(f"layout {name!r}: element = {_toml_value(raw_elements)} is not a list of elements",
                     doc.path, doc.line_of("element"),
                     "write each element as an [[element]] table with type = \"...\" and its keys")
        raw_elements = [raw for raw in raw_elements if isinstance(raw, dict)] if isinstance(raw_elements, list) else []
    for index, raw in enumerate(raw_elements):
        line = doc.line_of("element", index)
        kind = raw.get("type")
        if kind is None:
            report.error(f"layout {name!r}: an element without a type", doc.path, line,
                         f"add type = \"...\" to it, one of: {', '.join(ELEMENT_KEYS)}")
            continue
        if not isinstance(kind, str):
            report.error(f"layout {name!r}: type = {_toml_value(kind)} should be one element type in quotes",
                         doc.path, doc.line_of("element", index, "type"), f"use one of: {', '.join(ELEMENT_KEYS)}")
            continue
        if kind not in ELEMENT_KEYS:
            hint = closest(str(kind), ELEMENT_KEYS)
            report.error(f"layout {name!r}: unknown element type {kind!r}", doc.path, line,
                         f"did you mean {hint!r}?" if hint else f"use one of: {', '.join(ELEMENT_KEYS)}")
            continue
        allowed = ELEMENT_KEYS[kind] | COMMON_KEYS
        for key in raw:
            if key not in allowed:
                hint = closest(key, allowed)
                report.warning(f"layout {name!r}: {kind} element has unknown key {key!r} (ignored)", doc.path,
                               doc.line_of("element", index, key), f"did you mean {hint!r}?" if hint else
                               f"the {kind} element takes: {', '.join(sorted(allowed))}")
        too_deep = next(((key, problem) for key, value in raw.items() if isinstance(value, str)
                         and (problem := expression_nesting_problem(value)) is not None), None)
        if too_deep is not None:  # Jinja2 would recurse per level, to a RecursionError: not read at all
            report.error(f"layout {name!r}: {kind}.{too_deep[0]}: {too_deep[1]}", doc.path,
                         doc.line_of("element", index, too_deep[0]), "split it into simpler conditions")
            continue
        values = {}
        for key, value in raw.items():
            problem = value_type_problem(key, value) if key in allowed else None
            if problem:
                report.error(f"layout {name!r}: {kind} element: {problem}", doc.path,
                             doc.line_of("element", index, key), "see pnp docs layouts for what each key takes")
            elif key in ELEMENT_KEYS[kind]:
                values[key] = as_expression(value) if key in NUMERIC_KEYS | CONDITION_KEYS else value
        for key in REQUIRED_KEYS.get(kind, ()):
            if key not in raw:  # one of the wrong type is reported above
                report.error(f"layout {name!r}: {kind} element needs {key!r}", doc.path, line,
                             f"add {key} = ... to this element")
        for key, value in list(values.items()):
            problem = choice_problem(key, value) if isinstance(value, str) and "{" not in value else None
            if problem:
                report.error(f"layout {name!r}: {problem}", doc.path, doc.line_of("element", index, key),
                             f"write {key} = \"{choice_hint(key, value) or CHOICES[key][0]}\", or another of "
                             "those (pnp docs layouts)")
                del values[key]  # reported here, once: not again for every card that draws the element
        for key, value in values.items():
            problem = number_problem(key, value) if isinstance(value, int | float) else None
            if problem:
                report.error(f"layout {name!r}: {kind}.{key} = {value:g} {problem}", doc.path,
                             doc.line_of("element", index, key))
        key_lines = {key: found for key in raw if (found := doc.line_of("element", index, key)) is not None}
        when = raw.get("when")
        if isinstance(when, bool) or value_type_problem("when", when):
            when = None if when is True or not isinstance(when, bool) else "false"
        elements.append(Element(type=kind, values=values, when=as_expression(when), line=line,
                                key_lines=key_lines))
    safe_zone = data.get("safe_zone", SAFE_ZONE_MM)
    if isinstance(safe_zone, bool) or not isinstance(safe_zone, int | float) or safe_zone < 0:
        report.error(f"layout {name!r}: safe_zone = {_toml_value(safe_zone)} should be a distance in mm, 0 or more",
                     doc.path, doc.line_of("safe_zone"), f"the usual is safe_zone = {SAFE_ZONE_MM:g}")
        safe_zone = SAFE_ZONE_MM
    description = data.get("description", "")
    return Layout(name=name, path=label, elements=tuple(elements),
                  description=description if isinstance(description, str) else "", safe_zone=float(safe_zone))


def text_outside_safe_zone(layout: Layout, width: float, height: float) -> Iterable[Element]:
    """Text elements whose box reaches within the safe zone of the trim.

    Print shops cut within about 3 mm of the trim line; text there may be cut.
    Only literal numbers can be checked before cards are known.
    """
    margin = layout.safe_zone
    for element in layout.elements:
        if element.type != "text":
            continue
        box = [element.values.get(k) for k in ("x", "y", "w", "h")]
        if not all(isinstance(v, int | float) for v in box):
            continue
        x, y, w, h = box
        if x < margin - 1e-6 or y < margin - 1e-6 or x + w > width - margin + 1e-6 or y + h > height - margin + 1e-6:
            yield element

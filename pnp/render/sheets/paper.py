"""Paper and card sizes in millimetres.

Everything in the imposition code is measured in mm because that is how card sizes are published
(poker 63.5 × 88.9 mm) and how a user checks a print with a ruler; conversion to PDF points happens
only at the moment of drawing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pnp.model.sizes import CARD_PRESETS

Orientation = Literal["portrait", "landscape"]

MM_PER_INCH = 25.4
PT_PER_MM = 72.0 / MM_PER_INCH


class SizeError(ValueError):
    """A paper or card size that cannot be used; the message says which value and why."""


@dataclass(frozen=True)
class Paper:
    """A sheet of paper as the PDF page will be laid out (width × height in mm)."""

    name: str
    width_mm: float
    height_mm: float

    @property
    def orientation(self) -> Orientation:
        return "landscape" if self.width_mm > self.height_mm else "portrait"

    def oriented(self, orientation: Orientation) -> Paper:
        """The same sheet turned so that it has the requested orientation (a square sheet never turns)."""
        if orientation not in ("portrait", "landscape"):
            raise SizeError(f"orientation must be 'portrait' or 'landscape', not {orientation!r}")
        if self.orientation == orientation or self.width_mm == self.height_mm:
            return self
        return Paper(self.name, self.height_mm, self.width_mm)

    @property
    def size_pt(self) -> tuple[float, float]:
        return (self.width_mm * PT_PER_MM, self.height_mm * PT_PER_MM)


@dataclass(frozen=True)
class CardSize:
    """A card's trim size in mm (without bleed)."""

    width_mm: float
    height_mm: float
    name: str = "custom"

    @property
    def orientation(self) -> Orientation:
        return "landscape" if self.width_mm > self.height_mm else "portrait"

    def oriented(self, orientation: Orientation) -> CardSize:
        """Swap width and height when needed, so 'poker' can also be laid out as a landscape card."""
        if orientation not in ("portrait", "landscape"):
            raise SizeError(f"orientation must be 'portrait' or 'landscape', not {orientation!r}")
        if self.orientation == orientation or self.width_mm == self.height_mm:
            return self
        return CardSize(self.height_mm, self.width_mm, self.name)


PAPER_SIZES: dict[str, Paper] = {
    "a4": Paper("A4", 210.0, 297.0),
    "letter": Paper("Letter", 215.9, 279.4),
    # built when asked for (--paper): A5, the smallest that holds a rulebook page (its booklet is A6);
    # print-shop sheets, with more cards a sheet and an A4 or Letter-size booklet
    "a5": Paper("A5", 148.0, 210.0),
    "a3": Paper("A3", 297.0, 420.0),
    "sra3": Paper("SRA3", 320.0, 450.0),
    "tabloid": Paper("Tabloid", 279.4, 431.8),
    "12x18": Paper("12 × 18 in", 304.8, 457.2),
    # other office papers: US Legal, and B5/B4 as ISO defines them and as Japan's JIS does (the
    # sizes sold in Japan, a little bigger)
    "legal": Paper("Legal", 215.9, 355.6),
    "b5": Paper("B5", 176.0, 250.0),
    "b4": Paper("B4", 250.0, 353.0),
    "jis-b5": Paper("JIS B5", 182.0, 257.0),
    "jis-b4": Paper("JIS B4", 257.0, 364.0),
}

# One list of presets for the whole tool: the model validates game.toml sizes against it.
CARD_SIZES: dict[str, CardSize] = {name: CardSize(w, h, name) for name, (w, h) in CARD_PRESETS.items()}

_NUMBER = r"([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))"
# Signs are accepted here so that '-5x10' is reported as "must be positive", not as unreadable.
_SIZE_TEXT = re.compile(rf"^\s*{_NUMBER}\s*[x×X*]\s*{_NUMBER}\s*(?:mm)?\s*$")

SizeValue = str | Sequence[float] | CardSize


def _parse_pair(value: object, what: str) -> tuple[float, float]:
    """Read 'WxH' (mm) or a two-number list; the error names the offending value."""
    if isinstance(value, str):
        match = _SIZE_TEXT.match(value)
        if not match:
            example = "'330x483'" if what.startswith("paper") else "'63.5x88.9'"  # a paper, or a card
            raise SizeError(f"{what} {value!r} is neither a known name nor 'WIDTHxHEIGHT' in mm (e.g. {example})")
        return float(match.group(1)), float(match.group(2))
    if isinstance(value, Sequence) and len(value) == 2:
        try:
            width, height = (float(v) for v in value)
        except (TypeError, ValueError):
            raise SizeError(f"{what} {list(value)!r} must be two numbers in mm") from None
        return width, height
    raise SizeError(f"{what} {value!r} must be a name, 'WIDTHxHEIGHT' in mm or [width, height]")


def _check_positive(width: float, height: float, what: str) -> None:
    for label, number in (("width", width), ("height", height)):
        if not number > 0 or number != number or number == float("inf"):
            raise SizeError(f"{what} {label} must be a positive number of mm, got {number:g}")


#: PDF readers refuse a page side over 14,400 units (200 in); and a sheet that size of cards took
#: minutes to impose for nothing a printer could print
LARGEST_PAPER_MM = 5080.0
SMALLEST_PAPER = PAPER_SIZES["a5"]  # rulebooks, aids and the calibration sheet are laid out down to this


def paper_key(paper: Paper) -> str:
    """A custom size as a build names its folder: a named paper's name when it is one (210x297 is a4),
    else short side first. 483x330 and 330x483 are one sheet, which pnp turns as the cards need, so they
    were two folders of the same PDFs."""
    short, long = sorted((paper.width_mm, paper.height_mm))
    for name, known in PAPER_SIZES.items():
        if abs(known.width_mm - short) < 0.5 and abs(known.height_mm - long) < 0.5:
            return name
    return f"{short:g}x{long:g}"


def smaller_than_smallest(paper: Paper) -> bool:
    short, long = sorted((paper.width_mm, paper.height_mm))
    return short < SMALLEST_PAPER.width_mm or long < SMALLEST_PAPER.height_mm


def parse_paper(value: str | Sequence[float] | Paper, orientation: Orientation | None = None) -> Paper:
    """A paper from 'a4', 'letter', 'WxH' (mm) or [w, h]; orientation turns it if given."""
    if isinstance(value, Paper):
        paper = value
    elif isinstance(value, str) and value.strip().lower() in PAPER_SIZES:
        paper = PAPER_SIZES[value.strip().lower()]
    else:
        width, height = _parse_pair(value, "paper size")
        _check_positive(width, height, "paper")
        if max(width, height) > LARGEST_PAPER_MM:
            raise SizeError(f"paper {width:g} × {height:g} mm is larger than a PDF page can be "
                            f"({LARGEST_PAPER_MM:g} mm, 200 in, a side)")
        paper = Paper(f"{width:g} × {height:g} mm", width, height)
    return paper.oriented(orientation) if orientation else paper


def parse_card_size(
    value: SizeValue,
    paper: Paper | None = None,
    orientation: Orientation | None = None,
) -> CardSize:
    """A card size from a preset name ('poker', 'bridge', 'mini', 'tarot', 'square'), 'WxH' or [w, h].

    `orientation` turns the card (a landscape poker card is 88.9 × 63.5). When `paper` is given, a card
    that cannot lie on the sheet in either direction is rejected here, with the sizes in the message,
    instead of later as an empty layout.
    """
    if isinstance(value, CardSize):
        card = value
    elif isinstance(value, str) and value.strip().lower() in CARD_SIZES:
        card = CARD_SIZES[value.strip().lower()]
    else:
        if isinstance(value, str) and not _SIZE_TEXT.match(value):
            known = ", ".join(CARD_SIZES)
            raise SizeError(
                f"card size {value!r} is not one of {known} nor 'WIDTHxHEIGHT' in mm (e.g. '63.5x88.9')"
            )
        width, height = _parse_pair(value, "card size")
        card = CardSize(width, height)
    _check_positive(card.width_mm, card.height_mm, "card")
    if orientation:
        card = card.oriented(orientation)
    if paper is not None:
        short_card, long_card = sorted((card.width_mm, card.height_mm))
        short_paper, long_paper = sorted((paper.width_mm, paper.height_mm))
        if short_card > short_paper or long_card > long_paper:
            raise SizeError(
                f"card {card.width_mm:g} × {card.height_mm:g} mm is larger than the paper "
                f"{paper.name} ({paper.width_mm:g} × {paper.height_mm:g} mm)"
            )
    return card

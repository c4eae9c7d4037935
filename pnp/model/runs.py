"""Runs of text as a rule text or a card box holds them: words in a style, and inline icons.

They belong to the model, not to drawing: the rule-text parser (:mod:`pnp.compose`) makes them, the
checks read them, and :mod:`pnp.render.text.linebreak` breaks them into lines.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field

#: Draws an inline icon: ``draw(canvas, x, baseline_y, size)``; the icon sits on the baseline. Drawn in
#: a card's text box, it is also given ``ink=`` the text's colour ("#rrggbb").
IconDraw = Callable[..., None]


# (first, last) code points of the CJK blocks, sorted. Not a regular expression's character class:
# compiling one that spans the ideographs fills a 65,536-entry table in Python, about 1.5 ms at every
# start of pnp, three times over.
_CJK_RANGES = (
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x3100, 0x9FFF),  # bopomofo .. CJK unified ideographs
    (0xF900, 0xFAFF),  # compatibility ideographs
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # full- and half-width forms
    (0x20000, 0x3FFFF),  # supplementary ideographs
)
_CJK_FIRSTS = tuple(first for first, _ in _CJK_RANGES)


@dataclass(frozen=True)
class Text:
    """Text set in one style; ``style`` is a font role such as "regular" or "bold"."""

    text: str
    style: str = "regular"


@dataclass(frozen=True)
class Icon:
    """An inline picture as wide as ``aspect`` times the font size."""

    name: str
    draw: IconDraw = field(compare=False)
    aspect: float = 1.0


Run = Text | Icon


def is_cjk(char: str) -> bool:
    """Characters set one per em box, between which Japanese text may break."""
    if len(char) != 1:
        return False
    code = ord(char)
    block = bisect.bisect_right(_CJK_FIRSTS, code) - 1
    return block >= 0 and code <= _CJK_RANGES[block][1]

"""Which printed numbers read as another number when the card is turned round.

A corner index is printed twice, once upside down, so that a fanned hand shows it either way up; a
6 seen from across the table then reads as a 9. Printed cards underline such numbers. Layouts ask
for that with ``underline = "card.rank_label is ambiguous_upside_down"`` (docs/layouts.md), so the
rule is written once here and not as a list of ranks in every layout.
"""

from __future__ import annotations

#: digits that are still digits turned through 180 degrees, and what they turn into
_TURNED = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def turned_round(text: str) -> str | None:
    """``text`` as it reads turned through 180 degrees, or None when it does not read as a number then."""
    if not text or any(char not in _TURNED for char in text):
        return None
    turned = "".join(_TURNED[char] for char in reversed(text))
    if len(turned) > 1 and turned.startswith("0"):
        return None  # "10" turned is "01": nobody reads that as a number on a card
    return turned


def ambiguous_upside_down(value: object) -> bool:
    """Whether a printed value reads as a different number upside down: 6 and 9, 16 and 91, 68 and 89.

    A value that reads the same either way (8, 11, 69) or not as a number (7, A) is not ambiguous.
    """
    text = str(value).strip()
    turned = turned_round(text)
    return turned is not None and turned != text

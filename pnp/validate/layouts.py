"""Checks of card layouts that need the card's size: where text may be cut (stage 4: validate)."""

from __future__ import annotations

from collections.abc import Iterable

from pnp.model.layout import Element, Layout


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

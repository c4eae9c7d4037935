"""Card sizes as the data states them: a preset name, "WxH" or [w, h] in mm."""

from __future__ import annotations

import math
import re
from typing import Any

CARD_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),  # 2.25 × 3.5 in, as the US printers make them
    "mini": (44.45, 63.5),  # 1.75 × 2.5 in
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
#: longer than any sheet a print shop runs (SRA3 is 450 mm, 12 × 18 in 457 mm): a typo, 635 for 63.5. Pieces
#: too big for A4 or Letter are fine: they print on print-shop sheets (`pnp check` notes it)
LARGEST_MM = 450.0
#: a side below this leaves no room inside the cut for anything, and makes sheets of thousands of pieces
SMALLEST_MM = 5.0


class SizeError(ValueError):
    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(message)
        self.fix = fix or f'use a preset ({", ".join(CARD_PRESETS)}), "63.5x88.9" or [63.5, 88.9] in mm'


def parse_size(value: Any) -> tuple[float, float]:
    """(width, height) in mm; landscape sizes simply have width > height."""
    if isinstance(value, str):
        if value in CARD_PRESETS:
            return CARD_PRESETS[value]
        match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*", value)
        if not match:
            from pnp.model.fields import closest

            hint = closest(value.strip().lower(), CARD_PRESETS)
            raise SizeError(f"unknown card size {value!r}" + (f" (did you mean {hint!r}?)" if hint else ""))
        width, height = float(match.group(1)), float(match.group(2))
    elif (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        width, height = float(value[0]), float(value[1])
    else:
        raise SizeError(f"unknown card size {value!r}")
    if not (math.isfinite(width) and math.isfinite(height)):  # TOML has nan and inf: no card is either
        raise SizeError(f"card size {width} × {height} mm is not a number of millimetres")
    if width <= 0 or height <= 0:
        raise SizeError(f"card size {width} × {height} mm must be positive")
    if min(width, height) < SMALLEST_MM:
        raise SizeError(f"card size {width:g} × {height:g} mm is smaller than any piece pnp can print "
                        f"({SMALLEST_MM:g} mm a side)", "write the size in millimetres: 63.5, not 6.35")
    if max(width, height) > LARGEST_MM:
        raise SizeError(f"card size {width:g} × {height:g} mm is longer than any print-shop sheet ({LARGEST_MM:g} mm)",
                        "write the size in millimetres: 63.5 for a poker card's width, not 635")
    return width, height

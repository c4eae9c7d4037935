"""How many sheets each printed component takes: what to buy before printing, in `pnp check`.

The counts come from the same imposition the build uses, on the papers a build makes by default
(A4 and Letter, duplex, 3 mm bleed), so they are the sheets `pnp build` will write.
"""

from __future__ import annotations

import math

from pnp.model.game import Game
from pnp.render.imposition import plan_sheet
from pnp.render.paper import PAPER_SIZES, CardSize
from pnp.render.sheet_geometry import ImpositionError

PAPERS = ("a4", "letter")
BLEED_MM = 3.0


def sheet_rows(game: Game) -> list[list[str]]:
    """One row per printed component with cards: its cards, size and sheets on each default paper;
    a total row when there are several."""
    rows: list[list[str]] = []
    totals = dict.fromkeys(PAPERS, 0)
    for component in game.components.values():
        if not component.printed or not component.cards or component.list_failed:
            continue
        width, height = component.trim_mm
        card = CardSize(width, height, "custom")
        cells = [component.id, str(component.found), f"{width:g} × {height:g} mm"]
        for paper in PAPERS:
            try:
                per_sheet = plan_sheet(PAPER_SIZES[paper], card, bleed_mm=BLEED_MM).capacity
            except ImpositionError:
                cells.append("too big")
                continue
            sheets = math.ceil(component.found / per_sheet)
            totals[paper] += sheets
            cells.append(f"{sheets} ({per_sheet} a sheet)")
        rows.append(cells)
    if len(rows) > 1:
        rows.append(["total", str(sum(int(row[1]) for row in rows)), "", *(str(totals[p]) for p in PAPERS)])
    return rows


HEADER = ["printing", "cards", "size", "A4 sheets", "Letter sheets"]

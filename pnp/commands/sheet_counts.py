"""How many sheets each printed component takes: what to buy before printing, in `pnp check`.

The counts come from the same imposition the build uses, on the papers a build makes by default
(A4 and Letter, duplex, 3 mm bleed), so they are the sheets `pnp build` will write.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.diagnostics import Report
from pnp.model.game import Game
from pnp.render.sheets.geometry import ImpositionError
from pnp.render.sheets.imposition import paper_holds, plan_sheet
from pnp.render.sheets.paper import PAPER_SIZES, CardSize

PAPERS = ("a4", "letter")
BLEED_MM = 3.0


@dataclass(frozen=True)
class ComponentSheets:
    """What one printed component takes: its cards and size, and per default paper the sheets and the
    cards on each (None: the card does not fit that paper)."""

    component: str
    cards: int
    size_mm: tuple[float, float]
    papers: dict[str, tuple[int, int] | None]  # paper -> (sheets, cards a sheet)


def sheet_counts(game: Game) -> list[ComponentSheets]:
    """Each printed component with cards, as the default build imposes it."""
    counts = []
    for component in game.components.values():
        if not component.printed or not component.cards or component.list_failed:
            continue
        width, height = component.trim_mm
        card = CardSize(width, height, "custom")
        papers: dict[str, tuple[int, int] | None] = {}
        for paper in PAPERS:
            try:
                per_sheet = plan_sheet(PAPER_SIZES[paper], card, bleed_mm=BLEED_MM).capacity
            except ImpositionError:
                papers[paper] = None
                continue
            papers[paper] = (math.ceil(component.found / per_sheet), per_sheet)
        counts.append(ComponentSheets(component.id, component.found, (width, height), papers))
    return counts


def sheet_rows(game: Game) -> list[list[str]]:
    """The text table's rows: one per printed component, and a total row when there are several."""
    counts = sheet_counts(game)
    rows = [[entry.component, str(entry.cards), f"{entry.size_mm[0]:g} × {entry.size_mm[1]:g} mm",
             *("too big" if entry.papers[paper] is None else
               f"{entry.papers[paper][0]} ({entry.papers[paper][1]} a sheet)" for paper in PAPERS)]
            for entry in counts]
    if len(rows) > 1:
        totals = [str(sum(entry.papers[paper][0] for entry in counts if entry.papers[paper] is not None))
                  for paper in PAPERS]
        rows.append(["total", str(sum(entry.cards for entry in counts)), "", *totals])
    return rows


def sheet_records(game: Game) -> list[dict[str, object]]:
    """The same for `pnp check --format json`."""
    return [{"component": entry.component, "cards": entry.cards, "size_mm": list(entry.size_mm),
             "papers": {paper: None if found is None else {"sheets": found[0], "cards_a_sheet": found[1]}
                        for paper, found in entry.papers.items()},
             "duplex": True, "bleed_mm": BLEED_MM}
            for entry in sheet_counts(game)]


HEADER = ["printing", "cards", "size", "A4 sheets", "Letter sheets"]


def papers_too_small(game: Game, report: Report) -> None:
    """A note for each component a default paper cannot hold: a default build leaves those sheets out
    (it said nothing in pnp check, and failed the build), and a board bigger than both wants --paper."""
    for entry in sheet_counts(game):
        too_small = [PAPER_SIZES[paper].name for paper in PAPERS if entry.papers[paper] is None]
        no_fold = [PAPER_SIZES[paper].name for paper in PAPERS if entry.papers[paper] is not None
                   and not paper_holds(paper, entry.size_mm, BLEED_MM, fold=True)]
        if not too_small and not no_fold:
            continue
        component = game.components[entry.component]
        width, height = entry.size_mm
        what = [f"{' or '.join(too_small)} paper"] if too_small else []
        what += [f"{' or '.join(no_fold)} fold sheets (half a page)"] if no_fold else []
        report.note(f"component {entry.component!r} ({width:g} × {height:g} mm) does not fit "
                    f"{', nor '.join(what)}: a default build leaves those sheets out",
                    component.source.file if component.source else None,
                    component.source.line if component.source else None,
                    "build them on a bigger sheet, e.g. pnp build --paper a3 (pnp docs printing: print-shop sheets)")

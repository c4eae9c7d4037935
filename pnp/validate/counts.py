"""What the card lists hold against what game.toml declares: component counts, and each grid's cells.

A count that is off by the copies of one mistyped card, and a grid cell that card should have
filled, are the same mistake; both checks read the grid's slips (:func:`count_slips`), so they
live together, apart from the setup and vocabulary checks in pnp/validate/generic.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pnp.diagnostics import Report, listed
from pnp.model.fields import closest
from pnp.model.game import Card, Component, Game, GridRule, where

#: a card's attribute, and the game.toml table of its names
TERM_TABLES = (("colour", "colours"), ("suit", "suits"), ("kind", "kinds"))


def check_counts(game: Game, report: Report) -> None:
    """Declared component counts against what the card lists hold."""
    for component in game.components.values():
        if component.cards_file is None or component.list_failed or not component.count_known:
            continue
        slipped = sum(card.count - copies for card, copies, _ in count_slips(game, component))
        if component.found != component.count and component.found - slipped != component.count:
            fix = "fix the count in game.toml or the count column of the card list"
            unprinted = [card for card in component.cards if card.count == 0]
            if unprinted and component.found < component.count:  # a card left out by mistake, most likely
                fix += " (count 0: " + listed(f"{card.id} on line {card.source.line}" if card.source else card.id
                                             for card in unprinted) + ")"
            report.error(
                f"component {component.id!r} declares {component.count} pieces but "
                f"{relative_name(component.cards_file, game)} holds {component.found}",
                manifest_file(game), component.source.line if component.source else None, fix,
            )


def check_grids(game: Game, report: Report) -> None:
    """Each declared suit × rank combination exactly as often as declared."""
    for component in game.components.values():
        if not game.countable(component):
            continue  # a card with a misspelt kind, suit or colour (reported) would be missing from its place
        component_slips = count_slips(game, component)
        for index, grid in enumerate(component.grids):
            axis_attr, axis = grid.axis
            line = grid.source.line if grid.source else None
            if _report_unknown_grid_names(game, component, index, grid, report):
                continue  # its cells of that name would all be missing, and the cards outside the grid
            in_grid = [card for card in component.cards if not grid.kinds or card.kind in grid.kinds]
            unplaced = [card.id for card in in_grid if getattr(card, axis_attr) is None or card.rank is None]
            if unplaced:
                # without a colour (or suit) or rank a card has no place in the grid, and every count
                # below would only repeat that: one error, naming them
                have = "has" if len(unplaced) == 1 else "have"
                names = listed(unplaced, GRID_CARDS_SHOWN)
                report.error(f"component {component.id!r}: {names} {have} no {axis_attr} or no rank, "
                             "which the grid needs", manifest_file(game), line,
                             f"fill in the {axis_attr} and rank columns of the card list (and check their headers)")
                continue
            counted: Counter[tuple[str | None, int | None]] = Counter()
            for card in in_grid:
                counted[(getattr(card, axis_attr), card.rank)] += card.count
            for card, cell in _mistyped_ranks(in_grid, axis_attr, axis, grid.ranks, grid.copies, counted):
                report.error(f"card {card.id!r}: rank {card.rank} is outside the grid, which is missing {cell[0]} "
                             f"{cell[1]}", *where(card.source), f"if this card is {cell[0]} {cell[1]}, set its rank "
                             f"to {cell[1]}")
                counted[cell] += card.count
                counted[(cell[0], card.rank)] -= card.count
            slips = {(getattr(card, axis_attr), card.rank): card for card, _, slip_grid in component_slips
                     if slip_grid is grid}
            for card in slips.values():
                report.error(f"card {card.id!r}: count {card.count}, but the grid declares {grid.copies} of each card",
                             *where(card.source), f"set its count to {grid.copies}, or change the grid's copies "
                             f"({relative_name(manifest_file(game), game)} line {line})")
            wrong: dict[int, list[str]] = {}  # how often found -> the cards found that often
            for value in axis:
                for rank in grid.ranks:
                    found = counted.pop((value, rank), 0)
                    if found != grid.copies and (value, rank) not in slips:
                        wrong.setdefault(found, []).append(f"{value} {rank}")
            for found, cards in sorted(wrong.items()):
                # one error per count: a card list that stops at red 1 is one problem, not nine
                verb = "appears" if len(cards) == 1 else "appear"
                report.error(
                    f"component {component.id!r}: {listed(cards, GRID_CARDS_SHOWN)} {verb} "
                    f"{found} time(s), the grid declares {grid.copies} each",
                    manifest_file(game), line, "add or remove " + ("that card" if len(cards) == 1 else "those cards")
                    + " in the card list")
            outside = [f"{value} {rank} ({found})" for (value, rank), found in sorted(counted.items(), key=str)
                       if found]  # a row with count 0 (or an unreadable count, reported at its line) prints nothing
            if outside:
                report.error(f"component {component.id!r}: {listed(outside, GRID_CARDS_SHOWN)} (card(s)) "
                             f"{'is' if len(outside) == 1 else 'are'} outside the declared grid",
                             manifest_file(game), line, "fix the cards' suit/colour/rank, or widen the grid")


GRID_CARDS_SHOWN = 8


def _report_unknown_grid_names(game: Game, component: Component, index: int, grid: GridRule, report: Report) -> bool:
    """A kind, suit or colour of the grid that the game does not declare, at its key's line. "heart" for
    "hearts" was two errors at the grid's header: every heart missing, and every heart outside the grid."""
    found = False
    for (attribute, key), names in zip(TERM_TABLES, (grid.colours, grid.suits, grid.kinds), strict=True):
        known = getattr(game, key)
        if key in game.unreadable or not known:
            continue
        unknown = [name for name in dict.fromkeys(names) if name not in known]
        if not unknown:
            continue
        found = True
        line = game.manifest.line_of("components", component.id, "grid", index, key) if game.manifest else None
        line = line or (grid.source.line if grid.source else None)
        if len(unknown) > _MOST_NAMED:  # a pasted list of thousands: one error, not one each
            report.error(f"component {component.id!r}: the grid names {len(unknown):,} unknown {key}: "
                         f"{listed(map(repr, unknown))}", manifest_file(game), line, f"known {key}: {', '.join(known)}")
            continue
        for name in unknown:
            hint = closest(name, known)
            report.error(f"component {component.id!r}: the grid names an unknown {attribute} {name!r}",
                         manifest_file(game), line,
                         f"did you mean {hint!r}?" if hint else f"known {key}: {', '.join(known)}")
    return found


_MOST_NAMED = 20  # unknown names of one grid key said one by one; more are one error that lists the first


def count_slips(game: Game, component: Component) -> list[tuple[Card, int, GridRule]]:
    """(card, the copies its grid declares, the grid) for each row whose count alone is wrong: the only
    row of its grid cell, printed a different number of times than the grid says, while most cells
    are right. One slip of the count column, said at the card's row; the grid's cell count, the
    declared total and the setup's cards in play would each say it again, elsewhere.

    When most cells are wrong, the grid (its copies, its ranks) is the likelier mistake: no slips.
    """
    if not game.countable(component):
        return []
    slips = []
    for grid in component.grids:
        axis_attr, axis = grid.axis
        rows: dict[tuple, list[Card]] = {}
        for card in component.cards:
            if not grid.kinds or card.kind in grid.kinds:
                rows.setdefault((getattr(card, axis_attr), card.rank), []).append(card)
        cells = [(value, rank) for value in axis for rank in grid.ranks]
        found = [rows.get(cell, []) for cell in cells]
        wrong = [cards for cards in found if sum(card.count for card in cards) != grid.copies]
        alone = [cards[0] for cards in wrong if len(cards) == 1]
        if alone and len(alone) == len(wrong) and 2 * len(wrong) < len(cells):
            slips.extend((card, grid.copies, grid) for card in alone)
    return slips


def _mistyped_ranks(cards: list[Card], axis_attr: str, axis: Sequence[str], ranks: Sequence[int],
                    copies: int, counted: Counter) -> list[tuple[Card, tuple[str, int]]]:
    """Cards whose rank is off the grid where their own suit (or colour) lacks exactly one rank, just as
    many times as the card is printed: one slip of the rank, said once at the card's line, where the
    counts would say "yellow 1 appears 0 times" and "yellow -1 is outside the grid" at the grid's."""
    paired = []
    for value in axis:
        missing = [rank for rank in ranks if counted.get((value, rank), 0) < copies]
        strays = [card for card in cards if getattr(card, axis_attr) == value and card.rank not in ranks]
        if len(missing) == 1 and len(strays) == 1 and counted[(value, missing[0])] + strays[0].count == copies:
            paired.append((strays[0], (value, missing[0])))
    return paired


def manifest_file(game: Game) -> Path:
    """game.toml, where the declarations these checks compare are written."""
    return game.manifest.path if game.manifest else game.path / "game.toml"


def relative_name(path: Path, game: Game) -> str:
    """A path as the game folder names it (cards/deck.csv), or whole when it is elsewhere."""
    try:
        return str(path.relative_to(game.path))
    except ValueError:
        return str(path)

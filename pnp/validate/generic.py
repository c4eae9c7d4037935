"""Checks every game gets, whatever its rules (stage 3: validate)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pnp.diagnostics import CardErrors, DataError, Report, listed, location
from pnp.model.fields import closest
from pnp.model.game import Card, Component, Deal, Game, GridRule, where


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
                f"{_rel(component.cards_file, game)} holds {component.found}",
                _manifest(game), component.source.line if component.source else None, fix,
            )


def check_vocabulary(game: Game, report: Report) -> None:
    """Unknown colour, suit and kind names: a typo must not print a blank card."""
    vocabularies = [(attribute, getattr(game, key)) for attribute, key in TERM_TABLES if key not in game.unreadable]
    errors = CardErrors()  # a renamed colour is one error naming its cards, not one per card
    for card in game.all_cards():
        for attribute, known in vocabularies:
            value = getattr(card, attribute)
            if value is None or value in known:
                continue
            hint = closest(value, known)
            fix = f"did you mean {hint!r}?" if hint else (
                f"known {attribute}s: {', '.join(known)}" if known else f"declare [{attribute}s.{value}] in game.toml")
            errors.add(f"unknown {attribute} {value!r}", *where(card.source), fix, card.id)
        if card.suit and card.colour and card.suit in game.suits and card.colour in game.colours:
            suit_colour = game.suits[card.suit].colour
            if suit_colour and suit_colour != card.colour:
                errors.add(f"suit {card.suit!r} prints in {suit_colour!r}, not {card.colour!r}", *where(card.source),
                           card=card.id)
    errors.report_to(report)


TERM_TABLES = (("colour", "colours"), ("suit", "suits"), ("kind", "kinds"))


def check_term_icons(game: Game, report: Report) -> set[tuple[str, str]]:
    """Each colour's, suit's and kind's icon, once at its line in game.toml; the (attribute, id) of those
    in error, whose cards the layout dry run leaves alone. A misspelt icon was otherwise an error at every
    layout line that draws it, three for Gadget Trick's suits."""
    from pnp.render.cards.icons import icon_problem

    in_error = set()
    for attribute, key in TERM_TABLES:
        for term in getattr(game, key).values():
            name = term.extra.get("icon")
            if name is None:
                continue
            line = game.manifest.line_of(key, term.id, "icon") if game.manifest else None
            file = game.manifest.path if game.manifest else None
            if not isinstance(name, str):
                report.error(f"{attribute} {term.id!r}: expected an icon name, found {name!r}", file, line,
                             'write icon = "key" (an icon of templates/icons or the game\'s icons/ folder)')
                in_error.add((attribute, term.id))
            elif (problem := icon_problem(name, [game.path / "icons"])) is not None:
                found = problem.diagnostic
                report.error(f"{attribute} {term.id!r}: {found.message}", file, line, found.fix)
                in_error.add((attribute, term.id))
    return in_error


def check_duplicate_ids(game: Game, report: Report) -> None:
    shared = _shared_lists(game, report)
    first_seen: dict[str, Card] = {}
    for card in game.all_cards():
        if card.component in shared:
            continue  # its list is another component's: said once, at its cards key
        first = first_seen.setdefault(card.id, card)
        if first is not card:
            report.error(f"duplicate card id {card.id!r} (first at {_place(game, first, card)})",
                         *where(card.source), "give every card a unique id")


def _shared_lists(game: Game, report: Report) -> set[str]:
    """Components whose card list another component reads too: one error at the second's ``cards`` key,
    not a duplicate id per row, each "first at" its own line."""
    readers: dict[Path, str] = {}
    shared = set()
    for component in game.components.values():
        if component.cards_file is None or not _is_file(component.cards_file):
            continue
        first = readers.setdefault(component.cards_file.resolve(), component.id)
        if first != component.id:
            shared.add(component.id)
            line = game.manifest.line_of("components", component.id, "cards") if game.manifest else None
            report.error(f"component {component.id!r} reads {_rel(component.cards_file, game)}, the card list of "
                         f"component {first!r}: every card id in it would be printed twice", _manifest(game), line,
                         "give each component its own card list (card ids are unique across the game)")
    return shared


def _place(game: Game, first: Card, again: Card) -> str:
    """Where a card was first seen, as short as it can be said from the line that repeats it."""
    if first.source is None:
        return f"component {first.component!r}"
    if again.source is not None and first.source.file == again.source.file:
        return f"line {first.source.line}"
    return location(first.source.file, first.source.line, game.path)


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
                             "which the grid needs", _manifest(game), line,
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
                             f"({_rel(_manifest(game), game)} line {line})")
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
                    _manifest(game), line, "add or remove " + ("that card" if len(cards) == 1 else "those cards")
                    + " in the card list")
            outside = [f"{value} {rank} ({found})" for (value, rank), found in sorted(counted.items(), key=str)
                       if found]  # a row with count 0 (or an unreadable count, reported at its line) prints nothing
            if outside:
                report.error(f"component {component.id!r}: {listed(outside, GRID_CARDS_SHOWN)} (card(s)) "
                             f"{'is' if len(outside) == 1 else 'are'} outside the declared grid",
                             _manifest(game), line, "fix the cards' suit/colour/rank, or widen the grid")


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
                         f"{listed(map(repr, unknown))}", _manifest(game), line, f"known {key}: {', '.join(known)}")
            continue
        for name in unknown:
            hint = closest(name, known)
            report.error(f"component {component.id!r}: the grid names an unknown {attribute} {name!r}",
                         _manifest(game), line,
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


def check_setup(game: Game, report: Report) -> None:
    """Setup arithmetic for every supported player count."""
    low, high = game.players
    for players in range(low, high + 1):
        if players not in game.setup and not game.unreadable:  # else the row or range in error would say it
            report.error(f"no setup row for {players} players", _manifest(game),
                         game.manifest.line_of("players") if game.manifest else None,
                         "add a [[setup]] row covering this player count, or narrow 'players'")
    # one problem, many player counts: a [[setup]] row covers several; (label, problem, line, fix) -> counts
    short: dict[tuple, list[int]] = {}
    for players, row in sorted(game.setup.items()):
        line = row.source.line if row.source else None
        if not low <= players <= high and "players" not in game.unreadable:
            report.error(f"setup row for {players} players, but the game is for {low}-{high}", _manifest(game), line)
        for name, deal in row.deals.items():
            label = "" if name == "main" else f" ({name})"
            pool = game.components.get(deal.pool)
            if pool is None:
                short.setdefault((label, f"unknown pool component {deal.pool!r}", deal.pool_line or line,
                                  f"use one of: {', '.join(game.components)}"), []).append(players)
            elif pool.cards_file is not None and game.as_declared(pool):
                # a card in error would be missing; a total that disagrees with game.toml is reported there
                # colours in error (reported): how many pieces it leaves is unknown
                unknown = name == "main" and "colours" in row.unreadable
                found = None if unknown else _in_play_problem(game, pool, deal, row.colours if name == "main" else None)
                if found is not None:
                    problem, fix, at_colours = found
                    where_said = (row.colours_line if at_colours else deal.in_play_line) or line
                    short.setdefault((label, problem, where_said, fix), []).append(players)
            pieces = piece_word(pool)
            needed = players * deal.hand + deal.revealed
            if needed > deal.in_play:
                report.error(f"{players} players{label}: {players} × {deal.hand} dealt + {deal.revealed} revealed = "
                             f"{needed} > {deal.in_play} {pieces} in play", _manifest(game), line,
                             "deal fewer, reveal fewer, or put more in play")
        if row.tricks is not None and row.left is not None and row.tricks != row.hand - row.left:
            report.error(f"{players} players: {row.tricks} tricks but hand {row.hand} − {row.left} left = "
                         f"{row.hand - row.left}", _manifest(game), line, "tricks must equal hand size − cards left")
    for (label, problem, line, fix), counts in short.items():
        report.error(f"{player_counts(counts)} players{label}: {problem}", _manifest(game), line, fix)


def piece_word(component: Component | None) -> str:
    """What a component's pieces are called in a message: cards, tokens, dice; "pieces" for the rest."""
    kind = component.kind if component is not None else "cards"
    return kind if kind in ("cards", "tokens", "dice") else "pieces"


def piece_colour(game: Game, card: Card) -> str | None:
    """A piece's colour: its own, or its suit's."""
    if card.colour:
        return card.colour
    suit = game.suits.get(card.suit) if card.suit else None
    return suit.colour if suit is not None else None


def _in_play_problem(game: Game, pool: Component, deal: Deal, colours: int | None) -> tuple[str, str, bool] | None:
    """(problem, fix, whether it is the colours key's) when the pieces in play are not exactly what the pool
    leaves: every piece of it, or of the deal's kinds, or of ``colours`` of its colours. An upper bound let
    a setup one card short pass, and a count of colours the game does not have."""
    pieces = piece_word(pool)
    chosen = [card for card in pool.cards if card.count and (not deal.kinds or card.kind in deal.kinds)]
    available = sum(card.count for card in chosen)
    grids = [grid for grid in pool.grids if not deal.kinds or (grid.kinds and set(grid.kinds) <= set(deal.kinds))]
    grid_kinds = None if any(not grid.kinds for grid in grids) else {kind for grid in grids for kind in grid.kinds}
    outside = grid_kinds is not None and any(card.kind not in grid_kinds for card in chosen)
    if grids and not outside and available != sum(len(grid.axis[1]) * len(grid.ranks) * grid.copies
                                                  for grid in grids):
        return None  # the list and its grid disagree (reported at the grid): which one the setup follows is unknown
    source = f"the {'/'.join(deal.kinds)} {pieces} of {pool.id!r}" if deal.kinds else f"{pool.id!r}"
    by_colour: dict[str, int] = {}
    for card in chosen:
        colour = piece_colour(game, card)
        if colour is not None:
            by_colour[colour] = by_colour.get(colour, 0) + card.count
    if colours is not None:
        declared = len(by_colour) if by_colour else len(game.colours)
        where_found = f"{source} come in {declared} colours" if by_colour else f"game.toml declares {declared} colours"
        if colours > declared or (colours == 0 and declared):
            return (f"colours = {colours}, but {where_found}", f"set colours = {declared}, or declare the missing "
                    "colours (and their cards)" if colours > declared else f"set colours = {declared}", True)
        if by_colour and colours < declared:
            totals = sorted(_sums_of(list(by_colour.values()), colours))
            if deal.in_play in totals:
                return None
            said = " or ".join(map(str, totals[:4])) + (" ..." if len(totals) > 4 else "")
            return (f"{deal.in_play} {pieces} in play, but {colours} of the {declared} colours of {source} hold {said}",
                    f"set in_play = {totals[0]}" if len(totals) == 1 else "set in_play to the pieces of the "
                    "colours in play", False)
    if deal.in_play == available:
        return None
    return (f"{deal.in_play} {pieces} in play, but {source} {'hold' if deal.kinds else 'holds'} {available}",
            f"set in_play = {available} (a setup plays every piece of its pool, or of its kinds or colours), or "
            f"{'add' if deal.in_play > available else 'remove'} {pieces} in the card list", False)


def player_counts(counts: list[int]) -> str:
    """2, 3, 4 -> "2-4"; 2, 4 -> "2, 4": how a rule text would say which player counts."""
    runs: list[list[int]] = []
    for count in sorted(counts):
        if runs and count == runs[-1][-1] + 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs)


def note_provisional(game: Game, report: Report) -> None:
    """Reconstructed content is reported so nobody mistakes it for the source."""
    for component in game.components.values():
        if component.provisional:
            report.note(f"component {component.id!r} is a provisional reconstruction: {component.provisional}",
                        _manifest(game), component.source.line if component.source else None)
            continue
        provisional = [card for card in component.cards if card.provisional]
        if provisional:
            first = provisional[0]
            report.note(f"component {component.id!r}: {len(provisional)} card(s) are provisional reconstructions",
                        *where(first.source))
    for kind in ("colours", "suits", "kinds"):
        for term in getattr(game, kind).values():
            if term.extra.get("provisional"):
                reason = term.extra["provisional"]
                why = reason if isinstance(reason, str) else "not in the source"
                report.note(f"{kind[:-1]} {term.id!r} is provisional: {why}",
                            *where(term.source))
    for note in game.notes:
        report.note(f"seed note {note.id}: {note.text}", *where(note.source))


def _manifest(game: Game):
    return game.manifest.path if game.manifest else game.path / "game.toml"


def _rel(path: Path, game: Game) -> str:
    try:
        return str(path.relative_to(game.path))
    except ValueError:
        return str(path)


def component_rows(game: Game) -> list[tuple[Component, int | None]]:
    """(component, found) for the report table; found is None when not listed."""
    return [(c, c.found if c.cards_file is not None else None) for c in game.components.values()]


def check_fonts(game: Game, report: Report) -> None:
    """Each font the game names can be read: one error at its line in game.toml, and the role falls back
    to the pinned font for the other checks (which would otherwise stop on the same file, with a
    traceback). The build never gets that far: the error stops it."""
    from pnp.render.text.fonts import covered_characters  # fontTools and the font files: only for a game's own fonts

    for role, path in list(game.fonts.items()):
        try:
            covered_characters({role: path})
        except DataError as exc:
            manifest = game.manifest
            report.error(f"fonts.{role}: {exc.diagnostic.message}", manifest.path if manifest else path,
                         manifest.line_of("fonts", role) if manifest else None, exc.diagnostic.fix)
            del game.fonts[role]


def _sums_of(counts: list[int], taken: int) -> set[int]:
    """Every total of exactly ``taken`` of ``counts``: which pieces ``colours = N`` of them can put in play.

    Built a colour at a time (a subset sum), not by listing the combinations: 20 of 40 colours are
    10^11 of them, and a game folder is any stranger's data."""
    reachable: list[set[int]] = [{0}] + [set() for _ in range(taken)]
    for count in counts:
        for used in range(taken, 0, -1):
            reachable[used] |= {total + count for total in reachable[used - 1]}
    return reachable[taken]


def _is_file(path: Path) -> bool:
    """``Path.is_file``, False for a name the file system refuses (too long): reported where it is read."""
    try:
        return path.is_file()
    except OSError:
        return False

"""A manifest's [components] made into Components: sizes, shapes, card lists, grids, output names.

The largest part of reading game.toml, and the one that reaches other files (each component's
card list, read through the guarded reader), so it has a module of its own; pnp/model/build.py
calls it once per manifest.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.diagnostics import DataError, Report, clipped
from pnp.load.game_folder import GameFiles, load_csv
from pnp.load.guarded import LIMITS, check_input
from pnp.model.cards import read_cards
from pnp.model.fields import TomlReader, closest
from pnp.model.game import Component, Game, GridRule, Source
from pnp.model.sizes import SizeError, parse_size

if TYPE_CHECKING:
    from pnp.load.csv_table import CsvTable


COMPONENT_KEYS = {
    "kind", "name", "count", "size", "shape", "printed", "face", "back", "cards", "provisional",
    "fields", "grid", "description",
}


GRID_KEYS = {"kinds", "suits", "colours", "ranks", "copies"}
COMPONENT_KINDS = {"cards", "tokens", "dice"}
SHAPES = ("rect", "round")  # round: the art is cut to the ellipse the trim holds (pnp/render/sheets/draw.py)


#: ids that name files: cards-<component>.pdf, png/<component>/<card>.png. A '/' or '..' in one
#: would write outside the output folder.
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def read_components(reader: TomlReader, files: GameFiles, game: Game, report: Report) -> dict[str, Component]:
    components: dict[str, Component] = {}
    tables = reader.table(files.manifest.data if files.manifest else {}, (), "components", required=True)
    for component_id, table in tables.items():
        path = ("components", component_id)
        if not SAFE_ID.fullmatch(component_id):  # it names output files: cards-<id>.pdf
            reader.error(path, f"component id {component_id[:40]!r} must be Latin letters (a-z), digits, '-' and '_',"
                               " as it names output files; card ids and names may be in any script",
                         "rename the [components.<id>] table, e.g. [components.deck]")
            continue
        if not isinstance(table, dict):
            reader.error(path, "expected a table")
            continue
        if not any(key in table for key in ("name", "count", "size", "cards")):
            # one mistake (a table emptied, a header left behind), not its three missing keys: and a
            # component that is there but in error, so no rule says the game has none
            reader.error(path, "has no name, count, size or cards",
                         'give it name = { en = "..." }, count = ... and size = "poker", and '
                         'cards = "cards/<file>.csv" for its card list (every key: pnp docs game-toml)')
            components[component_id] = Component(id=component_id, kind="cards", names={}, count=0, size=None,
                                                 source=Source(reader.doc.path, reader.line(*path)),
                                                 list_failed=True, count_known=False)
            continue
        reader.unknown_keys(table, path, COMPONENT_KEYS)
        kind = reader.string(table, path, "kind", "cards") or "cards"
        if kind not in COMPONENT_KINDS:
            hint = closest(kind, COMPONENT_KINDS)
            kinds = ", ".join(sorted(COMPONENT_KINDS))
            reader.error(path + ("kind",), f"unknown component kind {kind!r}",
                         f"did you mean {hint!r}? (one of: {kinds})" if hint else f"use one of: {kinds}")
        count = reader.integer(table, path, "count")
        printed = table.get("printed", kind != "dice")
        size = None
        if "size" in table:
            try:
                size = parse_size(table["size"])
            except SizeError as exc:
                reader.error(path + ("size",), str(exc), exc.fix)
        elif printed:
            reader.error(path + ("size",), "missing",
                         'add size = "poker" (or "bridge", "mini", "tarot", "square", [w, h] in mm)')
        fields = table.get("fields", [])
        fields_read = isinstance(fields, list) and all(isinstance(f, str) for f in fields)
        if not fields_read:
            reader.error(path + ("fields",), f"expected a list of column names, found {fields!r}")
            fields = []
        provisional = table.get("provisional")
        if provisional is not None and not isinstance(provisional, str):
            reader.error(path + ("provisional",), "expected text saying why the content is a reconstruction")
            provisional = None
        cards_file = None
        cards = ()
        grids = _grids(reader, table, path)
        list_failed = not fields_read  # its columns unknown, what the rules count of it is too
        if "cards" in table:
            rel = reader.string(table, path, "cards")
            list_failed = list_failed or not rel  # named, but not as a path (reported): no cards to count
            if rel:
                cards_file = (files.path / rel)
                list_failed = True
                if not is_inside(cards_file, files.path):
                    reader.error(path + ("cards",), f"{rel!r} points outside the game folder")
                elif (problem := unreadable(cards_file, "cards")) == "":
                    reader.error(path + ("cards",), f"card list {rel!r} not found", _missing_list_fix(files.path, rel))
                elif problem is not None:
                    reader.error(path + ("cards",), f"card list {problem[0]}", problem[1])
                else:
                    csv_table = load_csv(files, cards_file, report)
                    # a list with unreadable rows is still checked row by row, but
                    # not counted: its totals would only repeat the row errors
                    list_failed = not fields_read or csv_table is None or bool(csv_table.problems)
                    if csv_table is not None:
                        read = read_cards(csv_table, component_id, tuple(fields), game, report,
                                          provisional=provisional is not None)
                        list_failed = list_failed or read is None or not read[1]
                        cards = read[0] if read is not None else ()
                        if read is not None and _lacks_grid_columns(csv_table, grids, component_id, report):
                            list_failed = True  # every card unplaced, and every rule on ranks, would repeat it
        components[component_id] = Component(
            id=component_id,
            kind=kind,
            names=reader.languages_map(table, path, "name", game.languages, most=LIMITS["label length"]),
            count=count if count is not None else 0,
            count_known=count is not None or "count" not in table,
            fields_known=fields_read,
            size=size,
            shape=_shape(reader, table, path, kind),
            printed=bool(printed),
            face=reader.string(table, path, "face", None),
            back=reader.string(table, path, "back", None),
            cards_file=cards_file,
            provisional=provisional,
            fields=tuple(fields),
            grids=grids,
            cards=cards,
            source=Source(reader.doc.path, reader.line(*path)),
            list_failed=list_failed,
            descriptions=reader.languages_map(table, path, "description", game.languages, required=False),
        )
    _colliding_outputs(reader, components)
    return components


def output_names(component_id: str) -> dict[str, str]:
    """Every file and folder name a component's outputs take (cards-<id>.pdf and its variants, png/<id>/,
    ...), each with what it is: two components must never share one, nor differ only by case (macOS
    and Windows file systems), as each would overwrite the other's."""
    names = {}
    for reprint, again in (("", ""), ("-reprint", "reprinted ")):
        names.update({f"cards-{component_id}{reprint}.pdf": f"{again}card sheets",
                      f"cards-{component_id}{reprint}-fold.pdf": f"{again}fold sheets",
                      f"cards-{component_id}{reprint}-lowink.pdf": f"{again}low-ink sheets",
                      f"png/{component_id}{reprint}/": f"{again}card pictures",
                      f"png/{component_id}{reprint}-contact-sheet.png": f"{again}contact sheet",
                      f"png/{component_id}{reprint}-cards.csv": f"{again}print list"})
    return names


def _colliding_outputs(reader: TomlReader, components: dict[str, Component]) -> None:
    """Checked before anything is written: ``deck`` and ``deck-fold`` would both write cards-deck-fold.pdf."""
    taken: dict[str, tuple[str, str]] = {}
    for component_id in components:
        for name, what in output_names(component_id).items():
            other = taken.get(name.casefold())
            if other is not None and other[0] != component_id:
                reader.error(("components", component_id),
                             f"component {component_id!r} would write {name} ({what}), which component {other[0]!r} "
                             f"writes too (its {other[1]})",
                             "rename one of them: an id that is not another's with -fold, -lowink or -reprint added")
                break
            taken.setdefault(name.casefold(), (component_id, what))


def is_inside(path: Path, folder: Path) -> bool:
    """Whether the path, as written, stays in the folder (no ``..`` out of it, not absolute); where a
    symbolic link on the way leads is the guarded reader's to say (pnp.load.guarded)."""
    written, root = os.path.normpath(os.path.abspath(path)), os.path.normpath(os.path.abspath(folder))
    return written == root or written.startswith(root.rstrip(os.sep) + os.sep)


def unreadable(path: Path, kind: str) -> tuple[str, str] | str | None:
    """None for a file pnp may read, "" for one that is not there, else the message and fix of why not
    (a pipe, a device, a link out of the game folder, too large: pnp.load.guarded)."""
    try:
        check_input(path, kind)
    except FileNotFoundError:
        return ""
    except DataError as exc:
        return exc.diagnostic.message, exc.diagnostic.fix or ""
    except OSError as exc:
        return f"{path.name} cannot be read: {exc.strerror or exc}", "use a shorter name, or check the path"
    return None


def _shape(reader: TomlReader, table: dict[str, Any], path: tuple[str, ...], kind: str) -> str:
    """rect or round; any other word was printed as rect without a word, so "hexagon" looked accepted."""
    shape = reader.string(table, path, "shape", "round" if kind == "tokens" else "rect") or "rect"
    if shape not in SHAPES:
        hint = closest(shape, SHAPES)
        reader.error(path + ("shape",), f"unknown shape {shape!r}",
                     f"did you mean {hint!r}? (one of: {', '.join(SHAPES)})" if hint
                     else f"use one of: {', '.join(SHAPES)}; other outlines are drawn by the layout")
        return "rect"
    return shape


def _lacks_grid_columns(table: CsvTable, grids: tuple[GridRule, ...], component_id: str, report: Report) -> bool:
    """A column the component's grids place cards by, missing from its card list's header: one error at
    the header, not one per card ("AS has no rank") in the grid and in the rules."""
    needed = dict.fromkeys(column for grid in grids
                           for column in ("kind" if grid.kinds else "", "suit" if grid.suits else "colour", "rank")
                           if column)
    missing = [column for column in needed if column not in table.header]
    if not missing:
        return False
    names = " and ".join(repr(column) for column in missing)
    # a header misspelt ("rnak") is this one mistake: its "unknown column" warning is folded in here
    misspelt = {column: hint for column in missing
                if (hint := closest(column, [name for name in table.header if name not in needed]))}
    for written in misspelt.values():
        for found in [d for d in report.warnings if d.file == table.path
                      and d.message == f"unknown column {written!r} (ignored)"]:
            report.diagnostics.remove(found)
    renames = ", ".join(f"rename {written!r} to {column!r}" for column, written in misspelt.items())
    report.error(f"the card list has no {names} column, which the grid of component {component_id!r} places "
                 "its cards by", table.path, table.header_line,
                 renames or f"add the {' and '.join(missing)} column{'s' if len(missing) > 1 else ''} (check the "
                 "header's spelling)")
    return True


def _grids(reader: TomlReader, table: dict[str, Any], path: tuple[str | int, ...]) -> tuple[GridRule, ...]:
    grids = []
    for index, grid in reader.tables(table, path, "grid") or []:
        grid_path = path + ("grid", index)
        reader.unknown_keys(grid, grid_path, GRID_KEYS)
        ranks = _ranks(reader, grid.get("ranks", []), grid_path + ("ranks",))
        suits, colours = reader.names(grid, grid_path, "suits", "suits"), reader.names(grid, grid_path, "colours",
                                                                                        "colours")
        if max(len(suits), len(colours)) * len(ranks) > LIMITS["grid cells"]:  # each cell is checked: bound them
            reader.error(grid_path, f"a grid of {max(len(suits), len(colours)):,} × {len(ranks):,} cards is more "
                         f"than {LIMITS['grid cells']:,}", "split it, or check its suits, colours and ranks")
            ranks = ()
        grids.append(GridRule(
            kinds=reader.names(grid, grid_path, "kinds", "card kinds"),
            suits=suits,
            colours=colours,
            ranks=ranks,
            copies=reader.integer(grid, grid_path, "copies", 1, maximum=LIMITS["copies"]) or 1,
            source=Source(reader.doc.path, reader.line(*grid_path)),
        ))
    return tuple(grids)


def _ranks(reader: TomlReader, value: Any, path: tuple[str | int, ...]) -> tuple[int, ...]:
    """``[1, 2, 3]`` or ``"1-10"``: ranges read the way designers write them."""
    most = LIMITS["ranks"]  # checked before range() is enumerated: "1-99999999999999999999" never ended
    if isinstance(value, str):
        low, sep, high = (part.strip() for part in value.partition("-"))
        if sep and low.isascii() and low.isdigit() and high.isascii() and high.isdigit():
            if len(high) > 9 or int(high) - int(low) >= most:
                reader.error(path, f"ranks {clipped(value, 40)!r} are more than {most:,} ranks", 'write "1-13"')
                return ()
            return tuple(range(int(low), int(high) + 1))
        reader.error(path, f"expected a list of numbers or a range like \"1-10\", found {clipped(repr(value), 60)}")
        return ()
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        if len(value) > most:
            reader.error(path, f"{len(value):,} ranks are more than {most:,}", "list the ranks the grid has")
            return ()
        return tuple(value)
    reader.error(path, f"expected a list of numbers or a range like \"1-10\", found {value!r}")
    return ()


def _missing_list_fix(game_path: Path, rel: str) -> str:
    """The card list meant, when the folder has one with a similar name; else how to make it."""
    lists = sorted(str(p.relative_to(game_path)) for p in game_path.rglob("*.csv") if p.is_file())
    hint = closest(rel, lists)
    return f"did you mean {hint!r}?" if hint else f"create {rel} in the game folder, or fix the path"

"""Turn a game folder's parsed files into the typed model (stage 2: model).

Each reader reports what it cannot use and carries on with what it can, so a
single `pnp check` shows every problem in the folder.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.diagnostics import DataError, Report, clipped
from pnp.load.game_folder import GAME_ID, LONGEST_GAME_ID, PLAYER_NAMES, GameFiles, load_csv, load_files
from pnp.load.guarded import LIMITS, check_input
from pnp.model.cards import read_cards
from pnp.model.fields import TomlReader, closest
from pnp.model.game import AidSpec, Component, Deal, Example, Game, GridRule, SeedNote, SetupRow, Source, Term
from pnp.model.sizes import SizeError, parse_size

if TYPE_CHECKING:
    from pnp.load.csv_table import CsvTable

MANIFEST_KEYS = {
    "id", "rules", "source_language", "languages", "players", "minutes", "age", "title", "subtitle",
    "credits", "terms", "translator_note", "colours", "suits", "kinds", "components", "setup", "note",
    "palette", "rank_labels", "fonts", "aid",
}
FONT_ROLES = ("regular", "bold")
COMPONENT_KEYS = {
    "kind", "name", "count", "size", "shape", "printed", "face", "back", "cards", "provisional",
    "fields", "grid", "description",
}
TERM_KEYS = {"name", "rgb", "colour", "symbol", "icon", "provisional", "description"}
SETUP_KEYS = {"players", "pool", "kinds", "in_play", "hand", "revealed", "left", "tricks", "colours", "also"}
DEAL_KEYS = {"pool", "kinds", "in_play", "hand", "revealed", "left"}
GRID_KEYS = {"kinds", "suits", "colours", "ranks", "copies"}
COMPONENT_KINDS = {"cards", "tokens", "dice"}
SHAPES = ("rect", "round")  # round: the art is cut to the ellipse the trim holds (pnp/render/sheets/draw.py)


def load_game(folder: Path, report: Report) -> Game | None:
    """Load and model one game; ``None`` when the manifest is unusable."""
    files = load_files(folder, report)
    if files.manifest is None:
        return None
    return build_game(files, report)


def build_game(files: GameFiles, report: Report) -> Game | None:
    assert files.manifest is not None
    reader = TomlReader(files.manifest, report)
    data = files.manifest.data
    reader.unknown_keys(data, (), MANIFEST_KEYS)

    game_id = reader.string(data, (), "id", files.id) or files.id
    if game_id != files.id:
        reader.error(("id",), f"id {game_id!r} differs from the folder name {files.id!r}",
                     "rename the folder or change the id so they agree")
    if len(game_id) > LONGEST_GAME_ID:
        reader.error(("id",), f"game id {clipped(game_id, 40)!r} is {len(game_id)} characters; keep it to "
                              f"{LONGEST_GAME_ID}", "it names the game's folder and its folder of outputs")
    elif not GAME_ID.match(game_id):
        reader.error(("id",), f"game id {game_id!r} must be lower-case letters, digits and '-'")

    languages = _languages(reader, data)
    first = languages[0] if languages else "en"
    source_language = reader.string(data, (), "source_language", first) or first  # in error: as if left out
    if languages and source_language not in languages:
        reader.error(("source_language",), f"{source_language!r} is not in languages {languages}")
    players = _players(reader, data.get("players"), ("players",))

    colours = _terms(reader, data, "colours", languages)
    suits = _terms(reader, data, "suits", languages)
    kinds = _terms(reader, data, "kinds", languages)
    # a vocabulary that is no table (reported): no term of it is "unknown", on a suit or on a card
    vocabularies_in_error = {key for key in ("colours", "suits", "kinds")
                             if key in data and not isinstance(data[key], dict)}
    for suit_id, suit in suits.items():
        if suit.colour and suit.colour not in colours and "colours" not in vocabularies_in_error:
            reader.error(("suits", suit_id, "colour"), f"unknown colour {suit.colour!r}",
                         f"declare [colours.{suit.colour}] or use one of: {', '.join(colours) or 'none'}")

    game = Game(
        id=game_id,
        path=files.path,
        titles=reader.languages_map(data, (), "title", languages),
        source_language=source_language,
        languages=tuple(languages),
        players=players or (1, 1),
        unreadable=frozenset(vocabularies_in_error | ({"players"} if players is None and "players" in data else set())),
        credits=reader.table(data, (), "credits", required=True),
        terms=reader.languages_map(data, (), "terms", languages),
        colours=colours,
        suits=suits,
        kinds=kinds,
        components={},
        setup={},
        rules=reader.string(data, (), "rules", None),
        rules_data=files.rules_data,
        palette=_palette(reader, data),
        manifest=files.manifest,
        subtitles=reader.languages_map(data, (), "subtitle", languages, required=False),
        translator_notes=reader.languages_map(data, (), "translator_note", languages, required=False),
        minutes=reader.integer(data, (), "minutes", None, minimum=1),
        age=reader.integer(data, (), "age", None, minimum=1),
        rank_labels=_rank_labels(reader, data),
        fonts=_fonts(reader, data, files.path),
    )
    if game.rules is None and data.get("rules") is not None:  # named, but not as text (reported)
        game.unreadable = game.unreadable | {"rules"}
    _check_credits(reader, game.credits, languages)
    game.components = _components(reader, files, game, report)
    game.setup, dropped_rows = _setup(reader, data, game)
    if dropped_rows:
        game.unreadable = game.unreadable | {"setup"}
    game.notes = _notes(reader, data)
    game.aids = _aids(reader, data, game)
    game.examples = _examples(files, report)
    game.examples_data = files.examples
    return game


CREDIT_TEXTS = ("author", "role", "edition")  # one text, or one per language


def _check_credits(reader: TomlReader, credits: dict[str, Any], languages: list[str]) -> None:
    """Each credit is printed on the rulebook's title page as it stands, so a list or a table where a
    name belongs would be printed as ``[]``: only texts, per-language texts and a year are credits."""
    if not credits:
        return  # missing [credits] is reported where it is read
    author = credits.get("author")
    if not (isinstance(author, str) or (isinstance(author, dict) and author)):
        reader.error(("credits", "author"), "every game credits its author",
                     'add author = "..." (or author = { en = "...", ja = "..." }) under [credits]')
    for key in CREDIT_TEXTS:
        value = credits.get(key)
        if isinstance(value, dict) and (value or key != "author"):
            reader.languages_map(credits, ("credits",), key, languages)
        elif value is not None and not isinstance(value, str) and key != "author":
            reader.error(("credits", key), f"expected text, found {value!r}",
                         f'write {key} = "..." (or {key} = {{ en = "...", ja = "..." }})')
    year = credits.get("year")
    if year is not None and not (isinstance(year, str) or (isinstance(year, int) and not isinstance(year, bool))):
        reader.error(("credits", "year"), f"expected a year, found {year!r}", "write year = 2020")
    reader.unknown_keys(credits, ("credits",), (*CREDIT_TEXTS, "year"))


#: a BCP 47 tag as games use them: a language (en, ja, yue) and optional subtags (pt-BR, zh-Hant)
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}")


def _languages(reader: TomlReader, data: dict[str, Any]) -> list[str]:
    value = data.get("languages")
    if value is None:
        reader.error(("languages",), "missing", 'add languages = ["en"] (the languages the game ships in)')
        return ["en"]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        reader.error(("languages",), f"expected a list of language codes, found {value!r}",
                     'write languages = ["en", "ja"]')
        return ["en"]
    # a code names files (rules/<code>.md), columns (name.<code>) and output folders: a pasted sentence
    # there would be a file name too long for the disk
    codes = [code for code in dict.fromkeys(value) if LANGUAGE_CODE.fullmatch(code)]
    for code in dict.fromkeys(value):
        if code not in codes:
            reader.error(("languages",), f"{code[:40]!r} is not a language code",
                         "write codes such as en, ja, pt-BR or zh-Hant (BCP 47)")
    return codes or ["en"]


MOST_PLAYERS = 100


def _players(reader: TomlReader, value: Any, path: tuple[str | int, ...]) -> tuple[int, int] | None:
    if isinstance(value, int) and not isinstance(value, bool):
        low = high = value
    elif (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        low, high = value
    else:
        reader.error(path, f"expected a player count or [min, max], found {value!r}",
                     "write players = [2, 6] or players = 4")
        return None
    if low < 1 or high < 1:
        reader.error(path, f"player range {low}-{high} is empty or below 1")
        return None
    if max(low, high) > MOST_PLAYERS:  # every count is set up and checked: a typo's 10**9 would never end
        reader.error(path, f"player range {low}-{high} goes above {MOST_PLAYERS} players",
                     "write the range of players the game is for, e.g. [2, 6]")
        return None
    if high < low:  # [4, 2]: the intent is plain, so the setup is checked against 2-4 rather than nothing
        reader.error(path, f"player range {low}-{high} runs backwards", f"write [{high}, {low}]: [min, max]")
        return high, low
    return low, high


def _terms(reader: TomlReader, data: dict[str, Any], key: str, languages: list[str]) -> dict[str, Term]:
    terms: dict[str, Term] = {}
    for term_id, table in reader.table(data, (), key).items():
        path = (key, term_id)
        if not isinstance(table, dict):
            reader.error(path, "expected a table with at least a name")
            continue
        reader.unknown_keys(table, path, TERM_KEYS)
        rgb = reader.string(table, path, "rgb", None)
        if rgb is not None and not _is_rgb(rgb):
            reader.error(path + ("rgb",), f"expected a colour like \"#c62828\", found {rgb!r}",
                         "write # and six hex digits (two each for red, green and blue)")
            rgb = None
        colour = reader.string(table, path, "colour", None)
        terms[term_id] = Term(
            id=term_id,
            names=reader.languages_map(table, path, "name", languages),
            rgb=rgb,
            colour=colour,
            symbol=reader.string(table, path, "symbol", None),
            extra={k: v for k, v in table.items() if k in {"icon", "provisional", "description"}},
            source=Source(reader.doc.path, reader.line(*path)),
            # written, but unreadable (reported): a card in this colour cannot be painted
            in_error=("rgb" in table and rgb is None) or ("colour" in table and colour is None),
        )
    return terms


def _fonts(reader: TomlReader, data: dict[str, Any], folder: Path) -> dict[str, Path]:
    """A game's own fonts: ``[fonts] regular = "fonts/MyFont.ttf"``; the pinned Noto fonts otherwise."""
    fonts = {}
    for role, value in reader.table(data, (), "fonts").items():
        path = ("fonts", role)
        if role not in FONT_ROLES:
            reader.error(path, f"unknown font role {role!r}", f"use one of: {', '.join(FONT_ROLES)}")
            continue
        if not isinstance(value, str) or not value.lower().endswith((".ttf", ".otf")):
            reader.error(path, f"expected the path of a .ttf or .otf file, found {value!r}")
            continue
        font = folder / value
        if not _inside(font, folder):
            reader.error(path, f"{value!r} points outside the game folder", "copy the font into the game folder")
        elif (problem := _unreadable(font, "font")) is not None:
            reader.error(path, f"font file {value!r} not found" if problem == "" else f"font file {problem[0]}",
                         f"add {font}, or fix the path" if problem == "" else problem[1])
        else:
            fonts[role] = font
    return fonts


def _rank_labels(reader: TomlReader, data: dict[str, Any]) -> dict[int, str]:
    """How ranks print: ``rank_labels = { "1" = "A", "11" = "J" }``; others print as numbers."""
    labels = {}
    for key, label in reader.table(data, (), "rank_labels").items():
        if not key.isdigit() or not isinstance(label, str):
            reader.error(("rank_labels", key), f"expected \"<rank>\" = \"<label>\", found {key} = {label!r}",
                         'write rank_labels = { "1" = "A", "11" = "J" }')
            continue
        labels[int(key)] = label
    return labels


def _is_rgb(value: str) -> bool:
    return len(value) == 7 and value.startswith("#") and all(c in "0123456789abcdefABCDEF" for c in value[1:])


def _palette(reader: TomlReader, data: dict[str, Any]) -> dict[str, str]:
    palette = {}
    for name, value in reader.table(data, (), "palette").items():
        if isinstance(value, str) and _is_rgb(value):
            palette[name] = value
        else:
            reader.error(("palette", name), f"expected a colour like \"#202020\", found {value!r}",
                         "write # and six hex digits (two each for red, green and blue)")
    return palette


#: ids that name files: cards-<component>.pdf, png/<component>/<card>.png. A '/' or '..' in one
#: would write outside the output folder.
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def _components(reader: TomlReader, files: GameFiles, game: Game, report: Report) -> dict[str, Component]:
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
                         'cards = "cards/<file>.csv" for its card list (as in the README, "The game folder")')
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
                if not _inside(cards_file, files.path):
                    reader.error(path + ("cards",), f"{rel!r} points outside the game folder")
                elif (problem := _unreadable(cards_file, "cards")) == "":
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
            names=reader.languages_map(table, path, "name", game.languages),
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


def _inside(path: Path, folder: Path) -> bool:
    """Whether the path, as written, stays in the folder (no ``..`` out of it, not absolute); where a
    symbolic link on the way leads is the guarded reader's to say (pnp.load.guarded)."""
    written, root = os.path.normpath(os.path.abspath(path)), os.path.normpath(os.path.abspath(folder))
    return written == root or written.startswith(root.rstrip(os.sep) + os.sep)


def _unreadable(path: Path, kind: str) -> tuple[str, str] | str | None:
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


def _deal(reader: TomlReader, table: dict[str, Any], path: tuple[str | int, ...],
          default_pool: str | None) -> Deal | None:
    pool = reader.string(table, path, "pool", default_pool)
    most = LIMITS["setup count"]
    in_play = reader.integer(table, path, "in_play", maximum=most)
    hand = reader.integer(table, path, "hand", maximum=most)
    revealed = reader.integer(table, path, "revealed", 0, maximum=most)
    left = reader.integer(table, path, "left", None, maximum=most)
    kinds = table.get("kinds", [])
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        reader.error(path + ("kinds",), f"expected a list of card kinds, found {kinds!r}")
        kinds = []
    if pool is None or in_play is None or hand is None or revealed is None:
        return None
    return Deal(pool=pool, in_play=in_play, hand=hand, revealed=revealed, left=left, kinds=tuple(kinds),
                pool_line=reader.line(*path, "pool") if "pool" in table else None,
                in_play_line=reader.line(*path, "in_play"))


def _setup(reader: TomlReader, data: dict[str, Any], game: Game) -> tuple[dict[int, SetupRow], bool]:
    """The setup rows by player count, and whether a row in error was left out (reported)."""
    rows: dict[int, SetupRow] = {}
    default_pool = next((c.id for c in game.components.values() if c.kind == "cards"), None)
    readable = reader.tables(data, (), "setup")
    dropped_rows = readable is None or len(readable) < len(data.get("setup", []))
    for index, table in readable or []:
        path = ("setup", index)
        reader.unknown_keys(table, path, SETUP_KEYS)
        players = _players(reader, table.get("players"), path + ("players",))
        main = _deal(reader, table, path, default_pool)
        also = {}
        for name, sub in reader.table(table, path, "also").items():
            if isinstance(sub, dict):
                reader.unknown_keys(sub, path + ("also", name), DEAL_KEYS)
                deal = _deal(reader, sub, path + ("also", name), None)
                if deal:
                    also[name] = deal
        tricks = reader.integer(table, path, "tricks", None, maximum=LIMITS["setup count"])  # read once
        colours = reader.integer(table, path, "colours", None, maximum=LIMITS["setup count"])
        if players is None or main is None:
            dropped_rows = True
            continue
        unreadable = frozenset(key for key, value in (("tricks", tricks), ("colours", colours))
                               if value is None and key in table)
        source = Source(reader.doc.path, reader.line(*path))
        for count in range(players[0], players[1] + 1):
            if count in rows:
                reader.error(path + ("players",), f"{count} players already has a setup row "
                             f"(line {rows[count].source.line if rows[count].source else '?'})")
                continue
            rows[count] = SetupRow(players=count, main=main, also=also, tricks=tricks, colours=colours,
                                   source=source, unreadable=unreadable,
                                   colours_line=reader.line(*path, "colours") if "colours" in table else None)
    return rows, dropped_rows


AID_KEYS = {"id", "title", "source", "component", "columns", "kinds", "sort", "header", "notes"}
AID_SOURCES = ("cards", "setup", "components")
CARD_COLUMNS = ("id", "name", "count", "kind", "suit", "colour", "rank")
SETUP_COLUMNS = ("players", "in_play", "hand", "revealed", "left", "tricks", "colours")
COMPONENT_COLUMNS = ("name", "kind", "count", "size")


def aid_columns(game: Game, source: str, component: Component | None) -> tuple[str, ...]:
    """The columns an ``[[aid]]`` table of ``source`` may list."""
    if source == "cards":
        if component is None:
            return CARD_COLUMNS
        texts = [name for card in component.cards for name in card.texts]
        return tuple(dict.fromkeys([*CARD_COLUMNS, *texts, *component.fields]))
    if source == "setup":
        deals = dict.fromkeys(name for row in game.setup.values() for name in row.also)
        return (*SETUP_COLUMNS, *(f"{name}.{key}" for name in deals for key in ("in_play", "hand", "revealed")))
    return COMPONENT_COLUMNS


def _aids(reader: TomlReader, data: dict[str, Any], game: Game) -> tuple[AidSpec, ...]:
    """``[[aid]]`` tables: a player aid made of the card lists and the manifest, with no rules module."""
    aids = []
    seen: dict[str, int | None] = {}
    for index, table in reader.tables(data, (), "aid") or []:
        path = ("aid", index)
        reader.unknown_keys(table, path, AID_KEYS)
        aid_id = reader.string(table, path, "id")
        source = reader.string(table, path, "source")
        titles = reader.languages_map(table, path, "title", game.languages)
        if not aid_id or not source:
            continue
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", aid_id):
            reader.error(path + ("id",), f"aid id {aid_id[:40]!r} must start with a letter and hold letters, "
                         "digits, - and _", 'write id = "festivals": rule texts place it with {{ table("festivals") }}')
            continue
        if aid_id in seen:
            reader.error(path + ("id",), f"duplicate aid id {aid_id!r} (first at line {seen[aid_id]})")
            continue
        seen[aid_id] = reader.line(*path)
        if source not in AID_SOURCES:
            hint = closest(source, AID_SOURCES)
            reader.error(path + ("source",), f"unknown aid source {source!r}",
                         (f"did you mean {hint!r}? " if hint else "") + f"(one of: {', '.join(AID_SOURCES)})")
            continue
        component = None
        component_id = reader.string(table, path, "component", None)
        if source == "cards":
            if component_id is None:
                reader.error(path + ("component",), "missing", 'add component = "<id>": the component whose cards '
                             "the table lists")
                continue
            component = game.components.get(component_id)
            if component is None:
                hint = closest(component_id, game.components)
                reader.error(path + ("component",), f"unknown component {component_id!r}",
                             f"did you mean {hint!r}?" if hint else f"use one of: {', '.join(game.components)}")
                continue
        elif component_id is not None:
            reader.error(path + ("component",), f"an aid of source {source!r} lists no one component's cards",
                         'remove it, or write source = "cards"')
        known = aid_columns(game, source, component)
        columns = reader.names(table, path, "columns", "columns") if "columns" in table else ()
        bad = False
        for column in columns:
            if column not in known:
                bad = True
                hint = closest(column, known)
                reader.error(path + ("columns",), f"unknown column {column!r}" + (
                    f" of the cards of {component_id!r}" if component else ""),
                             (f"did you mean {hint!r}? " if hint else "") + f"(columns: {', '.join(known)})")
        if source == "cards" and not columns and "columns" not in table:
            reader.error(path + ("columns",), "missing", 'add columns = ["name", ...]: the card fields the table lists')
            continue
        kinds = reader.names(table, path, "kinds", "card kinds")
        for kind in kinds:
            if kind not in game.kinds:
                bad = True
                hint = closest(kind, game.kinds)
                reader.error(path + ("kinds",), f"unknown kind {kind!r}",
                             f"did you mean {hint!r}?" if hint else f"known kinds: {', '.join(game.kinds) or 'none'}")
        sort = reader.string(table, path, "sort", None)
        shown = columns or known
        if sort is not None and sort.lstrip("-") not in known:
            bad = True
            hint = closest(sort.lstrip("-"), known)
            reader.error(path + ("sort",), f"unknown column {sort.lstrip('-')!r}",
                         (f"did you mean {hint!r}? " if hint else "") + '(write sort = "points", or "-points" '
                         "for high to low)")
        headers = _per_language_lists(reader, table, path, "header", game.languages)
        for lang, header in headers.items():
            if columns and len(header) != len(columns):
                bad = True
                reader.error(path + ("header", lang), f"{len(header)} header(s) for {len(columns)} column(s)",
                             "write one header per column, in the columns' order")
        if bad:
            continue
        aids.append(AidSpec(id=aid_id, source=source, titles=titles, columns=tuple(shown) if columns else (),
                            component=component_id if component else None, kinds=kinds, sort=sort, headers=headers,
                            notes=_per_language_lists(reader, table, path, "notes", game.languages),
                            place=Source(reader.doc.path, reader.line(*path))))
    return tuple(aids)


def _per_language_lists(reader: TomlReader, table: dict[str, Any], path: tuple[str | int, ...], key: str,
                        languages: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """``header = { ja = ["名前", "得点"], en = [...] }``: texts per language, each a list."""
    value = reader.table(table, path, key)
    found = {}
    for lang, texts in value.items():
        if lang not in languages:
            reader.warning(path + (key, lang), f"language {lang!r} is not declared in 'languages'",
                           "add it to languages, or remove this entry")
        elif isinstance(texts, list) and all(isinstance(text, str) for text in texts):
            found[lang] = tuple(texts)
        else:
            reader.error(path + (key, lang), f"expected a list of texts, found {texts!r}",
                         f'write {lang} = ["...", "..."]')
    return found


def _notes(reader: TomlReader, data: dict[str, Any]) -> tuple[SeedNote, ...]:
    notes = []
    for index, table in reader.tables(data, (), "note") or []:
        path = ("note", index)
        if not isinstance(table.get("text"), str):
            reader.error(path, "a [[note]] needs id and text")
            continue
        reader.unknown_keys(table, path, {"id", "text"})
        notes.append(SeedNote(id=str(table.get("id", index + 1)), text=table["text"],
                              source=Source(reader.doc.path, reader.line(*path))))
    return tuple(notes)


def _examples(files: GameFiles, report: Report) -> tuple[Example, ...]:
    if files.examples is None:
        return ()
    reader = TomlReader(files.examples, report)
    # [inputs] for [example.inputs] would be read as no inputs at all; say so
    reader.unknown_keys(files.examples.data, (), ("example", PLAYER_NAMES))
    examples = []
    seen: dict[str, int | None] = {}
    for index, table in reader.tables(files.examples.data, (), "example") or []:
        path = ("example", index)
        reader.unknown_keys(table, path, {"id", "kind", "inputs", "expect", "deviation", "corrected", "description",
                                          "note"})
        example_id = reader.string(table, path, "id")
        kind = reader.string(table, path, "kind")
        expect = reader.table(table, path, "expect", required=True)
        if "expect" in table and isinstance(table["expect"], dict) and not expect:
            reader.error(path + ("expect",), "states no result, so nothing is checked",
                         "add what the rules should give, e.g. winner = 1, under [example.expect]")
        if not example_id or not kind:
            continue
        if example_id in seen:
            reader.error(path + ("id",), f"duplicate example id {example_id!r} (first at line {seen[example_id]})")
            continue
        seen[example_id] = reader.line(*path)
        inputs = reader.table(table, path, "inputs")
        lines = {key: reader.line(*path, "inputs", key) for key in inputs}
        deviation = reader.string(table, path, "deviation", None)
        corrected = reader.table(table, path, "corrected")
        if corrected and not deviation:
            reader.error(path + ("corrected",), "[example.corrected] is for an example whose stated result is "
                         "a known seed error", "move its values to [example.expect], or add deviation = \"...\" "
                         "saying what the seed gets wrong")
        examples.append(Example(
            id=example_id, kind=kind,
            inputs=inputs,
            expect=expect,
            deviation=deviation,
            source=Source(files.examples.path, reader.line(*path)),
            expect_line=reader.line(*path, "expect"),
            input_lines={key: line for key, line in lines.items() if line is not None},
            corrected=corrected,
            corrected_line=reader.line(*path, "corrected") if "corrected" in table else None,
        ))
    return tuple(examples)



def _missing_list_fix(game_path: Path, rel: str) -> str:
    """The card list meant, when the folder has one with a similar name; else how to make it."""
    lists = sorted(str(p.relative_to(game_path)) for p in game_path.rglob("*.csv") if p.is_file())
    hint = closest(rel, lists)
    return f"did you mean {hint!r}?" if hint else f"create {rel} in the game folder, or fix the path"

"""Turn a game folder's parsed files into the typed model (stage 2: model).

Each reader reports what it cannot use and carries on with what it can, so a
single `pnp check` shows every problem in the folder.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.diagnostics import Report, clipped
from pnp.load.game_folder import GAME_ID, LONGEST_GAME_ID, PLAYER_NAMES, GameFiles, load_files
from pnp.load.guarded import LIMITS
from pnp.model.aids import read_aids
from pnp.model.components import is_inside, read_components, unreadable
from pnp.model.fields import TomlReader
from pnp.model.game import Example, Game, SeedNote, Source, Term
from pnp.model.setup_rows import read_players, read_setup

LABEL = LIMITS["label length"]  # a title or a name: set in a box it must fit

if TYPE_CHECKING:
    pass

MANIFEST_KEYS = {
    "id", "rules", "source_language", "languages", "players", "minutes", "age", "title", "subtitle",
    "credits", "terms", "translator_note", "colours", "suits", "kinds", "components", "setup", "note",
    "palette", "rank_labels", "fonts", "aid",
}
FONT_ROLES = ("regular", "bold")
TERM_KEYS = {"name", "rgb", "colour", "symbol", "icon", "provisional", "description"}


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
    players = read_players(reader, data.get("players"), ("players",))

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
        titles=reader.languages_map(data, (), "title", languages, most=LABEL),
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
        subtitles=reader.languages_map(data, (), "subtitle", languages, required=False, most=LABEL),
        translator_notes=reader.languages_map(data, (), "translator_note", languages, required=False),
        minutes=reader.integer(data, (), "minutes", None, minimum=1),
        age=reader.integer(data, (), "age", None, minimum=1),
        rank_labels=_rank_labels(reader, data),
        fonts=_fonts(reader, data, files.path),
    )
    if game.rules is None and data.get("rules") is not None:  # named, but not as text (reported)
        game.unreadable = game.unreadable | {"rules"}
    _check_credits(reader, game.credits, languages)
    game.components = read_components(reader, files, game, report)
    game.setup, dropped_rows = read_setup(reader, data, game)
    if dropped_rows:
        game.unreadable = game.unreadable | {"setup"}
    game.notes = _notes(reader, data)
    game.aids = read_aids(reader, data, game)
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
            names=reader.languages_map(table, path, "name", languages, most=LABEL),
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
        if not is_inside(font, folder):
            reader.error(path, f"{value!r} points outside the game folder", "copy the font into the game folder")
        elif (problem := unreadable(font, "font")) is not None:
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

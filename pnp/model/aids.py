"""A manifest's [[aid]] tables: which cards, setup rows or components a player aid lists, and how.

Its own module because an aid's columns depend on the model already built (the component's
fields, the kinds declared), so it is read last, and the names it accepts are the ones
pnp/compose/data_aids.py later prints.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pnp.load.guarded import LIMITS
from pnp.model.fields import TomlReader, closest
from pnp.model.game import AidSpec, Component, Game, Source

if TYPE_CHECKING:
    pass


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


def read_aids(reader: TomlReader, data: dict[str, Any], game: Game) -> tuple[AidSpec, ...]:
    """``[[aid]]`` tables: a player aid made of the card lists and the manifest, with no rules module."""
    aids = []
    seen: dict[str, int | None] = {}
    for index, table in reader.tables(data, (), "aid") or []:
        path = ("aid", index)
        reader.unknown_keys(table, path, AID_KEYS)
        aid_id = reader.string(table, path, "id")
        source = reader.string(table, path, "source")
        titles = reader.languages_map(table, path, "title", game.languages, most=LIMITS["label length"])
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

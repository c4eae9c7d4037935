"""Aid tables a game declares in game.toml (``[[aid]]``), made of its card lists and manifest.

A game of data alone gets a player aid this way, with no rules module: a table of a component's
cards and chosen fields, the setup per player count, or the components. They are the same
:class:`AidTable` a rules module computes, so aid.pdf, aid-cards.pdf and ``{{ table("id") }}`` in a
rule text take them alike, after the rules module's own.
"""

from __future__ import annotations

from typing import Any

from pnp.model.game import AidSpec, Card, Game
from pnp.rules.base import AidTable, GameRules

NO_AID_FIX = "declare [[aid]] tables in game.toml or give the game a rules module"

#: a column's header where the [[aid]] gives none, in the languages pnp words itself; else the column's id
HEADER_WORDS = {
    "en": {"id": "id", "name": "name", "count": "count", "kind": "kind", "suit": "suit", "colour": "colour",
           "rank": "rank", "players": "players", "in_play": "in play", "hand": "dealt each", "revealed": "revealed",
           "left": "left", "tricks": "tricks", "colours": "colours", "size": "size", "text": "text"},
    "ja": {"id": "ID", "name": "名前", "count": "枚数", "kind": "種類", "suit": "スート", "colour": "色",
           "rank": "数字", "players": "人数", "in_play": "使用枚数", "hand": "手札", "revealed": "公開",
           "left": "残り", "tricks": "トリック数", "colours": "色数", "size": "サイズ", "text": "テキスト"},
}


def all_aid_tables(game: Game, rules: GameRules, lang: str) -> list[AidTable]:
    """The rules module's tables, then those game.toml declares."""
    return [*rules.aid_tables(game, lang), *data_aid_tables(game, lang)]


def data_aid_tables(game: Game, lang: str) -> list[AidTable]:
    return [_table(game, spec, lang) for spec in game.aids]


def _table(game: Game, spec: AidSpec, lang: str) -> AidTable:
    columns, rows = _rows(game, spec, lang)
    if spec.sort and spec.sort.lstrip("-") in columns:
        position = columns.index(spec.sort.lstrip("-"))
        rows.sort(key=lambda row: _sort_key(row[position]), reverse=spec.sort.startswith("-"))
    header = list(spec.headers.get(lang) or [_header(game, column, lang) for column in columns])
    title = spec.titles.get(lang) or spec.titles.get(game.source_language) or spec.id
    notes = list(spec.notes.get(lang) or spec.notes.get(game.source_language) or ())
    return AidTable(id=spec.id, title=title, header=header, rows=[[_cell(value) for value in row] for row in rows],
                    notes=notes)


def _sort_key(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, int | float) else (1, str(value))


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def _header(game: Game, column: str, lang: str) -> str:
    deal, _, key = column.partition(".")
    if key:  # a further deal's column in the setup table: "<its component's name> <what>"
        pool = next((row.also[deal].pool for row in game.setup.values() if deal in row.also), deal)
        component = game.components.get(pool)
        name = component.name(lang) if component else deal
        return f"{name} {HEADER_WORDS.get(lang, {}).get(key, key)}"
    return HEADER_WORDS.get(lang, {}).get(column, column)


def _rows(game: Game, spec: AidSpec, lang: str) -> tuple[list[str], list[list[Any]]]:
    """The columns, and each row's values (numbers stay numbers, to sort by)."""
    if spec.source == "cards":
        columns = list(spec.columns)
        component = game.components.get(spec.component or "")
        cards = [card for card in (component.cards if component else ()) if card.count
                 and (not spec.kinds or card.kind in spec.kinds)]
        return columns, [[_card_value(game, card, column, lang) for column in columns] for card in cards]
    if spec.source == "setup":
        columns = list(spec.columns) or _setup_columns(game)
        return columns, [[_setup_value(row, players, column) for column in columns]
                         for players, row in sorted(game.setup.items())]
    columns = list(spec.columns) or ["name", "count", "size"]
    return columns, [[_component_value(component, column, lang) for column in columns]
                     for component in game.components.values()]


def _card_value(game: Game, card: Card, column: str, lang: str) -> Any:
    if column in ("id", "count", "rank"):
        return getattr(card, column)
    if column in ("kind", "suit", "colour"):
        term_id = getattr(card, column)
        terms = {"kind": game.kinds, "suit": game.suits, "colour": game.colours}[column]
        return terms[term_id].name(lang) if term_id in terms else term_id
    if column in card.fields:
        value = card.fields[column]
        return int(value) if value.strip().lstrip("-").isdigit() else value
    return card.text(column, lang) or card.text(column, game.source_language)


def _setup_columns(game: Game) -> list[str]:
    rows = list(game.setup.values())
    columns = ["players", "in_play", "hand", "revealed"]
    columns += [key for key in ("tricks", "left", "colours") if any(getattr(row, key) is not None for row in rows)]
    for name in dict.fromkeys(name for row in rows for name in row.also):
        columns.append(f"{name}.hand")
        if any(name in row.also and row.also[name].revealed for row in rows):
            columns.append(f"{name}.revealed")
    return columns


def _setup_value(row: Any, players: int, column: str) -> Any:
    if column == "players":
        return players
    deal, _, key = column.partition(".")
    if key:
        return getattr(row.also[deal], key) if deal in row.also else "-"
    return getattr(row, column)


def _component_value(component: Any, column: str, lang: str) -> Any:
    if column == "name":
        return component.name(lang)
    if column == "size":
        if component.size is None:
            return "-"
        width, height = component.size
        return f"{width:g} × {height:g} mm"
    return getattr(component, column)

"""The player-aid tables, their words and notes taken from rules.toml ``[aid]``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.api import AidTable, Game, localised_list
from pnp.api import localised as _localised
from pnp.rules.rudy.tables import ATTRIBUTES, Tables


def market_table(tables: Tables, spec: Mapping[str, Any], lang: str, values: Mapping[str, int]) -> AidTable:
    no = str(_localised(spec.get("no", "—"), lang))
    rows = [[str(r.first) if r.first == r.last else f"{r.first}–{r.last}",
             no if r.sell is None else str(r.sell), no if r.buy is None else str(r.buy)] for r in tables.prices]
    return _aid("market", spec, lang, rows, values)


def sets_table(tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
    rows = [[_text(spec, "elements", lang, n=need),
             _text(spec, "bonus", lang, multiplier=tables.multiplier, bonus=bonus)]
            for need, bonus in sorted(tables.bonus.items()) if need >= tables.min_elements]
    rows.append([_text(spec, "black_white_run", lang), _text(spec, "flat", lang, price=tables.black_white_price)])
    return _aid("sets", spec, lang, rows)


def elements_table(tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
    rows = [[str(_localised(e.name, lang)), str(_localised(e.explain, lang))] for e in tables.elements]
    return _aid("elements", spec, lang, rows)


def wild_table(game: Game, tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
    names = tables.doc.data.get("attribute", {})
    names = names if isinstance(names, dict) else {}  # of another shape: reported by the check
    rows = []
    for kind, chooses in tables.wild.items():
        chosen = _listing([str(_localised(names.get(a, a), lang)) for a in ATTRIBUTES if a in chooses], spec, lang)
        kept = _listing([str(_localised(names.get(a, a), lang)) for a in ATTRIBUTES if a not in chooses],
                        spec, lang)
        text = _text(spec, "chooses", lang, chosen=chosen) + (_text(spec, "keeps", lang, kept=kept) if kept else "")
        term = game.kinds.get(kind)
        rows.append([term.name(lang) if term else kind, text])
    return _aid("wild", spec, lang, rows)


def turn_table(game: Game, tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
    hand = next((row.hand for row in game.setup.values()), "")
    turn = tables.doc.data.get("turn", [])  # of another shape: reported by the check
    rows = [[f"[{row.get('step')}]", str(_localised(row, lang)).format(hand=hand)]
            for row in (turn if isinstance(turn, list) else []) if isinstance(row, dict)]
    return _aid("turn", spec, lang, rows)


def _text(spec: Mapping[str, Any], key: str, lang: str, **values: Any) -> str:
    return str(_localised(spec.get(key, key), lang)).format(**values)


def _listing(words: Sequence[str], spec: Mapping[str, Any], lang: str) -> str:
    """["number", "colour", "mark"] -> "number, colour and mark" (joiners from rules.toml)."""
    if len(words) < 2:
        return "".join(words)
    join = str(_localised(spec.get("join", ", "), lang))
    last = str(_localised(spec.get("last_join", " and "), lang))
    return join.join(words[:-1]) + last + words[-1]


def _aid(table_id: str, spec: Mapping[str, Any], lang: str, rows: list[list[str]],
         values: Mapping[str, Any] | None = None) -> AidTable:
    notes = [note.format(**(values or {})) for note in localised_list(spec.get("notes", []), lang)]
    return AidTable(id=table_id, title=str(_localised(spec.get("title", table_id), lang)),
                    header=localised_list(spec.get("header", []), lang), rows=rows, notes=notes)

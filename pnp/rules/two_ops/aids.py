"""Texts computed from the tables: the player-aid tables and the court cards' operator lines.

Both are generated from the same operator entries as the solver, so the
printed cards and aids can never disagree with the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pnp.api import CJK_LANGUAGES, AidTable
from pnp.api import localised as _word
from pnp.rules.two_ops.deck import deck_cards
from pnp.rules.two_ops.tables import TwoOpsTables
from pnp.rules.two_ops.vocabulary import PARITIES, RELATIONS

if TYPE_CHECKING:
    from pnp.api import Game


def _nested_word(section: Mapping[str, Any], *keys: str, lang: str) -> str:
    node: Any = section
    for key in keys:
        node = node.get(key, {}) if isinstance(node, Mapping) else {}
    return _word(node, lang) if isinstance(node, Mapping) and node else ""


def operator_aid(tables: TwoOpsTables, lang: str) -> AidTable:
    aid = tables.words.get("aid", {})
    header = [_nested_word(aid, "operators", "corner", lang=lang)]
    header += [_word(tables.relation_words.get(r, {}).get("header", {}), lang) for r in RELATIONS]
    rows = []
    any_marked = False
    for letter in tables.ranks:
        row = [letter]
        for relation in RELATIONS:
            rule = tables.operators.get((letter, relation))
            if rule is None:
                row.append("?")
                continue
            any_marked |= rule.marked
            gap = "" if lang.split("-")[0] in CJK_LANGUAGES else " "  # Japanese sets a mark against its word
            row.append(_word(rule.wording, lang) + (f"{gap}{tables.footnote_mark}" if rule.marked else ""))
        rows.append(row)
    notes = []
    if any_marked:
        notes.append(f"{tables.footnote_mark} {_word(tables.footnote, lang)}")
    note = _nested_word(aid, "operators", "note", lang=lang)
    if note:
        notes.append(note)
    return AidTable(id="operators", title=_nested_word(aid, "operators", "title", lang=lang),
                    header=header, rows=rows, notes=notes)


def goal_aid(game: Game, tables: TwoOpsTables, lang: str) -> AidTable:
    aid = tables.words.get("aid", {})
    parity_words = tables.words.get("parity", {})
    header = [_nested_word(aid, "goals", "corner", lang=lang)]
    colour_words = tables.words.get("colour", {})
    header += [game.colours[c].name(lang) if c in game.colours
               else _nested_word(colour_words, c, "text", lang=lang) or c for c in tables.colours]
    rows = []
    for parity in PARITIES:
        row = [_nested_word(parity_words, parity, "text", lang=lang) or parity]
        for colour in tables.colours:
            rule = tables.goals.get((parity, colour))
            row.append(_word(rule.wording, lang) if rule else "?")
        rows.append(row)
    note = _nested_word(aid, "goals", "note", lang=lang)
    return AidTable(id="goals", title=_nested_word(aid, "goals", "title", lang=lang), header=header,
                    rows=rows, notes=[note] if note else [])


def court_card_texts(game: Game, tables: TwoOpsTables, lang: str) -> dict[str, dict[str, str]]:
    """Each court card's operator line per relation, and the relations' labels, in ``lang``."""
    cards = deck_cards(game, tables)
    if cards is None:
        return {}
    texts: dict[str, dict[str, str]] = {}
    for card in cards:
        if card.kind != tables.operator_kind:
            continue
        letter = tables.letter_of(card.rank or 0)
        # a court card the table does not cover (pnp check reports it) still gets every line, as "?",
        # so its layout binds and the one error is not repeated as an unknown field per card
        texts[card.id] = {
            relation: _word(tables.operators[(letter, relation)].wording, lang)
            if letter is not None and (letter, relation) in tables.operators else "?"
            for relation in RELATIONS
        }
        # the column headers, so a court card can label its three lines in the card's language
        texts[card.id].update({
            f"{relation}_label": _word(tables.relation_words.get(relation, {}).get("header", {}), lang)
            for relation in RELATIONS
        })
    return texts

"""Texts computed from rules.toml: the player-aid tables and the marker and goal card words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import AidTable, localised_list
from pnp.api import localised as _word
from pnp.rules.take_over.strength import Ladder
from pnp.rules.take_over.tables import TakeOverTables, section

if TYPE_CHECKING:
    from pnp.api import Game


def _aid_word(tables: TakeOverTables, aid: str, key: str, lang: str) -> Any:
    return _word(section(section(section(tables.data, "aid"), aid), key), lang)


def _aid_words(tables: TakeOverTables, aid: str, key: str, lang: str) -> list[str]:
    """A list of texts (a header) in ``lang``; what is no list is the check's to report (aid_problems)."""
    return localised_list(section(section(section(tables.data, "aid"), aid), key), lang)


def ladder_aid(tables: TakeOverTables, ladder_id: str, ladder: Ladder, lang: str) -> AidTable:
    tier_words = section(tables.data, "tier")
    rows = [[str(place), _word(section(tier_words, tier).get("text", {}), lang)]
            for place, tier in enumerate(ladder.tiers, start=1)]
    note = _aid_word(tables, ladder_id, "note", lang)
    return AidTable(id=f"strength-{ladder_id.replace('_', '-')}", title=_aid_word(tables, ladder_id, "title", lang),
                    header=_aid_words(tables, "ladder", "header", lang) or ["", ""], rows=rows,
                    notes=[note] if note else [])


def bonus_aid(tables: TakeOverTables, lang: str) -> AidTable:
    rows = [[b.id, _word(b.name, lang), _word(b.text, lang)] for b in tables.bonuses.values()]
    note = _aid_word(tables, "bonuses", "note", lang)
    return AidTable(id="bonuses", title=_aid_word(tables, "bonuses", "title", lang),
                    header=_aid_words(tables, "bonuses", "header", lang), rows=rows,
                    notes=[note] if note else [])


def phrase_aid(tables: TakeOverTables, lang: str) -> AidTable:
    note = _aid_word(tables, "phrases", "note", lang)
    return AidTable(id="phrases", title=_aid_word(tables, "phrases", "title", lang),
                    header=_aid_words(tables, "phrases", "header", lang),
                    rows=[[_word(phrase, lang)] for phrase in tables.phrases], notes=[note] if note else [])


def marker_and_goal_texts(game: Game, tables: TakeOverTables, lang: str) -> dict[str, dict[str, str]]:
    """Marker sides and the goal-card word, from rules.toml, in the card's language."""
    sides = section(section(tables.data, "markers"), "side")
    terms = section(tables.data, "terms")
    texts: dict[str, dict[str, str]] = {}
    for card in game.all_cards():
        if card.kind == "marker":
            texts[card.id] = {"trump": _word(section(sides, "trump"), lang),
                              "disadvantaged": _word(section(sides, "disadvantaged"), lang)}
        elif card.kind == "goal":
            texts[card.id] = {"goal": _word(section(terms, "goal_card"), lang)}
    return texts

"""Texts computed from the model: surveillance and gadget card texts, and the player-aid tables.

Surveillance texts are generated in every language from one parsed condition,
so the printed languages can never disagree with each other or with the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.api import AidTable, Game, localised_list
from pnp.api import localised as _localised
from pnp.rules import surveillance
from pnp.rules.gadget_trick.settings import Settings
from pnp.rules.gadget_trick.watch_cards import parse_card
from pnp.rules.surveillance import ConditionError


def surveillance_and_gadget_texts(game: Game, settings: Settings, lang: str) -> dict[str, dict[str, str]]:
    """Surveillance card texts generated from their conditions, and each gadget's timing word, in ``lang``."""
    glossary = settings.doc.data.get("glossary", {})
    shorter = next(((p, settings.shift_for(p)) for p in range(game.players[0], game.players[1] + 1)
                    if settings.shift_for(p)), None)

    def colour_name(colour: str) -> str:
        term = game.colours.get(colour)
        return term.name(lang) if term else colour

    texts: dict[str, dict[str, str]] = {}
    label_a = _localised(glossary.get("activation", "Activation"), lang)
    label_r = _localised(glossary.get("removal", "Removal"), lang)
    separator = "：" if lang in ("ja", "zh") else ": "
    for card in game.cards(settings.surveillance):
        try:
            watch = parse_card(card, settings.colour_order)
        except ConditionError:
            # the check reports the condition; the card's texts are "?", not missing fields as well
            activation = removal = "?"
        else:
            variant = (shorter[0], settings.activation_at(watch.activation, shorter[0])) if shorter else None
            activation = surveillance.describe_activation(watch.activation, lang, variant)
            removal = surveillance.describe_removal(watch.removal, lang, colour_name)
        texts[card.id] = {
            "activation": activation,
            "removal": removal,
            "activation_label": label_a,
            "removal_label": label_r,
            "text": f"{label_a}{separator}{activation}\n{label_r}{separator}{removal}",
        }
    timing_words = settings.doc.data.get("gadget", {}).get("timing", {})
    gadget_component = settings.doc.data.get("gadget", {}).get("component", "gadget")
    for card in game.cards(gadget_component) if gadget_component in game.components else ():
        tag = card.fields.get("timing", "").strip()
        # an unknown tag is reported by the check; printed as "?", its text is not read as markup as well
        known = isinstance(timing_words, Mapping) and tag in timing_words
        texts[card.id] = {"timing": _localised(timing_words[tag], lang) if known else "?"}
    return texts


def setup_table(game: Game, settings: Settings, spec: Mapping[str, Any], lang: str) -> AidTable:
    deck = {card.id: card for card in game.cards(settings.deck)} if settings.deck in game.components else {}
    rows = []
    notes = localised_list(spec.get("notes", []), lang)
    for players in range(game.players[0], game.players[1] + 1):
        colours = settings.colours_in_play(players)
        hand, tricks = settings.hand_for(players), settings.tricks_for(players)
        in_play = sum(card.count for card in deck.values() if card.colour in colours)
        rows.append([str(players), str(len(colours)), str(in_play), str(hand), str(tricks), str(hand - tricks)])
        by = settings.shift_for(players)
        if by and "shift_note" in spec:
            example = settings.tricks - 1
            notes.append(str(_localised(spec["shift_note"], lang)).format(
                players=players, first=settings.shift_from_trick, by=by, example=example,
                shifted=example - by))
    return AidTable(id="setup", title=str(_localised(spec.get("title", "Setup"), lang)),
                    header=localised_list(spec.get("header", []), lang), rows=rows, notes=notes)


def static_table(table_id: str, spec: Mapping[str, Any], lang: str) -> AidTable:
    return AidTable(
        id=table_id,
        title=str(_localised(spec.get("title", table_id), lang)),
        header=localised_list(spec.get("header", []), lang),
        rows=[localised_list(row, lang) for row in rows] if isinstance(rows := spec.get("row", []), list) else [],
        notes=localised_list(spec.get("notes", []), lang),
    )

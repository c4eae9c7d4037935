"""The names a rule text reads: plain data made from the model, so no language can state a number
that disagrees with the components (docs/rulebooks.md lists them).

Only dicts, lists, numbers and strings go in, so the sandbox has no model object whose methods a
template could reach. Each example fence gets its own ``result``: the values the rules module
recomputed, formatted as a rulebook prints them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from jinja2 import ChainableUndefined

from pnp.compose.bind import NamedView
from pnp.load.game_folder import PLAYER_NAMES
from pnp.model.game import Game
from pnp.rules.base import ExampleError, GameRules

#: how a list of cards is separated in running text; typography, not wording
LIST_SEPARATORS = {"ja": "、", "zh": "、"}


class UnknownResult(ChainableUndefined):
    """``result`` of an example that does not exist or failed: prints "?" so the rest still renders.

    The unknown id itself is reported by the parser, at the fence's line; an example that failed is
    reported by the examples check. So whatever a text does with it (a macro that takes a card id
    apart: ``id.split("-")``, then looks the colour up) stays unknown and quiet: one problem, not one
    per placeholder.
    """

    def __str__(self) -> str:
        return "?"

    def __call__(self, *args: Any, **kwargs: Any) -> UnknownResult:
        return self



MINUS = "\u2212"


def format_value(value: Any) -> str:
    """Numbers as a rulebook prints them: 7/2 stays a fraction, and a negative gets a real minus sign."""
    if isinstance(value, Fraction):
        text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    elif isinstance(value, list | tuple):
        return ", ".join(format_value(item) for item in value)
    else:
        text = str(value)
    return MINUS + text[1:] if _NEGATIVE.match(text) else text


_NEGATIVE = re.compile(r"^-\d")


class ResultView(dict):
    """An example's recomputed result as placeholders see it: values already formatted."""


def result_view(result: Mapping[str, Any] | None) -> ResultView | UnknownResult:
    if result is None:
        return UnknownResult()
    view = ResultView()
    for key, value in result.items():
        view[key] = [format_value(v) for v in value] if isinstance(value, list | tuple) else format_value(value)
    return view


def compute_results(game: Game, rules: GameRules) -> dict[str, Mapping[str, Any] | None]:
    """Every example recomputed once; ``None`` where the rules cannot (pnp check reports why)."""
    results: dict[str, Mapping[str, Any] | None] = {}
    for example in game.examples:
        try:
            results[example.id] = (rules.run_example(game, example)
                                   if example.kind in rules.example_kinds else None)
        except ExampleError:
            results[example.id] = None
    return results


def card_label(game: Game, card_id: str, lang: str | None = None) -> str:
    """A card as text: rank and suit symbol ("10♠") where the suit has one, else the card's name.

    A colour-only card (Take Over That Job's "green 5") would lose its colour as a bare rank, so
    it prints its name in ``lang`` instead.
    """
    card = game.card(str(card_id))
    if card is None:
        return str(card_id)
    suit = game.suits.get(card.suit) if card.suit else None
    symbol = suit.symbol if suit and suit.symbol and len(suit.symbol) == 1 else ""
    if card.rank is not None and symbol:
        return f"{rank_label(game, card.rank)}{symbol}"
    name = card.text("name", lang or game.source_language)
    if name:
        return name
    return rank_label(game, card.rank) if card.rank is not None else card.id


class CardView(NamedView):
    """A card as a rule text reads it: printed, its label as :func:`card_label` gives it ("10♠"); its
    fields by name (``.points``, ``.count``, ``.name``...), read from the card list, so a number a
    rulebook prints this way cannot drift from the CSV."""

    def __init__(self, reached_as: str, label: str, values: Mapping[str, Any]) -> None:
        super().__init__(reached_as, values)
        self._label = label

    def __str__(self) -> str:
        return self._label


_WHOLE_NUMBER = re.compile(r"-?\d+")


def card_view(game: Game, card: Any, lang: str, reached_as: str) -> CardView:
    """``card("harvest")`` and each of ``components.<id>.cards``: id, count, kind, suit, colour, rank (ids
    and numbers, as the card list has them), its texts in ``lang`` (name, text...), and the component's
    declared fields, a whole number as a number (so a text can add them up)."""
    values: dict[str, Any] = {"id": card.id, "count": card.count, "kind": card.kind, "suit": card.suit,
                              "colour": card.colour, "rank": card.rank, "component": card.component}
    for name in card.texts:
        values[name] = card.text(name, lang) or card.text(name, game.source_language)
    values.setdefault("name", "")
    for name, value in card.fields.items():
        values[name] = int(value) if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value.strip()) else value
    return CardView(reached_as, card_label(game, card.id, lang), values)


def rank_label(game: Game, rank: int) -> str:
    """The game's own rank labels (A, J, Q, K) where the model has them."""
    labels = getattr(game, "rank_label", None)
    return labels(rank) if callable(labels) else {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


#: the table of examples.toml that names the examples' players per language (docs/rulebooks.md)


def player_names(game: Game, lang: str) -> dict[str, str]:
    """How ``lang`` writes the players the examples name: ``[player_names.<lang>]`` in examples.toml.

    ``inputs.players`` holds stable ids, which the rules model compares with
    ``expect.winner``; rule texts (``player(id)``) and example figures print
    this name instead, or the id itself where the table has none. `pnp check`
    reports a table that misses a player or names an unknown one
    (:func:`pnp.validate.examples.check_player_names`).
    """
    if game.examples_data is None:
        return {}
    tables = game.examples_data.data.get(PLAYER_NAMES)
    names = tables.get(lang) if isinstance(tables, dict) else None
    if not isinstance(names, dict):
        return {}
    return {str(key): value for key, value in names.items() if isinstance(value, str) and value}


def rule_context(game: Game, rules: GameRules, lang: str, results: Mapping[str, Mapping[str, Any] | None],
                 rules_broken: bool = False) -> dict[str, Any]:
    """The names a rule text can use; documented in docs/rulebooks.md.

    Only plain dicts, lists, numbers and strings go in, so the sandbox has no
    model object whose methods a template could reach.
    """
    low, high = game.players
    credits = game.credits

    def table(table_id: str) -> str:
        # An HTML comment is a block of its own for Markdown; the parser checks the id and reports its line.
        return f"<!-- pnp:table {table_id} -->"

    def card(card_id: str) -> CardView | str:
        found = game.card(str(card_id))
        if found is None:  # printed as written; pnp check reports the id (validate/card_mentions.py)
            return card_label(game, card_id, lang)
        return card_view(game, found, lang, f'card("{card_id}")')

    def cards(card_ids: Any) -> str:
        items = card_ids if isinstance(card_ids, list | tuple) else str(card_ids).replace(",", " ").split()
        return LIST_SEPARATORS.get(lang, ", ").join(card_label(game, item, lang) for item in items)

    def example_result(example_id: str) -> ResultView | UnknownResult:
        return result_view(results.get(example_id))

    rules_view = _plain_data(dict(rules.context(game, lang)))
    inputs = {example.id: example.inputs for example in game.examples}
    names = player_names(game, lang)

    def player(player_id: Any) -> str:
        return names.get(str(player_id), str(player_id))

    def example_inputs(example_id: str) -> Any:
        return _plain_data(inputs[example_id]) if example_id in inputs else UnknownResult()

    return {
        "lang": lang,
        "game": {
            "id": game.id,
            "title": game.title(lang),
            "subtitle": game.subtitles.get(lang, ""),
            "author": game.author(lang),
            "year": credits.get("year", ""),
            "minutes": game.minutes,
            "age": game.age,
            "terms": game.terms.get(lang, ""),
        },
        "players": {"min": low, "max": high},
        "setup": {count: _setup_view(row) for count, row in game.setup.items()},
        "components": {cid: _component_view(game, component, lang) for cid, component in game.components.items()},
        "colours": {cid: term.name(lang) for cid, term in game.colours.items()},
        "suits": {sid: {"name": term.name(lang), "symbol": term.symbol or ""} for sid, term in game.suits.items()},
        "kinds": {kid: term.name(lang) for kid, term in game.kinds.items()},
        "rules": _BrokenRulesView(rules_view) if rules_broken else rules_view,
        "examples": {eid: result_view(result) for eid, result in results.items()},
        "table": table,
        "card": card,
        "cards": cards,
        "player": player,
        "_example_result": example_result,
        "_example_inputs": example_inputs,
        "result": UnknownResult(),  # outside an example block, or in one that is never closed
    }


class _BrokenRulesView(dict):
    """``rules`` when rules.toml has errors: a number it could not give is unknown and quiet ("?").

    The error is reported once, at its line in rules.toml; the rule texts that read the value would
    otherwise each report "rules has no field 'rounds'", which is not so (the field is there, wrong).
    A misspelt ``rules.`` name is quiet too until rules.toml is fixed; then it is reported.
    """

    def __missing__(self, key: str) -> UnknownResult:
        return UnknownResult()


def _plain_data(value: Any) -> Any:
    """A copy made of dicts, lists, strings and numbers only, whatever TOML handed us."""
    if isinstance(value, Mapping):
        return {str(k): _plain_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain_data(v) for v in value]
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def _deal_view(deal: Any) -> dict[str, Any]:
    return {"pool": deal.pool, "in_play": deal.in_play, "hand": deal.hand, "revealed": deal.revealed,
            "left": deal.left}


def _setup_view(row: Any) -> dict[str, Any]:
    view = _deal_view(row.main)
    view.update(players=row.players, tricks=row.tricks, colours=row.colours,
                also={name: _deal_view(deal) for name, deal in row.also.items()})
    return view


def _component_view(game: Game, component: Any, lang: str) -> dict[str, Any]:
    kinds: dict[str, int] = {}
    for card in component.cards:
        if card.kind:
            kinds[card.kind] = kinds.get(card.kind, 0) + card.count
    ranks = [card.rank for card in component.cards if card.rank is not None and card.count]
    return {"id": component.id, "name": component.name(lang), "count": component.count, "kinds": kinds,
            "description": component.descriptions.get(lang, ""),
            "ranks": {"min": min(ranks), "max": max(ranks)} if ranks else {},
            "cards": [card_view(game, card, lang, f"a card of components.{component.id}.cards")
                      for card in component.cards if card.count]}


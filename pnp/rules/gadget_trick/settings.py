"""What rules.toml says, typed: the deal formula, surveillance and gadget settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pnp.api import Game, Report, TomlDoc, TomlReader, report_missing_rules_data
from pnp.rules.surveillance import Activation


@dataclass(frozen=True)
class Settings:
    """rules.toml, read once per call so that a data edit needs no restart."""

    doc: TomlDoc
    deck: str
    colour_order: tuple[str, ...]
    extra_colours: int
    hand: int
    tricks: int
    trump_revealed: int
    exceptions: Mapping[int, tuple[int, int]]  # players -> (hand, tricks)
    surveillance: str
    surveillance_in_play: int
    shift_from_trick: int
    gadget: str
    timings: tuple[str, ...]

    def colours_in_play(self, players: int) -> tuple[str, ...]:
        return self.colour_order[: min(players + self.extra_colours, len(self.colour_order))]

    def hand_for(self, players: int) -> int:
        return self.exceptions.get(players, (self.hand, self.tricks))[0]

    def tricks_for(self, players: int) -> int:
        return self.exceptions.get(players, (self.hand, self.tricks))[1]

    def shift_for(self, players: int) -> int:
        """How far written trick numbers move down in a shorter game."""
        return self.tricks - self.tricks_for(players)

    def activation_at(self, activation: Activation, players: int) -> Activation:
        by = self.shift_for(players)
        return activation.shifted(by, self.shift_from_trick) if by else activation

    def line(self, *path: str | int) -> int | None:
        return self.doc.line_of(*path)


def read_settings(game: Game, report: Report) -> Settings | None:
    """Typed settings, or None after reporting why rules.toml is unusable."""
    doc = game.rules_data
    if doc is None:
        report_missing_rules_data(game, report, "Gadget Trick", "deal, surveillance and gadget settings")
        return None
    reader = TomlReader(doc, report)
    data = doc.data
    deck = reader.table(data, (), "deck", required=True)
    deal = reader.table(data, (), "deal", required=True)
    watch = reader.table(data, (), "surveillance", required=True)
    gadget = reader.table(data, (), "gadget", required=True)
    order = deck.get("colour_order")
    if not isinstance(order, list) or not order or not all(isinstance(c, str) for c in order):
        reader.error(("deck", "colour_order"), "expected the list of colours in the order they join the game")
        return None
    exceptions: dict[int, tuple[int, int]] = {}
    for index, row in reader.tables(deal, ("deal",), "exception") or []:
        path = ("deal", "exception", index)
        players, hand, tricks = (reader.integer(row, path, key, minimum=1) for key in ("players", "hand", "tricks"))
        if players is not None and hand is not None and tricks is not None:
            exceptions[players] = (hand, tricks)
    values = {
        "deck": reader.string(deck, ("deck",), "component"),
        "extra_colours": reader.integer(deal, ("deal",), "extra_colours"),
        "hand": reader.integer(deal, ("deal",), "hand", minimum=1),
        "tricks": reader.integer(deal, ("deal",), "tricks", minimum=1),
        "trump_revealed": reader.integer(deal, ("deal",), "trump_revealed"),
        "surveillance": reader.string(watch, ("surveillance",), "component"),
        "surveillance_in_play": reader.integer(watch, ("surveillance",), "in_play"),
        "shift_from_trick": reader.integer(watch, ("surveillance",), "shift_from_trick", minimum=1),
        "gadget": reader.string(gadget, ("gadget",), "component"),
    }
    if any(value is None for value in values.values()):
        return None
    timings = tuple(reader.table(gadget, ("gadget",), "timing", required=True))
    return Settings(doc=doc, colour_order=tuple(order), exceptions=exceptions, timings=timings, **values)

"""Gadget Trick: trick winners, surveillance removals and the end of the game.

The seed fixes the deal by formula (colours = players + 1, a 6-player
exception), so the check holds game.toml's setup rows to that formula rather
than trusting them. Surveillance cards are written in the condition language
of :mod:`pnp.rules.surveillance`, which lets the check prove each card can
fire and lets the printed texts be generated in every language from one tree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pnp.diagnostics import Report
from pnp.load.toml_lines import TomlDoc
from pnp.model.fields import TomlReader
from pnp.model.game import Card, Example, Game
from pnp.rules import surveillance
from pnp.rules.base import AidTable, ExampleError, GameRules
from pnp.rules.surveillance import Activation, Condition, ConditionError, PlayedCard, PlayerView
from pnp.rules.wording import localised as _localised

# --------------------------------------------------------------------------- settings


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
        report.error("Gadget Trick needs rules.toml (deal, surveillance and gadget settings)", game.path)
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
    for index, row in enumerate(deal.get("exception", [])):
        path = ("deal", "exception", index)
        if not isinstance(row, dict):
            reader.error(path, "expected a [[deal.exception]] table with players, hand and tricks")
            continue
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


def _settings_or_raise(game: Game) -> Settings:
    report = Report()
    settings = read_settings(game, report)
    if settings is None:
        reasons = "; ".join(d.message for d in report.errors) or "unreadable"
        raise ExampleError(f"rules.toml is unusable: {reasons}")
    return settings


# --------------------------------------------------------------------------- play


def trick_winner(plays: Sequence[PlayedCard], trump: str | None) -> int:
    """Index of the winning play: highest trump, else highest of the lead suit.

    Equal numbers (a gadget can make them) go to the card played first,
    which the strict ``>`` gives.
    """
    suit = trump if any(card.colour == trump for card in plays) else plays[0].colour
    best = 0 if plays[0].colour == suit else None
    for index, card in enumerate(plays):
        if card.colour == suit and (best is None or card.number > plays[best].number):
            best = index
    assert best is not None  # the lead or a trump always matches
    return best


def legal_plays(hand: Sequence[str], colours: Mapping[str, str], lead_colour: str) -> list[str]:
    """The cards of ``hand`` that may follow a lead of ``lead_colour``."""
    following = [card for card in hand if colours[card] == lead_colour]
    return following or list(hand)


def next_leader(players: int, winner: int, removed: set[int]) -> int | None:
    """The winner leads; a removed winner passes the lead on in play order."""
    for step in range(players):
        seat = (winner + step) % players
        if seat not in removed:
            return seat
    return None


@dataclass(frozen=True)
class Outcome:
    over: bool
    draw: bool
    winners: tuple[int, ...]


def end_of_trick(players: int, removed: set[int], trick: int, length: int, last_winner: int,
                 won_count: Sequence[int], won_trump: Sequence[int]) -> Outcome:
    """Whether the game ends after this trick, and who wins."""
    in_play = [seat for seat in range(players) if seat not in removed]
    if not in_play:
        return Outcome(True, True, ())
    if len(in_play) == 1:
        return Outcome(True, False, (in_play[0],))
    if trick < length:
        return Outcome(False, False, ())
    if last_winner not in removed:
        return Outcome(True, False, (last_winner,))
    most = max(won_count[seat] for seat in in_play)
    leaders = [seat for seat in in_play if won_count[seat] == most]
    fewest = min(won_trump[seat] for seat in leaders)
    return Outcome(True, False, tuple(seat for seat in leaders if won_trump[seat] == fewest))


# --------------------------------------------------------------------------- surveillance cards


@dataclass(frozen=True)
class WatchCard:
    card: Card
    activation: Activation
    removal: Condition


def parse_card(card: Card, colours: Sequence[str]) -> WatchCard:
    """Both conditions of a surveillance card; raises ConditionError naming the field."""
    texts = {}
    for name in ("activation", "removal"):
        text = card.fields.get(name, "").strip()
        if not text:
            raise ConditionError(f"the {name} column is empty")
        texts[name] = text
    try:
        activation = surveillance.parse_activation(texts["activation"])
    except ConditionError as exc:
        raise ConditionError(f"activation {texts['activation']!r}: {exc}") from None
    try:
        removal = surveillance.parse_removal(texts["removal"], colours)
    except ConditionError as exc:
        raise ConditionError(f"removal {texts['removal']!r}: {exc}") from None
    return WatchCard(card, activation, removal)


def removals(cards: Sequence[WatchCard], trick: int, players: int, settings: Settings,
             order: Sequence[int], views: Mapping[int, PlayerView]) -> list[tuple[str, int]]:
    """(card id, seat) for each removal, cards in reveal order, seats in ``order``."""
    caught: list[tuple[str, int]] = []
    for watch in cards:
        if not settings.activation_at(watch.activation, players).active(trick):
            continue
        for seat in order:
            if all(seat != s for _, s in caught) and surveillance.holds(watch.removal, views[seat]):
                caught.append((watch.card.id, seat))
    return caught


# --------------------------------------------------------------------------- the rules module


class GadgetTrickRules(GameRules):
    example_kinds = frozenset({"trick", "follow", "surveillance", "game-end", "next-leader"})

    # ---- check -------------------------------------------------------------
    def check(self, game: Game, report: Report) -> None:
        settings = read_settings(game, report)
        if settings is None:
            return
        deck = self._deck(game, settings, report)
        if deck is None:
            return
        self._check_colour_order(game, settings, deck, report)
        self._check_setup(game, settings, deck, report)
        self._check_surveillance(game, settings, deck, report)
        self._check_gadgets(game, settings, report)
        for lang in game.languages:
            if lang not in surveillance.PHRASES:
                report.warning(f"surveillance card texts have no wording for {lang!r}; English is used",
                               None, None, "add the language to PHRASES in pnp/rules/surveillance.py")

    def _deck(self, game: Game, settings: Settings, report: Report) -> dict[str, Card] | None:
        for component in (settings.deck, settings.surveillance, settings.gadget):
            if component not in game.components:
                report.error(f"no component {component!r} in game.toml", settings.doc.path,
                             settings.line("deck") if component == settings.deck else None)
                return None
        return {card.id: card for card in game.cards(settings.deck)}

    def _check_colour_order(self, game: Game, settings: Settings, deck: Mapping[str, Card],
                            report: Report) -> None:
        in_deck = {card.colour for card in deck.values()}
        named = set(settings.colour_order)
        line = settings.line("deck", "colour_order")
        if in_deck - named:
            report.error(f"deck colours missing from colour_order: {', '.join(sorted(in_deck - named))}",
                         settings.doc.path, line, "list every colour of the trick cards")
        if named - in_deck:
            report.error(f"colour_order names colours with no trick cards: {', '.join(sorted(named - in_deck))}",
                         settings.doc.path, line)
        if len(named) != len(settings.colour_order):
            report.error("colour_order lists a colour twice", settings.doc.path, line)

    def _check_setup(self, game: Game, settings: Settings, deck: Mapping[str, Card], report: Report) -> None:
        for players, row in sorted(game.setup.items()):
            manifest = row.source.file if row.source else None
            colours = settings.colours_in_play(players)
            hand = settings.hand_for(players)
            tricks = settings.tricks_for(players)
            expected = {
                "colours": len(colours),
                "in_play": sum(card.count for card in deck.values() if card.colour in colours),
                "hand": hand,
                "tricks": tricks,
                "revealed": settings.trump_revealed,
                "left": hand - tricks,
            }
            stated = {"colours": row.colours, "in_play": row.in_play, "hand": row.hand, "tricks": row.tricks,
                      "revealed": row.revealed, "left": row.left}
            for key, value in expected.items():
                if stated[key] != value and not (key == "left" and stated[key] is None):
                    report.error(f"{players} players: {key} is {stated[key]} but the rules give {value}",
                                 manifest, row.source.line if row.source else None,
                                 f"set {key} = {value} (rules.toml [deal]: colours = players + "
                                 f"{settings.extra_colours} up to all {len(settings.colour_order)}, "
                                 f"hand {settings.hand}, {settings.tricks} tricks, exceptions per player count)")
            watch = next((deal for deal in row.deals.values() if deal.pool == settings.surveillance), None)
            if watch is not None and watch.revealed != settings.surveillance_in_play:
                report.error(f"{players} players: {watch.revealed} surveillance cards revealed, "
                             f"the rules use {settings.surveillance_in_play}",
                             manifest, row.source.line if row.source else None)
        capped = [p for p in sorted(game.setup) if p + settings.extra_colours > len(settings.colour_order)]
        for players in capped:
            report.note(f"{players} players use all {len(settings.colour_order)} colours: the seed's "
                        f"'the same as for 5 players (5 colours)' contradicts its own players + 1 formula "
                        f"(5 players already use 6 colours = 60 cards); the data reads it as 'the same 60 "
                        f"cards as for 5 players (6 colours)'",
                        settings.doc.path, settings.line("deal", "exception"))

    def _check_surveillance(self, game: Game, settings: Settings, deck: Mapping[str, Card],
                            report: Report) -> None:
        colours = settings.colour_order
        for card in game.cards(settings.surveillance):
            file, line = (card.source.file, card.source.line) if card.source else (None, None)
            try:
                watch = parse_card(card, colours)
            except ConditionError as exc:
                report.error(f"surveillance card {card.id!r}: {exc}", file, line,
                             "see the condition grammar in rules.toml [surveillance]")
                continue
            for lang in game.languages:
                if card.text("text", lang).strip():
                    report.warning(f"surveillance card {card.id!r}: text.{lang} is generated from the "
                                   "conditions; the CSV text is ignored", file, line, f"empty text.{lang}")
            self._check_reach(game, settings, deck, watch, report)

    def _check_reach(self, game: Game, settings: Settings, deck: Mapping[str, Card], watch: WatchCard,
                     report: Report) -> None:
        card = watch.card
        file, line = (card.source.file, card.source.line) if card.source else (None, None)
        low, high = game.players
        dead: list[str] = []
        for players in range(low, high + 1):
            activation = settings.activation_at(watch.activation, players)
            length = settings.tricks_for(players)
            beyond = [n for n in activation.numbers() if not 1 <= n <= length]
            if beyond:
                report.error(f"surveillance card {card.id!r}: trick {beyond[0]} (as played with {players} "
                             f"players) is outside the {length} tricks of a {players}-player game",
                             file, line, f"use trick numbers 1-{settings.tricks}")
                return
            colours = settings.colours_in_play(players)
            in_play = [PlayedCard(c.colour, c.rank) for c in deck.values() if c.colour in colours
                       and c.rank is not None for _ in range(c.count)]
            last = activation.last_active(length)
            table = surveillance.Table(players, in_play, last)
            if not surveillance.can_fire(watch.removal, table):
                dead.append(f"{players} players ({len(in_play)} cards in play, at most {table.playable} "
                            f"played by trick {last})")
            missing = surveillance.colours_named(watch.removal) - set(colours)
            if missing and surveillance.can_fire(watch.removal, table):
                report.note(f"surveillance card {card.id!r}: {', '.join(sorted(missing))} is not in play with "
                            f"{players} players, so that part can't fire", file, line)
        if len(dead) == high - low + 1:
            report.error(f"surveillance card {card.id!r}: the removal condition can never be met "
                         f"(at {dead[0]})", file, line, "lower the numbers, or widen the activation")
        elif dead:
            report.warning(f"surveillance card {card.id!r}: the removal condition can't be met at "
                           f"{'; '.join(dead)}", file, line)

    def _check_gadgets(self, game: Game, settings: Settings, report: Report) -> None:
        for card in game.cards(settings.gadget):
            file, line = (card.source.file, card.source.line) if card.source else (None, None)
            timing = card.fields.get("timing", "").strip()
            if timing not in settings.timings:
                report.error(f"gadget {card.id!r}: timing {timing!r} is not one of "
                             f"{', '.join(settings.timings)}", file, line,
                             "use a tag from rules.toml [gadget.timing], or add the tag there")
            for lang in game.languages:
                if not card.text("text", lang).strip():
                    report.error(f"gadget {card.id!r}: no effect text in {lang!r}", file, line,
                                 f"fill in text.{lang}")

    # ---- examples ----------------------------------------------------------
    def run_example(self, game: Game, example: Example) -> Mapping[str, Any]:
        settings = _settings_or_raise(game)
        runner = {
            "trick": self._example_trick,
            "follow": self._example_follow,
            "surveillance": self._example_surveillance,
            "game-end": self._example_end,
            "next-leader": self._example_next_leader,
        }.get(example.kind)
        if runner is None:
            return super().run_example(game, example)
        return runner(game, settings, example.inputs)

    def _example_trick(self, game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
        plays = _played(game, settings, _ids(inputs, "plays"))
        overrides = inputs.get("as_number", {})
        if not isinstance(overrides, dict):
            raise ExampleError("as_number must map a play's position (from 0) to the number it counts as")
        for position, number in overrides.items():
            index = _int(position, "as_number position")
            if not 0 <= index < len(plays):
                raise ExampleError(f"as_number: there is no play {index}")
            plays[index] = PlayedCard(plays[index].colour, _int(number, "as_number value"))
        trump = _colour(settings, inputs.get("trump"))
        winner = trick_winner(plays, trump)
        result: dict[str, Any] = {"winner": winner}
        if "leader" in inputs:
            players = _int(inputs.get("players", len(plays)), "players")
            result["winner_seat"] = (_int(inputs["leader"], "leader") + winner) % players
        return result

    def _example_follow(self, game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
        hand = _ids(inputs, "hand")
        colours = {card_id: played.colour for card_id, played in zip(hand, _played(game, settings, hand),
                                                                    strict=True)}
        lead = _played(game, settings, [str(inputs.get("lead"))])[0]
        return {"legal": legal_plays(hand, colours, lead.colour)}

    def _example_surveillance(self, game: Game, settings: Settings,
                              inputs: Mapping[str, Any]) -> dict[str, Any]:
        players = _int(inputs.get("players"), "players")
        trick = _int(inputs.get("trick"), "trick")
        trump = _colour(settings, inputs.get("trump"))
        removed_before = {_int(seat, "removed seat") for seat in inputs.get("removed", [])}
        order = [seat for seat in _seats_from(_int(inputs.get("leader"), "leader"), players)
                 if seat not in removed_before]
        plays = _played(game, settings, _ids(inputs, "plays"))
        if len(plays) != len(order):
            raise ExampleError(f"{len(order)} players in play but {len(plays)} cards played")
        piles = inputs.get("won", [[] for _ in range(players)])
        if not isinstance(piles, list) or len(piles) != players:
            raise ExampleError(f"won must list one pile (a list of card ids) per seat, {players} in all")
        winner_index = trick_winner(plays, trump)
        winner = order[winner_index]
        views = {}
        for seat in range(players):
            pile = _played(game, settings, [str(c) for c in piles[seat]])
            took = plays if seat == winner else None
            own = plays[order.index(seat)] if seat in order else None
            views[seat] = PlayerView(won=pile + (plays if took else []), trump=trump, took=took, own_card=own)
        cards = [self._watch_card(game, settings, card_id) for card_id in _ids(inputs, "cards")]
        check_order = [seat for seat in _seats_from(winner, players) if seat not in removed_before]
        caught = removals(cards, trick, players, settings, check_order, views)
        return {"winner": winner, "removed": [seat for _, seat in caught], "by": [card for card, _ in caught]}

    def _watch_card(self, game: Game, settings: Settings, card_id: str) -> WatchCard:
        card = next((c for c in game.cards(settings.surveillance) if c.id == card_id), None)
        if card is None:
            raise ExampleError(f"unknown surveillance card {card_id!r}")
        try:
            return parse_card(card, settings.colour_order)
        except ConditionError as exc:
            raise ExampleError(f"surveillance card {card_id!r}: {exc}") from None

    def _example_end(self, game: Game, settings: Settings, inputs: Mapping[str, Any]) -> dict[str, Any]:
        players = _int(inputs.get("players"), "players")
        won_count = [_int(v, "won_count") for v in inputs.get("won_count", [0] * players)]
        won_trump = [_int(v, "won_trump") for v in inputs.get("won_trump", [0] * players)]
        if len(won_count) != players or len(won_trump) != players:
            raise ExampleError(f"won_count and won_trump need one number per seat ({players})")
        outcome = end_of_trick(
            players=players,
            removed={_int(seat, "removed seat") for seat in inputs.get("removed", [])},
            trick=_int(inputs.get("trick"), "trick"),
            length=settings.tricks_for(players),
            last_winner=_int(inputs.get("last_winner"), "last_winner"),
            won_count=won_count,
            won_trump=won_trump,
        )
        return {"over": outcome.over, "draw": outcome.draw, "winners": list(outcome.winners)}

    def _example_next_leader(self, game: Game, settings: Settings,
                             inputs: Mapping[str, Any]) -> dict[str, Any]:
        players = _int(inputs.get("players"), "players")
        removed = {_int(seat, "removed seat") for seat in inputs.get("removed", [])}
        leader = next_leader(players, _int(inputs.get("winner"), "winner"), removed)
        return {"leader": leader if leader is not None else -1}

    # ---- texts and aids ----------------------------------------------------
    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        report = Report()
        settings = read_settings(game, report)
        if settings is None or settings.surveillance not in game.components:
            return {}
        glossary = settings.doc.data.get("glossary", {})
        shorter = next(((p, settings.shift_for(p)) for p in range(game.players[0], game.players[1] + 1)
                        if settings.shift_for(p)), None)

        def colour_name(colour: str) -> str:
            term = game.colours.get(colour)
            return term.name(lang) if term else colour

        texts: dict[str, dict[str, str]] = {}
        for card in game.cards(settings.surveillance):
            try:
                watch = parse_card(card, settings.colour_order)
            except ConditionError:
                continue  # the check reports it
            variant = (shorter[0], settings.activation_at(watch.activation, shorter[0])) if shorter else None
            activation = surveillance.describe_activation(watch.activation, lang, variant)
            removal = surveillance.describe_removal(watch.removal, lang, colour_name)
            label_a = _localised(glossary.get("activation", "Activation"), lang)
            label_r = _localised(glossary.get("removal", "Removal"), lang)
            separator = "：" if lang in ("ja", "zh") else ": "
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
            tag = card.fields.get("timing", "")
            texts[card.id] = {"timing": _localised(timing_words.get(tag, tag), lang)}
        return texts

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        settings = read_settings(game, Report())
        if settings is None:
            return {}
        counts = range(game.players[0], game.players[1] + 1)
        return {
            "colour_order": [game.colours[c].name(lang) if c in game.colours else c for c in settings.colour_order],
            "normal_hand": settings.hand,
            "normal_tricks": settings.tricks,
            "surveillance_in_play": settings.surveillance_in_play,
            "shift_from_trick": settings.shift_from_trick,
            "deal": {p: {"colours": len(settings.colours_in_play(p)), "hand": settings.hand_for(p),
                         "tricks": settings.tricks_for(p), "left": settings.hand_for(p) - settings.tricks_for(p)}
                     for p in counts},
        }

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        settings = read_settings(game, Report())
        if settings is None:
            return []
        aid = settings.doc.data.get("aid", {})
        tables = [_static_table(table_id, aid.get(table_id, {}), lang) for table_id in ("trick-order", "winner", "end")]
        tables.append(self._setup_table(game, settings, aid.get("setup", {}), lang))
        return tables

    def _setup_table(self, game: Game, settings: Settings, spec: Mapping[str, Any], lang: str) -> AidTable:
        deck = {card.id: card for card in game.cards(settings.deck)} if settings.deck in game.components else {}
        rows = []
        notes = list(_localised(spec.get("notes", {}), lang) or [])
        for players in range(game.players[0], game.players[1] + 1):
            colours = settings.colours_in_play(players)
            hand, tricks = settings.hand_for(players), settings.tricks_for(players)
            in_play = sum(card.count for card in deck.values() if card.colour in colours)
            rows.append([str(players), str(len(colours)), str(in_play), str(hand), str(tricks), str(hand - tricks)])
            by = settings.shift_for(players)
            if by and "shift_note" in spec:
                example = settings.tricks - 1
                notes.append(_localised(spec["shift_note"], lang).format(
                    players=players, first=settings.shift_from_trick, by=by, example=example,
                    shifted=example - by))
        return AidTable(id="setup", title=str(_localised(spec.get("title", "Setup"), lang)),
                        header=list(_localised(spec.get("header", []), lang) or []), rows=rows, notes=notes)


def _static_table(table_id: str, spec: Mapping[str, Any], lang: str) -> AidTable:
    return AidTable(
        id=table_id,
        title=str(_localised(spec.get("title", table_id), lang)),
        header=list(_localised(spec.get("header", []), lang) or []),
        rows=[list(_localised(row, lang)) for row in spec.get("row", [])],
        notes=list(_localised(spec.get("notes", {}), lang) or []),
    )


# --------------------------------------------------------------------------- example inputs


def _int(value: Any, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ExampleError(f"{what}: expected a whole number, found {value!r}") from None


def _ids(inputs: Mapping[str, Any], key: str) -> list[str]:
    value = inputs.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ExampleError(f"{key} must be a list of card ids")
    return value


def _colour(settings: Settings, value: Any) -> str:
    if value not in settings.colour_order:
        raise ExampleError(f"unknown colour {value!r} (colours: {', '.join(settings.colour_order)})")
    return str(value)


def _played(game: Game, settings: Settings, card_ids: Sequence[str]) -> list[PlayedCard]:
    deck = {card.id: card for card in game.cards(settings.deck)}
    if len(set(card_ids)) != len(card_ids):
        raise ExampleError(f"a card appears twice in {list(card_ids)}")
    played = []
    for card_id in card_ids:
        card = deck.get(card_id)
        if card is None or card.colour is None or card.rank is None:
            raise ExampleError(f"unknown trick card {card_id!r}")
        played.append(PlayedCard(card.colour, card.rank))
    return played


def _seats_from(first: int, players: int) -> list[int]:
    return [(first + step) % players for step in range(players)]


RULES = GadgetTrickRules()

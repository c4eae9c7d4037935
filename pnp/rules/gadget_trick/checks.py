"""``pnp check`` for Gadget Trick: the colour order, setup rows against the deal formula, the cards.

game.toml's setup rows are held to the seed's formula (colours = players + 1,
a 6-player exception) rather than trusted.
"""

from __future__ import annotations

from collections.abc import Mapping

from pnp.api import Card, CardErrors, Game, Report, listed, where
from pnp.rules import surveillance
from pnp.rules.gadget_trick.settings import Settings
from pnp.rules.gadget_trick.watch_cards import WatchCard, parse_card
from pnp.rules.surveillance import ConditionError, PlayedCard


def trick_deck(game: Game, settings: Settings, report: Report) -> dict[str, Card] | None:
    for component in (settings.deck, settings.surveillance, settings.gadget):
        if component not in game.components:
            report.error(f"no component {component!r} in game.toml", settings.doc.path,
                         settings.line("deck") if component == settings.deck else None)
            return None
    return {card.id: card for card in game.cards(settings.deck)}


def deck_colours_known(game: Game, settings: Settings, deck: Mapping[str, Card], report: Report) -> bool:
    """Whether every trick card has a colour the game declares; else one error for the blank ones (a
    misspelt one is the vocabulary check's). The setup, surveillance and colour-order checks all count
    colours, and would each repeat that one gap."""
    if any(card.colour and card.colour not in game.colours for card in deck.values()):
        return False  # "unknown colour 'yelow'", with its did-you-mean, is said once already
    blank = [card for card in deck.values() if not card.colour]
    if not blank:
        return True
    first = blank[0].source
    have = "has" if len(blank) == 1 else "have"
    report.error(f"trick card(s) {listed([card.id for card in blank])} {have} no colour, which the rules read",
                 first.file if first else None, first.line if first else None,
                 f"fill in the colour column of the {settings.deck!r} card list (and check its header)")
    return False


def check_colour_order(game: Game, settings: Settings, deck: Mapping[str, Card], report: Report) -> None:
    in_deck = {card.colour for card in deck.values() if card.colour}
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


def check_setup(game: Game, settings: Settings, deck: Mapping[str, Card], report: Report) -> None:
    counted = all(game.countable(game.components[component])
                  for component in {card.component for card in deck.values()} if component in game.components)
    for players, row in sorted(game.setup.items()):
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
            if key == "in_play" and not counted:
                continue  # a count in error (reported at its row) leaves the cards in play unknown
            if stated[key] != value and not (key == "left" and stated[key] is None) and key not in row.unreadable:
                report.error(f"{players} players: {key} is {stated[key]} but the rules give {value}",
                             *where(row.source),
                             f"set {key} = {value} (rules.toml [deal]: colours = players + "
                             f"{settings.extra_colours} up to all {len(settings.colour_order)}, "
                             f"hand {settings.hand}, {settings.tricks} tricks, exceptions per player count)")
        watch = next((deal for deal in row.deals.values() if deal.pool == settings.surveillance), None)
        if watch is not None and watch.revealed != settings.surveillance_in_play:
            report.error(f"{players} players: {watch.revealed} surveillance cards revealed, "
                         f"the rules use {settings.surveillance_in_play}", *where(row.source))
    capped = [p for p in sorted(game.setup) if p + settings.extra_colours > len(settings.colour_order)]
    for players in capped:
        report.note(f"{players} players use all {len(settings.colour_order)} colours: the seed's "
                    f"'the same as for 5 players (5 colours)' contradicts its own players + 1 formula "
                    f"(5 players already use 6 colours = 60 cards); the data reads it as 'the same 60 "
                    f"cards as for 5 players (6 colours)'",
                    settings.doc.path, settings.line("deal", "exception"))


def check_surveillance(game: Game, settings: Settings, deck: Mapping[str, Card], report: Report,
                       reach: bool = True) -> None:
    """Each surveillance card's conditions: readable, consistent, and (with ``reach``) able to fire."""
    colours = settings.colour_order
    unreadable = CardErrors()  # an emptied condition column is one error naming its cards
    for card in game.cards(settings.surveillance):
        file, line = (card.source.file, card.source.line) if card.source else (None, None)
        try:
            watch = parse_card(card, colours)
        except ConditionError as exc:
            unreadable.add(str(exc), file, line,
                           "see the condition grammar in rules.toml [surveillance]", card=card.id)
            continue
        for lang in game.languages:
            if card.text("text", lang).strip():
                report.warning(f"surveillance card {card.id!r}: text.{lang} is generated from the "
                               "conditions; the CSV text is ignored", file, line, f"empty text.{lang}")
        clashes = surveillance.clashes(watch.removal)
        if clashes:
            found = "; ".join(f"{clash.terms()} can never both hold: the winner played one card, and "
                              f"{clash.reason()}" for clash in clashes)
            report.error(f"surveillance card {card.id!r}: {found}", file, line,
                         "keep one of those winner.played(...) terms, or join them with 'or' if either "
                         "card will do")
        if reach:
            _check_reach(game, settings, deck, watch, report, dead_reported=bool(clashes))
    unreadable.report_to(report)


def _check_reach(game: Game, settings: Settings, deck: Mapping[str, Card], watch: WatchCard,
                 report: Report, dead_reported: bool = False) -> None:
    """Trick numbers within the game, and the removal able to fire at each player count.

    ``dead_reported``: the condition's clashes are reported already, so a
    condition they leave dead is not reported again with a fix that can't help.
    """
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
    if dead_reported:
        return
    if len(dead) == high - low + 1:
        report.error(f"surveillance card {card.id!r}: the removal condition can never be met "
                     f"(at {dead[0]})", file, line, "lower the numbers, or widen the activation")
    elif dead:
        report.warning(f"surveillance card {card.id!r}: the removal condition can't be met at "
                       f"{'; '.join(dead)}", file, line)


def check_gadgets(game: Game, settings: Settings, report: Report) -> None:
    errors = CardErrors()  # an emptied or misspelt timing column is one error naming its cards
    for card in game.cards(settings.gadget):
        file, line = (card.source.file, card.source.line) if card.source else (None, None)
        timing = card.fields.get("timing", "").strip()
        if timing not in settings.timings:
            errors.add(f"timing {timing!r} is not one of {', '.join(settings.timings)}", file, line,
                       "use a tag from rules.toml [gadget.timing], or add the tag there", card=card.id)
        # a text missing in some languages only is a missing translation, reported as such for every card
        if not any(card.text("text", lang).strip() for lang in game.languages):
            columns = ", ".join(f"text.{lang}" for lang in game.languages)
            errors.add("no effect text", file, line, f"fill in {columns}", card=card.id)
    errors.report_to(report)

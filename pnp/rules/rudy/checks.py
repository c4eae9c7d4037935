"""``pnp check`` for Rudy: card kinds, the price table against the deck, the deck, the texts."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from pnp.api import Card, Game, Report, listed, report_aid_problems, report_blank_column
from pnp.rules.rudy.pricing import market_reach
from pnp.rules.rudy.tables import PriceRow, Tables


def check_kinds(game: Game, tables: Tables, report: Report) -> None:
    if "kinds" in game.unreadable:
        return  # game.toml's kinds are no table (reported there): none of them is known
    named = {
        ("deck", "market_kinds"): tables.market_kinds,
        ("museum", "kinds"): tables.museum_kinds,
        ("set", "black_white_run", "also_kinds"): tables.black_white_kinds,
        ("wild",): frozenset(tables.wild),
    }
    for path, kinds in named.items():
        for kind in sorted(kinds - set(game.kinds)):
            report.error(f"{'.'.join(path)}: unknown card kind {kind!r}", tables.doc.path, tables.line(*path),
                         f"kinds in game.toml: {', '.join(game.kinds)}")


def check_price_table(tables: Tables, reach: Mapping[int, int], report: Report) -> None:
    """Every count 0..the most cards of one number that can reach the market, exactly once."""
    path = tables.doc.path
    top = max(reach.values(), default=0)
    owner: dict[int, PriceRow] = {}
    for row in tables.prices:
        line = tables.line("market", "price", row.index)
        for count in range(row.first, row.last + 1):
            if count in owner:
                report.error(f"market count {count} is priced twice (rows {owner[count].index + 1} and "
                             f"{row.index + 1})", path, line, "make the count ranges not overlap")
            else:
                owner[count] = row
        if row.last > top:
            report.warning(f"price row {row.first}-{row.last}: counts above {top} never occur, since at most "
                           f"{top} cards of one number can reach the market with this deck", path, line)
        if row.first == 0 and row.sell is not None:
            report.error("a number absent from the market cannot be sold (seed note ※1)", path,
                         tables.line("market", "price", row.index, "sell"), 'write sell = "no"')
        if row.last >= 1 and row.sell is None:
            report.error(f"counts {max(row.first, 1)}-{row.last}: once a number is in the market it can be "
                         "sold", path, tables.line("market", "price", row.index, "sell"), "give a price")
    missing = [count for count in range(top + 1) if count not in owner]
    if missing:
        report.error(f"the price table does not cover market counts {_spans(missing)} (this deck lets "
                     f"up to {top} cards of one number reach the market)", path,
                     tables.line("market", "price"), "add [[market.price]] rows for them")
    sells = [(count, owner[count].sell) for count in sorted(owner) if owner[count].sell is not None]
    for (count, price), (next_count, next_price) in itertools.pairwise(sells):
        if next_price is not None and price is not None and next_price > price:
            report.warning(f"the sell price rises from {price} to {next_price} as the market grows from "
                           f"{count} to {next_count} cards: more supply should not pay more", path,
                           tables.line("market", "price", owner[next_count].index, "sell"))


def check_deck(game: Game, tables: Tables, deck: Sequence[Card], report: Report, counted: bool = True) -> None:
    component = game.components[tables.deck]
    where = (game.manifest.path if game.manifest else None,
             component.source.line if component.source else None)
    faces = set(range(1, tables.dice_faces + 1))
    off = [card for card in deck if card.rank is not None and card.rank not in faces]
    if len(off) == 1:
        report.error(f"card {off[0].id!r}: number {off[0].rank} is not a face of a {tables.dice_faces}-sided die",
                     *_at(off[0]))
    elif off:  # many cards at once: more likely the die (dice.faces) than each card
        numbers = _spans(sorted({card.rank for card in off if card.rank is not None}))
        report.error(f"cards {listed([card.id for card in off])}: numbers {numbers} are not faces of a "
                     f"{tables.dice_faces}-sided die", tables.doc.path, tables.line("dice", "faces"),
                     "fix dice.faces, or the cards' numbers")
    for kind in sorted(tables.market_kinds):  # sets read each market card's mark, in the suit column
        report_blank_column([card for card in deck if card.kind == kind], "suit", f"{kind} card", "suit", report)
    numbered = {card.rank for card in deck if card.rank is not None}
    if faces - numbered and counted:  # an uncounted list (a rank column missing) has reported why
        report.error(f"no card shows the die face(s) {_spans(sorted(faces - numbered))}", *where)
    if not counted or not game.as_declared(component):
        return  # a count at odds with game.toml is reported once, not again as a market short of cards
    reach = market_reach(deck, tables)
    for number in sorted(faces):
        count = reach.get(number, 0)
        if count < tables.market_limit:
            report.error(f"only {count} cards numbered {number} can reach the market; the seed's price "
                         f"table runs to {tables.market_limit}", *where)
        elif count > tables.market_limit:
            report.error(f"{count} cards numbered {number} can reach the market, more than its limit of "
                         f"{tables.market_limit}", *where)
    _check_aces(tables, deck, report, where)
    if component.provisional or any(card.provisional for card in deck):
        report.note(f"market facts are computed from a provisional deck: up to {max(reach.values(), default=0)} "
                    f"cards of one number reach the market; re-check when the real card list is known",
                    *where)


def _check_aces(tables: Tables, deck: Sequence[Card], report: Report,
                where: tuple[Any, int | None]) -> None:
    suited = sorted({card.colour for card in deck if card.kind in tables.market_kinds and card.colour})
    aces: dict[str | None, int] = {}
    for card in deck:
        if card.kind == tables.ace_kind:
            aces[card.colour] = aces.get(card.colour, 0) + card.count
    for colour in suited:
        if aces.get(colour, 0) != 1:
            report.error(f"expected exactly one {colour} A card, found {aces.get(colour, 0)}", *where)
    for colour in sorted(set(aces) - set(suited), key=str):
        report.error(f"A card of colour {colour!r}, which no number card has", *where)
    greys = sum(card.count for card in deck if card.kind == tables.grey_ace_kind)
    if greys != 1:
        report.error(f"expected exactly one grey A card, found {greys}", *where)


def check_texts(game: Game, tables: Tables, report: Report) -> None:
    data = tables.doc.data
    turn = data.get("turn", [])
    if not isinstance(turn, list):
        report.error(f"turn: expected [[turn]] tables, one per step, found {turn!r}", tables.doc.path,
                     tables.line("turn"), "write each step as a table of its own, headed [[turn]]")
    elif (steps := [row.get("step") for row in turn if isinstance(row, dict)]) != list(range(1, 10)):
        report.error(f"the turn sequence must list steps 1-9 in order, found {steps}", tables.doc.path,
                     tables.line("turn"))
    for key, what in (("attribute", "each attribute's name"), ("glossary", "each term")):
        value = data.get(key, {})
        if not isinstance(value, dict):
            report.error(f"{key}: expected a table of {what} per language, found {value!r}", tables.doc.path,
                         tables.line(key), f'write [{key}] with lines such as colour = {{ en = "...", ja = "..." }}')
    report_aid_problems(tables.doc, report)
    examples = {example.id: example for example in game.examples}
    errata = data.get("erratum", {})
    if not isinstance(errata, dict):
        report.error(f"erratum: expected a table of errata, found {errata!r}", tables.doc.path, tables.line("erratum"),
                     "write each as [erratum.<name>] with its wording per language and its two examples")
        errata = {}
    for name, erratum in errata.items():
        line = tables.line("erratum", name)
        if not isinstance(erratum, dict):
            report.error(f"erratum {name!r}: expected a table, found {erratum!r}", tables.doc.path, line,
                         f"write [erratum.{name}] with its wording per language and its two examples")
            continue
        for lang in game.languages:
            if not str(erratum.get(lang, "")).strip():
                report.error(f"erratum {name!r} has no {lang!r} wording", tables.doc.path, line)
        seed_id, corrected_id = erratum.get("seed_example"), erratum.get("corrected_example")
        seed = examples.get(seed_id) if isinstance(seed_id, str) else None
        corrected = examples.get(corrected_id) if isinstance(corrected_id, str) else None
        if seed is None or corrected is None:
            if not game.examples_unreadable:  # which examples it holds is unknown (reported there)
                report.error(f"erratum {name!r} names examples that examples.toml lacks", tables.doc.path, line)
        elif not seed.deviation:
            report.error(f"erratum {name!r}: example {seed.id!r} must carry deviation = \"...\"",
                         tables.doc.path, line)


def _spans(numbers: Sequence[int]) -> str:
    """[0, 1, 2, 5] -> "0-2, 5", for short messages."""
    spans: list[str] = []
    for _, group in itertools.groupby(enumerate(numbers), key=lambda pair: pair[1] - pair[0]):
        values = [value for _, value in group]
        spans.append(str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}")
    return ", ".join(spans)


def _at(card: Card) -> tuple[Any, int | None]:
    return (card.source.file, card.source.line) if card.source else (None, None)

"""Reading rules.toml into :class:`Tables`, each problem reported at its line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.api import Game, Report, TomlReader, report_missing_rules_data
from pnp.rules.rudy.tables import ATTRIBUTES, ELEMENT_TESTS, Element, PriceRow, Tables


def read_tables(game: Game, report: Report) -> Tables | None:
    """Typed tables, or None after reporting what makes rules.toml unusable."""
    doc = game.rules_data
    if doc is None:
        report_missing_rules_data(game, report, "Rudy", "prices, museum, set sales")
        return None
    reader = TomlReader(doc, report)
    data = doc.data
    deck = reader.table(data, (), "deck", required=True)
    dice = reader.table(data, (), "dice", required=True)
    museum = reader.table(data, (), "museum", required=True)
    sets = reader.table(data, (), "set", required=True)
    run = reader.table(sets, ("set",), "black_white_run", required=True)
    numbers = {
        "market_limit": reader.integer(deck, ("deck",), "market_limit", minimum=1),
        "dice_count": reader.integer(dice, ("dice",), "count", minimum=1),
        "dice_faces": reader.integer(dice, ("dice",), "faces", minimum=1),
        "dice_bonus": reader.integer(dice, ("dice",), "bonus"),
        "museum_price": reader.integer(museum, ("museum",), "price"),
        "set_size": reader.integer(sets, ("set",), "size", minimum=2),
        "multiplier": reader.integer(sets, ("set",), "multiplier"),
        "min_elements": reader.integer(sets, ("set",), "min_elements"),
        "black_white_price": reader.integer(run, ("set", "black_white_run"), "price"),
    }
    texts = {
        "deck": reader.string(deck, ("deck",), "component"),
        "ace_kind": reader.string(deck, ("deck",), "ace_kind"),
        "grey_ace_kind": reader.string(deck, ("deck",), "grey_ace_kind"),
    }
    museum_dice = museum.get("dice_bonus", False)
    if not isinstance(museum_dice, bool):
        reader.error(("museum", "dice_bonus"), f"expected true or false, found {museum_dice!r}")
    prices = _price_rows(reader, data)
    bonus = _bonus_rows(reader, sets)
    elements = _elements(reader, sets)
    wild = _wild(reader, data)
    if any(v is None for v in (*numbers.values(), *texts.values(), prices, bonus, elements, wild)):
        return None
    return Tables(
        doc=doc,
        market_kinds=_names(reader, deck, ("deck",), "market_kinds"),
        prices=prices,
        museum_kinds=_names(reader, museum, ("museum",), "kinds"),
        museum_dice=museum_dice is True,
        bonus=bonus,
        black_white_colours=_names(reader, run, ("set", "black_white_run"), "colours"),
        black_white_kinds=_names(reader, run, ("set", "black_white_run"), "also_kinds"),
        elements=elements,
        wild=wild,
        **numbers,
        **texts,
    )


def _names(reader: TomlReader, table: Mapping[str, Any], path: tuple[str, ...], key: str) -> frozenset[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        reader.error(path + (key,), f"expected a list of ids, found {value!r}")
        return frozenset()
    return frozenset(value)


def _price_rows(reader: TomlReader, data: Mapping[str, Any]) -> tuple[PriceRow, ...] | None:
    rows = []
    ok = True
    written = reader.tables(reader.table(data, (), "market", required=True), ("market",), "price")
    if written is None:
        return None
    for index, row in written:
        path = ("market", "price", index)
        span = row.get("count")
        if (not isinstance(span, list) or len(span) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in span)
                or span[0] > span[1]):
            reader.error(path + ("count",), f"expected count = [from, to] with 0 <= from <= to, found {span!r}")
            ok = False
            continue
        prices = []
        for key in ("sell", "buy"):
            value = row.get(key)
            if value == "no":
                prices.append(None)
            elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                prices.append(value)
            else:
                reader.error(path + (key,), f"expected a price in opt or \"no\", found {value!r}")
                ok = False
                prices.append(None)
        rows.append(PriceRow(span[0], span[1], prices[0], prices[1], index))
    if not rows:
        reader.error(("market",), "no [[market.price]] rows")
        return None
    return tuple(rows) if ok else None


def _bonus_rows(reader: TomlReader, sets: Mapping[str, Any]) -> dict[int, int] | None:
    bonus: dict[int, int] = {}
    rows = reader.tables(sets, ("set",), "bonus")
    if rows is None:
        return None
    for index, row in rows:
        path = ("set", "bonus", index)
        elements = reader.integer(row, path, "elements", minimum=1)
        value = reader.integer(row, path, "bonus")
        if elements is None or value is None:
            return None
        bonus[elements] = value
    return bonus


def _elements(reader: TomlReader, sets: Mapping[str, Any]) -> tuple[Element, ...] | None:
    elements = []
    rows = reader.tables(sets, ("set",), "element")
    if rows is None:
        return None
    for index, row in rows:
        path = ("set", "element", index)
        element_id, test, of = (reader.string(row, path, key) for key in ("id", "test", "of"))
        if test not in ELEMENT_TESTS:
            reader.error(path + ("test",), f"unknown test {test!r}", f"use one of: {', '.join(ELEMENT_TESTS)}")
            return None
        if of not in ATTRIBUTES:
            reader.error(path + ("of",), f"unknown attribute {of!r}", f"use one of: {', '.join(ATTRIBUTES)}")
            return None
        if element_id is None:
            return None
        elements.append(Element(element_id, test, of, row.get("name", {}), row.get("explain", {})))
    return tuple(elements)


def _wild(reader: TomlReader, data: Mapping[str, Any]) -> dict[str, frozenset[str]] | None:
    wild = {}
    for kind, row in reader.table(data, (), "wild").items():
        chooses = row.get("chooses") if isinstance(row, dict) else None
        if not isinstance(chooses, list) or not set(chooses) <= set(ATTRIBUTES):
            reader.error(("wild", kind, "chooses"), f"expected a list drawn from {', '.join(ATTRIBUTES)}, "
                         f"found {chooses!r}")
            return None
        wild[kind] = frozenset(chooses)
    return wild

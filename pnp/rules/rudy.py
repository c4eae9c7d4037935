"""Rudy: market prices, dice, the museum and set sales with wild cards.

The seed's price table lost its merged cells and one labelled set contradicts
the others, so every number lives in ``rules.toml`` with the reading chosen and
why; this module only applies those tables. Set sales are priced by trying
every choice the wild cards allow, because players pick the best one and the
seed's examples assume they do.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pnp.diagnostics import Report
from pnp.load.toml_lines import TomlDoc
from pnp.model.fields import TomlReader
from pnp.model.game import Card, Example, Game
from pnp.rules.base import AidTable, ExampleError, GameRules
from pnp.rules.wording import localised as _localised

BLACK_WHITE_RUN = "black-white-run"
ELEMENT_TESTS = ("same", "all-different", "consecutive")
ATTRIBUTES = ("number", "colour", "mark")

# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class PriceRow:
    first: int
    last: int
    sell: int | None  # None: cannot sell at this count
    buy: int | None
    index: int  # position in [[market.price]], for line numbers


@dataclass(frozen=True)
class Element:
    id: str
    test: str  # one of ELEMENT_TESTS
    of: str  # one of ATTRIBUTES
    name: Mapping[str, str]
    explain: Mapping[str, str]


@dataclass(frozen=True)
class Tables:
    """rules.toml, typed. Read on every call, so an edit needs no restart."""

    doc: TomlDoc
    deck: str
    market_kinds: frozenset[str]
    market_limit: int
    ace_kind: str
    grey_ace_kind: str
    prices: tuple[PriceRow, ...]
    dice_count: int
    dice_faces: int
    dice_bonus: int
    museum_price: int
    museum_kinds: frozenset[str]
    museum_dice: bool
    set_size: int
    multiplier: int
    min_elements: int
    bonus: Mapping[int, int]
    black_white_price: int
    black_white_colours: frozenset[str]
    black_white_kinds: frozenset[str]
    elements: tuple[Element, ...]
    wild: Mapping[str, frozenset[str]]

    def sell_price(self, count: int) -> int | None:
        row = self.row_for(count)
        return row.sell if row else None

    def row_for(self, count: int) -> PriceRow | None:
        return next((row for row in self.prices if row.first <= count <= row.last), None)

    def set_bonus(self, elements: int) -> int:
        """The bonus for the largest listed element count not above ``elements``."""
        return max((bonus for need, bonus in self.bonus.items() if need <= elements), default=0)

    def line(self, *path: str | int) -> int | None:
        return self.doc.line_of(*path)


def read_tables(game: Game, report: Report) -> Tables | None:
    """Typed tables, or None after reporting what makes rules.toml unusable."""
    doc = game.rules_data
    if doc is None:
        report.error("Rudy needs rules.toml (prices, museum, set sales)", game.path)
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
    for index, row in enumerate(reader.table(data, (), "market", required=True).get("price", [])):
        path = ("market", "price", index)
        span = row.get("count") if isinstance(row, dict) else None
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
    for index, row in enumerate(sets.get("bonus", [])):
        path = ("set", "bonus", index)
        elements = reader.integer(row, path, "elements", minimum=1)
        value = reader.integer(row, path, "bonus")
        if elements is None or value is None:
            return None
        bonus[elements] = value
    return bonus


def _elements(reader: TomlReader, sets: Mapping[str, Any]) -> tuple[Element, ...] | None:
    elements = []
    for index, row in enumerate(sets.get("element", [])):
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


def _tables_or_raise(game: Game) -> Tables:
    report = Report()
    tables = read_tables(game, report)
    if tables is None:
        reasons = "; ".join(d.message for d in report.errors) or "unreadable"
        raise ExampleError(f"rules.toml is unusable: {reasons}")
    return tables


# --------------------------------------------------------------------------- pricing


class Face(NamedTuple):
    """A card as it counts in a set, after any wild-card choice."""

    number: int | None
    colour: str | None
    mark: str | None


def market_reach(cards: Iterable[Card], tables: Tables) -> dict[int, int]:
    """Per number, how many cards can ever be in the market at once."""
    reach: dict[int, int] = {}
    for card in cards:
        if card.kind in tables.market_kinds and card.rank is not None:
            reach[card.rank] = reach.get(card.rank, 0) + card.count
    return reach


def dice_bonus(numbers: Iterable[int | None], dice: Sequence[int], tables: Tables) -> int:
    """+bonus per die showing each card's number, counted card by card."""
    return sum(tables.dice_bonus * dice.count(number) for number in numbers if number is not None)


def element_holds(element: Element, faces: Sequence[Face]) -> bool:
    values = [getattr(face, element.of) for face in faces]
    if any(value is None for value in values):
        return False
    if element.test == "same":
        return len(set(values)) == 1
    if element.test == "all-different":
        return len(set(values)) == len(values)
    ordered = sorted(values)
    return all(b == a + 1 for a, b in itertools.pairwise(ordered))


@dataclass(frozen=True)
class SetResult:
    price: int
    valid: bool
    elements: tuple[str, ...]
    base: int
    bonus: int
    dice: int
    faces: tuple[Face, ...]


def price_set(cards: Sequence[Card], market: Mapping[int, int], dice: Sequence[int], tables: Tables,
              options: Sequence[Sequence[Face]]) -> SetResult:
    """The best price over every combination of ``options`` (one list of faces per card).

    Equal prices are broken towards the elements listed first in rules.toml, so
    the reported elements never depend on search order.
    """
    order = {element.id: index for index, element in enumerate(tables.elements)}
    best: tuple[tuple[Any, ...], SetResult] | None = None
    fallback: SetResult | None = None  # the richest non-set, so a failed sale still says why
    black_white = all(card.colour in tables.black_white_colours or card.kind in tables.black_white_kinds
                      for card in cards)
    for faces in itertools.product(*options):
        sells = [tables.sell_price(market.get(face.number, 0)) if face.number is not None else None
                 for face in faces]
        if any(sell is None for sell in sells):
            continue  # a number not in the market cannot be sold
        extra = dice_bonus((face.number for face in faces), dice, tables)
        numbers = [face.number for face in faces]
        if black_white and all(b == a + 1 for a, b in itertools.pairwise(sorted(numbers))):
            result = SetResult(tables.black_white_price + extra, True, (BLACK_WHITE_RUN,),
                               tables.black_white_price, 0, extra, tuple(faces))
            best = _better(best, result, ())
        shown = tuple(e.id for e in tables.elements if element_holds(e, faces))
        base = max(s for s in sells if s is not None) * tables.multiplier
        if len(shown) < tables.min_elements:
            if fallback is None or len(shown) > len(fallback.elements):
                fallback = SetResult(0, False, shown, base, 0, extra, tuple(faces))
            continue
        bonus = tables.set_bonus(len(shown))
        result = SetResult(base + bonus + extra, True, shown, base, bonus, extra, tuple(faces))
        best = _better(best, result, tuple(-order[e] for e in shown))
    if best is not None:
        return best[1]
    return fallback or SetResult(0, False, (), 0, 0, 0, ())


def _better(best: tuple[tuple[Any, ...], SetResult] | None, result: SetResult,
            preference: tuple[int, ...]) -> tuple[tuple[Any, ...], SetResult]:
    key = (result.price, preference)
    return (key, result) if best is None or key > best[0] else best


def face_options(card: Card, tables: Tables, numbers: Sequence[int], colours: Sequence[str],
                 marks: Sequence[str], fixed: Mapping[str, Any]) -> list[Face]:
    """Every way ``card`` may count in a set; ``fixed`` pins some of its choices."""
    chooses = tables.wild.get(card.kind or "", frozenset())
    for attribute in fixed:
        if attribute not in chooses:
            raise ExampleError(f"{card.id!r} cannot choose its {attribute}")

    def choices(attribute: str, printed: Any, every: Sequence[Any]) -> list[Any]:
        if attribute in fixed:
            return [fixed[attribute]]
        return list(every) if attribute in chooses else [printed]

    return [Face(*combo) for combo in itertools.product(
        choices("number", card.rank, numbers), choices("colour", card.colour, colours),
        choices("mark", card.suit, marks))]


# --------------------------------------------------------------------------- the rules module


class RudyRules(GameRules):
    example_kinds = frozenset({"single-sale", "multi-sale", "museum", "step1-reward", "set-sale"})

    # ---- check -------------------------------------------------------------
    def check(self, game: Game, report: Report) -> None:
        tables = read_tables(game, report)
        if tables is None:
            return
        if tables.deck not in game.components:
            report.error(f"no component {tables.deck!r} in game.toml", tables.doc.path, tables.line("deck"))
            return
        deck = game.cards(tables.deck)
        self._check_kinds(game, tables, report)
        self._check_price_table(tables, market_reach(deck, tables), report)
        self._check_deck(game, tables, deck, report)
        self._check_texts(game, tables, report)

    def _check_kinds(self, game: Game, tables: Tables, report: Report) -> None:
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

    def _check_price_table(self, tables: Tables, reach: Mapping[int, int], report: Report) -> None:
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

    def _check_deck(self, game: Game, tables: Tables, deck: Sequence[Card], report: Report) -> None:
        component = game.components[tables.deck]
        where = (game.manifest.path if game.manifest else None,
                 component.source.line if component.source else None)
        faces = set(range(1, tables.dice_faces + 1))
        for card in deck:
            if card.rank is not None and card.rank not in faces:
                report.error(f"card {card.id!r}: number {card.rank} is not a face of a "
                             f"{tables.dice_faces}-sided die", *_at(card))
        numbered = {card.rank for card in deck if card.rank is not None}
        if faces - numbered:
            report.error(f"no card shows the die face(s) {_spans(sorted(faces - numbered))}", *where)
        reach = market_reach(deck, tables)
        for number in sorted(faces):
            count = reach.get(number, 0)
            if count < tables.market_limit:
                report.error(f"only {count} cards numbered {number} can reach the market; the seed's price "
                             f"table runs to {tables.market_limit}", *where)
            elif count > tables.market_limit:
                report.error(f"{count} cards numbered {number} can reach the market, more than its limit of "
                             f"{tables.market_limit}", *where)
        self._check_aces(tables, deck, report, where)
        if component.provisional or any(card.provisional for card in deck):
            report.note(f"market facts are computed from a provisional deck: up to {max(reach.values(), default=0)} "
                        f"cards of one number reach the market; re-check when the real card list is known",
                        *where)

    def _check_aces(self, tables: Tables, deck: Sequence[Card], report: Report,
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

    def _check_texts(self, game: Game, tables: Tables, report: Report) -> None:
        data = tables.doc.data
        steps = [row.get("step") for row in data.get("turn", []) if isinstance(row, dict)]
        if steps != list(range(1, 10)):
            report.error(f"the turn sequence must list steps 1-9 in order, found {steps}", tables.doc.path,
                         tables.line("turn"))
        examples = {example.id: example for example in game.examples}
        for name, erratum in data.get("erratum", {}).items():
            line = tables.line("erratum", name)
            for lang in game.languages:
                if not str(erratum.get(lang, "")).strip():
                    report.error(f"erratum {name!r} has no {lang!r} wording", tables.doc.path, line)
            seed = examples.get(erratum.get("seed_example", ""))
            corrected = examples.get(erratum.get("corrected_example", ""))
            if seed is None or corrected is None:
                report.error(f"erratum {name!r} names examples that examples.toml lacks", tables.doc.path, line)
            elif not seed.deviation:
                report.error(f"erratum {name!r}: example {seed.id!r} must carry deviation = \"...\"",
                             tables.doc.path, line)

    # ---- examples ----------------------------------------------------------
    def run_example(self, game: Game, example: Example) -> Mapping[str, Any]:
        tables = _tables_or_raise(game)
        runner = {
            "single-sale": self._example_sale,
            "multi-sale": self._example_sale,
            "museum": self._example_museum,
            "step1-reward": self._example_step1,
            "set-sale": self._example_set,
        }.get(example.kind)
        if runner is None:
            return super().run_example(game, example)
        return runner(game, tables, example.inputs)

    def _example_sale(self, game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
        ids = inputs["cards"] if "cards" in inputs else [inputs.get("card")]
        cards = _cards(game, tables, ids)
        market = _market(inputs, tables)
        dice = _dice(inputs, tables)
        for card in cards:
            if card.kind not in tables.market_kinds:
                raise ExampleError(f"{card.id!r} is sold to the museum, not the market (use kind 'museum')")
        sells = [tables.sell_price(market.get(card.rank or 0, 0)) for card in cards]
        if any(sell is None for sell in sells):
            return {"sellable": False, "price": 0, "base": 0, "dice_bonus": 0}
        base = sum(sell for sell in sells if sell is not None)
        extra = dice_bonus((card.rank for card in cards), dice, tables)
        return {"sellable": True, "price": base + extra, "base": base, "dice_bonus": extra}

    def _example_museum(self, game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
        card = _cards(game, tables, [inputs.get("card")])[0]
        if card.kind not in tables.museum_kinds:
            raise ExampleError(f"the museum buys only {', '.join(sorted(tables.museum_kinds))} cards, "
                               f"not {card.id!r}")
        extra = dice_bonus([card.rank], _dice(inputs, tables), tables) if tables.museum_dice else 0
        return {"price": tables.museum_price + extra, "dice_bonus": extra}

    def _example_step1(self, game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
        card = _cards(game, tables, [inputs.get("card")])[0]
        market = _market(inputs, tables)
        allowed = card.kind in tables.market_kinds and card.rank is not None and market.get(card.rank, 0) == 0
        return {"allowed": allowed, "reward": card.rank if allowed and card.rank else 0}

    def _example_set(self, game: Game, tables: Tables, inputs: Mapping[str, Any]) -> dict[str, Any]:
        cards = _cards(game, tables, inputs.get("cards"))
        if len(cards) != tables.set_size:
            raise ExampleError(f"a set has {tables.set_size} cards, not {len(cards)}")
        market = _market(inputs, tables)
        dice = _dice(inputs, tables)
        assign = inputs.get("assign", {})
        if not isinstance(assign, dict) or not set(assign) <= {card.id for card in cards}:
            raise ExampleError("assign maps a card id of this set to its chosen {number, colour, mark}")
        deck = game.cards(tables.deck)
        in_market = [number for number in sorted(market) if market[number] > 0]
        colours = list(dict.fromkeys(card.colour for card in deck if card.colour))
        marks = list(dict.fromkeys(card.suit for card in deck if card.suit and card.kind in tables.market_kinds))
        options = [face_options(card, tables, in_market, colours, marks, assign.get(card.id, {}))
                   for card in cards]
        result = price_set(cards, market, dice, tables, options)
        return {
            "price": result.price,
            "valid": result.valid,
            "elements": list(result.elements),
            "base": result.base,
            "bonus": result.bonus,
            "dice_bonus": result.dice,
            "numbers": [face.number for face in result.faces],
        }

    # ---- texts and aids ----------------------------------------------------
    def context(self, game: Game, lang: str) -> dict[str, Any]:
        tables = read_tables(game, Report())
        if tables is None:
            return {}
        buys = {row.buy for row in tables.prices if row.buy is not None}
        erratum = tables.doc.data.get("erratum", {})
        return {
            "market_prices": [{"from": r.first, "to": r.last, "sell": r.sell, "buy": r.buy} for r in tables.prices],
            "buy_price": buys.pop() if len(buys) == 1 else None,
            "market_limit": tables.market_limit,
            "museum_price": tables.museum_price,
            "dice_count": tables.dice_count,
            "dice_bonus": tables.dice_bonus,
            "set_multiplier": tables.multiplier,
            "set_bonus": dict(tables.bonus),
            "black_white_run_price": tables.black_white_price,
            "errata": {name: _localised(entry, lang) for name, entry in erratum.items()},
            "glossary": {key: _localised(term, lang) for key, term in tables.doc.data.get("glossary", {}).items()},
        }

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        tables = read_tables(game, Report())
        if tables is None:
            return []
        aid = tables.doc.data.get("aid", {})
        values = {"dice_bonus": tables.dice_bonus, "museum_price": tables.museum_price}
        return [
            self._market_table(tables, aid.get("market", {}), lang, values),
            self._sets_table(tables, aid.get("sets", {}), lang),
            self._elements_table(tables, aid.get("elements", {}), lang),
            self._wild_table(game, tables, aid.get("wild", {}), lang),
            self._turn_table(game, tables, aid.get("turn", {}), lang),
        ]

    def _market_table(self, tables: Tables, spec: Mapping[str, Any], lang: str,
                      values: Mapping[str, int]) -> AidTable:
        no = str(_localised(spec.get("no", "—"), lang))
        rows = [[str(r.first) if r.first == r.last else f"{r.first}–{r.last}",
                 no if r.sell is None else str(r.sell), no if r.buy is None else str(r.buy)] for r in tables.prices]
        return _aid("market", spec, lang, rows, values)

    def _sets_table(self, tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
        rows = [[_text(spec, "elements", lang, n=need),
                 _text(spec, "bonus", lang, multiplier=tables.multiplier, bonus=bonus)]
                for need, bonus in sorted(tables.bonus.items()) if need >= tables.min_elements]
        rows.append([_text(spec, "black_white_run", lang), _text(spec, "flat", lang, price=tables.black_white_price)])
        return _aid("sets", spec, lang, rows)

    def _elements_table(self, tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
        rows = [[str(_localised(e.name, lang)), str(_localised(e.explain, lang))] for e in tables.elements]
        return _aid("elements", spec, lang, rows)

    def _wild_table(self, game: Game, tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
        names = tables.doc.data.get("attribute", {})
        rows = []
        for kind, chooses in tables.wild.items():
            chosen = _listing([str(_localised(names.get(a, a), lang)) for a in ATTRIBUTES if a in chooses], spec, lang)
            kept = _listing([str(_localised(names.get(a, a), lang)) for a in ATTRIBUTES if a not in chooses],
                            spec, lang)
            text = _text(spec, "chooses", lang, chosen=chosen) + (_text(spec, "keeps", lang, kept=kept) if kept else "")
            term = game.kinds.get(kind)
            rows.append([term.name(lang) if term else kind, text])
        return _aid("wild", spec, lang, rows)

    def _turn_table(self, game: Game, tables: Tables, spec: Mapping[str, Any], lang: str) -> AidTable:
        hand = next((row.hand for row in game.setup.values()), "")
        rows = [[f"[{row.get('step')}]", str(_localised(row, lang)).format(hand=hand)]
                for row in tables.doc.data.get("turn", []) if isinstance(row, dict)]
        return _aid("turn", spec, lang, rows)


# --------------------------------------------------------------------------- helpers


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
    notes = [str(note).format(**(values or {})) for note in _localised(spec.get("notes", {}), lang) or []]
    return AidTable(id=table_id, title=str(_localised(spec.get("title", table_id), lang)),
                    header=[str(h) for h in _localised(spec.get("header", []), lang) or []], rows=rows, notes=notes)


def _spans(numbers: Sequence[int]) -> str:
    """[0, 1, 2, 5] -> "0-2, 5", for short messages."""
    spans: list[str] = []
    for _, group in itertools.groupby(enumerate(numbers), key=lambda pair: pair[1] - pair[0]):
        values = [value for _, value in group]
        spans.append(str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}")
    return ", ".join(spans)


def _at(card: Card) -> tuple[Any, int | None]:
    return (card.source.file, card.source.line) if card.source else (None, None)


def _cards(game: Game, tables: Tables, ids: Any) -> list[Card]:
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise ExampleError(f"expected card ids, found {ids!r}")
    deck = {card.id: card for card in game.cards(tables.deck)}
    cards = []
    for card_id in ids:
        if card_id not in deck:
            raise ExampleError(f"unknown card {card_id!r}")
        cards.append(deck[card_id])
    for card in cards:
        if ids.count(card.id) > card.count:
            raise ExampleError(f"{card.id!r} is used {ids.count(card.id)} times but the deck has {card.count}")
    return cards


def _market(inputs: Mapping[str, Any], tables: Tables) -> dict[int, int]:
    """``market = { "3" = 4 }``: cards of each number in the market before the sale."""
    raw = inputs.get("market", {})
    if not isinstance(raw, dict):
        raise ExampleError("market maps a number (as text) to how many cards of it the market holds")
    market = {}
    for key, value in raw.items():
        try:
            number = int(key)
        except ValueError:
            raise ExampleError(f"market: {key!r} is not a number") from None
        if not isinstance(value, int) or not 0 <= value <= tables.market_limit:
            raise ExampleError(f"market: {value!r} cards of {number} (the market holds 0-{tables.market_limit})")
        market[number] = value
    return market


def _dice(inputs: Mapping[str, Any], tables: Tables) -> list[int]:
    dice = inputs.get("dice")
    if (not isinstance(dice, list) or len(dice) != tables.dice_count
            or not all(isinstance(d, int) and 1 <= d <= tables.dice_faces for d in dice)):
        raise ExampleError(f"dice must list {tables.dice_count} faces from 1 to {tables.dice_faces}, "
                           f"found {dice!r}")
    return dice


RULES = RudyRules()

"""Two Ops: operator table, goal table, hand solver and their checks.

The operator table lives in ``data/two-ops/rules.toml`` as expressions
(:mod:`pnp.rules.safe_expr`), because the rulebook's wording is what people
argue about ("off-colour value ignored"); keeping it as data lets the checks
evaluate every entry for every pair of card values, and lets the printed
aids, the court cards and the solver share one definition.

Colour relations (neither / both / one) are computed here from the cards,
never written in data: they are the game's mechanism, not a table value.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pnp.rules.base import AidTable, ExampleError, GameRules
from pnp.rules.safe_expr import Expression, ExpressionError, ZeroDivisorError, parse_expression
from pnp.rules.wording import localised as _word

if TYPE_CHECKING:
    from pnp.diagnostics import Report
    from pnp.load.toml_lines import TomlDoc
    from pnp.model.game import Card, Example, Game

RELATIONS = ("neither", "both", "one")
#: names an expression may read, per relation: on/off exist only when exactly one number matches
RELATION_NAMES: dict[str, frozenset[str]] = {
    "neither": frozenset({"a", "b"}),
    "both": frozenset({"a", "b"}),
    "one": frozenset({"a", "b", "on", "off"}),
}
PARITIES = ("even", "odd")


def _absolute_difference(x: Fraction, y: Fraction) -> Fraction:
    return abs(x - y)


def _sum(x: Fraction, y: Fraction) -> Fraction:
    return x + y


#: aim id -> (how the two operation values combine, which extreme wins)
AIMS: dict[str, tuple[Callable[[Fraction, Fraction], Fraction], Callable[..., Fraction]]] = {
    "lowest-sum": (_sum, min),
    "highest-sum": (_sum, max),
    "least-abs-difference": (_absolute_difference, min),
    "most-abs-difference": (_absolute_difference, max),
}

# ---------------------------------------------------------------------------
# Cards


_SUIT_COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13}
_CARD_TEXT = re.compile(r"^(10|[2-9]|[AJQK])([SHDC])$", re.IGNORECASE)


class CardError(ValueError):
    """A card id that names no card of a French-suited deck, or a bad hand."""


@dataclass(frozen=True)
class PlayingCard:
    """What the rules need of a card: its value and its colour."""

    id: str
    rank: int
    colour: str

    @property
    def is_court(self) -> bool:
        return self.rank > 10


def parse_card(text: str) -> PlayingCard:
    """Read ``7H``, ``10h``, ``AS``, ``KD`` (rank then suit letter, any case).

    Examples are typed by hand, so the error says what a valid id looks like
    instead of failing on a lookup later.
    """
    cleaned = str(text).strip()
    match = _CARD_TEXT.match(cleaned)
    if not match:
        raise CardError(
            f"{text!r} is not a card id: write the rank (A, 2-10, J, Q, K) then the suit "
            "(S, H, D, C), e.g. '7H', '10S', 'AS', 'KD'"
        )
    rank_text, suit = match.group(1).upper(), match.group(2).upper()
    rank = _RANK_WORDS.get(rank_text) or int(rank_text)
    return PlayingCard(id=f"{rank_text}{suit}", rank=rank, colour=_SUIT_COLOURS[suit])


# ---------------------------------------------------------------------------
# Tables read from rules.toml


@dataclass(frozen=True)
class OperatorRule:
    rank: str  # "K", "Q", "J"
    relation: str
    expression: Expression
    marked: bool  # may_be_fractional_or_negative, as written in the data
    seed_mark: bool  # what the source rulebook marks
    wording: dict[str, str]
    meaning: str
    index: int  # position in the [[operator]] array, for line numbers

    @property
    def name(self) -> str:
        return f"{self.rank}/{self.relation}"


@dataclass(frozen=True)
class GoalRule:
    parity: str
    colour: str
    aim: str
    wording: dict[str, str]
    index: int


@dataclass(frozen=True)
class DealNumbers:
    numbers_dealt: int
    numbers_kept: int
    numbers_used: int
    operators_each: int
    goal_cards: int
    goal_kind: str


@dataclass
class TwoOpsTables:
    """Everything rules.toml says, after structural validation."""

    doc: TomlDoc
    component: str = "deck"
    number_kind: str = "pip"
    operator_kind: str = "court"
    number_min: int = 1
    number_max: int = 10
    colours: tuple[str, ...] = ("red", "black")
    ranks: dict[str, int] = field(default_factory=dict)  # letter -> deck rank
    deal: DealNumbers | None = None
    relation_words: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    operators: dict[tuple[str, str], OperatorRule] = field(default_factory=dict)
    goals: dict[tuple[str, str], GoalRule] = field(default_factory=dict)
    footnote_mark: str = "*"
    footnote: dict[str, str] = field(default_factory=dict)
    words: dict[str, Any] = field(default_factory=dict)  # parity + aid sections, as written

    @property
    def number_values(self) -> range:
        return range(self.number_min, self.number_max + 1)

    def letter_of(self, rank: int) -> str | None:
        return next((letter for letter, value in self.ranks.items() if value == rank), None)

    def operator_rule(self, operator: PlayingCard, relation: str) -> OperatorRule:
        letter = self.letter_of(operator.rank)
        rule = self.operators.get((letter or "", relation))
        if rule is None:
            raise CardError(f"the operator table has no entry for {letter or operator.id}/{relation}")
        return rule

    def goal_for(self, card: PlayingCard) -> GoalRule:
        parity = "even" if card.rank % 2 == 0 else "odd"
        rule = self.goals.get((parity, card.colour))
        if rule is None:
            raise CardError(f"the goal table has no entry for {parity} {card.colour} (goal card {card.id})")
        return rule


class _Reader:
    """Reads rules.toml into :class:`TwoOpsTables`, reporting each problem at its line."""

    def __init__(self, doc: TomlDoc, report: Report, languages: Sequence[str]) -> None:
        self.doc = doc
        self.report = report
        self.languages = tuple(languages)
        self.tables = TwoOpsTables(doc=doc)

    def error(self, message: str, *key: str | int, fix: str | None = None) -> None:
        self.report.error(message, self.doc.path, self.doc.line_of(*key), fix)

    def read(self) -> TwoOpsTables:
        data = self.doc.data
        self._read_deck(_table(data, "deck"))
        self._read_ranks(_table(data, "ranks"))
        self._read_deal(_table(data, "deal"))
        self._read_relations(_table(data, "relation"))
        self._read_operators(data.get("operator"))
        self._read_footnote(_table(data, "footnote"))
        self._read_goals(data.get("goal"))
        self.tables.words = {key: _table(data, key) for key in ("parity", "colour", "aid")}
        return self.tables

    def _read_deck(self, deck: Mapping[str, Any]) -> None:
        t = self.tables
        t.component = str(deck.get("component", t.component))
        t.number_kind = str(deck.get("number_kind", t.number_kind))
        t.operator_kind = str(deck.get("operator_kind", t.operator_kind))
        low, high = deck.get("number_min", 1), deck.get("number_max", 10)
        if not (isinstance(low, int) and isinstance(high, int) and 0 < low <= high):
            self.error(f"number_min/number_max must be whole numbers with 0 < min <= max, got {low!r}, "
                       f"{high!r}", "deck", "number_min")
        else:
            t.number_min, t.number_max = low, high
        colours = deck.get("colours", list(t.colours))
        if not (isinstance(colours, list) and len(colours) == 2 and all(isinstance(c, str) for c in colours)):
            self.error(f"deck.colours must list exactly two colour ids, got {colours!r}", "deck", "colours")
        else:
            t.colours = tuple(colours)

    def _read_ranks(self, ranks: Mapping[str, Any]) -> None:
        for letter, entry in ranks.items():
            value = entry.get("value") if isinstance(entry, Mapping) else None
            if not isinstance(value, int) or isinstance(value, bool):
                self.error(f"rank {letter} needs a whole-number value (the deck's rank)", "ranks", letter)
                continue
            self.tables.ranks[letter] = value
        if not self.tables.ranks:
            self.error("no [ranks.<letter>] table: the operator ranks are unknown", "ranks",
                       fix="add [ranks.K] value = 13, [ranks.Q] value = 12, [ranks.J] value = 11")

    def _read_deal(self, deal: Mapping[str, Any]) -> None:
        names = ("numbers_dealt", "numbers_kept", "numbers_used", "operators_each", "goal_cards")
        values: dict[str, int] = {}
        for name in names:
            value = deal.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                self.error(f"deal.{name} must be a whole number >= 0, got {value!r}", "deal", name)
            else:
                values[name] = value
        goal_kind = deal.get("goal_kind", self.tables.number_kind)
        if len(values) == len(names):
            self.tables.deal = DealNumbers(**values, goal_kind=str(goal_kind))

    def _read_relations(self, relations: Mapping[str, Any]) -> None:
        for relation in RELATIONS:
            entry = relations.get(relation)
            if not isinstance(entry, Mapping):
                self.error(f"no [relation.{relation}] table (its column header and wording)", "relation")
                continue
            self.tables.relation_words[relation] = {
                "header": self._wording(entry, "header", f"relation {relation}", "relation", relation),
                "text": self._wording(entry, "text", f"relation {relation}", "relation", relation),
            }
        for relation in relations:
            if relation not in RELATIONS:
                self.error(f"unknown relation {relation!r} (known: {', '.join(RELATIONS)})",
                           "relation", relation)

    def _wording(self, entry: Mapping[str, Any], key: str, what: str, *where: str | int) -> dict[str, str]:
        wording = entry.get(key)
        wording = wording if isinstance(wording, Mapping) else {}
        for lang in self.languages:
            if not isinstance(wording.get(lang), str) or not wording[lang].strip():
                self.error(f"{what} has no {lang} wording ({key}.{lang})", *where, key,
                           fix=f'add {key}.{lang} = "..."')
        return {lang: text for lang, text in wording.items() if isinstance(text, str)}

    def _read_operators(self, entries: Any) -> None:
        if not isinstance(entries, list) or not entries:
            self.error("no [[operator]] entries: the operator table is missing", "operator")
            return
        first_seen: dict[tuple[str, str], int] = {}
        for index, entry in enumerate(entries):
            rule = self._read_operator(index, entry)
            if rule is None:
                continue
            key = (rule.rank, rule.relation)
            if key in first_seen:
                self.error(f"operator {rule.name} is defined twice (entries {first_seen[key] + 1} and "
                           f"{index + 1})", "operator", index, fix="delete one of the two entries")
                continue
            first_seen[key] = index
            self.tables.operators[key] = rule
        written = {(e.get("rank"), e.get("relation")) for e in entries if isinstance(e, Mapping)}
        for letter in self.tables.ranks:
            for relation in RELATIONS:
                if (letter, relation) not in written:
                    self.error(f"the operator table has no entry for {letter}/{relation}", "operator",
                               fix=f'add [[operator]] rank = "{letter}", relation = "{relation}"')

    def _read_operator(self, index: int, entry: Any) -> OperatorRule | None:
        if not isinstance(entry, Mapping):
            self.error(f"operator entry {index + 1} is not a table", "operator", index)
            return None
        rank, relation = entry.get("rank"), entry.get("relation")
        name = f"{rank}/{relation}"
        ok = True
        if rank not in self.tables.ranks:
            known = ", ".join(self.tables.ranks)
            self.error(f"operator entry {index + 1} ({name}) has unknown rank {rank!r} (known: {known})",
                       "operator", index, "rank")
            ok = False
        if relation not in RELATIONS:
            self.error(f"operator entry {index + 1} ({name}) has unknown relation {relation!r} "
                       f"(known: {', '.join(RELATIONS)})", "operator", index, "relation")
            ok = False
        marked = entry.get("may_be_fractional_or_negative")
        if not isinstance(marked, bool):
            self.error(f"operator {name} needs may_be_fractional_or_negative = true or false",
                       "operator", index)
            ok = False
        seed_mark = entry.get("seed_mark", marked)
        wording = self._wording(entry, "text", f"operator {name}", "operator", index)
        if not ok:
            return None
        expression = self._parse_expression(index, name, entry.get("expression"), relation)
        if expression is None:
            return None
        return OperatorRule(rank=rank, relation=relation, expression=expression, marked=marked,
                            seed_mark=bool(seed_mark), wording=wording,
                            meaning=str(entry.get("meaning", "")), index=index)

    def _parse_expression(self, index: int, name: str, source: Any, relation: str) -> Expression | None:
        if not isinstance(source, str):
            self.error(f"operator {name} needs expression = \"...\"", "operator", index)
            return None
        allowed = RELATION_NAMES[relation]
        try:
            return parse_expression(source, allowed)
        except ExpressionError as exc:
            fix = None
            if exc.token in ("on", "off"):
                fix = "on/off exist only for relation 'one'; use a and b, min(a, b), max(a, b)"
            self.error(f"operator {name}: {exc}", "operator", index, "expression", fix=fix)
            return None

    def _read_footnote(self, footnote: Mapping[str, Any]) -> None:
        self.tables.footnote_mark = str(footnote.get("mark", "*"))
        self.tables.footnote = self._wording(footnote, "text", "the footnote", "footnote")

    def _read_goals(self, entries: Any) -> None:
        if not isinstance(entries, list) or not entries:
            self.error("no [[goal]] entries: the goal table is missing", "goal")
            return
        for index, entry in enumerate(entries):
            if not isinstance(entry, Mapping):
                self.error(f"goal entry {index + 1} is not a table", "goal", index)
                continue
            parity, colour, aim = entry.get("parity"), entry.get("colour"), entry.get("aim")
            name = f"{parity}/{colour}"
            wording = self._wording(entry, "text", f"goal {name}", "goal", index)
            problems = []
            if parity not in PARITIES:
                problems.append(f"parity {parity!r} is not one of {', '.join(PARITIES)}")
            if colour not in self.tables.colours:
                problems.append(f"colour {colour!r} is not one of {', '.join(self.tables.colours)}")
            if aim not in AIMS:
                problems.append(f"aim {aim!r} is not one of {', '.join(AIMS)}")
            if problems:
                self.error(f"goal entry {index + 1} ({name}): " + "; ".join(problems), "goal", index)
                continue
            if (parity, colour) in self.tables.goals:
                first = self.tables.goals[(parity, colour)].index
                self.error(f"goal {name} is defined twice (entries {first + 1} and {index + 1})",
                           "goal", index)
                continue
            self.tables.goals[(parity, colour)] = GoalRule(parity, colour, aim, wording, index)
        for parity in PARITIES:
            for colour in self.tables.colours:
                if (parity, colour) not in self.tables.goals:
                    self.error(f"the goal table has no entry for {parity}/{colour}", "goal")


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def read_tables(doc: TomlDoc, report: Report, languages: Sequence[str] = ("en", "ja")) -> TwoOpsTables:
    """Parse rules.toml, adding every structural problem to ``report``."""
    return _Reader(doc, report, languages).read()


# ---------------------------------------------------------------------------
# One operation


@dataclass(frozen=True)
class Operation:
    """A (number, operator, number) group and what it is worth."""

    left: PlayingCard
    operator: PlayingCard
    right: PlayingCard
    relation: str
    value: Fraction

    def describe(self) -> str:
        return f"{self.left.id} {self.operator.id} {self.right.id} = {self.value}"


def relation_of(operator: PlayingCard, x: PlayingCard, y: PlayingCard) -> str:
    """neither / one / both: only colours count, so suits and ranks never change the rule."""
    matches = (x.colour == operator.colour) + (y.colour == operator.colour)
    return ("neither", "one", "both")[matches]


def apply_operator(tables: TwoOpsTables, operator: PlayingCard, x: PlayingCard, y: PlayingCard) -> Operation:
    """Value of ``x operator y``; the relation (and so on/off) comes from the colours."""
    relation = relation_of(operator, x, y)
    values: dict[str, int] = {"a": x.rank, "b": y.rank}
    if relation == "one":
        on, off = (x, y) if x.colour == operator.colour else (y, x)
        values.update(on=on.rank, off=off.rank)
    rule = tables.operator_rule(operator, relation)
    return Operation(x, operator, y, relation, rule.expression.evaluate(values))


# ---------------------------------------------------------------------------
# Solver


@dataclass(frozen=True)
class Arrangement:
    """One way to lay out a hand: two operations and the unused number card(s)."""

    operations: tuple[Operation, Operation]
    discard: tuple[PlayingCard, ...]
    value: Fraction  # the two operation values combined by the goal's aim

    def key(self) -> tuple[Any, ...]:
        """Identity up to writing a group's numbers in the other order (same value)."""
        groups = frozenset(
            (op.operator.id, frozenset((op.left.id, op.right.id)), op.value) for op in self.operations
        )
        return (tuple(sorted(card.id for card in self.discard)), groups)


@dataclass(frozen=True)
class Solution:
    aim: str
    value: Fraction
    best: Arrangement
    ties: tuple[Arrangement, ...]  # every arrangement reaching ``value``, ``best`` first

    @property
    def operations(self) -> tuple[Operation, Operation]:
        return self.best.operations

    @property
    def discard(self) -> tuple[PlayingCard, ...]:
        return self.best.discard


def _validate_hand(numbers: Sequence[PlayingCard], operators: Sequence[PlayingCard],
                   goal: PlayingCard, used: int) -> None:
    if len(operators) != 2:
        raise CardError(f"a hand has exactly 2 operator cards, got {len(operators)}")
    if len(numbers) < used:
        raise CardError(f"a hand needs at least {used} number cards, got {len(numbers)}")
    for card in numbers:
        if card.is_court:
            raise CardError(f"{card.id} is a court card: it cannot be a number")
    for card in operators:
        if not card.is_court:
            raise CardError(f"{card.id} is a number card: operators are J, Q or K")
    if goal.is_court:
        raise CardError(f"{goal.id} is a court card: the goal card comes from the number stock")
    seen: set[str] = set()
    for card in (*numbers, *operators, goal):
        if card.id in seen:
            raise CardError(f"{card.id} appears twice; a deck has one of each card")
        seen.add(card.id)


def _arrangements(tables: TwoOpsTables, numbers: Sequence[PlayingCard],
                  operators: Sequence[PlayingCard], combine: Callable[[Fraction, Fraction], Fraction],
                  used: int) -> Iterator[Arrangement]:
    first_operator, second_operator = operators
    for chosen in itertools.combinations(range(len(numbers)), used):
        discard = tuple(numbers[i] for i in range(len(numbers)) if i not in chosen)
        for first_pair in itertools.combinations(chosen, 2):
            second_pair = tuple(i for i in chosen if i not in first_pair)
            for i, j in (first_pair, first_pair[::-1]):
                first = apply_operator(tables, first_operator, numbers[i], numbers[j])
                for k, m in (second_pair, second_pair[::-1]):
                    second = apply_operator(tables, second_operator, numbers[k], numbers[m])
                    yield Arrangement((first, second), discard, combine(first.value, second.value))


def solve(tables: TwoOpsTables, numbers: Sequence[PlayingCard], operators: Sequence[PlayingCard],
          goal: PlayingCard) -> Solution:
    """Best two operations for the goal card's aim, with every tie.

    Exhaustive on purpose: 5 numbers and 2 operators give only 5 x 6 x 4 = 120
    layouts, and the worked examples must be provably optimal, not heuristic.
    """
    used = tables.deal.numbers_used if tables.deal else 4
    _validate_hand(numbers, operators, goal, used)
    rule = tables.goal_for(goal)
    combine, pick = AIMS[rule.aim]
    layouts = list(_arrangements(tables, numbers, operators, combine, used))
    best_value = pick(layout.value for layout in layouts)
    ties: dict[tuple[Any, ...], Arrangement] = {}
    for layout in layouts:
        if layout.value == best_value:
            ties.setdefault(layout.key(), layout)
    ordered = sorted(ties.values(), key=lambda a: (
        [c.id for c in a.discard], [(op.operator.id, op.left.id, op.right.id) for op in a.operations]))
    return Solution(aim=rule.aim, value=best_value, best=ordered[0], ties=tuple(ordered))


# ---------------------------------------------------------------------------
# Checks


@dataclass(frozen=True)
class _Range:
    """What exhaustive evaluation found for one operator entry."""

    low: Fraction
    high: Fraction
    odd_case: tuple[Fraction, dict[str, int]] | None  # first fractional or negative value
    zero_division: tuple[ZeroDivisorError, dict[str, int]] | None


def _cases(relation: str, values: range) -> Iterator[dict[str, int]]:
    """Every ordered pair of values; for 'one', each of the two may be the on-colour number."""
    for x in values:
        for y in values:
            if relation == "one":
                yield {"a": x, "b": y, "on": x, "off": y}
                yield {"a": x, "b": y, "on": y, "off": x}
            else:
                yield {"a": x, "b": y}


def evaluate_exhaustively(rule: OperatorRule, values: range) -> _Range:
    """Every value an entry can take in play; the footnote mark must be a fact, not a guess."""
    found: list[Fraction] = []
    odd_case = None
    for case in _cases(rule.relation, values):
        try:
            value = rule.expression.evaluate(case)
        except ZeroDivisorError as exc:
            return _Range(Fraction(0), Fraction(0), None, (exc, case))
        found.append(value)
        if odd_case is None and (value.denominator != 1 or value < 0):
            odd_case = (value, case)
    return _Range(min(found), max(found), odd_case, None)


def _show_case(rule: OperatorRule, case: Mapping[str, int]) -> str:
    used = [name for name in ("a", "b", "on", "off") if name in rule.expression.names]
    return ", ".join(f"{name}={case[name]}" for name in used) or "always"


def _check_operator_values(tables: TwoOpsTables, report: Report) -> None:
    doc = tables.doc
    values = tables.number_values
    for rule in tables.operators.values():
        line = doc.line_of("operator", rule.index, "expression")
        found = evaluate_exhaustively(rule, values)
        if found.zero_division:
            exc, case = found.zero_division
            report.error(f"operator {rule.name} divides by zero for {_show_case(rule, case)}: {exc}",
                         doc.path, line, "card values run from "
                         f"{values.start} to {values.stop - 1}; rewrite the expression so no divisor is 0")
            continue
        flag_line = doc.line_of("operator", rule.index, "may_be_fractional_or_negative")
        if found.odd_case and not rule.marked:
            value, case = found.odd_case
            report.error(f"{rule.name} can give {value} ({_show_case(rule, case)}) but is not marked",
                         doc.path, flag_line, "set may_be_fractional_or_negative = true")
        elif rule.marked and not found.odd_case:
            report.error(f"{rule.name} is marked may_be_fractional_or_negative, but for every pair of "
                         f"numbers {values.start}-{values.stop - 1} it gives whole numbers from "
                         f"{found.low} to {found.high}", doc.path, flag_line,
                         "set may_be_fractional_or_negative = false")
        truth = found.odd_case is not None
        if rule.seed_mark != truth:
            verb = "marks" if rule.seed_mark else "does not mark"
            report.note(f"seed erratum: the rulebook {verb} {rule.name} as fractional or negative, but "
                        f"evaluation over {values.start}-{values.stop - 1} says it "
                        f"{'can' if truth else 'cannot'} be; the aids print the verified mark",
                        doc.path, doc.line_of("operator", rule.index, "seed_mark"))


def _deck_cards(game: Game, tables: TwoOpsTables) -> tuple[Card, ...] | None:
    component = game.components.get(tables.component)
    return component.cards if component is not None else None


def _check_deck(game: Game, tables: TwoOpsTables, report: Report) -> None:
    doc = tables.doc
    cards = _deck_cards(game, tables)
    if cards is None:
        report.error(f"the game has no component {tables.component!r} for the deck", doc.path,
                     doc.line_of("deck", "component"))
        return
    court_ranks = set(tables.ranks.values())
    for card in cards:
        where = card.source.file if card.source else doc.path
        line = card.source.line if card.source else None
        if card.colour not in tables.colours:
            report.error(f"card {card.id} has colour {card.colour!r}; relations need one of "
                         f"{', '.join(tables.colours)}", where, line)
        in_range = tables.number_min <= (card.rank or 0) <= tables.number_max
        if card.kind == tables.number_kind and not in_range:
            report.error(f"number card {card.id} has rank {card.rank}; numbers run "
                         f"{tables.number_min}-{tables.number_max}", where, line)
        if card.kind == tables.operator_kind and card.rank not in court_ranks:
            known = ", ".join(f"{k}={v}" for k, v in tables.ranks.items())
            report.error(f"operator card {card.id} has rank {card.rank}, which the operator table does not "
                         f"cover (ranks: {known})", where, line)
    deck_courts = {card.rank for card in cards if card.kind == tables.operator_kind}
    for letter, value in tables.ranks.items():
        if value not in deck_courts:
            report.warning(f"operator rank {letter} (= {value}) has no card in the deck", doc.path,
                           doc.line_of("ranks", letter))


def _count(cards: Sequence[Card], kind: str) -> int:
    return sum(card.count for card in cards if card.kind == kind)


def derived_max_players(pips: int, operators: int, deal: DealNumbers) -> int:
    """Players the deck can serve: numbers minus the goal card, and operators."""
    by_numbers = (pips - deal.goal_cards) // deal.numbers_dealt if deal.numbers_dealt else 0
    by_operators = operators // deal.operators_each if deal.operators_each else 0
    return min(by_numbers, by_operators)


def _check_deal(game: Game, tables: TwoOpsTables, report: Report) -> None:
    doc, deal = tables.doc, tables.deal
    if deal is None:
        return
    if deal.operators_each != 2:
        report.error(f"deal.operators_each is {deal.operators_each}, but a goal compares exactly two "
                     "operations", doc.path, doc.line_of("deal", "operators_each"))
    if deal.numbers_used != 2 * deal.operators_each:
        report.error(f"deal.numbers_used is {deal.numbers_used}, but {deal.operators_each} operators take "
                     f"2 numbers each = {2 * deal.operators_each}", doc.path,
                     doc.line_of("deal", "numbers_used"))
    if not deal.numbers_used <= deal.numbers_kept <= deal.numbers_dealt:
        report.error(f"deal: used {deal.numbers_used} <= kept {deal.numbers_kept} <= dealt "
                     f"{deal.numbers_dealt} does not hold", doc.path, doc.line_of("deal", "numbers_kept"))
    if deal.goal_kind != tables.number_kind:
        report.error(f"the goal card is drawn from kind {deal.goal_kind!r}, but the number stock is kind "
                     f"{tables.number_kind!r}; the goal must be a number card", doc.path,
                     doc.line_of("deal", "goal_kind"))
    cards = _deck_cards(game, tables)
    if cards is None:
        return
    goal_pool = [card for card in cards if card.kind == deal.goal_kind]
    courts = [card.id for card in goal_pool if (card.rank or 0) > tables.number_max]
    if courts:
        report.error(f"the goal pool (kind {deal.goal_kind!r}) holds court cards {', '.join(courts)}; the "
                     "goal card must always be a number", doc.path, doc.line_of("deal", "goal_kind"))
    _check_goal_coverage(goal_pool, tables, report)
    pips, operators = _count(cards, tables.number_kind), _count(cards, tables.operator_kind)
    most = derived_max_players(pips, operators, deal)
    stated = game.players[1]
    reason = (f"({pips} number cards - {deal.goal_cards} goal) // {deal.numbers_dealt} dealt = "
              f"{(pips - deal.goal_cards) // max(deal.numbers_dealt, 1)}, {operators} operators // "
              f"{deal.operators_each} each = {operators // max(deal.operators_each, 1)}, so at most {most}")
    where = (game.manifest.path, game.manifest.line_of("players")) if game.manifest else (
        doc.path, doc.line_of("deal"))
    if stated > most:
        report.error(f"game.toml allows up to {stated} players, but {reason}", *where,
                     fix=f"set the maximum to {most}")
    elif stated < most:
        report.warning(f"game.toml allows up to {stated} players, but the deck serves {most}: {reason}",
                       *where)


def _check_goal_coverage(goal_pool: Sequence[Card], tables: TwoOpsTables, report: Report) -> None:
    for card in goal_pool:
        parity = "even" if (card.rank or 0) % 2 == 0 else "odd"
        if (parity, card.colour) not in tables.goals and card.colour in tables.colours:
            report.error(f"goal card {card.id} ({parity} {card.colour}) has no goal entry",
                         tables.doc.path, tables.doc.line_of("goal"))


# ---------------------------------------------------------------------------
# Example kinds


def _resolve(game: Game, tables: TwoOpsTables, text: Any) -> PlayingCard:
    """A card id from an example, checked against the game's own deck."""
    try:
        parsed = parse_card(text)
    except CardError as exc:
        raise ExampleError(str(exc)) from None
    cards = _deck_cards(game, tables)
    if cards is None:
        return parsed
    card = next((c for c in cards if c.id == parsed.id), None)
    if card is None or card.rank is None or card.colour is None:
        raise ExampleError(f"{parsed.id} is not a card of component {tables.component!r}")
    return PlayingCard(id=card.id, rank=card.rank, colour=card.colour)


def _card_list(game: Game, tables: TwoOpsTables, inputs: Mapping[str, Any], key: str) -> list[PlayingCard]:
    value = inputs.get(key)
    if not isinstance(value, list):
        raise ExampleError(f"inputs.{key} must be a list of card ids, got {value!r}")
    return [_resolve(game, tables, item) for item in value]


def _run_operation(game: Game, tables: TwoOpsTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    operator = _resolve(game, tables, inputs.get("operator"))
    numbers = _card_list(game, tables, inputs, "numbers")
    if len(numbers) != 2 or not operator.is_court or any(n.is_court for n in numbers):
        raise ExampleError("an operation is one court card (inputs.operator) and two number cards "
                           "(inputs.numbers)")
    try:
        operation = apply_operator(tables, operator, *numbers)
    except CardError as exc:
        raise ExampleError(str(exc)) from None
    return {"value": operation.value, "relation": operation.relation, "text": operation.describe()}


def _run_solve(game: Game, tables: TwoOpsTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    numbers = _card_list(game, tables, inputs, "numbers")
    operators = _card_list(game, tables, inputs, "operators")
    goal = _resolve(game, tables, inputs.get("goal"))
    try:
        solution = solve(tables, numbers, operators, goal)
    except CardError as exc:
        raise ExampleError(str(exc)) from None
    discards = sorted({" ".join(card.id for card in a.discard) for a in solution.ties})
    return {
        "value": solution.value,
        "aim": solution.aim,
        # one id when every best layout sets aside the same card, else the sorted alternatives
        "discard": discards[0] if len(discards) == 1 else discards,
        "ties": len(solution.ties),
        "operations": [op.describe() for op in solution.operations],
    }


# ---------------------------------------------------------------------------
# The rules module


def _nested_word(section: Mapping[str, Any], *keys: str, lang: str) -> str:
    node: Any = section
    for key in keys:
        node = node.get(key, {}) if isinstance(node, Mapping) else {}
    return _word(node, lang) if isinstance(node, Mapping) and node else ""


class TwoOpsRules(GameRules):
    example_kinds = frozenset({"operation", "solve"})

    def tables(self, game: Game, report: Report | None = None) -> TwoOpsTables | None:
        """rules.toml parsed; problems go to ``report`` (or are dropped when only reading)."""
        if game.rules_data is None:
            if report is not None:
                report.error("two_ops needs rules.toml (the operator and goal tables)", game.path)
            return None
        from pnp.diagnostics import Report

        return read_tables(game.rules_data, report if report is not None else Report(), game.languages)

    def check(self, game: Game, report: Report) -> None:
        tables = self.tables(game, report)
        if tables is None:
            return
        _check_operator_values(tables, report)
        _check_deck(game, tables, report)
        _check_deal(game, tables, report)

    def run_example(self, game: Game, example: Example) -> Mapping[str, Any]:
        tables = self.tables(game)
        if tables is None:
            raise ExampleError("two_ops examples need rules.toml")
        if example.kind == "operation":
            return _run_operation(game, tables, example.inputs)
        if example.kind == "solve":
            return _run_solve(game, tables, example.inputs)
        return super().run_example(game, example)

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        tables = self.tables(game)
        if tables is None or tables.deal is None:
            return {}
        deal = tables.deal
        numbers: dict[str, Any] = {
            "dealt": deal.numbers_dealt,
            "kept": deal.numbers_kept,
            "discarded": deal.numbers_dealt - deal.numbers_kept,
            "used": deal.numbers_used,
            "operators_each": deal.operators_each,
            "operations": deal.operators_each,
            "goal_cards": deal.goal_cards,
            "number_min": tables.number_min,
            "number_max": tables.number_max,
        }
        cards = _deck_cards(game, tables)
        if cards is not None:
            pips, operators = _count(cards, tables.number_kind), _count(cards, tables.operator_kind)
            numbers.update(pips=pips, operators=operators,
                           max_players=derived_max_players(pips, operators, deal))
        return numbers

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        tables = self.tables(game)
        if tables is None:
            return []
        return [self._operator_aid(tables, lang), self._goal_aid(game, tables, lang)]

    def _operator_aid(self, tables: TwoOpsTables, lang: str) -> AidTable:
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
                row.append(_word(rule.wording, lang) + (f" {tables.footnote_mark}" if rule.marked else ""))
            rows.append(row)
        notes = []
        if any_marked:
            notes.append(f"{tables.footnote_mark} {_word(tables.footnote, lang)}")
        note = _nested_word(aid, "operators", "note", lang=lang)
        if note:
            notes.append(note)
        return AidTable(id="operators", title=_nested_word(aid, "operators", "title", lang=lang),
                        header=header, rows=rows, notes=notes)

    def _goal_aid(self, game: Game, tables: TwoOpsTables, lang: str) -> AidTable:
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

    solve_usage = ("NUMBER NUMBER NUMBER NUMBER NUMBER OPERATOR OPERATOR --goal CARD "
                   "(e.g. 7H 3S 10D AS 5C KD QS --goal 4H)")

    def solve(self, game: Game, arguments: list[str], lang: str) -> str:
        """The best two operations for a hand, with exact fractions and every tie."""
        tables = self.tables(game)
        if tables is None:
            raise ExampleError("two_ops needs rules.toml")
        words = list(arguments)
        if "--goal" not in words or words.index("--goal") == len(words) - 1:
            raise ExampleError("name the goal card with --goal, e.g. --goal 4H")
        goal_at = words.index("--goal")
        goal_text = words[goal_at + 1]
        cards_text = words[:goal_at] + words[goal_at + 2:]
        try:
            cards = [parse_card(text) for text in cards_text]
            goal = parse_card(goal_text)
        except CardError as exc:
            raise ExampleError(str(exc)) from None
        numbers = [card for card in cards if card.rank <= tables.number_max]
        operators = [card for card in cards if card.rank > tables.number_max]
        try:
            solution = solve(tables, numbers, operators, goal)
        except CardError as exc:
            raise ExampleError(str(exc)) from None
        rule = tables.goal_for(goal)
        lines = [f"goal {goal.id}: {_word(rule.wording, lang)}",
                 f"best value: {solution.value}"]
        for number, layout in enumerate(solution.ties, start=1):
            groups = "   ".join(operation.describe() for operation in layout.operations)
            unused = " ".join(card.id for card in layout.discard)
            lines.append(f"  {number}. {groups}   (unused: {unused})")
        return "\n".join(lines)

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        tables = self.tables(game)
        cards = _deck_cards(game, tables) if tables else None
        if tables is None or cards is None:
            return {}
        texts: dict[str, dict[str, str]] = {}
        for card in cards:
            letter = tables.letter_of(card.rank or 0) if card.kind == tables.operator_kind else None
            if letter is None:
                continue
            texts[card.id] = {
                relation: _word(tables.operators[(letter, relation)].wording, lang)
                for relation in RELATIONS if (letter, relation) in tables.operators
            }
            # the column headers, so a court card can label its three lines in the card's language
            texts[card.id].update({
                f"{relation}_label": _word(tables.relation_words.get(relation, {}).get("header", {}), lang)
                for relation in RELATIONS
            })
        return texts


RULES = TwoOpsRules()

__all__ = [
    "AIMS", "RELATIONS", "RULES", "Arrangement", "CardError", "GoalRule", "Operation", "OperatorRule",
    "PlayingCard", "Solution", "TwoOpsRules", "TwoOpsTables", "apply_operator", "derived_max_players",
    "evaluate_exhaustively", "parse_card", "read_tables", "relation_of", "solve",
]

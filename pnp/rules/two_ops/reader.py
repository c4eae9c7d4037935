"""Reading rules.toml into :class:`TwoOpsTables`, each problem reported at its line."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pnp.api import Expression, ExpressionError, parse_expression
from pnp.rules.two_ops.tables import DealNumbers, GoalRule, OperatorRule, TwoOpsTables
from pnp.rules.two_ops.vocabulary import AIMS, PARITIES, RELATION_NAMES, RELATIONS

if TYPE_CHECKING:
    from pnp.api import Report, TomlDoc


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
                self.error(f"rank {letter} needs a whole-number value (the deck's rank)", "ranks", letter, "value")
                self.tables.unreadable_ranks.add(letter)
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
        written = {(e.get("rank"), e.get("relation")) for e in entries
                   if isinstance(e, Mapping) and _one_of(e.get("rank"), self.tables.ranks)
                   and _one_of(e.get("relation"), RELATIONS)}
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
        if _one_of(rank, self.tables.unreadable_ranks):
            ok = False  # the rank is there, its value is wrong: reported at the rank
        elif not _one_of(rank, self.tables.ranks):
            known = ", ".join(self.tables.ranks)
            self.error(f"operator entry {index + 1} ({name}) has unknown rank {rank!r} (known: {known})",
                       "operator", index, "rank")
            ok = False
        if not _one_of(relation, RELATIONS):
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
            if not _one_of(parity, PARITIES):
                problems.append(f"parity {parity!r} is not one of {', '.join(PARITIES)}")
            if not _one_of(colour, self.tables.colours):
                problems.append(f"colour {colour!r} is not one of {', '.join(self.tables.colours)}")
            if not _one_of(aim, AIMS):
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


def _one_of(value: object, choices: Collection[str]) -> bool:
    """``value in choices`` for whatever TOML gave: a list or table where a name belongs is no name."""
    return isinstance(value, str) and value in choices


def read_tables(doc: TomlDoc, report: Report, languages: Sequence[str] = ("en", "ja")) -> TwoOpsTables:
    """Parse rules.toml, adding every structural problem to ``report``."""
    return _Reader(doc, report, languages).read()

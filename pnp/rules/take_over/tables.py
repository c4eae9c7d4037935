"""Reading rules.toml into :class:`TakeOverTables`, each problem reported at its line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnp.rules.take_over.bonuses import BONUS_EFFECTS, Bonus
from pnp.rules.take_over.strength import SEED_LADDERS, TIERS, Ladder, Ladders

if TYPE_CHECKING:
    from pnp.api import Report, TomlDoc


LADDER_IDS = ("lead_normal", "lead_disadvantaged")


@dataclass
class TakeOverTables:
    doc: TomlDoc
    components: dict[str, str] = field(default_factory=dict)
    colours: tuple[str, ...] = ()
    number_min: int = 1
    number_max: int = 14
    play: dict[str, Any] = field(default_factory=dict)
    goal_numbers: tuple[int, ...] = ()
    ladders: Ladders = SEED_LADDERS
    bonuses: dict[str, Bonus] = field(default_factory=dict)
    phrases: list[dict[str, str]] = field(default_factory=list)
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def bonus_phases(self) -> int:
        return max(self.play.get("rounds", 0) - 1, 0)  # read as a whole number above 0, or left out


PLAY_KEYS = ("players", "rounds", "hand_size", "tricks_per_round")


class _Reader:
    def __init__(self, doc: TomlDoc, report: Report, languages: Sequence[str]) -> None:
        self.doc, self.report, self.languages = doc, report, tuple(languages)
        self.tables = TakeOverTables(doc=doc, data=doc.data)

    def error(self, message: str, *key: str | int, fix: str | None = None) -> None:
        self.report.error(message, self.doc.path, self.doc.line_of(*key), fix)

    def read(self) -> TakeOverTables:
        data, t = self.doc.data, self.tables
        components = section(data, "components")
        t.components = {k: str(components.get(k, k)) for k in ("numbers", "markers", "goals")}
        order = section(data, "colours").get("order")
        if not (isinstance(order, list) and order and all(isinstance(c, str) for c in order)
                and len(set(order)) == len(order)):
            self.error(f"colours.order must list distinct colour ids, got {order!r}", "colours")
        else:
            t.colours = tuple(order)
        numbers = section(data, "numbers")
        for key in ("min", "max"):
            value = numbers.get(key, getattr(t, f"number_{key}"))
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                self.error(f"numbers.{key} must be a whole number, got {value!r}", "numbers", key)
            else:
                setattr(t, f"number_{key}", value)
        self._read_play(section(data, "play"))
        self._read_ladders(section(data, "ladder"))
        self._read_bonuses(data.get("bonus"))
        self._read_phrases(data.get("phrase"))
        for tier in TIERS:
            self._wording(section(section(data, "tier"), tier), "text", f"tier {tier}", "tier", tier)
        return t

    def _wording(self, entry: Mapping[str, Any], key: str, what: str, *where: str | int) -> dict[str, str]:
        wording = entry.get(key)
        wording = wording if isinstance(wording, Mapping) else {}
        for lang in self.languages:
            if not isinstance(wording.get(lang), str) or not wording[lang].strip():
                self.error(f"{what} has no {lang} wording ({key}.{lang})", *where, key)
        return {lang: text for lang, text in wording.items() if isinstance(text, str)}

    def _read_play(self, play: Mapping[str, Any]) -> None:
        for key in PLAY_KEYS:
            value = play.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                self.error(f"play.{key} must be a whole number above 0, got {value!r}", "play", key)
            else:
                self.tables.play[key] = value
        goals = play.get("goal_numbers")
        if not (isinstance(goals, list) and goals and all(isinstance(g, int) for g in goals)):
            self.error(f"play.goal_numbers must list whole numbers, got {goals!r}", "play", "goal_numbers")
        else:
            self.tables.goal_numbers = tuple(goals)

    def _read_ladders(self, ladders: Mapping[str, Any]) -> None:
        read: dict[str, Ladder] = {}
        for ladder_id in LADDER_IDS:
            entry = ladders.get(ladder_id)
            if not isinstance(entry, Mapping):
                self.error(f"no [ladder.{ladder_id}] table", "ladder")
                continue
            tiers, later = entry.get("tiers"), entry.get("later_wins_on_equal", [])
            if not isinstance(tiers, list) or not isinstance(later, list):
                self.error(f"ladder {ladder_id}: tiers and later_wins_on_equal must be lists of tier names",
                           "ladder", ladder_id)
                continue
            unknown = [str(tier) for tier in tiers + later if tier not in TIERS]
            if unknown or not tiers or len(set(tiers)) != len(tiers):
                problem = f"unknown {', '.join(unknown)}" if unknown else "an empty or repeated tier"
                self.error(f"ladder {ladder_id}: {problem}; tiers must be distinct names from "
                           f"{', '.join(TIERS)}", "ladder", ladder_id, "tiers")
                continue
            read[ladder_id] = Ladder(tuple(tiers), frozenset(later))
        for ladder_id in ladders:
            if ladder_id not in LADDER_IDS:
                self.error(f"unknown ladder {ladder_id!r} (known: {', '.join(LADDER_IDS)})", "ladder", ladder_id)
        if len(read) == len(LADDER_IDS):
            self.tables.ladders = Ladders(**read)

    def _read_bonuses(self, entries: Any) -> None:
        if not isinstance(entries, list):
            self.error("no [[bonus]] entries", "bonus")
            return
        for index, entry in enumerate(entries):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("id"), str):
                self.error(f"bonus entry {index + 1} needs an id", "bonus", index)
                continue
            bonus_id, effect = entry["id"], entry.get("effect")
            if effect not in BONUS_EFFECTS:
                self.error(f"bonus {bonus_id}: effect {effect!r} is not one of {', '.join(BONUS_EFFECTS)}",
                           "bonus", index, "effect")
                continue
            if bonus_id in self.tables.bonuses:
                self.error(f"bonus {bonus_id} is defined twice", "bonus", index, "id")
                continue
            name = self._wording(entry, "name", f"bonus {bonus_id}", "bonus", index)
            text = self._wording(entry, "text", f"bonus {bonus_id}", "bonus", index)
            self.tables.bonuses[str(bonus_id)] = Bonus(str(bonus_id), effect, name, text,
                                                       bool(entry.get("provisional", False)), index)

    def _read_phrases(self, entries: Any) -> None:
        if not isinstance(entries, list) or not entries:
            self.error("no [[phrase]] entries: the allowed table talk is missing", "phrase")
            return
        for index, entry in enumerate(entries):
            if not isinstance(entry, Mapping):
                self.error(f"phrase entry {index + 1} is not a table", "phrase", index)
                continue
            self.tables.phrases.append(self._wording(entry, "text", f"phrase {entry.get('id')}",
                                                     "phrase", index))


def section(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The ``[key]`` table of ``data``, or an empty one when it is missing or not a table."""
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def read_tables(doc: TomlDoc, report: Report, languages: Sequence[str] = ("en", "ja")) -> TakeOverTables:
    """Parse rules.toml, adding every structural problem to ``report``."""
    return _Reader(doc, report, languages).read()

"""Take Over That Job (代われそのジョブ): card strength, the defensive stance, bonuses.

The game's one unusual mechanism is the *defensive stance*: after every play
exactly one card of the trick is face up, the currently strongest. Rather
than trusting that, :func:`play_trick` applies the rulebook's two conditions
literally, play by play, and fails loudly if they ever leave zero or two cards
face up; the check proves the strength ladders in rules.toml cannot cause that.

Strength is data plus code: rules.toml orders named tiers ("trump", "lead",
"normal", ...); this module knows what each tier name means for a card.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pnp.rules.base import AidTable, ExampleError, GameRules
from pnp.rules.wording import localised as _word

if TYPE_CHECKING:
    from pnp.diagnostics import Report
    from pnp.load.toml_lines import TomlDoc
    from pnp.model.game import Card, Example, Game

TIERS = ("trump", "lead", "normal", "disadvantaged", "other")
UNRANKED_TIERS = frozenset({"other"})
LADDER_IDS = ("lead_normal", "lead_disadvantaged")
BONUS_EFFECTS = ("trump", "disadvantaged", "exchange")
NO_COLOUR = "none"  # how examples write "no trump" / "no disadvantaged colour"

# ---------------------------------------------------------------------------
# Cards and strength


@dataclass(frozen=True)
class NumberCard:
    id: str
    colour: str
    number: int


def parse_number_card(text: str, colours: Iterable[str]) -> NumberCard:
    """Read ``green-5``; the colour must be one of ``colours``."""
    cleaned = str(text).strip().lower()
    colour, _, number = cleaned.rpartition("-")
    known = tuple(colours)
    if colour not in known or not number.isdigit():
        raise ValueError(f"{text!r} is not a number card id: write <colour>-<number>, colour one of "
                         f"{', '.join(known)}, e.g. 'green-5'")
    return NumberCard(id=cleaned, colour=colour, number=int(number))


@dataclass(frozen=True)
class Ladder:
    """Strength tiers, strongest first (see rules.toml ``[ladder.*]``)."""

    tiers: tuple[str, ...]
    later_wins_on_equal: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Ladders:
    lead_normal: Ladder
    lead_disadvantaged: Ladder


#: the seed rulebook's ladders; rules.toml normally says the same
SEED_LADDERS = Ladders(
    lead_normal=Ladder(("trump", "lead", "other")),
    lead_disadvantaged=Ladder(("trump", "normal", "disadvantaged"), frozenset({"normal"})),
)


@dataclass(frozen=True)
class StrengthContext:
    """What a card's strength depends on within one trick."""

    lead: str
    trump: str | None = None
    disadvantaged: str | None = None
    ladders: Ladders = SEED_LADDERS

    @property
    def ladder(self) -> Ladder:
        if self.lead == self.disadvantaged:
            return self.ladders.lead_disadvantaged
        return self.ladders.lead_normal


def tier_of(colour: str, context: StrengthContext) -> str:
    """The first tier of the active ladder that this colour belongs to."""
    belongs = {
        "trump": colour == context.trump,
        "lead": colour == context.lead,
        "normal": colour not in (context.trump, context.disadvantaged),
        "disadvantaged": colour == context.disadvantaged,
        "other": True,
    }
    return next((tier for tier in context.ladder.tiers if belongs[tier]), "other")


def strength_key(card: NumberCard, context: StrengthContext) -> tuple[int, int]:
    """Sort key, higher is stronger; ignores play order (see :func:`compare`)."""
    tiers = context.ladder.tiers
    tier = tier_of(card.colour, context)
    height = len(tiers) - tiers.index(tier) if tier in tiers else 0
    return (height, 0 if tier in UNRANKED_TIERS else card.number)


def compare(later: NumberCard, earlier: NumberCard, context: StrengthContext) -> int:
    """+1 if ``later`` (played after ``earlier``) is stronger, -1 if weaker, 0 if neither.

    Play order is an argument because the rulebook breaks ties between equal
    normal numbers under a disadvantaged lead in favour of the later card.
    """
    later_key, earlier_key = strength_key(later, context), strength_key(earlier, context)
    if later_key != earlier_key:
        return 1 if later_key > earlier_key else -1
    tier = tier_of(later.colour, context)
    if tier in context.ladder.later_wins_on_equal and tier not in UNRANKED_TIERS:
        return 1
    return 0


def stronger(later: NumberCard, earlier: NumberCard, context: StrengthContext) -> bool:
    """Whether ``later`` beats ``earlier``, which was played before it in the same trick."""
    return compare(later, earlier, context) > 0


def legal_plays(hand: Sequence[NumberCard], lead_colour: str | None) -> tuple[NumberCard, ...]:
    """Cards a player may play: the lead colour if they hold any (must follow), else anything."""
    following = tuple(card for card in hand if card.colour == lead_colour)
    return following or tuple(hand)


# ---------------------------------------------------------------------------
# The defensive stance, play by play


class StanceError(AssertionError):
    """The defensive stance left zero or several cards face up: the ladder is incomplete."""


@dataclass(frozen=True)
class TrickStep:
    seat: int  # index in play order, 0 = leader
    card: NumberCard
    played_face_up: bool
    turned_down: NumberCard | None  # the earlier card this play turned face down
    face_up: NumberCard  # the only face-up card after this play
    face_down: tuple[NumberCard, ...]


@dataclass(frozen=True)
class TrickResult:
    steps: tuple[TrickStep, ...]
    winner: int  # seat of the face-up card at the end
    lead: str


def play_trick(plays: Sequence[NumberCard], trump: str | None = None, disadvantaged: str | None = None,
               ladders: Ladders = SEED_LADDERS) -> TrickResult:
    """Play the cards in order, applying the two defensive-stance conditions literally.

    Condition 2: a card weaker than a face-up card is played face down.
    Condition 1: a face-up card weaker than the card just played face up turns down.
    The one-face-up invariant is then asserted, not assumed.
    """
    if not plays:
        raise ValueError("a trick needs at least one play")
    if trump is not None and trump == disadvantaged:
        raise ValueError(f"{trump} cannot be both trump and disadvantaged")
    context = StrengthContext(lead=plays[0].colour, trump=trump, disadvantaged=disadvantaged,
                              ladders=ladders)
    face_up: list[int] = []
    steps = []
    for seat, card in enumerate(plays):
        weaker_than_shown = any(compare(card, plays[i], context) < 0 for i in face_up)
        turned_down = None
        if not weaker_than_shown:
            beaten = [i for i in face_up if compare(card, plays[i], context) > 0]
            face_up = [i for i in face_up if i not in beaten]
            turned_down = plays[beaten[0]] if beaten else None
            face_up.append(seat)
        if len(face_up) != 1:
            shown = ", ".join(plays[i].id for i in face_up) or "none"
            raise StanceError(f"after playing {card.id} the face-up cards are {shown}; exactly one must be")
        steps.append(TrickStep(
            seat=seat, card=card, played_face_up=not weaker_than_shown, turned_down=turned_down,
            face_up=plays[face_up[0]],
            face_down=tuple(plays[i] for i in range(seat + 1) if i != face_up[0]),
        ))
    return TrickResult(steps=tuple(steps), winner=face_up[0], lead=context.lead)


# ---------------------------------------------------------------------------
# Bonuses


class BonusError(ValueError):
    """A bonus choice the rules forbid."""


@dataclass(frozen=True)
class Bonus:
    id: str
    effect: str  # trump | disadvantaged | exchange
    name: dict[str, str]
    text: dict[str, str]
    provisional: bool = False
    index: int = 0


@dataclass(frozen=True)
class BonusState:
    trump: str | None = None
    disadvantaged: str | None = None
    taken: tuple[str, ...] = ()  # bonus ids, in the order taken


def apply_bonus(state: BonusState, bonus: Bonus, colour: str | None, colours: Sequence[str],
                phases: int) -> BonusState:
    """The state after taking ``bonus``; raises :class:`BonusError` for an illegal choice."""
    if len(state.taken) >= phases:
        raise BonusError(f"only {phases} bonuses are taken in a game; {bonus.id} would be one more")
    if bonus.id in state.taken:
        raise BonusError(f"bonus {bonus.id} was already taken; each bonus is taken exactly once")
    if bonus.effect == "exchange":
        if colour is not None:
            raise BonusError(f"bonus {bonus.id} (exchange hands) takes no colour, got {colour!r}")
        return replace(state, taken=(*state.taken, bonus.id))
    if colour not in colours:
        raise BonusError(f"bonus {bonus.id} needs a colour, one of {', '.join(colours)}; got {colour!r}")
    other = state.disadvantaged if bonus.effect == "trump" else state.trump
    if colour == other:
        role = "disadvantaged" if bonus.effect == "trump" else "trump"
        raise BonusError(f"{colour} is already {role}; it cannot also be {bonus.effect}")
    return replace(state, taken=(*state.taken, bonus.id), **{bonus.effect: colour})


# ---------------------------------------------------------------------------
# rules.toml


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
        return max(int(self.play.get("rounds", 0)) - 1, 0)


_PLAY_KEYS = ("players", "rounds", "hand_size", "tricks_per_round")


class _Reader:
    def __init__(self, doc: TomlDoc, report: Report, languages: Sequence[str]) -> None:
        self.doc, self.report, self.languages = doc, report, tuple(languages)
        self.tables = TakeOverTables(doc=doc, data=doc.data)

    def error(self, message: str, *key: str | int, fix: str | None = None) -> None:
        self.report.error(message, self.doc.path, self.doc.line_of(*key), fix)

    def read(self) -> TakeOverTables:
        data, t = self.doc.data, self.tables
        components = _table(data, "components")
        t.components = {k: str(components.get(k, k)) for k in ("numbers", "markers", "goals")}
        order = _table(data, "colours").get("order")
        if not (isinstance(order, list) and order and all(isinstance(c, str) for c in order)
                and len(set(order)) == len(order)):
            self.error(f"colours.order must list distinct colour ids, got {order!r}", "colours")
        else:
            t.colours = tuple(order)
        numbers = _table(data, "numbers")
        t.number_min, t.number_max = int(numbers.get("min", 1)), int(numbers.get("max", 14))
        self._read_play(_table(data, "play"))
        self._read_ladders(_table(data, "ladder"))
        self._read_bonuses(data.get("bonus"))
        self._read_phrases(data.get("phrase"))
        for tier in TIERS:
            self._wording(_table(_table(data, "tier"), tier), "text", f"tier {tier}", "tier", tier)
        return t

    def _wording(self, entry: Mapping[str, Any], key: str, what: str, *where: str | int) -> dict[str, str]:
        wording = entry.get(key)
        wording = wording if isinstance(wording, Mapping) else {}
        for lang in self.languages:
            if not isinstance(wording.get(lang), str) or not wording[lang].strip():
                self.error(f"{what} has no {lang} wording ({key}.{lang})", *where, key)
        return {lang: text for lang, text in wording.items() if isinstance(text, str)}

    def _read_play(self, play: Mapping[str, Any]) -> None:
        for key in _PLAY_KEYS:
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


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    return value if isinstance(value, Mapping) else {}


def read_tables(doc: TomlDoc, report: Report, languages: Sequence[str] = ("en", "ja")) -> TakeOverTables:
    """Parse rules.toml, adding every structural problem to ``report``."""
    return _Reader(doc, report, languages).read()


# ---------------------------------------------------------------------------
# Checks


def stance_gaps(ladders: Ladders, colours: Sequence[str]) -> list[str]:
    """Situations where the ladders could leave two cards face up (empty = sound).

    Only the lead's tier and the tiers above it can ever hold the face-up card
    (the leader's card starts face up); each must be ranked, and one holding
    several colours needs the later-card tie rule, or two equal numbers tie.
    """
    gaps = []
    roles: list[str | None] = [None, *colours]
    for lead, trump, disadvantaged in itertools.product(colours, roles, roles):
        if trump is not None and trump == disadvantaged:
            continue
        context = StrengthContext(lead, trump, disadvantaged, ladders)
        tiers = context.ladder.tiers
        lead_tier = tier_of(lead, context)
        reachable = tiers[: tiers.index(lead_tier) + 1] if lead_tier in tiers else tiers
        for tier in reachable:
            members = [c for c in colours if tier_of(c, context) == tier]
            situation = f"lead {lead}, trump {trump or 'none'}, disadvantaged {disadvantaged or 'none'}"
            if tier in UNRANKED_TIERS and members:
                gaps.append(f"{situation}: the leader's card falls in unranked tier {tier!r}")
            elif len(members) > 1 and tier not in context.ladder.later_wins_on_equal:
                gaps.append(f"{situation}: tier {tier!r} holds {', '.join(members)} with no tie rule, so "
                            "two equal numbers would both stay face up")
    return gaps


class _Checker:
    def __init__(self, game: Game, tables: TakeOverTables, report: Report) -> None:
        self.game, self.t, self.report = game, tables, report
        self.doc = tables.doc

    def at(self, *key: str | int) -> tuple[Any, int | None]:
        return self.doc.path, self.doc.line_of(*key)

    def cards(self, role: str) -> tuple[Card, ...] | None:
        component = self.game.components.get(self.t.components.get(role, role))
        if component is None:
            self.report.error(f"the game has no component {self.t.components.get(role)!r} ({role})",
                              *self.at("components", role))
            return None
        return component.cards

    def run(self) -> None:
        self.number_cards()
        self.structure()
        self.goal_cards()
        self.bonuses()
        self.markers()
        self.ladders()
        if _table(self.t.data, "terms").get("provisional"):
            self.report.note("the Japanese terms in rules.toml [terms] are our choice, not the source's "
                             "(provisional)", *self.at("terms"))

    def number_cards(self) -> None:
        cards = self.cards("numbers")
        if cards is None or not self.t.colours:
            return
        expected = {(c, n) for c in self.t.colours for n in range(self.t.number_min, self.t.number_max + 1)}
        found: dict[tuple[str | None, int | None], int] = {}
        for card in cards:
            found[(card.colour, card.rank)] = found.get((card.colour, card.rank), 0) + card.count
        total = sum(found.values())
        if total != len(expected):
            self.report.error(f"{total} number cards, but {len(self.t.colours)} colours x numbers "
                              f"{self.t.number_min}-{self.t.number_max} make {len(expected)}", *self.at("numbers"))
        for colour, number in sorted(expected):
            if found.get((colour, number), 0) != 1:
                self.report.error(f"number card {colour} {number} appears {found.get((colour, number), 0)} "
                                  "times; every colour and number exactly once", *self.at("numbers"))
        for key in sorted(set(found) - expected, key=str):
            self.report.error(f"number card {key[0]} {key[1]} is outside {', '.join(self.t.colours)} x "
                              f"{self.t.number_min}-{self.t.number_max}", *self.at("numbers"))

    def structure(self) -> None:
        play = self.t.play
        if len(play) != len(_PLAY_KEYS):
            return
        players, rounds, hand, tricks = (play[k] for k in _PLAY_KEYS)
        deck = len(self.t.colours) * (self.t.number_max - self.t.number_min + 1)
        if players * hand != deck:
            self.report.error(f"{players} players x {hand} cards = {players * hand}, but there are {deck} number "
                              "cards; every card is dealt", *self.at("play", "hand_size"))
        if tricks != hand:
            self.report.error(f"{tricks} tricks per round, but a hand of {hand} cards plays {hand} tricks",
                              *self.at("play", "tricks_per_round"))
        if rounds != len(self.t.goal_numbers):
            self.report.error(f"{rounds} rounds, but each hand aims once at each of {len(self.t.goal_numbers)} "
                              "goal numbers", *self.at("play", "rounds"))
        for goal in self.t.goal_numbers:
            if not 0 <= goal <= tricks:
                self.report.error(f"goal number {goal} cannot be met in {tricks} tricks",
                                  *self.at("play", "goal_numbers"))
        if tuple(self.game.players) != (players, players):
            where = ((self.game.manifest.path, self.game.manifest.line_of("players")) if self.game.manifest
                     else self.at("play", "players"))
            self.report.error(f"game.toml says {self.game.players[0]}-{self.game.players[1]} players, but the "
                              f"deal is for exactly {players}", *where)

    def goal_cards(self) -> None:
        cards = self.cards("goals")
        players = self.t.play.get("players")
        if cards is None or players is None:
            return
        by_animal: dict[str, list[int]] = {}
        for card in cards:
            by_animal.setdefault(card.fields.get("animal", "?"), []).extend([card.rank or 0] * card.count)
        total = sum(len(ranks) for ranks in by_animal.values())
        wanted = players * len(self.t.goal_numbers)
        if total != wanted:
            self.report.error(f"{total} goal cards, but {players} players x goals "
                              f"{', '.join(map(str, self.t.goal_numbers))} make {wanted}",
                              *self.at("play", "goal_numbers"))
        if len(by_animal) != players:
            self.report.error(f"goal cards show {len(by_animal)} animals ({', '.join(sorted(by_animal))}); "
                              f"one set per player means {players}", *self.at("components", "goals"))
        for animal, ranks in sorted(by_animal.items()):
            if sorted(ranks) != sorted(self.t.goal_numbers):
                self.report.error(f"goal cards of {animal} carry {sorted(ranks)}, expected "
                                  f"{sorted(self.t.goal_numbers)} once each", *self.at("play", "goal_numbers"))

    def bonuses(self) -> None:
        bonuses = self.t.bonuses
        phases = self.t.bonus_phases
        if len(bonuses) != phases:
            self.report.error(f"{len(bonuses)} bonuses, but {phases} bonus phases (after rounds 1-{phases}) and "
                              "each bonus is taken exactly once", *self.at("bonus"))
        effects = [b.effect for b in bonuses.values()]
        for effect in BONUS_EFFECTS:
            if effects.count(effect) != 1:
                self.report.error(f"{effects.count(effect)} bonuses with effect {effect!r}; expected exactly 1",
                                  *self.at("bonus"))
        for bonus in bonuses.values():
            if bonus.provisional:
                self.report.note(f"bonus {bonus.id} ({bonus.name.get('en', bonus.effect)}) is our reading of an "
                                 "unclear rule (provisional); see its meaning", *self.at("bonus", bonus.index))

    def markers(self) -> None:
        markers = _table(self.t.data, "markers")
        if markers.get("provisional"):
            self.report.note("the 4 'trump cards' are read as two-sided colour markers (trump / disadvantaged); "
                             "the seed does not say, so this is provisional", *self.at("markers"))
        cards = self.cards("markers")
        if cards is None:
            return
        colours = sorted(str(card.colour) for card in cards for _ in range(card.count))
        if colours != sorted(self.t.colours):
            self.report.error(f"marker cards cover colours {colours}; expected one per colour "
                              f"({', '.join(self.t.colours)})", *self.at("components", "markers"))

    def ladders(self) -> None:
        for gap in stance_gaps(self.t.ladders, self.t.colours):
            self.report.error(f"strength ladder cannot keep exactly one card face up: {gap}", *self.at("ladder"))
            break


# ---------------------------------------------------------------------------
# Examples


def _colour_or_none(value: Any, colours: Sequence[str], key: str) -> str | None:
    if value in (None, "", NO_COLOUR):
        return None
    if value not in colours:
        raise ExampleError(f"inputs.{key} = {value!r} is not a colour ({', '.join(colours)}, or {NO_COLOUR!r})")
    return str(value)


def _card(game: Game, tables: TakeOverTables, text: Any) -> NumberCard:
    """A number card by id, from the game's own cards when it has them."""
    try:
        parsed = parse_number_card(text, tables.colours)
    except ValueError as exc:
        raise ExampleError(str(exc)) from None
    component = game.components.get(tables.components.get("numbers", "numbers"))
    if component is None:
        return parsed
    card = next((c for c in component.cards if c.id == parsed.id), None)
    if card is None or card.colour is None or card.rank is None:
        raise ExampleError(f"{parsed.id} is not a card of component {component.id!r}")
    return NumberCard(id=card.id, colour=card.colour, number=card.rank)


def _check_follow(game: Game, tables: TakeOverTables, inputs: Mapping[str, Any],
                  players: Sequence[str], plays: Sequence[NumberCard]) -> None:
    hands = inputs.get("hands")
    if hands is None:
        return
    if not isinstance(hands, list) or len(hands) != len(plays):
        raise ExampleError("inputs.hands must list one hand (a list of card ids) per play")
    lead = plays[0].colour
    for seat, (hand_ids, card) in enumerate(zip(hands, plays, strict=True)):
        hand = [_card(game, tables, c) for c in hand_ids]
        if card not in hand:
            raise ExampleError(f"{players[seat]} plays {card.id}, which is not in their hand")
        if seat and card not in legal_plays(hand, lead):
            raise ExampleError(f"{players[seat]} must follow {lead}: {card.id} is not a legal play")


def _run_trick(game: Game, tables: TakeOverTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    players, play_ids = inputs.get("players"), inputs.get("plays")
    if not isinstance(players, list) or not isinstance(play_ids, list) or len(players) != len(play_ids):
        raise ExampleError("inputs.players and inputs.plays must be lists of the same length "
                           "(play order, leader first)")
    plays = [_card(game, tables, card_id) for card_id in play_ids]
    trump = _colour_or_none(inputs.get("trump"), tables.colours, "trump")
    disadvantaged = _colour_or_none(inputs.get("disadvantaged"), tables.colours, "disadvantaged")
    _check_follow(game, tables, inputs, players, plays)
    try:
        result = play_trick(plays, trump, disadvantaged, tables.ladders)
    except ValueError as exc:
        raise ExampleError(str(exc)) from None
    return {
        "winner": players[result.winner],
        "face_up_after": [step.face_up.id for step in result.steps],
        "played_face_down": [step.card.id for step in result.steps if not step.played_face_up],
        "turned_down": [step.turned_down.id if step.turned_down else "" for step in result.steps],
    }


def _run_bonus(tables: TakeOverTables, inputs: Mapping[str, Any]) -> dict[str, Any]:
    sequence = inputs.get("sequence")
    if not isinstance(sequence, list):
        raise ExampleError("inputs.sequence must list the bonuses taken, e.g. [{ bonus = \"A\", colour = "
                           "\"green\" }, { bonus = \"C\" }]")
    state = BonusState()
    for step, choice in enumerate(sequence, start=1):
        if not isinstance(choice, Mapping) or choice.get("bonus") not in tables.bonuses:
            raise ExampleError(f"step {step}: name a bonus ({', '.join(tables.bonuses)}), got {choice!r}")
        try:
            state = apply_bonus(state, tables.bonuses[choice["bonus"]], choice.get("colour"), tables.colours,
                                tables.bonus_phases)
        except BonusError as exc:
            return {"valid": False, "rejected_step": step, "problem": str(exc),
                    "trump": state.trump or NO_COLOUR, "disadvantaged": state.disadvantaged or NO_COLOUR}
    return {"valid": True, "rejected_step": 0, "problem": "",
            "trump": state.trump or NO_COLOUR, "disadvantaged": state.disadvantaged or NO_COLOUR}


# ---------------------------------------------------------------------------
# The rules module


def _aid_word(tables: TakeOverTables, aid: str, key: str, lang: str) -> Any:
    return _word(_table(_table(_table(tables.data, "aid"), aid), key), lang)


class TakeOverRules(GameRules):
    example_kinds = frozenset({"trick", "bonus"})

    def tables(self, game: Game, report: Report | None = None) -> TakeOverTables | None:
        if game.rules_data is None:
            if report is not None:
                report.error("take_over needs rules.toml (ladders, bonuses, phrases)", game.path)
            return None
        from pnp.diagnostics import Report

        return read_tables(game.rules_data, report if report is not None else Report(), game.languages)

    def check(self, game: Game, report: Report) -> None:
        tables = self.tables(game, report)
        if tables is not None:
            _Checker(game, tables, report).run()

    def run_example(self, game: Game, example: Example) -> Mapping[str, Any]:
        tables = self.tables(game)
        if tables is None:
            raise ExampleError("take_over examples need rules.toml")
        if example.kind == "trick":
            return _run_trick(game, tables, example.inputs)
        if example.kind == "bonus":
            return _run_bonus(tables, example.inputs)
        return super().run_example(game, example)

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        tables = self.tables(game)
        if tables is None:
            return {}
        play = tables.play
        goals = tables.goal_numbers
        return {
            **play,
            "colours": len(tables.colours),
            "number_min": tables.number_min,
            "number_max": tables.number_max,
            "number_cards": len(tables.colours) * (tables.number_max - tables.number_min + 1),
            "goal_min": min(goals, default=0),
            "goal_max": max(goals, default=0),
            "goals_each": len(goals),
            "goal_cards": play.get("players", 0) * len(goals),
            "bonuses": len(tables.bonuses),
            "bonus_phases": tables.bonus_phases,
            "pass_hands": _table(tables.data, "play").get("pass_hands", "left"),
        }

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        """Marker sides and the goal-card word, from rules.toml, in the card's language."""
        tables = self.tables(game)
        if tables is None:
            return {}
        sides = _table(_table(tables.data, "markers"), "side")
        terms = _table(tables.data, "terms")
        texts: dict[str, dict[str, str]] = {}
        for card in game.all_cards():
            if card.kind == "marker":
                texts[card.id] = {"trump": _word(_table(sides, "trump"), lang),
                                  "disadvantaged": _word(_table(sides, "disadvantaged"), lang)}
            elif card.kind == "goal":
                texts[card.id] = {"goal": _word(_table(terms, "goal_card"), lang)}
        return texts

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        tables = self.tables(game)
        if tables is None:
            return []
        return [
            self._ladder_aid(tables, "lead_normal", tables.ladders.lead_normal, lang),
            self._ladder_aid(tables, "lead_disadvantaged", tables.ladders.lead_disadvantaged, lang),
            self._bonus_aid(tables, lang),
            self._phrase_aid(tables, lang),
        ]

    def _ladder_aid(self, tables: TakeOverTables, ladder_id: str, ladder: Ladder, lang: str) -> AidTable:
        tier_words = _table(tables.data, "tier")
        rows = [[str(place), _word(_table(tier_words, tier).get("text", {}), lang)]
                for place, tier in enumerate(ladder.tiers, start=1)]
        note = _aid_word(tables, ladder_id, "note", lang)
        return AidTable(id=f"strength-{ladder_id.replace('_', '-')}", title=_aid_word(tables, ladder_id, "title", lang),
                        header=list(_aid_word(tables, "ladder", "header", lang) or ["", ""]), rows=rows,
                        notes=[note] if note else [])

    def _bonus_aid(self, tables: TakeOverTables, lang: str) -> AidTable:
        rows = [[b.id, _word(b.name, lang), _word(b.text, lang)] for b in tables.bonuses.values()]
        note = _aid_word(tables, "bonuses", "note", lang)
        return AidTable(id="bonuses", title=_aid_word(tables, "bonuses", "title", lang),
                        header=list(_aid_word(tables, "bonuses", "header", lang) or []), rows=rows,
                        notes=[note] if note else [])

    def _phrase_aid(self, tables: TakeOverTables, lang: str) -> AidTable:
        note = _aid_word(tables, "phrases", "note", lang)
        return AidTable(id="phrases", title=_aid_word(tables, "phrases", "title", lang),
                        header=list(_aid_word(tables, "phrases", "header", lang) or []),
                        rows=[[_word(phrase, lang)] for phrase in tables.phrases], notes=[note] if note else [])


RULES = TakeOverRules()

"""``pnp check`` for Take Over That Job: the cards, the deal, bonuses, markers and ladders."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import closest, listed, report_blank_column, where
from pnp.rules.take_over.bonuses import BONUS_EFFECTS
from pnp.rules.take_over.stance import stance_gaps
from pnp.rules.take_over.tables import PLAY_KEYS, TakeOverTables, section

if TYPE_CHECKING:
    from pnp.api import Card, Game, Report


class Checker:
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
        if not self.game.countable(component):
            return None  # a row in error (reported there) would only be counted missing here as well
        return component.cards

    def run(self) -> None:
        self.number_cards()
        self.structure()
        self.goal_cards()
        self.bonuses()
        self.markers()
        self.ladders()
        if section(self.t.data, "terms").get("provisional"):
            self.report.note("the Japanese terms in rules.toml [terms] are our choice, not the source's "
                             "(provisional)", *self.at("terms"))

    def number_cards(self) -> None:
        cards = self.cards("numbers")
        if cards is None or not self.t.colours:
            return
        expected = {(c, n) for c in self.t.colours for n in range(self.t.number_min, self.t.number_max + 1)}
        if self._numbers_grid_agrees(expected):
            return
        found: dict[tuple[str | None, int | None], int] = {}
        for card in cards:
            found[(card.colour, card.rank)] = found.get((card.colour, card.rank), 0) + card.count
        total = sum(found.values())
        if total != len(expected):
            self.report.error(f"{total} number cards, but {len(self.t.colours)} colours x numbers "
                              f"{self.t.number_min}-{self.t.number_max} make {len(expected)}", *self.at("numbers"))
        wrong: dict[int, list[str]] = {}  # how often found -> the cards found that often
        for colour, number in sorted(expected, key=lambda cell: (self.t.colours.index(cell[0]), cell[1])):
            if found.get((colour, number), 0) != 1:
                wrong.setdefault(found.get((colour, number), 0), []).append(f"{colour} {number}")
        for times, cards in sorted(wrong.items()):  # a list cut short is one problem, not one per card
            self.report.error(f"number card {listed(cards, 8)} {'appears' if len(cards) == 1 else 'appear'} "
                              f"{times} times; every colour and number exactly once", *self.at("numbers"))
        for key in sorted(set(found) - expected, key=str):
            self.report.error(f"number card {key[0]} {key[1]} is outside {', '.join(self.t.colours)} x "
                              f"{self.t.number_min}-{self.t.number_max}", *self.at("numbers"))

    def _numbers_grid_agrees(self, expected: set[tuple[str, int]]) -> bool:
        """Whether game.toml declares a grid for the number cards, and it is the rules' colours x numbers.

        The generic grid check then counts the cards, at their lines, and this one would only say it
        again; a grid of other colours or numbers is said to disagree, once, and the cards are left to it.
        """
        component = self.game.components[self.t.components.get("numbers", "numbers")]
        grids = [grid for grid in component.grids if grid.colours and not grid.suits]
        if not grids:
            return False
        declared = {(colour, rank) for grid in grids if grid.copies == 1
                    for colour in grid.colours for rank in grid.ranks}
        if declared != expected or any(grid.copies != 1 for grid in grids):
            self.report.error(f"the number cards' grid in game.toml is not the rules' "
                              f"{', '.join(self.t.colours)} x {self.t.number_min}-{self.t.number_max}, once each",
                              *self.at("numbers"), "make the grid and rules.toml [numbers] agree")
        return True

    def structure(self) -> None:
        play = self.t.play
        if len(play) != len(PLAY_KEYS):
            return
        players, rounds, hand, tricks = (play[k] for k in PLAY_KEYS)
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
        if tuple(self.game.players) != (players, players) and "players" not in self.game.unreadable:
            where = ((self.game.manifest.path, self.game.manifest.line_of("players")) if self.game.manifest
                     else self.at("play", "players"))
            self.report.error(f"game.toml says {self.game.players[0]}-{self.game.players[1]} players, but the "
                              f"deal is for exactly {players}", *where)

    def goal_cards(self) -> None:
        cards = self.cards("goals")
        players = self.t.play.get("players")
        if cards is None or players is None:
            return
        if report_blank_column(cards, "rank", "goal card", "rank", self.report):
            return  # which numbers each animal carries would only repeat it
        by_animal: dict[str, list[int]] = {}
        for card in cards:
            by_animal.setdefault(card.fields.get("animal", "?"), []).extend([card.rank or 0] * card.count)
        self._misspelt_animals(cards, by_animal, players)
        total = sum(len(ranks) for ranks in by_animal.values())
        wanted = players * len(self.t.goal_numbers)
        component = self.game.components[self.t.components.get("goals", "goals")]
        if total != wanted and self.game.as_declared(component):  # else said at game.toml's count
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

    def _misspelt_animals(self, cards: tuple[Card, ...], by_animal: dict[str, list[int]], players: int) -> None:
        """With more animals than players, an animal on fewer cards whose goals are just what one other
        animal's set lacks (or the one of several spelt most alike) is that animal mistyped: said once at
        each of its cards, and counted as meant. Else 'cat' as 'kat' was four errors: five animals, cat's
        set short, kat's, and the face's unknown icon."""
        goals = sorted(self.t.goal_numbers)
        for stray in sorted(by_animal, key=lambda animal: (len(by_animal[animal]), animal)):
            if len(by_animal) <= players:
                return
            completed = [animal for animal in by_animal if animal != stray
                         and len(by_animal[animal]) > len(by_animal[stray])
                         and sorted(by_animal[animal] + by_animal[stray]) == goals]
            meant = completed[0] if len(completed) == 1 else closest(stray, completed)
            if meant is None:
                continue
            lacks = ", ".join(str(rank) for rank in sorted(by_animal[stray]))
            for card in cards:
                if card.fields.get("animal") == stray:
                    self.report.error(f"card {card.id!r}: animal {stray!r} would make {len(by_animal)} sets "
                                      f"for {players} players, and {meant}'s set lacks goal {lacks}",
                                      *where(card.source), f"did you mean {meant!r}?")
            by_animal[meant] += by_animal.pop(stray)

    def bonuses(self) -> None:
        bonuses = self.t.bonuses
        phases = self.t.bonus_phases
        if len(bonuses) != phases and "rounds" in self.t.play:  # unreadable rounds: reported at its line
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
        markers = section(self.t.data, "markers")
        if markers.get("provisional"):
            self.report.note("the 4 'trump cards' are read as two-sided colour markers (trump / disadvantaged); "
                             "the seed does not say, so this is provisional", *self.at("markers"))
        cards = self.cards("markers")
        if cards is None:
            return
        if report_blank_column(cards, "colour", "marker card", "colour", self.report):
            return  # which colours the markers cover would only repeat it
        colours = sorted(str(card.colour) for card in cards for _ in range(card.count))
        if colours != sorted(self.t.colours):
            self.report.error(f"marker cards cover colours {colours}; expected one per colour "
                              f"({', '.join(self.t.colours)})", *self.at("components", "markers"))

    def ladders(self) -> None:
        for gap in stance_gaps(self.t.ladders, self.t.colours):
            self.report.error(f"strength ladder cannot keep exactly one card face up: {gap}", *self.at("ladder"))
            break

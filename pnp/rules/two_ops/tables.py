"""What rules.toml says, typed: the deck, the operator and goal entries, the deal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnp.api import Expression
from pnp.rules.two_ops.cards import CardError, PlayingCard

if TYPE_CHECKING:
    from pnp.api import TomlDoc


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
    unreadable_ranks: set[str] = field(default_factory=set)  # letters whose value is in error (reported)
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

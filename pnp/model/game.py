"""The typed rules model of a game: what the validators and renderers read.

Every object remembers where it was written (:class:`Source`), so a check
that fails deep in a rules module can still say "cards/deck.csv:14".
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.load.toml_lines import TomlDoc
from pnp.model.sizes import CARD_PRESETS


@dataclass(frozen=True)
class Source:
    file: Path
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else str(self.file)

    def in_error(self, rows: Collection[tuple[Path, int]]) -> bool:
        """Whether this row is among ``rows`` (Report.rows_in_error): a check that would fail on it again
        for the same mistake leaves it out."""
        return (Path(self.file).resolve(), self.line) in rows


def where(source: Source | None) -> tuple[Path | None, int | None]:
    """(file, line) for a report entry, from a model object's optional source."""
    return (source.file, source.line) if source is not None else (None, None)


@dataclass(frozen=True)
class Term:
    """A named thing in the game's vocabulary: a colour, suit or card kind."""

    id: str
    names: dict[str, str]  # language -> display name
    rgb: str | None = None  # "#rrggbb", for colours
    colour: str | None = None  # for suits: the colour id they print in
    symbol: str | None = None  # icon name or a character, for B/W legibility
    extra: dict[str, Any] = field(default_factory=dict)
    source: Source | None = None
    in_error: bool = False  # a value of its table could not be read (reported there)

    def name(self, lang: str) -> str:
        return self.names.get(lang) or next(iter(self.names.values()), self.id)


@dataclass(frozen=True)
class Card:
    """One distinct card (a CSV row); ``count`` copies are printed."""

    id: str
    component: str
    count: int
    kind: str | None = None
    suit: str | None = None
    colour: str | None = None
    rank: int | None = None
    texts: dict[str, dict[str, str]] = field(default_factory=dict)  # field -> lang -> text
    fields: dict[str, str] = field(default_factory=dict)  # declared extra columns
    provisional: bool = False
    source: Source | None = None

    def text(self, name: str, lang: str) -> str:
        return self.texts.get(name, {}).get(lang, "")


@dataclass(frozen=True)
class GridRule:
    """A declared suit × rank grid: each combination exactly ``copies`` times."""

    kinds: tuple[str, ...]
    suits: tuple[str, ...]
    colours: tuple[str, ...]
    ranks: tuple[int, ...]
    copies: int
    source: Source | None = None

    @property
    def axis(self) -> tuple[str, tuple[str, ...]]:
        """The card attribute the grid places cards by, and its values: suits if it has them, else colours."""
        return ("suit", self.suits) if self.suits else ("colour", self.colours)


@dataclass(frozen=True)
class Component:
    """A set of pieces sharing size, shape and back (a deck, the coins...)."""

    id: str
    kind: str  # "cards" | "tokens" | "dice" | ...
    names: dict[str, str]
    count: int  # declared total number of pieces
    size: tuple[float, float] | None  # width, height in mm at portrait
    shape: str = "rect"  # "rect" | "round"
    printed: bool = True  # False for dice the players bring
    face: str | None = None  # layout name
    back: str | None = None  # layout name
    cards_file: Path | None = None
    provisional: str | None = None  # why the content is a reconstruction
    fields: tuple[str, ...] = ()
    grids: tuple[GridRule, ...] = ()
    cards: tuple[Card, ...] = ()
    source: Source | None = None
    list_failed: bool = False  # the card list could not be read: skip checks that count it
    count_known: bool = True  # False: game.toml's count is in error (reported), so nothing is compared with it
    fields_known: bool = True  # False: game.toml's fields are in error (reported): the extra columns are unknown
    descriptions: dict[str, str] = field(default_factory=dict)

    @property
    def trim_mm(self) -> tuple[float, float]:
        """The printed size: the declared one, else a poker card (layouts are drawn at some size)."""
        return self.size or CARD_PRESETS["poker"]

    def name(self, lang: str) -> str:
        return self.names.get(lang) or next(iter(self.names.values()), self.id)

    @property
    def found(self) -> int:
        return sum(card.count for card in self.cards)


@dataclass(frozen=True)
class Deal:
    """Cards of one pool at one player count: how many are used and dealt."""

    pool: str  # component id
    in_play: int
    hand: int
    revealed: int = 0
    left: int | None = None  # cards still in hand when the round ends
    kinds: tuple[str, ...] = ()  # only these card kinds of the pool, e.g. Two Ops' pips
    pool_line: int | None = field(default=None, compare=False)  # where game.toml names the pool
    in_play_line: int | None = field(default=None, compare=False)  # where it says in_play


@dataclass(frozen=True)
class SetupRow:
    """Setup for one player count. ``hand`` etc. read the main deal."""

    players: int
    main: Deal
    also: dict[str, Deal] = field(default_factory=dict)
    tricks: int | None = None
    colours: int | None = None
    source: Source | None = None
    unreadable: frozenset[str] = frozenset()  # keys in error (reported): None here, compared with nothing
    colours_line: int | None = field(default=None, compare=False)  # where it says colours

    @property
    def in_play(self) -> int:
        return self.main.in_play

    @property
    def hand(self) -> int:
        return self.main.hand

    @property
    def revealed(self) -> int:
        return self.main.revealed

    @property
    def left(self) -> int | None:
        return self.main.left

    @property
    def deals(self) -> dict[str, Deal]:
        return {"main": self.main, **self.also}


@dataclass(frozen=True)
class Example:
    """A worked example: inputs and the stated result, recomputed on check."""

    id: str
    kind: str
    inputs: dict[str, Any]
    expect: dict[str, Any]
    deviation: str | None = None  # a known seed erratum: the seed's result is wrong
    source: Source | None = None
    expect_line: int | None = None
    input_lines: dict[str, int] = field(default_factory=dict)  # input -> its line, for an error about it
    corrected: dict[str, Any] = field(default_factory=dict)  # a deviation's results as the rules give them
    corrected_line: int | None = None


@dataclass(frozen=True)
class AidSpec:
    """An aid table declared in game.toml (``[[aid]]``): which data it lists, and how; made into a
    :class:`pnp.rules.base.AidTable` per language by pnp.compose.data_aids."""

    id: str
    source: str  # "cards" | "setup" | "components"
    titles: dict[str, str]
    columns: tuple[str, ...] = ()
    component: str | None = None  # for source = "cards"
    kinds: tuple[str, ...] = ()  # only cards of these kinds
    sort: str | None = None  # a column; "-points" sorts high to low
    headers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # language -> a header per column
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # language -> footnotes
    place: Source | None = None


@dataclass(frozen=True)
class SeedNote:
    """A known gap or erratum in the source material, reported as a note."""

    id: str
    text: str
    source: Source | None = None


@dataclass
class Game:
    id: str
    path: Path
    titles: dict[str, str]
    source_language: str
    languages: tuple[str, ...]
    players: tuple[int, int]
    credits: dict[str, Any]
    terms: dict[str, str]
    colours: dict[str, Term]
    suits: dict[str, Term]
    kinds: dict[str, Term]
    components: dict[str, Component]
    setup: dict[int, SetupRow]
    rules: str | None = None  # rules module name in pnp.rules
    rules_data: TomlDoc | None = None  # rules.toml: game-specific tables
    examples: tuple[Example, ...] = ()
    examples_data: TomlDoc | None = None  # examples.toml as read, for its other tables ([player_names])
    notes: tuple[SeedNote, ...] = ()
    aids: tuple[AidSpec, ...] = ()  # [[aid]] tables declared in game.toml
    palette: dict[str, str] = field(default_factory=dict)
    manifest: TomlDoc | None = None
    subtitles: dict[str, str] = field(default_factory=dict)
    translator_notes: dict[str, str] = field(default_factory=dict)  # printed on the title page
    minutes: int | None = None
    age: int | None = None
    rank_labels: dict[int, str] = field(default_factory=dict)  # e.g. 1 -> "A" for a standard deck
    fonts: dict[str, Path] = field(default_factory=dict)  # role -> the game's own font file, if it names one
    #: parts of game.toml in error ("players", "setup"), reported where they are: checks that would compare
    #: with them (every player count against the setup rows) stay quiet rather than repeat the error
    unreadable: frozenset[str] = frozenset()

    def rank_label(self, rank: int | None) -> str:
        if rank is None:
            return ""
        return self.rank_labels.get(rank, str(rank))

    def title(self, lang: str) -> str:
        # a manifest without a title is reported as such; the checks after it still need a name
        return self.titles.get(lang) or self.titles.get(self.source_language) or self.id

    def author(self, lang: str) -> str:
        """The credited author, in ``lang`` when the manifest words it per language."""
        author = self.credits.get("author", "")
        if isinstance(author, dict):
            return str(author.get(lang) or author.get(self.source_language) or next(iter(author.values()), ""))
        return str(author)

    def cards(self, component: str) -> tuple[Card, ...]:
        return self.components[component].cards

    def names_unknown_terms(self, card: Card) -> bool:
        """Whether the card names a kind, suit or colour the game does not declare, or declares in error
        (an rgb that is no colour): reported once, by the vocabulary check or at the term; checks and
        layouts that would use the term on the card leave it alone."""
        return any(value is not None and (value not in known or known[value].in_error)
                   for value, known in ((card.kind, self.kinds), (card.suit, self.suits), (card.colour, self.colours)))

    @property
    def examples_unreadable(self) -> bool:
        """examples.toml is there but could not be read (reported): which examples it holds is unknown."""
        return self.examples_data is None and not self.examples and (self.path / "examples.toml").exists()

    def countable(self, component: Component) -> bool:
        """Whether a component's cards can be counted and placed: no row of its list is in error and none
        names a term in error. Else the totals, grids and rules' counts would repeat those errors."""
        return not component.list_failed and not any(map(self.names_unknown_terms, component.cards))

    def as_declared(self, component: Component) -> bool:
        """Countable, and holding the number of pieces game.toml declares (if it declares one). Else the
        mismatch is reported once (at a card's count, or at the declaration), and what the rules work
        out from the counts, such as how many players the deck serves, would say it again."""
        return self.countable(component) and (not component.count_known or component.found == component.count)

    def all_cards(self) -> Iterator[Card]:
        for component in self.components.values():
            yield from component.cards

    def card(self, card_id: str) -> Card | None:
        for card in self.all_cards():
            if card.id == card_id:
                return card
        return None

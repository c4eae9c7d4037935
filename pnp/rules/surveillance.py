"""Gadget Trick's surveillance conditions: a small language, parsed, never eval'd.

A surveillance card has two conditions written in its CSV row. They are a
language rather than free text so that ``pnp check`` can prove every card can
fire, and so that the printed English and Japanese texts are generated from
one parsed tree and can never disagree with each other or with the model.

Activation (on which tricks the card is checked)::

    activation := "every" "trick"              every trick
                | "trick" INT                  that trick only
                | "tricks" INT "-" INT         an inclusive range ("–" also accepted)
                | "from" "trick" INT           that trick and every later one

Removal (which players the card catches)::

    condition   := conjunction { "or" conjunction }
    conjunction := atom { "and" atom }
    atom        := "(" condition ")" | amount COMPARE INT | test
    amount      := "won" "(" selector ")"      won cards matching the selector
                 | "count" "(" "won" ")"       all won cards
                 | "sum" "(" "won" ")"         total of the numbers on won cards
                 | "trick" "." "total"         total of the numbers in the trick just won
    test        := "trick" "." "contains" "(" INT ")"   the trick just won holds that number
                 | "winner" "." "played" "(" selector ")"  won it with such a card
    selector    := COLOUR | "trump" | "number" "=" INT
    COMPARE     := ">=" | ">" | "<=" | "<" | "=="

Meaning. A removal condition is evaluated for each player still in play, on
their won pile after the trick's cards have been taken. Terms about the trick
just played (``trick.*``, ``winner.*``) concern only the player who won it: for
everyone else they are false. A card watches the thief holding the loot, so
``trick.total >= 30`` must not remove the players who merely played to it.

Feasibility (:func:`can_fire`) bounds each term from above by the cards in
play and the cards that can have been played by the card's last active trick.
The card the winner played is one card: every ``winner.played`` term of a
conjunction describes it, so the check looks for one colour, one number and
one trump suit in play that meet them all (``winner.played(trump) and
winner.played(red)`` is a red card with red as trump; two colours, or two
numbers, are never one card). Any colour and any number in play may be paired,
since gadgets may change a card's number. Other terms are judged one by one,
so the check is sound (it never rejects a card that can fire) but not complete
(``won(red) >= 5 and won(red) < 3`` still passes).

Clashes (:func:`clashes`) name the conjunctions that fail for that reason
alone, whatever the deck: ``winner.played(red) and winner.played(blue)`` would
be printed as "a red blue card". The same term twice is only redundant: it
holds, and the text says it once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from string import Formatter
from typing import NamedTuple

# --------------------------------------------------------------------------- model


class PlayedCard(NamedTuple):
    """A trick card as conditions see it; gadgets may change the number."""

    colour: str
    number: int


@dataclass(frozen=True)
class Selector:
    """Which cards a term counts: a colour, the trump suit, or a number."""

    kind: str  # "colour" | "trump" | "number"
    value: str | int | None = None

    def matches(self, card: PlayedCard, trump: str) -> bool:
        if self.kind == "colour":
            return card.colour == self.value
        if self.kind == "trump":
            return card.colour == trump
        return card.number == self.value

    def __str__(self) -> str:
        """As written in a condition: ``red``, ``trump``, ``number=7``."""
        if self.kind == "number":
            return f"number={self.value}"
        return "trump" if self.kind == "trump" else str(self.value)


@dataclass(frozen=True)
class Activation:
    """The tricks a card is checked on: ``first`` to ``last`` (None: to the end)."""

    form: str  # "every" | "trick" | "range" | "from": kept for the printed text
    first: int = 1
    last: int | None = None

    def numbers(self) -> tuple[int, ...]:
        """The trick numbers written on the card, for range checks."""
        if self.form == "every":
            return ()
        return (self.first,) if self.last is None else tuple(dict.fromkeys((self.first, self.last)))

    def shifted(self, by: int, from_trick: int) -> Activation:
        """The card in a shorter game: written numbers ≥ ``from_trick`` move down by ``by``."""
        def move(number: int | None) -> int | None:
            return number - by if number is not None and number >= from_trick else number
        first = move(self.first)
        return Activation(self.form, first if first is not None else 1, move(self.last))

    def active(self, trick: int) -> bool:
        return self.first <= trick and (self.last is None or trick <= self.last)

    def last_active(self, length: int) -> int:
        return length if self.last is None else min(self.last, length)


@dataclass(frozen=True)
class Won:
    selector: Selector


@dataclass(frozen=True)
class WonCount:
    pass


@dataclass(frozen=True)
class WonSum:
    pass


@dataclass(frozen=True)
class TrickTotal:
    pass


Amount = Won | WonCount | WonSum | TrickTotal


@dataclass(frozen=True)
class Compare:
    amount: Amount
    op: str  # one of COMPARISONS
    value: int


@dataclass(frozen=True)
class TrickContains:
    number: int


@dataclass(frozen=True)
class WinnerPlayed:
    selector: Selector


@dataclass(frozen=True)
class AllOf:
    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class AnyOf:
    parts: tuple[Condition, ...]


Condition = Compare | TrickContains | WinnerPlayed | AllOf | AnyOf

COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    "==": lambda a, b: a == b,
}

# --------------------------------------------------------------------------- tokens


class ConditionError(ValueError):
    """A condition that does not parse, or names something the game lacks."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message if column is None else f"{message} (column {column})")
        self.column = column


class Token(NamedTuple):
    kind: str  # "int" | "word" | "op" | "end"
    text: str
    column: int  # 1-based


_TOKEN = re.compile(
    r"(?P<int>\d+)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z_][A-Za-z0-9_]*)*)"  # colour ids may hold a hyphen
    r"|(?P<op>>=|<=|==|[<>=().\-–])"
)


def tokenize(text: str) -> list[Token]:
    """Split a condition into tokens; anything unexpected is an error at its column."""
    tokens: list[Token] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            break
        match = _TOKEN.match(text, position)
        if match is None:
            raise ConditionError(f"unexpected character {text[position]!r}", position + 1)
        value = match.group()
        tokens.append(Token(match.lastgroup or "op", "-" if value == "–" else value, position + 1))
        position = match.end()
    tokens.append(Token("end", "end of text", len(text) + 1))
    return tokens


# --------------------------------------------------------------------------- parser


class _Parser:
    """Recursive descent over the grammar in the module docstring."""

    def __init__(self, text: str, colours: Collection[str]) -> None:
        if not text.strip():
            raise ConditionError("the condition is empty")
        self.tokens = tokenize(text)
        self.index = 0
        self.colours = colours

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def take(self) -> Token:
        token = self.token
        self.index += 1
        return token

    def _peek(self, ahead: int) -> Token:
        return self.tokens[min(self.index + ahead, len(self.tokens) - 1)]

    def expect(self, text: str) -> Token:
        token = self.take()
        if token.text != text:
            raise ConditionError(f"expected {text!r} but found {token.text!r}", token.column)
        return token

    def integer(self) -> int:
        token = self.take()
        if token.kind != "int":
            raise ConditionError(f"expected a number but found {token.text!r}", token.column)
        return int(token.text)

    def finish(self) -> None:
        if self.token.kind != "end":
            raise ConditionError(f"unexpected {self.token.text!r} after a complete condition", self.token.column)

    # activation -----------------------------------------------------------
    def activation(self) -> Activation:
        word = self.take()
        if word.text == "every":
            self.expect("trick")
            return Activation("every")
        if word.text == "from":
            self.expect("trick")
            return Activation("from", self.integer(), None)
        if word.text == "trick":
            number = self.integer()
            return Activation("trick", number, number)
        if word.text == "tricks":
            first_token = self.token
            first = self.integer()
            self.expect("-")
            last = self.integer()
            if last < first:
                raise ConditionError(f"the range {first}-{last} is empty", first_token.column)
            return Activation("range", first, last)
        raise ConditionError(
            f"unknown activation {word.text!r}: write 'every trick', 'trick N', 'tricks A-B' or 'from trick N'",
            word.column,
        )

    # removal --------------------------------------------------------------
    def condition(self) -> Condition:
        parts = [self.conjunction()]
        while self.token.text == "or":
            self.take()
            parts.append(self.conjunction())
        return parts[0] if len(parts) == 1 else AnyOf(tuple(parts))

    def conjunction(self) -> Condition:
        parts = [self.atom()]
        while self.token.text == "and":
            self.take()
            parts.append(self.atom())
        return parts[0] if len(parts) == 1 else AllOf(tuple(parts))

    def atom(self) -> Condition:
        token = self.token
        if token.text == "(":
            self.take()
            inner = self.condition()
            self.expect(")")
            return inner
        if token.text == "winner":
            self.take()
            self.expect(".")
            self.expect("played")
            self.expect("(")
            selector = self.selector()
            self.expect(")")
            return WinnerPlayed(selector)
        if token.text == "trick" and self._peek(2).text == "contains":
            self.take()
            self.expect(".")
            self.take()
            self.expect("(")
            number = self.integer()
            self.expect(")")
            return TrickContains(number)
        amount = self.amount()
        op = self.take()
        if op.text not in COMPARISONS:
            raise ConditionError(f"expected a comparison ({' '.join(COMPARISONS)}) but found {op.text!r}",
                                 op.column)
        return Compare(amount, op.text, self.integer())

    def amount(self) -> Amount:
        token = self.take()
        if token.kind == "end":
            raise ConditionError("the condition ends too early: a term is missing", token.column)
        if token.text == "won":
            self.expect("(")
            selector = self.selector()
            self.expect(")")
            return Won(selector)
        if token.text in ("count", "sum"):
            self.expect("(")
            self.expect("won")
            self.expect(")")
            return WonCount() if token.text == "count" else WonSum()
        if token.text == "trick":
            self.expect(".")
            self.expect("total")
            return TrickTotal()
        raise ConditionError(
            f"unknown term {token.text!r}: conditions use won(...), count(won), sum(won), trick.total, "
            "trick.contains(N), winner.played(...)",
            token.column,
        )

    def selector(self) -> Selector:
        token = self.take()
        if token.text == "trump":
            return Selector("trump")
        if token.text == "number":
            self.expect("=")
            return Selector("number", self.integer())
        if token.kind == "word" and token.text in self.colours:
            return Selector("colour", token.text)
        if token.kind == "word":
            known = ", ".join(self.colours) or "none"
            raise ConditionError(f"unknown colour {token.text!r} (colours: {known}; or trump, number=N)",
                                 token.column)
        raise ConditionError(f"expected a colour, 'trump' or 'number=N' but found {token.text!r}", token.column)


def parse_activation(text: str) -> Activation:
    """Parse an activation condition; raises :class:`ConditionError`."""
    parser = _Parser(text, ())
    activation = parser.activation()
    parser.finish()
    if activation.first < 1:
        raise ConditionError("trick numbers start at 1")
    return activation


def parse_removal(text: str, colours: Collection[str]) -> Condition:
    """Parse a removal condition naming only ``colours``; raises :class:`ConditionError`."""
    parser = _Parser(text, colours)
    condition = parser.condition()
    parser.finish()
    return condition


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class PlayerView:
    """What a condition may look at for one player after a trick."""

    won: Sequence[PlayedCard]  # the whole won pile, this trick included
    trump: str
    took: Sequence[PlayedCard] | None = None  # the trick just played, if this player won it
    own_card: PlayedCard | None = None  # the card this player played to it


def holds(condition: Condition, view: PlayerView) -> bool:
    """Whether ``condition`` catches the player seen through ``view``."""
    if isinstance(condition, AllOf):
        return all(holds(part, view) for part in condition.parts)
    if isinstance(condition, AnyOf):
        return any(holds(part, view) for part in condition.parts)
    if isinstance(condition, TrickContains):
        return view.took is not None and any(card.number == condition.number for card in view.took)
    if isinstance(condition, WinnerPlayed):
        return (view.took is not None and view.own_card is not None
                and condition.selector.matches(view.own_card, view.trump))
    if isinstance(condition.amount, TrickTotal) and view.took is None:
        return False
    return COMPARISONS[condition.op](_amount(condition.amount, view), condition.value)


def _amount(amount: Amount, view: PlayerView) -> int:
    if isinstance(amount, Won):
        return sum(1 for card in view.won if amount.selector.matches(card, view.trump))
    if isinstance(amount, WonCount):
        return len(view.won)
    if isinstance(amount, WonSum):
        return sum(card.number for card in view.won)
    return sum(card.number for card in view.took or ())


# --------------------------------------------------------------------------- feasibility


@dataclass(frozen=True)
class Table:
    """The cards a condition could meet at one player count, by a given trick."""

    players: int
    in_play: Sequence[PlayedCard]  # every trick card in play at this player count
    tricks_played: int  # the card's last active trick

    @property
    def playable(self) -> int:
        """Cards that can have been played by then: the most a won pile can hold."""
        return min(self.players * self.tricks_played, len(self.in_play))


def can_fire(condition: Condition, table: Table) -> bool:
    """Whether ``condition`` could hold at all (sound, not complete: see the module docstring)."""
    colours = sorted({card.colour for card in table.in_play})
    numbers = sorted({card.number for card in table.in_play})
    worlds: set[_World] = {None}
    worlds.update((PlayedCard(colour, number), trump) for colour in colours for number in numbers
                  for trump in colours)
    return bool(_possible(condition, table, frozenset(worlds)))


#: What the winner's card could be: (that card, the trump suit), or None for
#: "no card needed" (a condition that names no card holds without one).
_World = tuple[PlayedCard, str] | None


def _possible(condition: Condition, table: Table, worlds: frozenset[_World]) -> frozenset[_World]:
    """The worlds among ``worlds`` in which ``condition`` could hold.

    ``and`` narrows the worlds part by part, so all the ``winner.played`` terms
    of a conjunction must fit one card; ``or`` keeps the worlds of any part.
    """
    if isinstance(condition, AllOf):
        for part in condition.parts:
            worlds = _possible(part, table, worlds)
            if not worlds:
                break
        return worlds
    if isinstance(condition, AnyOf):
        return frozenset().union(*(_possible(part, table, worlds) for part in condition.parts))
    if isinstance(condition, WinnerPlayed):
        return frozenset(world for world in worlds
                         if world is not None and condition.selector.matches(*world))
    return worlds if _term_can_hold(condition, table) else frozenset()


def _term_can_hold(condition: Compare | TrickContains, table: Table) -> bool:
    """One term about the won pile or the trick, bounded by the cards alone."""
    if isinstance(condition, TrickContains):
        return any(card.number == condition.number for card in table.in_play)
    most = _most(condition.amount, table)
    return any(COMPARISONS[condition.op](value, condition.value) for value in range(most + 1))


def _could_match(selector: Selector, card: PlayedCard, table: Table) -> bool:
    # any colour in play can be trump, so "trump" matches every card
    return selector.kind == "trump" or selector.matches(card, trump="")


def _most(amount: Amount, table: Table) -> int:
    if isinstance(amount, Won):
        if amount.selector.kind == "trump":
            colours = {card.colour for card in table.in_play}
            available = max((sum(1 for c in table.in_play if c.colour == colour) for colour in colours), default=0)
        else:
            available = sum(1 for card in table.in_play if _could_match(amount.selector, card, table))
        return min(available, table.playable)
    if isinstance(amount, WonCount):
        return table.playable
    numbers = sorted((card.number for card in table.in_play), reverse=True)
    if isinstance(amount, WonSum):
        return sum(numbers[: table.playable])
    return sum(numbers[: table.players])


@dataclass(frozen=True)
class Clash:
    """``winner.played`` terms joined by ``and`` that one card can't meet: two colours, or two numbers."""

    selectors: tuple[Selector, ...]  # the terms at odds, in the order written

    def terms(self) -> str:
        """The terms as written: "winner.played(red) and winner.played(blue)"."""
        return _listed([f"winner.played({selector})" for selector in self.selectors])

    def reason(self) -> str:
        """Why no card meets them: "it can't be both red and blue"."""
        colours = [str(s.value) for s in self.selectors if s.kind == "colour"]
        numbers = [str(s.value) for s in self.selectors if s.kind == "number"]
        parts = []
        if colours:
            parts.append(_both(colours))
        if numbers:
            parts.append(f"numbered {_both(numbers)}")
        return "it can't be " + ", nor ".join(parts)


def clashes(condition: Condition) -> list[Clash]:
    """The conjunctions that can never hold because they ask the winner's one card for two colours or numbers.

    A conjunction is reported when each of its alternatives (its ``or`` parts
    multiplied out) clashes, even if another part of the condition can fire:
    its text would describe a card that does not exist. One dead alternative
    among live ones is not a clash (``winner.played(red) and (winner.played(blue)
    or winner.played(number=7))`` is a red 7), nor is the same term twice.
    """
    found: dict[Clash, None] = {}
    _card_alternatives(condition, found)
    return list(found)


def _card_alternatives(condition: Condition, found: dict[Clash, None]) -> list[tuple[Selector, ...]]:
    """The sets of ``winner.played`` selectors under which ``condition`` could hold; clashes go to ``found``."""
    if isinstance(condition, WinnerPlayed):
        return [(condition.selector,)]
    if isinstance(condition, AnyOf):
        options = (_card_alternatives(part, found) for part in condition.parts)
        return list(dict.fromkeys(option for part in options for option in part))
    if not isinstance(condition, AllOf):
        return [()]
    combined: list[tuple[Selector, ...]] = [()]
    for part in condition.parts:
        options = _card_alternatives(part, found)
        combined = list(dict.fromkeys(tuple(dict.fromkeys(have + more)) for have in combined for more in options))
    live = [selectors for selectors in combined if _clash(selectors) is None]
    if not live:  # empty already when a part was reported: then it is not reported again
        found.update((clash, None) for clash in map(_clash, combined) if clash is not None)
    return live


def _clash(selectors: tuple[Selector, ...]) -> Clash | None:
    """The selectors at odds among ``selectors`` (describing one card), if any."""
    at_odds = [kind for kind in ("colour", "number") if len({s.value for s in selectors if s.kind == kind}) > 1]
    if not at_odds:
        return None
    return Clash(tuple(s for s in selectors if s.kind in at_odds))


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _both(items: Sequence[str]) -> str:
    return f"both {items[0]} and {items[1]}" if len(items) == 2 else f"{_listed(items)} at once"


def colours_named(condition: Condition) -> set[str]:
    """Colours a condition names, for checking them against those in play."""
    if isinstance(condition, AllOf | AnyOf):
        return set().union(*(colours_named(part) for part in condition.parts))
    selector = None
    if isinstance(condition, WinnerPlayed):
        selector = condition.selector
    elif isinstance(condition, Compare) and isinstance(condition.amount, Won):
        selector = condition.amount.selector
    return {str(selector.value)} if selector is not None and selector.kind == "colour" else set()


# --------------------------------------------------------------------------- text
#
# A removal condition is printed as one sentence about "a player who …", in
# every language from the same parsed tree. The rules below are what keep that
# sentence short enough for a card and readable aloud; PHRASES holds the words.
#
# * One subject. The player and the removal are named once per sentence.
# * Shared words are said once. Terms whose phrases open the same way in a
#   language ("has won …", 「…獲得している」) list their objects under it, and all
#   the terms about the trick just played make one clause about "this trick".
#   Which terms share is decided by the words, so the languages may group
#   differently (English lists a total under "has won"; Japanese cannot).
# * Connectives. English: "and" / "or", with a comma before them only when a
#   part holds one already. Japanese: clauses 「…し、かつ…」 and 「…か、…」,
#   numbers 「1と10」 / 「1か10」, descriptions of the trick with 「、」.
# * Nesting. An `or` inside an `and` (or the reverse) reads wrongly when run
#   together, so the sentence then repeats its subject, once per top-level part
#   ("A player who …, or who …, is removed." / 「…プレイヤーも、…プレイヤーも脱落する。」
#   / 「…プレイヤーのうち、…プレイヤーは脱落する。」). A third level is bracketed.
# * Japanese clauses change form by what follows them: plain before か,
#   attributive before a noun (プレイヤー, このトリック), continuative before 、かつ.
#   A phrase key may have ".attr" and ".cont" variants; English needs neither.

#: Wording per language. Comparisons are normalised to >=, <= and == first
#: (``> 3`` is ``>= 4`` on whole numbers), so each language needs three forms;
#: a count of at most 0 is worded as none ("no red cards").
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "count>=": "{n} or more", "count<=": "{n} or fewer", "count==": "exactly {n}",
        "sum>=": "{n} or more", "sum<=": "{n} or less", "sum==": "exactly {n}",
        # a noun for the cards a selector picks: words before and after it
        "noun.pre.colour": "{colour} ", "noun.post.trump": " of the trump suit", "noun.post.number": " numbered {n}",
        "noun.cards": "{pre}cards{post}", "noun.card": "{pre}card{post}", "noun.a-card": "a {pre}card{post}",
        # the won pile: one verb, its objects listed
        "pile": "has won {items}",
        "pile.count": "{cmp} {cards}", "pile.none": "no {cards}", "pile.sum": "cards whose numbers total {cmp}",
        # this trick: how it was won, then (apart) the numbers taken in it
        "trick.won": "won this trick with {items}",
        "trick.played": "{card}", "trick.total": "a total of {cmps}",
        "trick.took": "took {cards} in this trick", "trick.took.also": "took {cards} in it",
        "numbered.one": "a card numbered {numbers}", "numbered.both": "cards numbered {numbers}",
        "numbered.all": "cards numbered {numbers}",
        # connectives: before the last part, between the others, and both when a part holds one
        "join.and": " and ", "join.and.between": ", ", "join.and.serial": ", and ",
        "join.or": " or ", "join.or.between": ", ", "join.or.serial": ", or ",
        "group": "({inner})",
        "removal": "A player who {condition} is removed.",
        "removal.any": "A player {parts}, is removed.", "removal.any.part": "who {condition}",
        "removal.any.join": ", or ",
        "removal.all": "A player {parts}, is removed.", "removal.all.part": "who {condition}",
        "removal.all.join": ", and ",
        "every": "Every trick", "trick": "Trick {first} only", "range": "Tricks {first}–{last}",
        "from": "Trick {first} onwards", "shifted": "{text} ({players} players: {shifted})",
        "shifted.every": "every trick", "shifted.trick": "trick {first} only",
        "shifted.range": "tricks {first}–{last}", "shifted.from": "trick {first} onwards",
    },
    "ja": {
        "count>=": "{n}枚以上", "count<=": "{n}枚以下", "count==": "ちょうど{n}枚",
        "sum>=": "{n}以上", "sum<=": "{n}以下", "sum==": "ちょうど{n}",
        "noun.pre.trump": "切札のスートの", "noun.pre.colour": "{colour}の", "noun.pre.number": "{n}の",
        "noun.cards": "{pre}カード{post}", "noun.card": "{pre}カード{post}", "noun.a-card": "{pre}カード{post}",
        "pile": "{items}獲得している", "pile.cont": "{items}獲得しており",
        "pile.count": "{cards}を{cmp}",
        # none and the total cannot share 獲得している: each has a phrase of its own
        "pile.none.frame": "{cards}を1枚も獲得していない", "pile.none.frame.cont": "{cards}を1枚も獲得しておらず",
        "pile.sum.frame": "獲得したカードの数字の合計が{items}",
        "pile.sum.frame.attr": "獲得したカードの数字の合計が{items}の",
        "pile.sum.frame.cont": "獲得したカードの数字の合計が{items}で",
        "pile.sum": "{cmp}",
        # this trick: descriptions of it (how it was won included) before このトリックに勝った
        "trick.won": "{items}このトリックに勝った", "trick.won.cont": "{items}このトリックに勝ち",
        "trick.played": "{card}を出した", "trick.played.attr": "{card}を出して", "trick.played.cont": "{card}を出して",
        "trick.total": "数字の合計が{cmps}", "trick.total.attr": "数字の合計が{cmps}の",
        "trick.total.cont": "数字の合計が{cmps}で",
        "trick.contains": "{cards}含む", "trick.contains.cont": "{cards}含み",
        "trick.took": "このトリックで{cards}獲得した", "trick.took.cont": "このトリックで{cards}獲得し",
        "numbered.one": "{numbers}のカードを", "numbered.both": "{numbers}のカードを両方",
        "numbered.all": "{numbers}のカードをすべて",
        "numbers.and": "と", "numbers.and.between": "と", "numbers.or": "か", "numbers.or.between": "か",
        "join.and": "、かつ", "join.and.between": "、", "join.or": "か、", "join.or.between": "か、",
        "desc.and": "、", "desc.and.between": "、",
        "group": "（{inner}）",
        "removal": "{condition}プレイヤーは脱落する。",
        "removal.any": "{parts}脱落する。", "removal.any.part": "{condition}プレイヤーも", "removal.any.join": "、",
        "removal.all": "{parts}プレイヤーは脱落する。", "removal.all.part": "{condition}",
        "removal.all.join": "プレイヤーのうち、",
        "every": "毎トリック", "trick": "第{first}トリックのみ", "range": "第{first}～{last}トリック",
        "from": "第{first}トリック以降", "shifted": "{text}（{players}人プレイでは{shifted}）",
        "shifted.every": "毎トリック", "shifted.trick": "第{first}トリックのみ",
        "shifted.range": "第{first}～{last}トリック", "shifted.from": "第{first}トリック以降",
    },
}


def phrasebook(lang: str) -> dict[str, str]:
    """The wording for ``lang``; English where the language has none yet."""
    return PHRASES.get(lang, PHRASES["en"])


def describe_activation(activation: Activation, lang: str,
                        variant: tuple[int, Activation] | None = None) -> str:
    """Card text for an activation; ``variant`` = (players, shifted form) when it differs."""
    words = phrasebook(lang)
    text = words[activation.form].format(first=activation.first, last=activation.last)
    if variant is None or variant[1] == activation:
        return text
    players, shifted = variant
    other = words[f"shifted.{shifted.form}"].format(first=shifted.first, last=shifted.last)
    return words["shifted"].format(text=text, players=players, shifted=other)


def describe_removal(condition: Condition, lang: str, colour_name: Callable[[str], str]) -> str:
    """Card text for a removal condition, as one sentence (see the rules above PHRASES)."""
    return _Phrasing(phrasebook(lang), colour_name).sentence(_flatten(condition))


def _flatten(condition: Condition) -> Condition:
    """``a and (b and c)`` as ``a and b and c``: brackets that change nothing would cost a clause."""
    if not isinstance(condition, AllOf | AnyOf):
        return condition
    parts: list[Condition] = []
    for part in map(_flatten, condition.parts):
        parts.extend(part.parts if type(part) is type(condition) else (part,))
    return type(condition)(tuple(parts))


def _is_group(condition: Condition) -> bool:
    return isinstance(condition, AllOf | AnyOf)


def _connective(group: AllOf | AnyOf) -> str:
    return "and" if isinstance(group, AllOf) else "or"


class _Clause(NamedTuple):
    """A predicate about a player in the three forms Japanese joins by (the same text in English)."""

    plain: str  # before "or" (か)
    attr: str  # before the noun it describes (プレイヤー)
    cont: str  # before "and" (、かつ)
    compound: bool = False  # holds a connective: English sets the next one off with a comma
    open_end: bool = False  # ends in a comparison ("60 or more"): English sets off a following "or" too

    @classmethod
    def of(cls, text: str) -> _Clause:
        return cls(text, text, text)


class _Piece(NamedTuple):
    """One term's share of a clause: the phrase it may share (``frame``) and what it adds to it."""

    frame: str  # phrase key
    fields: tuple[tuple[str, str], ...]  # the frame's own fields, items aside
    item: str | None  # listed in the frame's {items}; None for a frame that stands alone
    open_end: bool = False  # the item ends in its comparison ("total 60 or more")


_TRICK = "trick"  # the bucket every term about the trick just played goes to
_SELECTOR_ORDER = ("trump", "colour", "number")  # 切札のスートの赤の7のカード: the order nouns stack in


class _Phrasing:
    """Turns one parsed removal condition into the sentence of one language."""

    def __init__(self, words: dict[str, str], colour_name: Callable[[str], str]) -> None:
        self.words = words
        self.colour_name = colour_name

    # the sentence ----------------------------------------------------------
    def sentence(self, condition: Condition) -> str:
        """One subject; repeated once per part only when a part is itself a group (see the rules)."""
        if not (_is_group(condition) and any(_is_group(part) for part in condition.parts)):
            return self.words["removal"].format(condition=self.clause(condition, depth=1).attr)
        assert isinstance(condition, AllOf | AnyOf)
        mode = "all" if isinstance(condition, AllOf) else "any"
        parts = [self.words[f"removal.{mode}.part"].format(condition=self.clause(part, depth=1).attr)
                 for part in _gather_terms(condition)]
        return self.words[f"removal.{mode}"].format(parts=self.words[f"removal.{mode}.join"].join(parts))

    def clause(self, condition: Condition, depth: int) -> _Clause:
        """A condition as a clause; groups below the first level are bracketed, having no connective left."""
        if not isinstance(condition, AllOf | AnyOf):
            return self._group((condition,), "and", depth)
        clause = self._group(condition.parts, _connective(condition), depth)
        return self._bracket(clause) if depth > 1 else clause

    def _group(self, parts: Sequence[Condition], connective: str, depth: int) -> _Clause:
        """Parts joined by one connective, terms that share a phrase gathered where the first of them stood."""
        entries: list[_Clause | tuple] = []
        buckets: dict[tuple, list] = {}
        for part in parts:
            if _is_group(part):
                entries.append(self.clause(part, depth + 1))
                continue
            key, piece = self._bucket(part)
            if key not in buckets:
                buckets[key] = []
                entries.append(key)
            buckets[key].append(piece)
        clauses = [entry if isinstance(entry, _Clause) else self._render(entry, buckets[entry], connective)
                   for entry in entries]
        return self.join(clauses, connective)

    def _bucket(self, term: Condition) -> tuple[tuple, object]:
        if isinstance(term, TrickContains | WinnerPlayed) or (
                isinstance(term, Compare) and isinstance(term.amount, TrickTotal)):
            return (_TRICK,), term
        assert isinstance(term, Compare)
        piece = self._pile_piece(term)
        return (piece.frame, piece.fields), piece

    def _render(self, key: tuple, pieces: list, connective: str) -> _Clause:
        if key == (_TRICK,):
            return self._trick_clause(pieces, connective)
        return self._pile_clause(pieces, connective)

    # joining ---------------------------------------------------------------
    def join(self, parts: Sequence[_Clause], connective: str, style: str = "join") -> _Clause:
        """Parts in a list: the connective before the last; "and" joins continuative forms, "or" plain ones."""
        if len(parts) == 1:
            return parts[0]
        last, between = self._separator(style, connective, ""), self._separator(style, connective, ".between")
        if self._needs_serial(parts[:-1], connective):
            last = between = self.words[f"join.{connective}.serial"]
        leading = [part.cont if connective == "and" else part.plain for part in parts[:-1]]
        prefix = between.join(leading) + last
        final = parts[-1]
        return _Clause(prefix + final.plain, prefix + final.attr, prefix + final.cont, compound=True,
                       open_end=final.open_end)

    def _needs_serial(self, leading: Sequence[_Clause], connective: str) -> bool:
        """A comma before the connective where it would otherwise run into one: "60 or more, or 12 cards"."""
        if f"join.{connective}.serial" not in self.words:
            return False
        return any(part.compound or (connective == "or" and part.open_end) for part in leading)

    def _separator(self, style: str, connective: str, position: str) -> str:
        key = f"{style}.{connective}{position}"
        return self.words.get(key, self.words[f"join.{connective}{position}"])

    def _bracket(self, clause: _Clause) -> _Clause:
        """A bracketed clause keeps the endings its last part adds for a noun or for "and" (の, で)."""
        text = self.words["group"].format(inner=clause.plain)

        def ending(form: str) -> str:
            return form[len(clause.plain):] if form.startswith(clause.plain) else ""
        return _Clause(text, text + ending(clause.attr), text + ending(clause.cont))

    def forms(self, key: str, **fields: object) -> _Clause:
        """The three forms of a phrase; a language without ".attr" / ".cont" variants uses the plain one."""
        plain = self.words[key]
        return _Clause(plain.format(**fields), self.words.get(f"{key}.attr", plain).format(**fields),
                       self.words.get(f"{key}.cont", plain).format(**fields))

    # the won pile ----------------------------------------------------------
    def _pile_piece(self, term: Compare) -> _Piece:
        """A count or total of the won pile, and the phrase it can share with its neighbours."""
        kind, fields = self._pile_term(term)
        frame = f"pile.{kind}.frame" if f"pile.{kind}.frame" in self.words else "pile"
        item_key = f"pile.{kind}"
        item = self.words[item_key].format(**fields) if item_key in self.words else None
        used = _field_names(*(self.words.get(f"{frame}{form}", "") for form in ("", ".attr", ".cont")))
        own = tuple(sorted((name, value) for name, value in fields.items() if name in used))
        open_end = item is not None and "cmp" in fields and item.endswith(fields["cmp"])
        return _Piece(frame, own, item, open_end)

    def _pile_term(self, term: Compare) -> tuple[str, dict[str, str]]:
        """Which phrase a term of the won pile takes ("count", "none" or "sum") and the words it fills in."""
        op, value = _normal_comparison(term.op, term.value)
        if isinstance(term.amount, WonSum):
            return "sum", {"cmp": self.words[f"sum{op}"].format(n=value)}
        selectors = (term.amount.selector,) if isinstance(term.amount, Won) else ()
        if value <= 0 and op in ("<=", "=="):
            return "none", {"cards": self.noun(selectors, "cards")}
        noun = "card" if (op, value) == ("==", 1) else "cards"
        return "count", {"cmp": self.words[f"count{op}"].format(n=value), "cards": self.noun(selectors, noun)}

    def _pile_clause(self, pieces: list[_Piece], connective: str) -> _Clause:
        items = [_Clause.of(item)._replace(open_end=open_end)
                 for item, open_end in dict.fromkeys((p.item, p.open_end) for p in pieces) if item is not None]
        listed = self.join(items, connective) if items else _Clause.of("")
        clause = self.forms(pieces[0].frame, **dict(pieces[0].fields), items=listed.plain)
        return clause._replace(compound=listed.compound, open_end=listed.open_end)

    # this trick ------------------------------------------------------------
    def _trick_clause(self, terms: list[Condition], connective: str) -> _Clause:
        """All the terms about the trick just played, as one clause that names it once.

        How it was won (the card played, the total) describes "won this trick";
        the numbers taken in it do too where the language has a phrase for that
        ("trick.contains"), else they follow as "took … in it". Numbers alone
        read "took … in this trick".
        """
        numbers = list(dict.fromkeys(t.number for t in terms if isinstance(t, TrickContains)))
        taken = self._numbered(numbers, connective) if numbers else ""
        descriptions = self._trick_descriptions(terms, connective)
        if not descriptions:
            return self.forms("trick.took", cards=taken)
        if taken and "trick.contains" in self.words:
            descriptions[TrickContains] = self.forms("trick.contains", cards=taken)
        order = [type(t) for t in terms]
        listed = self.join([descriptions[kind] for kind in sorted(descriptions, key=order.index)], connective, "desc")
        clause = self.forms("trick.won", items=listed.attr)._replace(compound=listed.compound,
                                                                     open_end=listed.open_end)
        if not taken or TrickContains in descriptions:
            return clause
        return self.join([clause, self.forms("trick.took.also", cards=taken)], connective)

    def _trick_descriptions(self, terms: list[Condition], connective: str) -> dict[type, _Clause]:
        """How the trick was won: the card played and the trick's total, by the kind of term."""
        descriptions: dict[type, _Clause] = {}
        played = list(dict.fromkeys(t.selector for t in terms if isinstance(t, WinnerPlayed)))
        if played:
            descriptions[WinnerPlayed] = self._played(played, connective)
        totals = [_normal_comparison(t.op, t.value) for t in terms if isinstance(t, Compare)]
        if totals:
            cmps = self.join([_Clause.of(self.words[f"sum{op}"].format(n=value)) for op, value in totals], connective)
            total = self.forms("trick.total", cmps=cmps.plain)
            descriptions[Compare] = total._replace(compound=cmps.compound, open_end=True)
        return descriptions

    def _played(self, selectors: list[Selector], connective: str) -> _Clause:
        """The card the winner played: one card, so `and` describes it once ("a red card numbered 7")."""
        if connective == "and":
            return self.forms("trick.played", card=self.noun(selectors, "a-card"))
        cards = self.join([_Clause.of(self.noun((s,), "a-card")) for s in selectors], connective)
        return self.forms("trick.played", card=cards.plain)._replace(compound=cards.compound)

    def _numbered(self, numbers: list[int], connective: str) -> str:
        """Cards by number: "a card numbered 1 or 10", "cards numbered 1 and 10" (両方 / すべて)."""
        listed = self.join([_Clause.of(str(n)) for n in numbers], connective, "numbers").plain
        if connective == "or" or len(numbers) == 1:
            return self.words["numbered.one"].format(numbers=listed)
        return self.words["numbered.both" if len(numbers) == 2 else "numbered.all"].format(numbers=listed)

    # nouns -----------------------------------------------------------------
    def noun(self, selectors: Sequence[Selector], form: str) -> str:
        """Cards matching every selector: ``form`` is "cards", "card" or "a-card"."""
        ordered = sorted(dict.fromkeys(selectors), key=lambda s: _SELECTOR_ORDER.index(s.kind))
        pre = "".join(self._selector_words(s, "pre") for s in ordered)
        post = "".join(self._selector_words(s, "post") for s in ordered)
        return self.words[f"noun.{form}"].format(pre=pre, post=post)

    def _selector_words(self, selector: Selector, place: str) -> str:
        template = self.words.get(f"noun.{place}.{selector.kind}", "")
        colour = self.colour_name(str(selector.value)) if selector.kind == "colour" else ""
        return template.format(colour=colour, n=selector.value)


def _gather_terms(group: AllOf | AnyOf) -> list[Condition]:
    """Top-level parts with the single terms gathered into one part, where the first stood.

    ``(a or b) and c and d`` reads "who … a or b, and who … c and d": the
    single terms need no subject of their own, and gathered they can share words.
    """
    terms = [part for part in group.parts if not _is_group(part)]
    if len(terms) < 2:
        return list(group.parts)
    gathered: list[Condition] = []
    for part in group.parts:
        if not _is_group(part):
            if part is terms[0]:
                gathered.append(type(group)(tuple(terms)))
            continue
        gathered.append(part)
    return gathered


def _field_names(*templates: str) -> set[str]:
    return {name for template in templates for _, name, _, _ in Formatter().parse(template) if name}


def _normal_comparison(op: str, value: int) -> tuple[str, int]:
    """``> n`` as ``>= n + 1`` and ``< n`` as ``<= n - 1``: on whole numbers, three wordings suffice."""
    if op == ">":
        return ">=", value + 1
    if op == "<":
        return "<=", value - 1
    return op, value

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
A conjunction is judged part by part, so the check is sound (it never rejects
a card that can fire) but not complete (two demands on the same cards may be
impossible together and still pass).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
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
    if isinstance(condition, AllOf):
        return all(can_fire(part, table) for part in condition.parts)
    if isinstance(condition, AnyOf):
        return any(can_fire(part, table) for part in condition.parts)
    if isinstance(condition, TrickContains):
        return any(card.number == condition.number for card in table.in_play)
    if isinstance(condition, WinnerPlayed):
        return any(_could_match(condition.selector, card, table) for card in table.in_play)
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

#: Wording per language. Comparisons are normalised to >=, <= and == first
#: (``> 3`` is ``>= 4`` on whole numbers), so each language needs three forms.
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "count>=": "{n} or more", "count<=": "{n} or fewer", "count==": "exactly {n}",
        "sum>=": "{n} or more", "sum<=": "{n} or less", "sum==": "exactly {n}",
        "cards.colour": "{colour} cards", "cards.trump": "trump cards", "cards.number": "cards numbered {n}",
        "card.colour": "a {colour} card", "card.trump": "a trump card", "card.number": "a card numbered {n}",
        "won": "has won {cmp} {cards}",
        "count": "has won {cmp} cards",
        "sum": "has won cards whose numbers total {cmp}",
        "trick.total": "won this trick, whose numbers total {cmp}",
        "trick.contains": "took a card numbered {n} in this trick",
        "winner.played": "won this trick with {card}",
        "and": "{left} and {right}", "or": "{left} or {right}", "group": "({inner})",
        "removal": "A player who {condition} is removed.",
        "every": "Every trick", "trick": "Trick {first} only", "range": "Tricks {first}–{last}",
        "from": "Trick {first} onwards", "shifted": "{text} ({players} players: {shifted})",
        "shifted.every": "every trick", "shifted.trick": "trick {first} only",
        "shifted.range": "tricks {first}–{last}", "shifted.from": "trick {first} onwards",
    },
    "ja": {
        "count>=": "{n}枚以上", "count<=": "{n}枚以下", "count==": "ちょうど{n}枚",
        "sum>=": "{n}以上", "sum<=": "{n}以下", "sum==": "ちょうど{n}",
        "cards.colour": "{colour}のカード", "cards.trump": "切札のスートのカード", "cards.number": "{n}のカード",
        "card.colour": "{colour}のカード", "card.trump": "切札のスートのカード", "card.number": "{n}のカード",
        "won": "{cards}を{cmp}獲得している",
        "count": "カードを{cmp}獲得している",
        "sum": "獲得したカードの数字の合計が{cmp}になった",
        "trick.total": "数字の合計が{cmp}のこのトリックに勝った",
        "trick.contains": "このトリックで{n}のカードを獲得した",
        "winner.played": "{card}を出してこのトリックに勝った",
        "and": "{left}、かつ{right}", "or": "{left}、または{right}", "group": "（{inner}）",
        "removal": "{condition}プレイヤーは脱落する。",
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
    """Card text for a removal condition, as one sentence."""
    words = phrasebook(lang)
    return words["removal"].format(condition=_clause(condition, words, colour_name, top=True))


def _clause(condition: Condition, words: dict[str, str], colour_name: Callable[[str], str], top: bool) -> str:
    if isinstance(condition, AllOf | AnyOf):
        joiner = "and" if isinstance(condition, AllOf) else "or"
        parts = [_clause(part, words, colour_name, top=False) for part in condition.parts]
        text = parts[0]
        for part in parts[1:]:
            text = words[joiner].format(left=text, right=part)
        return text if top else words["group"].format(inner=text)
    if isinstance(condition, TrickContains):
        return words["trick.contains"].format(n=condition.number)
    if isinstance(condition, WinnerPlayed):
        return words["winner.played"].format(card=_selector(condition.selector, "card", words, colour_name))
    op, value = _normal_comparison(condition.op, condition.value)
    unit = "count" if isinstance(condition.amount, Won | WonCount) else "sum"
    cmp = words[f"{unit}{op}"].format(n=value)
    if isinstance(condition.amount, Won):
        cards = _selector(condition.amount.selector, "cards", words, colour_name)
        return words["won"].format(cmp=cmp, cards=cards)
    if isinstance(condition.amount, WonCount):
        return words["count"].format(cmp=cmp)
    if isinstance(condition.amount, WonSum):
        return words["sum"].format(cmp=cmp)
    return words["trick.total"].format(cmp=cmp)


def _normal_comparison(op: str, value: int) -> tuple[str, int]:
    if op == ">":
        return ">=", value + 1
    if op == "<":
        return "<=", value - 1
    return op, value


def _selector(selector: Selector, form: str, words: dict[str, str], colour_name: Callable[[str], str]) -> str:
    if selector.kind == "colour":
        return words[f"{form}.colour"].format(colour=colour_name(str(selector.value)))
    if selector.kind == "trump":
        return words[f"{form}.trump"]
    return words[f"{form}.number"].format(n=selector.value)

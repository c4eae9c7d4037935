"""Tokens and a recursive-descent parser for activation and removal conditions (the grammar is in
the package's docstring); never eval'd, so a card's CSV row cannot run code."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NamedTuple

from pnp.rules.surveillance.model import (
    COMPARISONS,
    Activation,
    AllOf,
    Amount,
    AnyOf,
    Compare,
    Condition,
    Selector,
    TrickContains,
    TrickTotal,
    WinnerPlayed,
    Won,
    WonCount,
    WonSum,
)


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



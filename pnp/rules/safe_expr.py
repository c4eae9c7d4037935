"""Exact arithmetic expressions written in a game's data files.

Two Ops keeps its operator table as text (``off % on``, ``(a + b) / 2``) so a
designer can change a rule without touching Python. Game folders may come from
anyone, so the text must never reach ``eval``: we parse it with :mod:`ast` and
walk a whitelist of node types, refusing everything else by name.

Values are :class:`fractions.Fraction` because the rulebooks say averages are
not rounded ("fractions are fine"); floats would print 3.4999999 on a card.

Modulo follows Python's floored rule (the result has the divisor's sign),
which for the positive card values of every current game is the schoolbook
remainder.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

Number = int | Fraction

#: the only callables an expression may use, each with exactly two arguments
FUNCTIONS: dict[str, Callable[[Fraction, Fraction], Fraction]] = {"min": min, "max": max}

_BINARY_SYMBOLS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.FloorDiv: "//",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.BitAnd: "&",
}
_ALLOWED_BINARY = frozenset({ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod})
_MAX_SOURCE_LENGTH = 200  # a table cell, not a program; also bounds recursion depth
_ALLOWED_SUMMARY = "allowed: numbers, names, + - * / %, unary -, parentheses, min(x, y), max(x, y)"


class ExpressionError(ValueError):
    """A problem in an expression, naming the offending ``token``."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class ExpressionSyntaxError(ExpressionError):
    """The text is not an expression at all (unbalanced parentheses...)."""


class DisallowedError(ExpressionError):
    """Valid Python, but outside the whitelist (``**``, ``abs(x)``, ``a.b``)."""


class UnknownNameError(DisallowedError):
    """A name outside the allowed set, or one with no value at evaluation."""


class ZeroDivisorError(ExpressionError):
    """Division or modulo by zero; ``token`` is the divisor's source text."""


@dataclass(frozen=True)
class Expression:
    """A parsed, checked expression, ready to evaluate many times.

    Parsing once matters: the Two Ops check evaluates every table entry for
    every pair of card values.
    """

    source: str
    names: frozenset[str]  # variable names it reads (functions excluded)
    tree: ast.expr

    def evaluate(self, values: Mapping[str, Number]) -> Fraction:
        """Exact value; raises :class:`ZeroDivisorError` or :class:`UnknownNameError`."""
        return _Evaluator(self.source, values).visit(self.tree)

    def __str__(self) -> str:
        return self.source


def parse_expression(source: str, allowed_names: Iterable[str]) -> Expression:
    """Parse ``source`` and reject any construct or name not whitelisted."""
    text = source.strip()
    if not text:
        raise ExpressionSyntaxError("the expression is empty", "")
    if len(text) > _MAX_SOURCE_LENGTH:
        raise ExpressionSyntaxError(
            f"the expression is longer than {_MAX_SOURCE_LENGTH} characters", text[:20] + "..."
        )
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        column = (exc.offset or 1) - 1
        token = text[column:].split(" ", 1)[0] if column < len(text) else "end of text"
        raise ExpressionSyntaxError(
            f"cannot parse {text!r}: {exc.msg} at column {column + 1} (near {token!r})", token
        ) from None
    allowed = frozenset(allowed_names)
    names = _Checker(text, allowed).check(tree.body)
    return Expression(source=text, names=frozenset(names), tree=tree.body)


def evaluate(source: str, values: Mapping[str, Number]) -> Fraction:
    """One-off evaluation; the names of ``values`` are the allowed names."""
    return parse_expression(source, values.keys()).evaluate(values)


def _segment(source: str, node: ast.AST) -> str:
    return ast.get_source_segment(source, node) or type(node).__name__


class _Checker:
    """Walks the tree once at parse time, so evaluation can trust it."""

    def __init__(self, source: str, allowed: frozenset[str]) -> None:
        self.source = source
        self.allowed = allowed
        self.used: set[str] = set()

    def check(self, node: ast.expr) -> set[str]:
        self._visit(node)
        return self.used

    def _visit(self, node: ast.expr) -> None:
        if isinstance(node, ast.Constant):
            self._check_constant(node)
        elif isinstance(node, ast.Name):
            self._check_name(node)
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _ALLOWED_BINARY:
                symbol = _BINARY_SYMBOLS.get(type(node.op), type(node.op).__name__)
                raise DisallowedError(
                    f"operator {symbol!r} is not allowed in {self.source!r} ({_ALLOWED_SUMMARY})", symbol
                )
            self._visit(node.left)
            self._visit(node.right)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.USub):
                token = _segment(self.source, node)
                raise DisallowedError(
                    f"{token!r} is not allowed in {self.source!r}: only unary minus is", token
                )
            self._visit(node.operand)
        elif isinstance(node, ast.Call):
            self._check_call(node)
        else:
            token = _segment(self.source, node)
            raise DisallowedError(f"{token!r} is not allowed in {self.source!r} ({_ALLOWED_SUMMARY})", token)

    def _check_constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            token = _segment(self.source, node)
            raise DisallowedError(f"{token!r} is not a number (in {self.source!r})", token)

    def _check_name(self, node: ast.Name) -> None:
        if node.id in FUNCTIONS:
            raise DisallowedError(
                f"{node.id!r} is a function: write {node.id}(x, y) (in {self.source!r})", node.id
            )
        if node.id not in self.allowed:
            known = ", ".join(sorted(self.allowed)) or "none"
            raise UnknownNameError(
                f"unknown name {node.id!r} in {self.source!r} (allowed names here: {known})", node.id
            )
        self.used.add(node.id)

    def _check_call(self, node: ast.Call) -> None:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            token = _segment(self.source, node.func)
            raise DisallowedError(
                f"{token!r} cannot be called in {self.source!r}: only min(x, y) and max(x, y)", token
            )
        if node.keywords or len(node.args) != 2 or any(isinstance(a, ast.Starred) for a in node.args):
            token = _segment(self.source, node)
            raise DisallowedError(
                f"{token!r}: {node.func.id} takes exactly two plain arguments (in {self.source!r})", token
            )
        for argument in node.args:
            self._visit(argument)


class _Evaluator:
    """Evaluates a tree that :class:`_Checker` has accepted."""

    def __init__(self, source: str, values: Mapping[str, Number]) -> None:
        self.source = source
        self.values = values

    def visit(self, node: ast.expr) -> Fraction:
        if isinstance(node, ast.Constant):
            # repr keeps a written decimal exact: Fraction("0.1") is 1/10
            return Fraction(repr(node.value))
        if isinstance(node, ast.Name):
            if node.id not in self.values:
                raise UnknownNameError(f"name {node.id!r} has no value here (in {self.source!r})", node.id)
            return Fraction(self.values[node.id])
        if isinstance(node, ast.UnaryOp):
            return -self.visit(node.operand)
        if isinstance(node, ast.Call):
            function = FUNCTIONS[node.func.id]  # type: ignore[union-attr]
            return function(self.visit(node.args[0]), self.visit(node.args[1]))
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        raise AssertionError(f"unchecked node {ast.dump(node)}")  # the checker let it through: a bug

    def _binary(self, node: ast.BinOp) -> Fraction:
        left = self.visit(node.left)
        right = self.visit(node.right)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if right == 0:
            divisor = _segment(self.source, node.right)
            what = "division" if isinstance(node.op, ast.Div) else "modulo"
            raise ZeroDivisorError(f"{what} by zero in {self.source!r}: {divisor!r} is 0", divisor)
        if isinstance(node.op, ast.Div):
            return left / right
        return left % right

"""Layout arithmetic (``w = "width - 12"``) without Jinja2.

Most numeric layout values are a number or a little arithmetic on the card's size. Importing
Jinja2 and compiling each expression costs a small build more than drawing its cards, so
expressions made only of numbers, names bound to numbers, ``+ - * / // %``, unary signs and
parentheses are evaluated here. For those, Jinja2 computes the same Python operations on the
same Python numbers, so the result is identical. Anything else (a filter, a comparison, a name
that is not a number, an error) returns None and goes to Jinja2's sandbox, which evaluates it
and reports problems as before.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos}


@lru_cache(maxsize=4096)
def _parsed(source: str) -> ast.expr | None:
    """The expression's tree if it is plain arithmetic, else None."""
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINARY:
                return None
        elif isinstance(node, ast.UnaryOp):
            if type(node.op) not in _UNARY:
                return None
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                return None
        elif isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                return None
        elif not isinstance(node, ast.operator | ast.unaryop | ast.expr_context):
            return None
    return tree


def arithmetic_names(source: str) -> frozenset[str] | None:
    """The names a plain arithmetic expression reads, or None if it is not one."""
    tree = _parsed(source)
    if tree is None:
        return None
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))


def evaluate_arithmetic(source: str, names: Mapping[str, Any]) -> int | float | None:
    """The value of a plain arithmetic expression, or None to leave it to Jinja2."""
    tree = _parsed(source)
    if tree is None:
        return None
    try:
        return _evaluate(tree, names)
    except (_NotArithmetic, ArithmeticError):
        return None  # Jinja2 reports it, in its words


class _NotArithmetic(Exception):
    pass


def _evaluate(node: ast.expr, names: Mapping[str, Any]) -> int | float:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        value = names.get(node.id)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _NotArithmetic(node.id)
        return value
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_evaluate(node.operand, names))
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_evaluate(node.left, names), _evaluate(node.right, names))
    raise _NotArithmetic(type(node).__name__)

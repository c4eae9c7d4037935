"""The safe evaluator: exact values, a strict whitelist, errors that name the token."""

from __future__ import annotations

import builtins
from fractions import Fraction

import pytest

from pnp.rules.safe_expr import (
    DisallowedError,
    ExpressionError,
    ExpressionSyntaxError,
    UnknownNameError,
    ZeroDivisorError,
    evaluate,
    parse_expression,
)

AB = frozenset({"a", "b"})


@pytest.mark.parametrize(
    ("source", "values", "expected"),
    [
        ("(a + b) / 2", {"a": 1, "b": 2}, Fraction(3, 2)),  # 3 / 2, not 1.5 and not 1
        ("a + b * 2", {"a": 1, "b": 2}, Fraction(5)),  # 1 + 4: precedence
        ("(a + b) * 2", {"a": 1, "b": 2}, Fraction(6)),
        ("-a + 1", {"a": 4}, Fraction(-3)),
        ("off % on", {"on": 3, "off": 8}, Fraction(2)),  # 8 = 2 x 3 + 2
        ("off % on", {"on": 9, "off": 4}, Fraction(4)),  # 4 = 0 x 9 + 4
        ("max(a, b) + 5", {"a": 3, "b": 8}, Fraction(13)),
        ("min(a, b) - 5", {"a": 3, "b": 8}, Fraction(-2)),
        ("0.1 * 3", {}, Fraction(3, 10)),  # a written decimal stays exact
        ("a / 3 + b / 3", {"a": 1, "b": 1}, Fraction(2, 3)),
        ("min(max(a, b), 4)", {"a": 7, "b": 2}, Fraction(4)),
    ],
)
def test_values_are_exact(source: str, values: dict[str, int], expected: Fraction) -> None:
    result = evaluate(source, values)
    assert result == expected
    assert isinstance(result, Fraction)


@pytest.mark.parametrize(
    ("source", "token"),
    [
        ("a ** 2", "**"),
        ("a // b", "//"),
        ("abs(a)", "abs"),
        ("a.real", "a.real"),
        ("a[0]", "a[0]"),
        ("a < b", "a < b"),
        ("not a", "not a"),
        ("+a", "+a"),
        ("True", "True"),
        ("'x'", "'x'"),
        ("min(a)", "min(a)"),
        ("min(a, b, 1)", "min(a, b, 1)"),
        ("max(a, b=1)", "max(a, b=1)"),
        ("__import__('os')", "__import__"),
        ("(lambda: 1)()", "lambda: 1"),
        ("a if b else 1", "a if b else 1"),
        ("min", "min"),
    ],
)
def test_disallowed_constructs_name_the_token(source: str, token: str) -> None:
    with pytest.raises(DisallowedError) as caught:
        parse_expression(source, AB)
    assert caught.value.token == token
    assert token in str(caught.value)


def test_unknown_name_is_named_with_the_allowed_set() -> None:
    with pytest.raises(UnknownNameError) as caught:
        parse_expression("a + c", AB)
    assert caught.value.token == "c"
    assert "'c'" in str(caught.value) and "a, b" in str(caught.value)


def test_name_allowed_at_parse_but_missing_at_evaluation() -> None:
    expression = parse_expression("a + b", AB)
    with pytest.raises(UnknownNameError) as caught:
        expression.evaluate({"a": 1})
    assert caught.value.token == "b"


@pytest.mark.parametrize("source", ["(a + b", "a +", "a b", ""])
def test_syntax_errors(source: str) -> None:
    with pytest.raises(ExpressionSyntaxError):
        parse_expression(source, AB)


@pytest.mark.parametrize(
    ("source", "values", "divisor"),
    [
        ("a / (a - b)", {"a": 3, "b": 3}, "a - b"),
        ("a % (b - 2)", {"a": 5, "b": 2}, "b - 2"),
        ("a / 0", {"a": 1}, "0"),
    ],
)
def test_zero_divisor_is_a_specific_error(source: str, values: dict[str, int], divisor: str) -> None:
    with pytest.raises(ZeroDivisorError) as caught:
        evaluate(source, values)
    assert caught.value.token == divisor
    assert isinstance(caught.value, ExpressionError)


def test_names_used_are_recorded() -> None:
    expression = parse_expression("off - on", {"a", "b", "on", "off"})
    assert expression.names == {"on", "off"}


def test_never_uses_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("eval was called")

    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(builtins, "exec", refuse)
    assert evaluate("(a + b) / 2", {"a": 4, "b": 7}) == Fraction(11, 2)


def test_overlong_source_is_refused() -> None:
    with pytest.raises(ExpressionSyntaxError):
        parse_expression(" + ".join(["a"] * 200), AB)

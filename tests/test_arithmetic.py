"""Layout arithmetic without Jinja2 must give exactly what Jinja2's sandbox gives, or step aside."""

from __future__ import annotations

import pytest

from pnp.compose.arithmetic import arithmetic_names, evaluate_arithmetic
from pnp.compose.sandbox import make_environment

CONTEXT = {"width": 63.5, "height": 88.9, "count": 3, "flag": True, "card": {"rank": 7}, "name": "x"}


@pytest.mark.parametrize("source", [
    "12", "2.5", "width - 12", "width/2", "(width - 6.5) / 2", "-height + 1", "+width", "width * 3 % 7",
    "height // 3", "count * 2 - 1", "1 - 2 - 3", "2 * (3 + 4) - width / 3", "width - -1", "1e1 + width",
])
def test_the_same_number_as_jinja2(source):
    expected = make_environment().compile_expression(source, undefined_to_none=False)(**CONTEXT)
    result = evaluate_arithmetic(source, CONTEXT)
    assert result == expected
    assert type(result) is type(expected)


@pytest.mark.parametrize("source", [
    "card.rank * 2",  # attribute access: Jinja2's sandbox decides
    "width if count else 2",
    "count > 2",
    "flag + 1",  # a bool is not a number here
    "name * 2",
    "unknown + 1",  # Jinja2 reports the unknown name
    "width | int",
    "2 ** 10",
    "width / 0",  # Jinja2 reports the division by zero, in its words
    "[1, 2][0]",
    "min(1, 2)",
    "",
    "(",
])
def test_anything_else_is_left_to_jinja2(source):
    assert evaluate_arithmetic(source, CONTEXT) is None


def test_names_read():
    assert arithmetic_names("(width - 6) / count") == {"width", "count"}
    assert arithmetic_names("12") == frozenset()
    assert arithmetic_names("card.rank + 1") is None

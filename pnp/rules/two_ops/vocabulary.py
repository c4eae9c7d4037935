"""The names rules.toml may use for relations, parities and aims.

They are fixed here because the code gives them their meaning; rules.toml
only chooses among them.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

RELATIONS = ("neither", "both", "one")
#: names an expression may read, per relation: on/off exist only when exactly one number matches
RELATION_NAMES: dict[str, frozenset[str]] = {
    "neither": frozenset({"a", "b"}),
    "both": frozenset({"a", "b"}),
    "one": frozenset({"a", "b", "on", "off"}),
}
PARITIES = ("even", "odd")


def _absolute_difference(x: Fraction, y: Fraction) -> Fraction:
    return abs(x - y)


def _sum(x: Fraction, y: Fraction) -> Fraction:
    return x + y


#: aim id -> (how the two operation values combine, which extreme wins)
AIMS: dict[str, tuple[Callable[[Fraction, Fraction], Fraction], Callable[..., Fraction]]] = {
    "lowest-sum": (_sum, min),
    "highest-sum": (_sum, max),
    "least-abs-difference": (_absolute_difference, min),
    "most-abs-difference": (_absolute_difference, max),
}

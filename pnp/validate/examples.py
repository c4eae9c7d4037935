"""Worked examples are data: recompute each one and compare with what it states."""

from __future__ import annotations

from typing import Any

from pnp.diagnostics import Report
from pnp.model.game import Game
from pnp.rules.base import ExampleError, GameRules


def check_examples(game: Game, rules: GameRules, report: Report) -> dict[str, str]:
    """Run every example; returns example id -> "ok" | "deviation" | "mismatch" | "error"."""
    outcome: dict[str, str] = {}
    for example in game.examples:
        file = example.source.file if example.source else None
        if example.kind not in rules.example_kinds:
            known = ", ".join(sorted(rules.example_kinds)) or "none"
            report.error(f"example {example.id!r}: unknown kind {example.kind!r}", file,
                         example.source.line if example.source else None, f"kinds this game supports: {known}")
            outcome[example.id] = "error"
            continue
        try:
            computed = rules.run_example(game, example)
        except ExampleError as exc:
            report.error(f"example {example.id!r}: {exc}", file, example.source.line if example.source else None)
            outcome[example.id] = "error"
            continue
        mismatches = [
            (key, stated, computed.get(key)) for key, stated in example.expect.items()
            if not same_value(stated, computed.get(key))
        ]
        if example.deviation:
            if mismatches:
                report.note(f"example {example.id!r} keeps the seed's stated result as a known deviation: "
                            f"{example.deviation} ({_describe(mismatches)})", file, example.expect_line)
                outcome[example.id] = "deviation"
            else:
                report.error(f"example {example.id!r} is marked as a deviation but the model agrees with it",
                             file, example.expect_line, "remove 'deviation', or check the stated result")
                outcome[example.id] = "mismatch"
            continue
        if mismatches:
            report.error(f"example {example.id!r}: {_describe(mismatches)}", file, example.expect_line,
                         "fix the stated result, or the inputs, so the rules model agrees")
            outcome[example.id] = "mismatch"
        else:
            outcome[example.id] = "ok"
    return outcome


def _describe(mismatches: list[tuple[str, Any, Any]]) -> str:
    return "; ".join(f"{key} is stated as {stated!r} but the rules give {computed!r}"
                     for key, stated, computed in mismatches)


def same_value(stated: Any, computed: Any) -> bool:
    """Compare exactly; "23/2" in TOML equals Fraction(23, 2) from the model."""
    left, right = _normal(stated), _normal(computed)
    return left == right


def _normal(value: Any) -> Any:
    from fractions import Fraction  # imported when a game has examples to compare, not on every build

    if isinstance(value, bool):
        return value
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(10**6)
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            return value
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    return value

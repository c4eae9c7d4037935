"""Worked examples are data: recompute each one and compare with what it states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pnp.diagnostics import DataError, Report, line_spans
from pnp.load.game_folder import PLAYER_NAMES
from pnp.model.fields import closest
from pnp.model.game import Example, Game, where
from pnp.rules.base import ExampleError, GameRules

# examples.toml's table of how each language writes the examples' players (PLAYER_NAMES) is read for
# rulebooks by pnp.compose.rule_names.player_names, kept out of this module's imports: it loads Jinja2


def check_examples(game: Game, rules: GameRules, report: Report,
                   results: dict[str, Mapping[str, Any] | None] | None = None) -> dict[str, str]:
    """Run every example; returns example id -> "ok" | "deviation" | "mismatch" | "error".

    ``results``, if given, receives what each example computed (None where it could not), as
    rule_template.compute_results gives it, so the translation check need not run the examples again.
    """
    outcome: dict[str, str] = {}
    results = {} if results is None else results
    failures: dict[tuple[str, str | None], list[tuple[str, Any, int | None]]] = {}  # (message, fix) -> examples
    for example in game.examples:
        results[example.id] = None
        file, line = where(example.source)
        if example.kind not in rules.example_kinds:
            known = ", ".join(sorted(rules.example_kinds))
            report.error(f"example {example.id!r}: unknown kind {example.kind!r}", file, line,
                         f"kinds this game supports: {known}" if known else
                         "worked examples are recomputed by the game's rules module (rules = \"...\" in game.toml, "
                         "see pnp docs rules-modules); without one, remove examples.toml")
            outcome[example.id] = "error"
            continue
        if _unknown_inputs(rules, example, report):
            outcome[example.id] = "error"
            continue
        try:
            computed = results[example.id] = rules.run_example(game, example)
        except ExampleError as exc:
            at = example.input_lines.get(exc.key) if exc.key else None
            failures.setdefault((str(exc), exc.fix), []).append((example.id, file, at or line))
            outcome[example.id] = "error"
            continue
        except DataError as exc:  # a game's own runner raised: its error, at its own line (pnp/rules/local.py)
            report.diagnostics.append(exc.diagnostic)
            outcome[example.id] = "error"
            continue
        mismatches = [
            (key, stated, computed.get(key)) for key, stated in example.expect.items()
            if not same_value(stated, computed.get(key))
        ]
        if example.deviation:
            outcome[example.id] = _judge_deviation(example, mismatches, computed, report)
            continue
        if mismatches:
            report.error(f"example {example.id!r}: {_describe(mismatches)}", file, example.expect_line,
                         "fix the stated result, or the inputs, so the rules model agrees")
            outcome[example.id] = "mismatch"
        else:
            outcome[example.id] = "ok"
    for (message, fix), examples in failures.items():
        # one card renamed in the card list fails every example that plays it: one error, at the first
        example_id, file, line = examples[0]
        others = [other_line for _, _, other_line in examples[1:] if other_line is not None]
        also = (f" (and {len(examples) - 1} more example(s), at line(s) {', '.join(line_spans(others))})"
                if others else "")
        report.error(f"example {example_id!r}: {message}{also}", file, line, fix)
    check_player_names(game, report)
    return outcome


def _unknown_inputs(rules: GameRules, example: Example, report: Report) -> bool:
    """Inputs the example's kind does not read, each an error at its line (see GameRules.example_inputs)."""
    known = rules.example_inputs.get(example.kind)
    unknown = [key for key in example.inputs if known is not None and key not in known]
    if not unknown or known is None:
        return False
    file, line = where(example.source)
    for key in unknown:
        hint = closest(key, known)
        key_line = example.input_lines.get(key)
        fix = f"did you mean {hint!r}?" if hint else f"their inputs: {', '.join(sorted(known))}"
        report.error(f"example {example.id!r}: {example.kind} examples have no input {key!r}", file,
                     key_line or line, fix)
    return True


def skip_examples(game: Game, report: Report, results: dict[str, Mapping[str, Any] | None],
                  reason: str = "the rules model has errors") -> dict[str, str]:
    """Examples left alone while the rules model or the game's data has errors: one bad rank value, or
    one card's unreadable count, would otherwise make every example that plays it an error of its own,
    burying the one line to fix."""
    for example in game.examples:
        results[example.id] = None
    if game.examples:
        doc = game.examples_data
        report.note(f"{len(game.examples)} worked example(s) not recomputed: {reason}",
                    doc.path if doc is not None else None, None,
                    "fix the errors above; pnp check then recomputes every example")
    return {example.id: "skipped" for example in game.examples}


def check_player_names(game: Game, report: Report) -> None:
    """``[player_names.<lang>]`` in examples.toml: a shipped language, every player the examples name, no other.

    ``inputs.players`` are ids for the rules model; the rulebook of ``lang`` prints
    these names instead (docs/rulebooks.md, "Worked examples"). A language without
    a table prints the ids; a table that misses a player would print a mix.
    """
    doc = game.examples_data  # None when the file is absent or unreadable (the loader reported why)
    if doc is None:
        return
    path = doc.path
    if PLAYER_NAMES not in doc.data:
        return
    tables = doc.data[PLAYER_NAMES]
    if not isinstance(tables, dict):
        report.error(f"{PLAYER_NAMES} must be a table of languages", path, doc.line_of(PLAYER_NAMES),
                     f'write one table per language: [{PLAYER_NAMES}.ja] then Alice = "アリス"')
        return
    used: dict[str, str] = {}  # player id -> the first example naming it
    for example in game.examples:
        players = example.inputs.get("players")
        if isinstance(players, list):
            for player in players:
                if isinstance(player, str):
                    used.setdefault(player, example.id)
    for lang, names in tables.items():
        line = doc.line_of(PLAYER_NAMES, lang)
        if lang not in game.languages:
            report.error(f"player names for {lang!r}, a language this game does not ship", path, line,
                         f"use one of: {', '.join(game.languages)} (game.toml 'languages'), or remove the table")
            continue
        if not isinstance(names, dict):
            report.error(f"{PLAYER_NAMES}.{lang} must be a table of player id = name", path, line,
                         f'e.g. [{PLAYER_NAMES}.{lang}] then Alice = "..."')
            continue
        for player, name in names.items():
            key_line = doc.line_of(PLAYER_NAMES, lang, player)
            if player not in used:
                hint = closest(player, used)
                known = ", ".join(used) or "none (no example has inputs.players)"
                report.error(f"player names for {lang!r} name {player!r}, a player no example has", path, key_line,
                             f"did you mean {hint!r}?" if hint else
                             f"players in the examples' inputs.players: {known}; or remove the line")
            elif not isinstance(name, str) or not name.strip():
                report.error(f"player name of {player!r} in {lang!r} must be a non-empty string", path, key_line,
                             f'e.g. {player} = "..."')
        missing = [player for player in used if player not in names]
        if missing:
            listed = ", ".join(f"{player!r} (example {used[player]!r})" for player in missing)
            report.error(f"player names for {lang!r} miss {listed}: the {lang} rulebook would print the id",
                         path, line, "add " + ", ".join(f'{player} = "..."' for player in missing)
                         + f" under [{PLAYER_NAMES}.{lang}]")


def _judge_deviation(example: Example, mismatches: list[tuple[str, Any, Any]], computed: Mapping[str, Any],
                     report: Report) -> str:
    """A known seed error: the stated result must still differ from the rules' (else the mark is stale),
    and [example.corrected] must state what the rules give instead, so the example still checks the model:
    without it, a deviation passed whatever its expect said, and whatever the model computed."""
    file, line = where(example.source)
    at = example.corrected_line or example.expect_line or line
    if not mismatches:
        report.error(f"example {example.id!r} is marked as a deviation but the model agrees with it",
                     file, example.expect_line, "remove 'deviation', or check the stated result")
        return "mismatch"
    unstated = [(key, value) for key, _, value in mismatches if key not in example.corrected]
    wrong = [(key, stated, computed.get(key)) for key, stated in example.corrected.items()
             if not same_value(stated, computed.get(key))]
    if unstated:
        report.error(f"example {example.id!r}: a deviation states what the rules give where the seed is wrong: "
                     f"{', '.join(key for key, _ in unstated)} missing from [example.corrected]", file, at,
                     "add " + ", ".join(f"{key} = {as_written(value)}" for key, value in unstated)
                     + " under [example.corrected]")
    if wrong:
        report.error(f"example {example.id!r}: corrected {_describe(wrong)}", file, at,
                     "fix [example.corrected], or the rules model, so they agree")
    if unstated or wrong:
        return "mismatch"
    report.note(f"example {example.id!r} keeps the seed's stated result as a known deviation: "
                f"{example.deviation} ({_describe(mismatches)})", file, example.expect_line)
    return "deviation"


def _describe(mismatches: list[tuple[str, Any, Any]]) -> str:
    return "; ".join(f"{key} is stated as {as_written(stated)} but the rules give {as_written(computed)}"
                     for key, stated, computed in mismatches)


def as_written(value: Any) -> str:
    """A value as examples.toml would state it, so the message shows what to write: 7/2 as "7/2",
    a whole Fraction as 8, not the model's Python objects."""
    from fractions import Fraction  # as in _normal: not imported by builds without examples

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f'"{value.numerator}/{value.denominator}"'
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return "[" + ", ".join(as_written(item) for item in items) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {as_written(item)}" for key, item in value.items()) + " }"
    return str(value)


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

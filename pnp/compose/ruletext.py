"""Rule texts: ``rules/<lang>.md`` rendered in Jinja2's sandbox, then parsed into blocks.

This module joins the two steps (:mod:`pnp.compose.template` with :mod:`pnp.compose.rule_names`, then
:mod:`pnp.compose.markdown`) into the :class:`~pnp.compose.blocks.RuleText`
the rulebook, the aids and the translation check read.

A rule text is Markdown with placeholders that read the rules model
(``{{ setup[4].hand }}``, ``{{ rules.pips }}``), so no language can state a
number that disagrees with the components. The syntax is documented in
docs/rulebooks.md; in short:

* every heading ends with a stable section id shared by all languages:
  ``## Setup {#setup}``;
* ``{{ table("operators") }}`` on a line of its own places an aid table
  computed by the rules module;
* a fenced block with the info string ``example <id>`` places a worked example
  from examples.toml; its body is this language's wording, and inside it
  ``{{ result.value }}`` is the result the rules module recomputed.

Why render first and parse second: placeholders may sit anywhere (in a table
cell, a heading, an emphasis), and Jinja's own errors then carry the line of
the source file. Jinja comments are ``{## ... ##}`` because ``{#id}`` is the
heading id syntax. Placeholders must render on one line so that Markdown line
numbers stay those of the source file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pnp.compose.blocks import RuleText
from pnp.compose.data_aids import all_aid_tables
from pnp.compose.markdown import parse_rule_text
from pnp.compose.rule_names import compute_results, rule_context
from pnp.compose.rule_source import without_template_code
from pnp.compose.template import render_template
from pnp.diagnostics import DataError, Diagnostic, Level, Report
from pnp.load.game_folder import game_argument
from pnp.load.rule_files import rule_text_path
from pnp.load.text_files import read_text
from pnp.model.game import Game
from pnp.model.nesting import template_bounds_problem
from pnp.rules.base import GameRules


def load_rule_text(game: Game, rules: GameRules, lang: str, report: Report,
                   results: Mapping[str, Mapping[str, Any] | None] | None = None,
                   data_in_error: bool = False) -> RuleText | None:
    """Read, render and parse ``rules/<lang>.md``; ``None`` (with the reason in ``report``) if it can't be.

    ``data_in_error``: game.toml or a card list has errors (reported), so a placeholder that reads the
    part in error (``setup[4]`` with its row unreadable) fails for that reason: it is a note."""
    path = rule_text_path(game, lang)
    if results is None:
        results = compute_results(game, rules)
    source = None
    # with rules.toml in error, what the texts read from it (numbers, aid tables) is missing or wrong
    # for that reason, reported there once: not one error per placeholder that reads it
    rules_broken = rules.data_has_errors(game)
    # an example whose inputs are in error (reported at its line) fails again in each text's figure of it
    examples_broken = any(result is None for result in results.values())
    reason = ("rules.toml has errors" if rules_broken else "the game's data has errors" if data_in_error
              else "a worked example has errors" if examples_broken else None)
    table_ids = None if rules_broken else {table.id for table in all_aid_tables(game, rules, lang)}
    example_ids = written_example_ids(game)
    try:
        source = read_text(path)
        too_deep = template_bounds_problem(source)  # before Jinja2, which recurses per level
        if too_deep is not None:
            raise DataError(too_deep[1], path, too_deep[0], "split it into simpler placeholders or blocks")
        context = rule_context(game, rules, lang, results, rules_broken=rules_broken)
        rendered, unknown_names = render_template(source, path, context)
    except DataError as exc:
        found = [exc.diagnostic, *getattr(exc, "more", ())]  # more: found past a syntax error, in the same run
        report.diagnostics.extend(_while_in_error(found, reason) if reason else found)
        if source is not None:  # it could not be rendered: its structure can still be checked, in the same run
            parse_rule_text(without_template_code(source), path, report, example_ids, table_ids)
        return None
    # printed as "?": the text still parses, for its other problems
    report.diagnostics.extend(_while_in_error(unknown_names, reason) if reason else unknown_names)
    blocks = parse_rule_text(rendered, path, report, example_ids, table_ids)
    return RuleText(game.id, lang, path, tuple(blocks), results)


def written_example_ids(game: Game) -> set[str] | None:
    """The ids examples.toml gives, also of examples in error there (reported there, once). None when
    the file is there but unreadable, or an example's id is (which one a block names is then unknown),
    so that the rule texts' example blocks are not each "unknown" for that one mistake."""
    doc = game.examples_data
    if doc is None:
        return None if game.examples_unreadable else set()
    tables = doc.data.get("example", [])
    if not isinstance(tables, list):
        return None
    ids = [table.get("id") if isinstance(table, dict) else None for table in tables]
    return None if not all(isinstance(example_id, str) for example_id in ids) else set(ids)


#: what a placeholder's failure says when it reads rules.toml's values (a syntax error does not)
_READS_THE_RULES = ("placeholder failed:", "unknown name in a placeholder:")


def _while_in_error(found: list[Diagnostic], reason: str) -> list[Diagnostic]:
    """A placeholder that failed while the data it reads has errors most likely read a value they broke
    (``x // rules.colour_order|length`` with the colours unreadable): a note to look again once they
    are fixed, not an error of its own."""
    return [replace(d, level=Level.NOTE, message=f"not worked out while {reason}: {d.message}",
                    fix="fix those errors first; pnp check then checks this placeholder")
            if d.level is Level.ERROR and d.message.startswith(_READS_THE_RULES) else d for d in found]


def require_rule_text(game: Game, rules: GameRules, lang: str) -> RuleText:
    """For builds: the rule text, or a :class:`DataError` naming the first problem (pnp check lists all)."""
    report = Report()
    text = load_rule_text(game, rules, lang, report)
    if text is None or report.errors:
        first = report.errors[0]
        more = len(report.errors) - 1
        suffix = f" (and {more} more problem(s): run pnp check {game_argument(game.path)})" if more else ""
        raise DataError(first.message + suffix, first.file, first.line, first.fix)
    return text

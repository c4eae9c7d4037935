"""The contract between the generic core and a game's own rules module.

The core knows components, cards and setup arithmetic; it knows nothing of
operator tables or surveillance cards. A game whose rules need code names a
module in its manifest (``rules = "two_ops"``); that module exposes ``RULES``,
an instance of a :class:`GameRules` subclass. Adding a game therefore touches
neither the core nor the renderers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pnp.diagnostics import CardErrors
from pnp.load.game_folder import RULES_DATA
from pnp.model.game import where

if TYPE_CHECKING:
    from pnp.diagnostics import Report
    from pnp.model.game import Card, Example, Game

RulesData = TypeVar("RulesData")
#: recomputes one kind of example: ``runner(game, rules data, example inputs)`` -> the result's values
ExampleRunner = Callable[["Game", Any, Mapping[str, Any]], Mapping[str, Any]]


@dataclass
class AidTable:
    """A table for a player aid or rulebook, computed from the model.

    Cells are plain strings already in the requested language, so renderers
    only lay them out; ``notes`` are footnotes printed under the table.
    """

    id: str
    title: str
    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)


class ExampleError(Exception):
    """An example's inputs make no sense (unknown card, wrong kind).

    Raised by ``run_example``; the core turns it into a report entry with the
    example's file and line (the line of its input ``key``, when given), and ``fix`` into its fix.
    """

    def __init__(self, message: str, fix: str | None = None, key: str | None = None) -> None:
        super().__init__(message)
        self.fix = fix
        self.key = key


def unknown_card(message: str, card_id: str, known: Iterable[str], key: str | None = None) -> ExampleError:
    """An example names a card the deck does not have: most often a card renamed in the card list."""
    import difflib

    # itself, if it is in the list but has no rank; three, as 'yellow-1' renamed 'yellow-01' is as close
    # to 'yellow-10' and 'yellow-11'
    hints = difflib.get_close_matches(card_id, sorted(set(known) - {card_id}), n=3, cutoff=0.6)
    if not hints:
        return ExampleError(message, "use an id from the card list", key)
    named = [repr(hint) for hint in hints]
    either = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"
    return ExampleError(message, f"did you mean {either}?", key)


def report_blank_column(cards: Iterable[Card], attribute: str, card_kind: str, column: str, report: Report) -> bool:
    """One error naming every card whose ``attribute`` (read from ``column``) is blank; whether any is.

    A column emptied, deleted or misspelt in its header leaves every card without the value: one
    error at the list, not one per card, nor the checks that would count the blanks as a value."""
    blank = CardErrors()
    for card in cards:
        if getattr(card, attribute) in (None, ""):
            blank.add(f"{card_kind} without a {attribute} (the {column} column)", *where(card.source),
                      f"fill in the {column} column (is its header spelt '{column}'?)", card=card.id)
    if not blank:
        return False
    blank.report_to(report)
    return True


def report_missing_rules_data(game: Game, report: Report, rules: str, holding: str) -> None:
    """"<rules> needs rules.toml (<what it holds>)", unless the file is there and its error is reported
    already: a malformed rules.toml was also said to be missing, at the game folder."""
    if not (game.path / RULES_DATA).exists():
        report.error(f"{rules} needs rules.toml ({holding})", game.path, None, "add rules.toml to the game folder")


class GameRules:
    """Default: a game with no rules of its own beyond the generic checks."""

    #: example kind -> its runner; the kinds are what examples.toml may use
    example_runners: ClassVar[Mapping[str, ExampleRunner]] = {}
    #: example kind -> the inputs its runner reads; any other is an error at its line, since a misspelt
    #: optional input (hands as handss) would silently leave out what it checks. A kind not listed: any.
    example_inputs: ClassVar[Mapping[str, frozenset[str]]] = {}

    @property
    def example_kinds(self) -> frozenset[str]:
        return frozenset(self.example_runners)

    def rules_data(self, game: Game, report: Report) -> Any:
        """The game's rules data (its rules.toml) read and checked; problems go to ``report``.

        None when it cannot be used at all. Examples and the solver only run on data without errors.
        """
        return None

    def data_has_errors(self, game: Game) -> bool:
        """Whether rules.toml has errors (reported by the check): what rule texts read from it (its
        numbers, its aid tables) is then missing for that reason, not because a text misnamed it."""
        from pnp.diagnostics import Report

        problems = Report()
        self.rules_data(game, problems)
        unreadable = game.rules_data is None and (game.path / RULES_DATA).exists()  # reported where it is read
        return bool(problems.errors) or unreadable

    def check(self, game: Game, report: Report) -> None:
        """Add game-specific problems to ``report``; never raise on bad data."""

    def run_example(self, game: Game, example: Example) -> Mapping[str, Any]:
        """Recompute an example from its inputs.

        Returns a mapping with (at least) the keys of ``example.expect``; the
        core compares them and reports any mismatch at the example's line.
        """
        runner = self.example_runners.get(example.kind)
        if runner is None:
            raise ExampleError(f"this game has no rules for examples of kind {example.kind!r}")
        return runner(game, read_or_raise(self.rules_data, game), example.inputs)

    def context(self, game: Game, lang: str) -> dict[str, Any]:
        """Extra names for rule-text placeholders and layouts (model numbers)."""
        return {}

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        """Tables for the player aid, computed from the model."""
        return []

    #: one line of usage for `pnp solve`, or None when the game has no solver
    solve_usage: str | None = None

    def solve(self, game: Game, arguments: list[str], lang: str) -> str:
        """Settle a dispute at the table: the best play for a position given on the command line.

        Bad arguments raise :class:`ExampleError` with a message for the player.
        """
        raise ExampleError("this game has no solver")

    def card_texts(self, game: Game, lang: str) -> dict[str, dict[str, str]]:
        """Texts generated from rules data, per card id and field.

        Gadget Trick's surveillance texts and Two Ops' court-card operator
        lines are generated, so languages can never disagree with the model.
        """
        return {}


def read_or_raise(read: Callable[[Game, Report], RulesData | None], game: Game) -> RulesData:
    """Rules data for an example or the solver, or :class:`ExampleError` saying why there is none.

    Data read with errors is refused, not used half-read: an example recomputed against a table
    whose bad row was dropped, or against defaults, reports the table's fault as its own.
    """
    from pnp.diagnostics import Report

    report = Report()
    data = read(game, report)
    if data is None or report.errors:
        reasons = "; ".join(d.message for d in report.errors) or "unreadable"
        raise ExampleError(f"rules.toml is unusable: {reasons}")
    return data

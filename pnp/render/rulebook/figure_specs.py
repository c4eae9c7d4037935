"""What each worked example's figure shows, as data: rows of cards and captions, per example kind.

A figure is described before it is drawn, so its strings can be collected for the font subset
(:func:`figure_texts`) before any font exists; pnp/render/rulebook/figures.py lays the rows out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.compose.rule_names import format_value
from pnp.model.game import Example, Game


@dataclass(frozen=True)
class CardSlot:
    card: str
    highlight: bool = False  # drawn with a coloured frame: the goal card, a card set aside
    dim: bool = False  # drawn faded: a card lying face down at the end of a trick


@dataclass(frozen=True)
class Label:
    """A caption. ``player``: the example's player id this caption ends with ("\u2192 Bob"); the
    figure prints it as the book's language names that player (:meth:`shown`)."""

    text: str
    bold: bool = False
    player: str | None = field(default=None, compare=False)

    def shown(self, names: Mapping[str, str]) -> str:
        """The caption as printed: the player's id swapped for its name in ``names``, if it has one."""
        if self.player and self.player in names and self.text.endswith(self.player):
            return self.text[: len(self.text) - len(self.player)] + names[self.player]
        return self.text


Item = CardSlot | Label
Group = tuple[Item, ...]  # never split across lines


@dataclass(frozen=True)
class FigureSpec:
    """Rows of groups; the groups of a row flow onto further lines when the page is narrow."""

    rows: tuple[tuple[Group, ...], ...]

    def texts(self) -> Iterator[str]:
        for row in self.rows:
            for group in row:
                for item in group:
                    if isinstance(item, Label):
                        yield item.text


def example_figure(game: Game, example: Example, result: Mapping[str, Any] | None) -> FigureSpec:
    """The figure for one worked example: its cards, then the recomputed result."""
    builder = FIGURES.get(example.kind, _generic_figure)
    return builder(game, example, result or {})


def _cards_in(game: Game, value: Any) -> list[str]:
    items = value if isinstance(value, list | tuple) else [value]
    return [str(item) for item in items if isinstance(item, str) and game.card(item) is not None]


def _generic_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """Every card named in the inputs, grouped by input, then "= value" when the result has one."""
    groups = [tuple(CardSlot(c) for c in _cards_in(game, value)) for value in example.inputs.values()]
    groups = [group for group in groups if group]
    # the headline number of a result: a value (Two Ops) or a price (Rudy)
    headline = next((key for key in ("value", "price", "total") if key in result), None)
    if headline is not None:
        groups.append((Label("= " + format_value(result[headline]), bold=True),))
    return FigureSpec((tuple(groups),))


def _operation_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """number, operator, number = value: one row, as the cards lie on the table."""
    numbers = _cards_in(game, example.inputs.get("numbers"))
    operator = _cards_in(game, example.inputs.get("operator"))
    if len(numbers) != 2 or len(operator) != 1:
        return _generic_figure(game, example, result)
    group: Group = (CardSlot(numbers[0]), CardSlot(operator[0]), CardSlot(numbers[1]),
                    Label("= " + format_value(result.get("value", "?")), bold=True))
    return FigureSpec(((group,),))


_OPERATION_TEXT = re.compile(r"^\s*(\S+)\s+(\S+)\s+(\S+)\s*=\s*(\S+)\s*$")
_SUM_AIMS = {"lowest-sum", "highest-sum"}


def _solve_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """The hand and the goal card, then the best layout the solver found and how it scores."""
    numbers = _cards_in(game, example.inputs.get("numbers"))
    operators = _cards_in(game, example.inputs.get("operators"))
    goal = _cards_in(game, example.inputs.get("goal"))
    hand: tuple[Group, ...] = (
        tuple(CardSlot(c) for c in numbers),
        tuple(CardSlot(c) for c in operators),
        (Label("\u25b6"), *(CardSlot(c, highlight=True) for c in goal)),
    )
    operations = []
    for text in result.get("operations", []):
        match = _OPERATION_TEXT.match(str(text))
        if match is None:
            operations.append((Label(str(text)),))
            continue
        left, operator, right, value = match.groups()
        operations.append((CardSlot(left), CardSlot(operator), CardSlot(right),
                           Label("= " + format_value(value), bold=True)))
    values = [m.group(4) for m in (_OPERATION_TEXT.match(str(t)) for t in result.get("operations", [])) if m]
    total = format_value(result.get("value", "?"))
    if len(values) == 2 and result.get("aim") in _SUM_AIMS:
        summary = f"{format_value(values[0])} + {_bracketed(values[1])} = {total}"
    elif len(values) == 2:
        summary = f"|{format_value(values[0])} \u2212 {_bracketed(values[1])}| = {total}"
    else:
        summary = f"= {total}"
    layout = (*operations, (Label("\u21d2 " + summary, bold=True),))
    return FigureSpec((hand, tuple(layout)))


def _bracketed(value: Any) -> str:
    """A value as the second term of a sum or difference: a negative one in brackets."""
    text = format_value(value)
    return f"({text})" if text.startswith("\u2212") else text


def _trick_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """The cards in play order, each under its player's name when the example names players; the
    winner's card framed, the others faded (in Take Over That Job they end face down).

    The names are the ids of ``inputs.players``; :class:`FigureFlowable` prints them as the
    rulebook's language writes them (examples.toml ``[player_names.<lang>]``)."""
    plays = _cards_in(game, example.inputs.get("plays"))
    if not plays or "winner" not in result:
        return _generic_figure(game, example, result)
    names = example.inputs.get("players")
    names = names if isinstance(names, list) and len(names) == len(plays) else None
    winner = result["winner"]
    if isinstance(winner, str) and names and winner in names:
        winner_index = names.index(winner)
    elif isinstance(winner, int) and 0 <= winner < len(plays):
        winner_index = winner
    else:
        return _generic_figure(game, example, result)
    groups: list[Group] = []
    trump = example.inputs.get("trump")
    if isinstance(trump, str) and game.card(f"marker-{trump}") is not None:
        groups.append((CardSlot(f"marker-{trump}"),))  # the trump marker, as it lies on the table
    for index, card in enumerate(plays):
        slot = CardSlot(card, highlight=index == winner_index, dim=index != winner_index)
        groups.append((Label(str(names[index]), player=str(names[index])), slot) if names else (slot,))
    if names:  # without names the framed card says it all; a bare seat number would be misread
        winner_name = str(names[winner_index])
        groups.append((Label("\u2192 " + winner_name, bold=True, player=winner_name),))
    return FigureSpec((tuple(groups),))


def _follow_figure(game: Game, example: Example, result: Mapping[str, Any]) -> FigureSpec:
    """The lead card, then the hand: the cards that may be played framed, the others faded."""
    lead = _cards_in(game, example.inputs.get("lead"))
    hand = _cards_in(game, example.inputs.get("hand"))
    legal = set(_cards_in(game, result.get("legal", [])))
    if len(lead) != 1 or not hand:
        return _generic_figure(game, example, result)
    return FigureSpec((((CardSlot(lead[0]),), (Label("\u25b6"),),
                        tuple(CardSlot(card, highlight=card in legal, dim=card not in legal) for card in hand)),))


#: example kind -> figure builder; kinds not listed get the generic figure
FIGURES = {"operation": _operation_figure, "solve": _solve_figure, "trick": _trick_figure,
           "follow": _follow_figure}


def figure_texts(game: Game, examples: Sequence[Example], results: Mapping[str, Any]) -> list[str]:
    """Every string the example figures print, for the font subset."""
    texts = ["0123456789 /=+|\u2212\u25b6\u21d2()"]
    for example in examples:
        texts.extend(example_figure(game, example, results.get(example.id)).texts())
    return texts

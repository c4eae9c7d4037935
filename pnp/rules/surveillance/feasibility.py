"""Whether a card can ever fire with the cards in play (:func:`can_fire`), and the conjunctions
that never can whatever the deck (:func:`clashes`): see the package's docstring."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pnp.rules.surveillance.model import (
    COMPARISONS,
    AllOf,
    Amount,
    AnyOf,
    Compare,
    Condition,
    PlayedCard,
    Selector,
    TrickContains,
    WinnerPlayed,
    Won,
    WonCount,
    WonSum,
)


@dataclass(frozen=True)
class Table:
    """The cards a condition could meet at one player count, by a given trick."""

    players: int
    in_play: Sequence[PlayedCard]  # every trick card in play at this player count
    tricks_played: int  # the card's last active trick

    @property
    def playable(self) -> int:
        """Cards that can have been played by then: the most a won pile can hold."""
        return min(self.players * self.tricks_played, len(self.in_play))


def can_fire(condition: Condition, table: Table) -> bool:
    """Whether ``condition`` could hold at all (sound, not complete: see the module docstring)."""
    colours = sorted({card.colour for card in table.in_play})
    numbers = sorted({card.number for card in table.in_play})
    worlds: set[_World] = {None}
    worlds.update((PlayedCard(colour, number), trump) for colour in colours for number in numbers
                  for trump in colours)
    return bool(_possible(condition, table, frozenset(worlds)))


#: What the winner's card could be: (that card, the trump suit), or None for
#: "no card needed" (a condition that names no card holds without one).
_World = tuple[PlayedCard, str] | None


def _possible(condition: Condition, table: Table, worlds: frozenset[_World]) -> frozenset[_World]:
    """The worlds among ``worlds`` in which ``condition`` could hold.

    ``and`` narrows the worlds part by part, so all the ``winner.played`` terms
    of a conjunction must fit one card; ``or`` keeps the worlds of any part.
    """
    if isinstance(condition, AllOf):
        for part in condition.parts:
            worlds = _possible(part, table, worlds)
            if not worlds:
                break
        return worlds
    if isinstance(condition, AnyOf):
        return frozenset().union(*(_possible(part, table, worlds) for part in condition.parts))
    if isinstance(condition, WinnerPlayed):
        return frozenset(world for world in worlds
                         if world is not None and condition.selector.matches(*world))
    return worlds if _term_can_hold(condition, table) else frozenset()


def _term_can_hold(condition: Compare | TrickContains, table: Table) -> bool:
    """One term about the won pile or the trick, bounded by the cards alone."""
    if isinstance(condition, TrickContains):
        return any(card.number == condition.number for card in table.in_play)
    most = _most(condition.amount, table)
    return any(COMPARISONS[condition.op](value, condition.value) for value in range(most + 1))


def _could_match(selector: Selector, card: PlayedCard, table: Table) -> bool:
    # any colour in play can be trump, so "trump" matches every card
    return selector.kind == "trump" or selector.matches(card, trump="")


def _most(amount: Amount, table: Table) -> int:
    if isinstance(amount, Won):
        if amount.selector.kind == "trump":
            colours = {card.colour for card in table.in_play}
            available = max((sum(1 for c in table.in_play if c.colour == colour) for colour in colours), default=0)
        else:
            available = sum(1 for card in table.in_play if _could_match(amount.selector, card, table))
        return min(available, table.playable)
    if isinstance(amount, WonCount):
        return table.playable
    numbers = sorted((card.number for card in table.in_play), reverse=True)
    if isinstance(amount, WonSum):
        return sum(numbers[: table.playable])
    return sum(numbers[: table.players])


@dataclass(frozen=True)
class Clash:
    """``winner.played`` terms joined by ``and`` that one card can't meet: two colours, or two numbers."""

    selectors: tuple[Selector, ...]  # the terms at odds, in the order written

    def terms(self) -> str:
        """The terms as written: "winner.played(red) and winner.played(blue)"."""
        return _listed([f"winner.played({selector})" for selector in self.selectors])

    def reason(self) -> str:
        """Why no card meets them: "it can't be both red and blue"."""
        colours = [str(s.value) for s in self.selectors if s.kind == "colour"]
        numbers = [str(s.value) for s in self.selectors if s.kind == "number"]
        parts = []
        if colours:
            parts.append(_both(colours))
        if numbers:
            parts.append(f"numbered {_both(numbers)}")
        return "it can't be " + ", nor ".join(parts)


def clashes(condition: Condition) -> list[Clash]:
    """The conjunctions that can never hold because they ask the winner's one card for two colours or numbers.

    A conjunction is reported when each of its alternatives (its ``or`` parts
    multiplied out) clashes, even if another part of the condition can fire:
    its text would describe a card that does not exist. One dead alternative
    among live ones is not a clash (``winner.played(red) and (winner.played(blue)
    or winner.played(number=7))`` is a red 7), nor is the same term twice.
    """
    found: dict[Clash, None] = {}
    _card_alternatives(condition, found)
    return list(found)


def _card_alternatives(condition: Condition, found: dict[Clash, None]) -> list[tuple[Selector, ...]]:
    """The sets of ``winner.played`` selectors under which ``condition`` could hold; clashes go to ``found``."""
    if isinstance(condition, WinnerPlayed):
        return [(condition.selector,)]
    if isinstance(condition, AnyOf):
        options = (_card_alternatives(part, found) for part in condition.parts)
        return list(dict.fromkeys(option for part in options for option in part))
    if not isinstance(condition, AllOf):
        return [()]
    combined: list[tuple[Selector, ...]] = [()]
    for part in condition.parts:
        options = _card_alternatives(part, found)
        combined = list(dict.fromkeys(tuple(dict.fromkeys(have + more)) for have in combined for more in options))
    live = [selectors for selectors in combined if _clash(selectors) is None]
    if not live:  # empty already when a part was reported: then it is not reported again
        found.update((clash, None) for clash in map(_clash, combined) if clash is not None)
    return live


def _clash(selectors: tuple[Selector, ...]) -> Clash | None:
    """The selectors at odds among ``selectors`` (describing one card), if any."""
    at_odds = [kind for kind in ("colour", "number") if len({s.value for s in selectors if s.kind == kind}) > 1]
    if not at_odds:
        return None
    return Clash(tuple(s for s in selectors if s.kind in at_odds))


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _both(items: Sequence[str]) -> str:
    return f"both {items[0]} and {items[1]}" if len(items) == 2 else f"{_listed(items)} at once"


def colours_named(condition: Condition) -> set[str]:
    """Colours a condition names, for checking them against those in play."""
    if isinstance(condition, AllOf | AnyOf):
        return set().union(*(colours_named(part) for part in condition.parts))
    selector = None
    if isinstance(condition, WinnerPlayed):
        selector = condition.selector
    elif isinstance(condition, Compare) and isinstance(condition.amount, Won):
        selector = condition.amount.selector
    return {str(selector.value)} if selector is not None and selector.kind == "colour" else set()



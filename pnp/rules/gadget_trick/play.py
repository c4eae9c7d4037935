"""Playing a trick: who wins it, what may be played, who leads next, when the game ends."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pnp.rules.surveillance import PlayedCard


def trick_winner(plays: Sequence[PlayedCard], trump: str | None) -> int:
    """Index of the winning play: highest trump, else highest of the lead suit.

    Equal numbers (a gadget can make them) go to the card played first,
    which the strict ``>`` gives.
    """
    suit = trump if any(card.colour == trump for card in plays) else plays[0].colour
    best = 0 if plays[0].colour == suit else None
    for index, card in enumerate(plays):
        if card.colour == suit and (best is None or card.number > plays[best].number):
            best = index
    assert best is not None  # the lead or a trump always matches
    return best


def legal_plays(hand: Sequence[str], colours: Mapping[str, str], lead_colour: str) -> list[str]:
    """The cards of ``hand`` that may follow a lead of ``lead_colour``."""
    following = [card for card in hand if colours[card] == lead_colour]
    return following or list(hand)


def next_leader(players: int, winner: int, removed: set[int]) -> int | None:
    """The winner leads; a removed winner passes the lead on in play order."""
    for step in range(players):
        seat = (winner + step) % players
        if seat not in removed:
            return seat
    return None


@dataclass(frozen=True)
class Outcome:
    over: bool
    draw: bool
    winners: tuple[int, ...]


def end_of_trick(players: int, removed: set[int], trick: int, length: int, last_winner: int,
                 won_count: Sequence[int], won_trump: Sequence[int]) -> Outcome:
    """Whether the game ends after this trick, and who wins."""
    in_play = [seat for seat in range(players) if seat not in removed]
    if not in_play:
        return Outcome(True, True, ())
    if len(in_play) == 1:
        return Outcome(True, False, (in_play[0],))
    if trick < length:
        return Outcome(False, False, ())
    if last_winner not in removed:
        return Outcome(True, False, (last_winner,))
    most = max(won_count[seat] for seat in in_play)
    leaders = [seat for seat in in_play if won_count[seat] == most]
    fewest = min(won_trump[seat] for seat in leaders)
    return Outcome(True, False, tuple(seat for seat in leaders if won_trump[seat] == fewest))

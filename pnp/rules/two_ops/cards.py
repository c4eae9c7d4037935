"""Two Ops' cards as the rules see them: a value and a colour, read from ids like ``7H``."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SUIT_COLOURS = {"S": "black", "C": "black", "H": "red", "D": "red"}
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13}
_CARD_TEXT = re.compile(r"^(10|[2-9]|[AJQK])([SHDC])$", re.IGNORECASE)


class CardError(ValueError):
    """A card id that names no card of a French-suited deck, or a bad hand."""


@dataclass(frozen=True)
class PlayingCard:
    """What the rules need of a card: its value and its colour."""

    id: str
    rank: int
    colour: str

    @property
    def is_court(self) -> bool:
        return self.rank > 10


def parse_card(text: str) -> PlayingCard:
    """Read ``7H``, ``10h``, ``AS``, ``KD`` (rank then suit letter, any case).

    Examples are typed by hand, so the error says what a valid id looks like
    instead of failing on a lookup later.
    """
    cleaned = str(text).strip()
    match = _CARD_TEXT.match(cleaned)
    if not match:
        raise CardError(
            f"{text!r} is not a card id: write the rank (A, 2-10, J, Q, K) then the suit "
            "(S, H, D, C), e.g. '7H', '10S', 'AS', 'KD'"
        )
    rank_text, suit = match.group(1).upper(), match.group(2).upper()
    rank = _RANK_WORDS.get(rank_text) or int(rank_text)
    return PlayingCard(id=f"{rank_text}{suit}", rank=rank, colour=_SUIT_COLOURS[suit])

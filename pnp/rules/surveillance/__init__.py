"""Gadget Trick's surveillance conditions: a small language, parsed, never eval'd.

A surveillance card has two conditions written in its CSV row. They are a
language rather than free text so that ``pnp check`` can prove every card can
fire, and so that the printed English and Japanese texts are generated from
one parsed tree and can never disagree with each other or with the model.

Activation (on which tricks the card is checked)::

    activation := "every" "trick"              every trick
                | "trick" INT                  that trick only
                | "tricks" INT "-" INT         an inclusive range ("–" also accepted)
                | "from" "trick" INT           that trick and every later one

Removal (which players the card catches)::

    condition   := conjunction { "or" conjunction }
    conjunction := atom { "and" atom }
    atom        := "(" condition ")" | amount COMPARE INT | test
    amount      := "won" "(" selector ")"      won cards matching the selector
                 | "count" "(" "won" ")"       all won cards
                 | "sum" "(" "won" ")"         total of the numbers on won cards
                 | "trick" "." "total"         total of the numbers in the trick just won
    test        := "trick" "." "contains" "(" INT ")"   the trick just won holds that number
                 | "winner" "." "played" "(" selector ")"  won it with such a card
    selector    := COLOUR | "trump" | "number" "=" INT
    COMPARE     := ">=" | ">" | "<=" | "<" | "=="

Meaning. A removal condition is evaluated for each player still in play, on
their won pile after the trick's cards have been taken. Terms about the trick
just played (``trick.*``, ``winner.*``) concern only the player who won it: for
everyone else they are false. A card watches the thief holding the loot, so
``trick.total >= 30`` must not remove the players who merely played to it.

Feasibility (:func:`can_fire`) bounds each term from above by the cards in
play and the cards that can have been played by the card's last active trick.
The card the winner played is one card: every ``winner.played`` term of a
conjunction describes it, so the check looks for one colour, one number and
one trump suit in play that meet them all (``winner.played(trump) and
winner.played(red)`` is a red card with red as trump; two colours, or two
numbers, are never one card). Any colour and any number in play may be paired,
since gadgets may change a card's number. Other terms are judged one by one,
so the check is sound (it never rejects a card that can fire) but not complete
(``won(red) >= 5 and won(red) < 3`` still passes).

Clashes (:func:`clashes`) name the conjunctions that fail for that reason
alone, whatever the deck: ``winner.played(red) and winner.played(blue)`` would
be printed as "a red blue card". The same term twice is only redundant: it
holds, and the text says it once.
"""
from __future__ import annotations

from pnp.rules.surveillance.evaluate import (  # noqa: F401 - the package's API
    PlayerView,
    holds,
)
from pnp.rules.surveillance.feasibility import (  # noqa: F401 - the package's API
    Clash,
    Table,
    can_fire,
    clashes,
    colours_named,
)
from pnp.rules.surveillance.model import (  # noqa: F401 - the package's API
    COMPARISONS,
    Activation,
    AllOf,
    Amount,
    AnyOf,
    Compare,
    Condition,
    PlayedCard,
    Selector,
    TrickContains,
    TrickTotal,
    WinnerPlayed,
    Won,
    WonCount,
    WonSum,
)
from pnp.rules.surveillance.parse import (  # noqa: F401 - the package's API
    ConditionError,
    Token,
    parse_activation,
    parse_removal,
    tokenize,
)
from pnp.rules.surveillance.wording import (  # noqa: F401 - the package's API
    PHRASES,
    describe_activation,
    describe_removal,
    phrasebook,
)

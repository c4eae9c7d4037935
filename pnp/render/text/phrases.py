"""Where a Japanese phrase (文節) begins, so that a heading breaks between words, not inside one.

Japanese has no spaces: a line breaker that may break between any two characters set an aid
card's heading as リード色が不利色でな / いとき. BudouX (Google's small phrase segmenter, a
pure-Python model of some kilobytes, Apache 2.0) finds phrase boundaries (リード色が / 不利色でない /
とき); :func:`phrase_starts` gives them to the line breaker, which breaks a heading only there
when the line can take the phrase. Body text is not held to phrases: justified text breaks
between any two characters, as Japanese books do, and fewer break points would only spread
its lines wider.
"""

from __future__ import annotations

from functools import cache

import budoux

#: a phrase longer than this is left breakable anywhere: gluing it could leave no break on a line
LONGEST_GLUED_PHRASE = 10


@cache
def _parser() -> budoux.Parser:
    return budoux.load_default_japanese_parser()


def phrase_starts(text: str) -> set[int]:
    """Offsets in ``text`` where no phrase-internal break would fall: every offset but those inside a
    phrase of at most LONGEST_GLUED_PHRASE characters."""
    inside: set[int] = set()
    offset = 0
    for phrase in _parser().parse(text):
        if len(phrase) <= LONGEST_GLUED_PHRASE:
            inside.update(range(offset + 1, offset + len(phrase)))
        offset += len(phrase)
    return set(range(len(text) + 1)) - inside

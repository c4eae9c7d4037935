"""Cards a rule text names by id, ``{{ card("10S") }}`` or ``{{ cards("AS 2S") }}``: each must be a card.

``card()`` prints an unknown id as it is written, so a typo or a card renamed in its list since
printed "nope" in the rulebook without a word. Calls with a literal id are checked here, where the
text is written; one that reads an example's inputs (``card(inputs.goal)``) names a card the
example's own check already knows.
"""

from __future__ import annotations

import re
from pathlib import Path

from pnp.diagnostics import Report
from pnp.model.fields import closest
from pnp.model.game import Game

_CARD_CALL = re.compile(r"""\{\{[^}]*?\b(cards?)\(\s*(["'])(.*?)\2\s*\)""", re.DOTALL)


def check_card_mentions(game: Game, path: Path, text: str, report: Report) -> None:
    """Report each literal card id of a ``card()`` or ``cards()`` call that no card list holds."""
    known = [card.id for card in game.all_cards()]
    if not known or any(component.list_failed for component in game.components.values()):
        return  # a card list could not be read whole (reported): its ids would be unknown
    ids = set(known)
    for match in _CARD_CALL.finditer(text):
        function, written = match.group(1), match.group(3)
        named = written.replace(",", " ").split() if function == "cards" else [written]
        line = text.count("\n", 0, match.start(3)) + 1
        for card_id in named:
            if card_id not in ids:
                hint = closest(card_id, known)
                report.error(f"{function}({written!r}) names no card {card_id!r}: the rulebook would print it as "
                             "written", path, line,
                             f"did you mean {hint!r}?" if hint else "use an id from the card lists")

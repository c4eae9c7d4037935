"""Players of the worked examples in a rule text: through ``player(id)``, never spelled out.

examples.toml holds the examples' players as ids, and ``[player_names.<lang>]``
says how each language writes them; the figures print those names. A rule text
that spells "Bob" or 「ボブ」 itself agrees with the figures only until someone
renames a player in one place, and a translator cannot see the tie. So a name
written literally is a warning, and ``player("X")`` for an X that no example
has is an error: it would print the bare id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from pnp.compose.rule_names import player_names
from pnp.diagnostics import Report, listed
from pnp.model.fields import closest
from pnp.model.game import Game
from pnp.validate.glossary_match import is_japanese_term, japanese_matches
from pnp.validate.rule_prose import prose_in_place

_PLAYER_CALL = re.compile(r"""\{\{[^}]*?\bplayer\(\s*(["'])(.*?)\1\s*\)""", re.DOTALL)
LINES_SHOWN = 4


def example_players(game: Game) -> list[str]:
    """Player ids the examples name, in the order they first appear."""
    found: dict[str, None] = {}
    for example in game.examples:
        players = example.inputs.get("players")
        if isinstance(players, list):
            found.update((player, None) for player in players if isinstance(player, str))
    return list(found)


def name_offsets(text: str, name: str) -> Iterator[int]:
    """Where ``name`` stands as a word: Latin names case-sensitively, Japanese ones by script boundaries."""
    if is_japanese_term(name):
        yield from japanese_matches(text, name)
    else:
        for match in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            yield match.start()


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def check_player_mentions(game: Game, lang: str, path: Path, text: str, report: Report) -> None:
    """Report players written literally in ``text`` (rules/<lang>.md) and ``player()`` calls naming no player."""
    if game.examples_unreadable:
        return  # which players the examples have is unknown: examples.toml's error says why, once
    players = example_players(game)
    for match in _PLAYER_CALL.finditer(text):
        player = match.group(2)
        if player in players:
            continue
        hint = closest(player, players)
        if not players:  # no example names its players: every player() prints its bare id
            fix = "no worked example has players (examples.toml inputs.players): write the name in the text"
        else:
            fix = (f"did you mean player({hint!r})?" if hint
                   else f"the examples' players (examples.toml inputs.players): {', '.join(players)}")
        report.error(f"player({player!r}) names no player of the examples: the rulebook would print {player!r}",
                     path, _line_of(text, match.start(2)), fix)
    names = player_names(game, lang)
    visible = prose_in_place(text)
    for player in players:
        name = names.get(player, player)
        lines = sorted({_line_of(visible, offset) for offset in name_offsets(visible, name)})
        if lines:
            report.warning(f"the example player {name!r} is written out on line(s) {listed(lines, LINES_SHOWN)}: "
                           "it would not follow a change in examples.toml", path, lines[0],
                           f'write {{{{ player("{player}") }}}} (inside an example block, '
                           f"player(inputs.players[i]) ties it to the example); "
                           f"the name comes from [player_names.{lang}], or the id")

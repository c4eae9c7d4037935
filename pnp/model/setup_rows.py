"""A manifest's player range and [[setup]] rows: how many players, and the deal for each count.

Kept apart from pnp/model/build.py because the same player-range reading serves both the game's
``players`` and every setup row's, and the setup rows are what the setup checks then recompute.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.load.guarded import LIMITS
from pnp.model.fields import TomlReader
from pnp.model.game import Deal, Game, SetupRow, Source

if TYPE_CHECKING:
    pass


SETUP_KEYS = {"players", "pool", "kinds", "in_play", "hand", "revealed", "left", "tricks", "colours", "also"}
DEAL_KEYS = {"pool", "kinds", "in_play", "hand", "revealed", "left"}


MOST_PLAYERS = 100


def read_players(reader: TomlReader, value: Any, path: tuple[str | int, ...]) -> tuple[int, int] | None:
    if isinstance(value, int) and not isinstance(value, bool):
        low = high = value
    elif (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        low, high = value
    else:
        reader.error(path, f"expected a player count or [min, max], found {value!r}",
                     "write players = [2, 6] or players = 4")
        return None
    if low < 1 or high < 1:
        reader.error(path, f"player range {low}-{high} is empty or below 1")
        return None
    if max(low, high) > MOST_PLAYERS:  # every count is set up and checked: a typo's 10**9 would never end
        reader.error(path, f"player range {low}-{high} goes above {MOST_PLAYERS} players",
                     "write the range of players the game is for, e.g. [2, 6]")
        return None
    if high < low:  # [4, 2]: the intent is plain, so the setup is checked against 2-4 rather than nothing
        reader.error(path, f"player range {low}-{high} runs backwards", f"write [{high}, {low}]: [min, max]")
        return high, low
    return low, high


def _deal(reader: TomlReader, table: dict[str, Any], path: tuple[str | int, ...],
          default_pool: str | None) -> Deal | None:
    pool = reader.string(table, path, "pool", default_pool)
    most = LIMITS["setup count"]
    in_play = reader.integer(table, path, "in_play", maximum=most)
    hand = reader.integer(table, path, "hand", maximum=most)
    revealed = reader.integer(table, path, "revealed", 0, maximum=most)
    left = reader.integer(table, path, "left", None, maximum=most)
    kinds = table.get("kinds", [])
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        reader.error(path + ("kinds",), f"expected a list of card kinds, found {kinds!r}")
        kinds = []
    if pool is None or in_play is None or hand is None or revealed is None:
        return None
    return Deal(pool=pool, in_play=in_play, hand=hand, revealed=revealed, left=left, kinds=tuple(kinds),
                pool_line=reader.line(*path, "pool") if "pool" in table else None,
                in_play_line=reader.line(*path, "in_play"))


def read_setup(reader: TomlReader, data: dict[str, Any], game: Game) -> tuple[dict[int, SetupRow], bool]:
    """The setup rows by player count, and whether a row in error was left out (reported)."""
    rows: dict[int, SetupRow] = {}
    default_pool = next((c.id for c in game.components.values() if c.kind == "cards"), None)
    readable = reader.tables(data, (), "setup")
    dropped_rows = readable is None or len(readable) < len(data.get("setup", []))
    for index, table in readable or []:
        path = ("setup", index)
        reader.unknown_keys(table, path, SETUP_KEYS)
        players = read_players(reader, table.get("players"), path + ("players",))
        main = _deal(reader, table, path, default_pool)
        also = {}
        for name, sub in reader.table(table, path, "also").items():
            if isinstance(sub, dict):
                reader.unknown_keys(sub, path + ("also", name), DEAL_KEYS)
                deal = _deal(reader, sub, path + ("also", name), None)
                if deal:
                    also[name] = deal
        tricks = reader.integer(table, path, "tricks", None, maximum=LIMITS["setup count"])  # read once
        colours = reader.integer(table, path, "colours", None, maximum=LIMITS["setup count"])
        if players is None or main is None:
            dropped_rows = True
            continue
        unreadable = frozenset(key for key, value in (("tricks", tricks), ("colours", colours))
                               if value is None and key in table)
        source = Source(reader.doc.path, reader.line(*path))
        for count in range(players[0], players[1] + 1):
            if count in rows:
                reader.error(path + ("players",), f"{count} players already has a setup row "
                             f"(line {rows[count].source.line if rows[count].source else '?'})")
                continue
            rows[count] = SetupRow(players=count, main=main, also=also, tricks=tricks, colours=colours,
                                   source=source, unreadable=unreadable,
                                   colours_line=reader.line(*path, "colours") if "colours" in table else None)
    return rows, dropped_rows

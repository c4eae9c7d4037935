"""A value of the wrong shape where an array of tables belongs is an error at its line, not a traceback.

`[[turn]]` written as `turn = 3`, an `[[example]]` as `example = 0`, a wild card's choice as a list:
each made `pnp check` crash (found by setting every value of the data files to 3, "x", [] and {}).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"


def without_array(text: str, header: str) -> str:
    """``text`` with every ``[[header]]`` table taken out."""
    return re.sub(rf"(?ms)^\[\[{re.escape(header)}\]\]\n.*?(?=^\[|\Z)", "", text)


def check_edited(tmp_path: Path, game: str, file: str, edit) -> tuple[int, str, list[str]]:
    folder = tmp_path / "data" / game
    shutil.copytree(DATA / game, folder)
    path = folder / file
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path / "data"), game])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output, [line for line in result.output.splitlines() if ": error: " in line]


def at_top(line: str, header: str):
    return lambda text: line + "\n" + without_array(text, header)


def under(table: str, line: str, header: str):
    return lambda text: without_array(text, header).replace(f"[{table}]\n", f"[{table}]\n{line}\n", 1)


CASES = {
    "game-note": ("two-ops", "game.toml", at_top("note = 3", "note"),
                  "game.toml:1: error: note: expected [[note]] tables"),
    "game-setup": ("two-ops", "game.toml", at_top("setup = 3", "setup"),
                   "game.toml:1: error: setup: expected [[setup]] tables, found 3"),
    "examples": ("two-ops", "examples.toml", lambda _text: "example = 0\n",
                 "examples.toml:1: error: example: expected [[example]] tables, found 0"),
    "rudy-turn": ("rudy", "rules.toml", at_top("turn = 3", "turn"),
                  "rules.toml:1: error: turn: expected [[turn]] tables"),
    "rudy-bonus": ("rudy", "rules.toml", under("set", "bonus = 3", "set.bonus"),
                   "error: set.bonus: expected [[set.bonus]] tables, found 3"),
    "rudy-element": ("rudy", "rules.toml", under("set", "element = 3", "set.element"),
                     "error: set.element: expected [[set.element]] tables, found 3"),
    "rudy-price": ("rudy", "rules.toml", at_top('market = { price = "x" }', "market.price"),
                   "error: market.price: expected [[market.price]] tables, found 'x'"),
    "rudy-erratum": ("rudy", "rules.toml", lambda text: text.replace("[erratum.set-17]\n", "[erratum]\nset-17 = 3\n"),
                     "error: erratum 'set-17': expected a table, found 3"),
    "rudy-attribute": ("rudy", "rules.toml",
                       lambda text: "attribute = 3\n" + text.replace("[attribute]\n", "[unused]\n"),
                       "rules.toml:1: error: attribute: expected a table of each attribute's name per language"),
    "gadget-exception": ("gadget-trick", "rules.toml", under("deal", "exception = 3", "deal.exception"),
                         "error: deal.exception: expected [[deal.exception]] tables, found 3"),
    "rudy-assign": ("rudy", "examples.toml", lambda text: text.replace('colour = "blue", mark = "diamond"',
                                                                       'colour = [], mark = "diamond"', 1),
                    "assign.2-white.colour must be a name, not []"),
}


# A worked example's inputs, each of which crashed or hung: (game, old, new, the error said)
EXAMPLE_INPUTS = {
    "hand-of-a-number": ("take-over-that-job", '["red-3", "blue-11"]]', "0]",
                         "inputs.hands must list one hand (a list of card ids) per play"),
    "bonus-a-list": ("take-over-that-job", 'sequence = [{ bonus = "A", colour = "green" }, { bonus = "C" }',
                     'sequence = [{ bonus = "A", colour = "green" }, { bonus = [] }', "step 2: name a bonus"),
    "pile-a-number": ("gadget-trick", 'won = [["green-3", "green-6", "green-9"], [], []]',
                      'won = [["green-3", "green-6", "green-9"], [], 0]', "won must list one pile"),
    "no-players": ("gadget-trick", "players = 4\nleader = 0", "players = 0\nleader = 0", "players: 0 is outside 3-6"),
    # a list of 10**12 seats: it ran until the memory was gone
    "players-a-trillion": ("gadget-trick", "players = 3\ntrick = 2", "players = 1000000000000\ntrick = 2",
                           "players: 1000000000000 is outside 3-6"),
    "seat-off-the-table": ("gadget-trick", "players = 3\ntrick = 2\ntrump = \"yellow\"\nleader = 0",
                           "players = 3\ntrick = 2\ntrump = \"yellow\"\nleader = 7",
                           "leader (a seat, 0-2): 7 is outside"),
    "players-a-fraction": ("gadget-trick", "players = 4\nleader = 0", "players = 4.5\nleader = 0",
                           "players: expected a whole number, found 4.5"),
}


@pytest.mark.parametrize("case", sorted(EXAMPLE_INPUTS))
def test_an_examples_input_of_the_wrong_shape_is_its_error(tmp_path: Path, case: str) -> None:
    game, old, new, said = EXAMPLE_INPUTS[case]

    def edit(text: str) -> str:
        assert old in text
        return text.replace(old, new, 1)

    status, output, errors = check_edited(tmp_path, game, "examples.toml", edit)
    assert status == 1, output
    assert any("examples.toml" in error and said in error for error in errors), errors


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_value_of_the_wrong_shape_is_an_error_not_a_traceback(tmp_path: Path, case: str) -> None:
    game, file, edit, said = CASES[case]
    status, output, errors = check_edited(tmp_path, game, file, edit)
    assert status == 1, output
    assert any(said in error for error in errors), errors

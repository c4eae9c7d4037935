"""`pnp solve` settles a Two Ops dispute from the command line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli

DATA = str(Path(__file__).resolve().parent.parent / "data")


def test_solver_finds_the_lowest_sum_worked_by_hand() -> None:
    # Goal 4♥: even and red → lowest sum. Worked by hand:
    #   K♦ is red; with 10♦ (on-colour) and A♠ (off-colour) the K gives off − on = 1 − 10 = −9,
    #   the most negative any K can give here (black numbers 3, A, 5 against red 10 or 7).
    #   Q♠ is black; of 7♥, 3♠, 5♣: 3♠+5♣ both match → max + 5 = 10; 7♥ (off) with 3♠ (on) →
    #   7 mod 3 = 1; 7♥ with 5♣ → 7 mod 5 = 2. Lowest is 1, leaving 5♣ unused: −9 + 1 = −8.
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "two-ops", "7H", "3S", "10D", "AS", "5C", "KD",
                                      "QS", "--goal", "4H"])
    assert result.exit_code == 0, result.output
    assert "best value: -8" in result.output
    assert "10D KD AS = -9" in result.output and "7H QS 3S = 1" in result.output
    assert "(unused: 5C)" in result.output


def test_solver_gives_fractions_exactly() -> None:
    # Goal 6♠: even and black → highest sum. Every number is black and both operators red, so each
    # operation is "neither": K = average, Q = greater. Worked by hand: Q takes the 9 (9 whatever its
    # partner), K averages the best two left, 4 and 3 → 7/2; total 9 + 7/2 = 25/2. Spending the 9 on the
    # K instead gives 13/2 + 3 = 19/2. Q's partner may be the A or the 2: two ties.
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "two-ops", "9S", "4C", "2S", "AS", "3C", "KH",
                                      "QH", "--goal", "6S"])
    assert result.exit_code == 0, result.output
    assert "best value: 25/2" in result.output
    assert "(unused: AS)" in result.output and "(unused: 2S)" in result.output


def test_bad_position_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "two-ops", "7H", "3S", "--goal", "4H"])
    assert result.exit_code == 2
    assert "exactly 2 operator cards" in result.output
    assert "usage: pnp solve two-ops" in result.output
    assert "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "two-ops", "7X", "3S", "10D", "AS", "5C", "KD",
                                      "QS", "--goal", "4H"])
    assert result.exit_code == 2


def test_game_without_solver() -> None:
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "rudy", "x"])
    assert result.exit_code == 2
    assert "has no solver" in result.output


def test_an_unknown_game_is_said_once() -> None:
    """It was 'no game' and then 'cannot load', two errors for one name."""
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "nope", "7H"])
    assert result.exit_code == 1
    assert "error: no game 'nope'" in result.output
    assert result.output.count("error") == 1, result.output


def test_the_answer_is_in_the_language_asked() -> None:
    """The goal's wording was Japanese, and 'best value' and 'unused' English, in one answer."""
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "two-ops", "7H", "3S", "10D", "AS", "5C", "KD", "QS",
                                      "--goal", "4H", "--lang", "ja"])
    assert result.exit_code == 0, result.output
    assert "最善の値: -8" in result.output and "(使わないカード: 5C)" in result.output
    assert "best value" not in result.output and "unused" not in result.output


def test_help_says_what_the_position_is() -> None:
    result = CliRunner().invoke(cli, ["solve", "--help"])
    assert "--goal CARD" in result.output


def test_a_language_the_game_does_not_ship_is_said_not_passed_over() -> None:
    """--lang fr answered in English without a word."""
    result = CliRunner().invoke(cli, ["solve", "--data", DATA, "two-ops", "7H", "3S", "10D", "AS", "5C", "KD",
                                      "QS", "--goal", "4H", "--lang", "fr"])
    assert result.exit_code == 0, result.output
    assert "note: --lang fr: two-ops ships in en, ja; answering in en" in result.output
    assert "best value: -8" in result.output

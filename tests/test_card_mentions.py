"""A card or player a rule text names by a literal id must exist: it printed the bare id without a word.

Found by following docs/rulebooks.md as a new user would (30 November 2026): `{{ card("nope") }}`
printed "nope", and `{{ player("Bob") }}` in a game without worked examples printed "Bob", while the
docs say an unknown player is an error.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"


def check_with_sentence(tmp_path: Path, game: str, sentence: str) -> tuple[list[str], int]:
    """Copy ``game``, add ``sentence`` to the end of its first section in every rule text, check it:
    the error lines and the English line the sentence is on."""
    folder = tmp_path / "data" / game
    if not folder.exists():  # a shipped game; one made by pnp new is there already
        shutil.copytree(DATA / game, folder)
    line = 0
    for path in sorted((folder / "rules").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        cut = text.index("\n## ", text.index("## ") + 3)
        text = text[:cut] + f"\n\n{sentence}\n" + text[cut:]
        path.write_text(text, encoding="utf-8")
        if path.name == "en.md":
            line = text[: text.index(sentence)].count("\n") + 1
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path / "data"), game])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return [entry for entry in result.output.splitlines() if ": error: " in entry], line


def test_a_card_id_no_list_holds_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    errors, line = check_with_sentence(
        tmp_path, "two-ops", 'For instance {{ card("10S") }} and {{ card("10X") }}, or {{ cards("AS KZ") }}.')
    english = [error for error in errors if "/rules/en.md:" in error]
    assert len(english) == 2, errors
    assert english[0].endswith(f"en.md:{line}: error: card('10X') names no card '10X': the rulebook would print it "
                               "as written")
    assert english[1].endswith(f"en.md:{line}: error: cards('AS KZ') names no card 'KZ': the rulebook would print "
                               "it as written")
    assert not any("'10S'" in error and "names no card" in error for error in errors)  # 10S is a card


def test_known_cards_are_quiet(tmp_path: Path) -> None:
    """Guard: ids the card lists hold, and calls that read an example's inputs, pass."""
    errors, _ = check_with_sentence(tmp_path, "two-ops", 'Such as {{ cards("AS, KH") }} or {{ card("10S") }}.')
    assert errors == []


def test_a_player_in_a_game_without_example_players_is_an_error(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "plain"]).exit_code == 0
    errors, line = check_with_sentence(tmp_path, "plain", 'Then {{ player("Bob") }} deals.')
    assert len(errors) == 1, errors
    assert errors[0].endswith(f"en.md:{line}: error: player('Bob') names no player of the examples: the rulebook "
                              "would print 'Bob'")


def test_a_card_list_that_cannot_be_read_holds_up_the_card_mentions(tmp_path: Path) -> None:
    """A malformed row in deck.csv left the list unread, and every card the rules named was "names no
    card" too: one mistake, reported in two files."""
    made = CliRunner().invoke(cli, ["new", "--data", str(tmp_path / "data"), "my-game", "--lang", "en"])
    assert made.exit_code == 0, made.output
    game = tmp_path / "data" / "my-game"
    with open(game / "game.toml", "a", encoding="utf-8") as manifest:  # a second list, which stays readable
        manifest.write('\n[components.chips]\nkind = "tokens"\nname = { en = "Chips" }\ncount = 2\n'
                       'size = [20, 20]\ncards = "cards/chips.csv"\n')
    (game / "cards" / "chips.csv").write_text("id,count,name.en\nchip,2,Chip\n", encoding="utf-8")
    deck = game / "cards" / "deck.csv"
    rows = deck.read_text(encoding="utf-8").splitlines(keepends=True)
    rows[2] = rows[2].replace(",number,", ',"number"x,', 1)  # text after a closing quote
    deck.write_text("".join(rows), encoding="utf-8")
    errors, _ = check_with_sentence(tmp_path, "my-game", 'Such as {{ card("red-1") }}.')
    assert len(errors) == 1 and "deck.csv:3: error: malformed CSV" in errors[0], errors

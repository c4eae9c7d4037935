"""Issue 29, class 1: a game folder's files are untrusted. Every one is read through pnp.load.guarded:
links out of the folder, pipes, devices and oversized files are errors at the file, never a hang, a
traceback or another file's contents in a PDF."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hostile_game import check, errors, mini_game

from pnp.diagnostics import DataError
from pnp.load.guarded import CAPS, check_input, read_input


def at_cards(game: Path) -> str:
    """Where an error about the card list begins: its key's line in the starter's game.toml, which moves
    as the starter's comments change."""
    lines = (game / "game.toml").read_text(encoding="utf-8").splitlines()
    line = next(number for number, text in enumerate(lines, 1) if text.startswith("cards = "))
    return f"data/mini/game.toml:{line}: error: components.deck.cards: "


LINK_FIX = "fix: copy the file into the game folder, or pass --follow-links if you trust where it points"


def test_a_rule_text_linked_out_of_the_game_is_refused_and_named(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text("## Secret {#secret}\n\npassword\n", encoding="utf-8")
    (game / "rules" / "en.md").unlink()
    (game / "rules" / "en.md").symlink_to(secret)
    result = check(game)
    assert result.exit_code == 1
    assert errors(result) == [f"data/mini/rules/en.md: error: rules/en.md is a symbolic link to {secret}, "
                              f"outside the game folder: pnp does not read it\n    {LINK_FIX}"]


def test_follow_links_reads_through_the_link(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    elsewhere = tmp_path / "en.md"
    (game / "rules" / "en.md").rename(elsewhere)
    (game / "rules" / "en.md").symlink_to(elsewhere)
    assert check(game).exit_code == 1
    assert check(game, "--follow-links").exit_code == 0


def test_a_card_list_reached_through_a_linked_folder_names_the_link(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "cards").rename(tmp_path / "cards")
    (game / "cards").symlink_to(tmp_path / "cards")
    result = check(game)
    assert result.exit_code == 1
    assert errors(result)[0].startswith(
        f"{at_cards(game)}card list cards/deck.csv is a symbolic link "
        f"(through cards) to {tmp_path / 'cards'}, outside the game folder")


def test_a_link_inside_the_game_folder_is_fine(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "cards" / "deck.csv").rename(game / "deck.csv")
    (game / "cards" / "deck.csv").symlink_to("../deck.csv")
    assert check(game).exit_code == 0


def test_a_game_folder_that_is_itself_a_link_is_the_users_choice(tmp_path: Path) -> None:
    game = mini_game(tmp_path / "elsewhere")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mini").symlink_to(game)
    assert check(tmp_path / "data" / "mini").exit_code == 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_for_a_card_list_is_refused_without_blocking(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "cards" / "deck.csv").unlink()
    os.mkfifo(game / "cards" / "deck.csv")
    result = check(game)
    assert result.exit_code == 1
    assert errors(result) == [f"{at_cards(game)}card list cards/deck.csv is "
                              "a named pipe (FIFO), not a regular file: pnp reads only files\n"
                              "    fix: replace it with the file itself"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_for_the_manifest_or_a_rule_text_never_blocks(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "rules" / "en.md").unlink()
    os.mkfifo(game / "rules" / "en.md")
    result = check(game)
    assert result.exit_code == 1
    assert "rules/en.md is a named pipe (FIFO), not a regular file: pnp reads only files" in result.output


def test_a_link_to_dev_zero_is_refused(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "cards" / "deck.csv").unlink()
    (game / "cards" / "deck.csv").symlink_to("/dev/zero")
    assert "cards/deck.csv is a symbolic link to /dev/zero, outside the game folder" in check(game).output
    result = check(game, "--follow-links")
    assert result.exit_code == 1
    assert ("card list cards/deck.csv is a character device, not a regular file: pnp reads only files"
            in result.output)


def test_an_oversized_rule_text_is_refused_by_its_size(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    with open(game / "rules" / "en.md", "ab") as handle:
        handle.truncate(CAPS["text"] + 1)  # sparse: no 4 MiB written
    result = check(game)
    assert result.exit_code == 1
    assert ("data/mini/rules/en.md: error: rules/en.md is 4 MiB: a text file may be at most 4 MiB\n"
            "    fix: check that this is the file you meant (a game's inputs are far smaller), or make it smaller"
            in errors(result))


def test_a_card_file_name_too_long_for_the_file_system_is_an_error(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("cards/deck.csv", "cards/" + "a" * 300 + ".csv"),
                        encoding="utf-8")
    result = check(game)
    assert result.exit_code == 1
    assert errors(result) == [f"{at_cards(game)}card list {'a' * 37}... is a "
                              "name too long for the file system (304 bytes; at most 255)\n"
                              "    fix: use a shorter file name"]


def test_read_input_reads_at_most_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that grows while read (a device behind a swapped name) stops at cap + 1 bytes."""
    monkeypatch.setitem(CAPS, "text", 10)
    path = tmp_path / "notes.md"
    path.write_bytes(b"x" * 10)
    assert read_input(path, "text") == b"x" * 10
    path.write_bytes(b"x" * 11)
    with pytest.raises(DataError, match="notes.md is 11 bytes: a text file may be at most 10 bytes"):
        read_input(path, "text")


def test_a_folder_is_no_input(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="expected a file but found a folder"):
        check_input(tmp_path, "text")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_manifest_that_is_a_named_pipe_is_called_one_not_missing(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "game.toml").unlink()
    os.mkfifo(game / "game.toml")
    result = check(game)
    assert result.exit_code == 1
    assert errors(result) == ["data/mini/game.toml: error: game.toml is a named pipe (FIFO), not a regular file: pnp "
                              "reads only files\n    fix: replace it with the game's manifest file itself"]


def test_a_data_folder_name_too_long_for_the_file_system_is_no_folder(tmp_path: Path) -> None:
    from hostile_game import run

    result = run("check", "--data", str(tmp_path / ("x" * 300)), "mini")
    assert result.exit_code == 1
    assert "error: no game 'mini': File name too long" in result.output

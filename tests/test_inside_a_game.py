"""Working from inside a game folder: a designer who `cd`s into the game they edit can run pnp there.

Before, `pnp check` there found no `data/`, and `pnp check .` took the folder's name to be '' and
reported the id as differing from it. Outputs built into the game folder were inputs of the game,
so the next build was stale and hashed its own PDFs.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli


@pytest.fixture()
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A game made by `pnp new`, with the working folder inside it (no data/ there)."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "alpha"]).exit_code == 0
    folder = tmp_path / "data" / "alpha"
    monkeypatch.chdir(folder)
    return folder


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("args", [("check",), ("check", "."), ("check", "alpha")])
def test_check_inside_a_game_checks_that_game(game: Path, args: tuple[str, ...]) -> None:
    status, output = run(*args)
    assert status == 0, output
    assert "alpha: ok" in output
    assert "differs from the folder name" not in output


def test_a_sub_folder_of_a_game_is_inside_it(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(game / "cards")
    status, output = run("check")
    assert status == 0 and "alpha: ok" in output, output


def test_an_explicit_data_folder_is_taken_at_its_word(game: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    status, output = run("check", "--data", str(empty))
    assert status == 1
    assert "no game folders found" in output


def test_list_inside_a_game_lists_it(game: Path) -> None:
    status, output = run("list")
    assert status == 0
    assert "alpha  Alpha  2-4" in output


def test_outputs_built_into_the_game_folder_are_no_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game folder on its own (not under a data/) is its own project: its outputs land in it."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "alpha"]).exit_code == 0
    game = tmp_path / "alpha"
    (tmp_path / "data" / "alpha").rename(game)
    monkeypatch.chdir(game / "cards")
    args = ("build", "--what", "cards", "--lang", "en", "--paper", "a4")
    status, output = run(*args)
    assert status == 0 and "wrote 1 file(s)" in output, output
    assert (game / "output" / "alpha" / "en" / "a4" / "cards-deck.pdf").is_file()
    assert not (game / "cards" / "output").exists()
    status, output = run(*args)
    assert status == 0 and "wrote 0 file(s)" in output and "1 up to date" in output, output
    cards = game / "cards" / "deck.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Red 1", "Red One"), encoding="utf-8")
    status, output = run(*args)
    assert "wrote 1 file(s)" in output, output  # an edit still counts


@pytest.mark.parametrize("where", ["", "data", "data/alpha", "data/alpha/cards"])
def test_anywhere_in_the_project_builds_into_its_output(game: Path, tmp_path: Path, where: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """From a sub-folder, `output/` used to mean one there (cards/output/); the same build from the top
    then rebuilt everything. Now it is the project's, and what one built the other finds up to date."""
    args = ("build", "--what", "cards", "--lang", "en", "--paper", "a4")
    monkeypatch.chdir(tmp_path)
    status, output = run(*args)
    assert status == 0 and "wrote 1 file(s)" in output, output
    monkeypatch.chdir(tmp_path / where)
    status, output = run(*args)
    assert status == 0 and "wrote 0 file(s)" in output and "1 up to date" in output, output
    built = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("cards-deck.pdf"))
    assert built == ["output/alpha/en/a4/cards-deck.pdf"]


def test_explicit_out_and_data_are_relative_to_the_working_folder(game: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(game / "cards")
    status, output = run("build", "--what", "cards", "--lang", "en", "--paper", "a4", "--out", "here")
    assert status == 0, output
    assert (game / "cards" / "here" / "alpha" / "en" / "a4" / "cards-deck.pdf").is_file()
    monkeypatch.chdir(game)
    status, output = run("build", "--data", str(tmp_path / "data"), "--what", "cards", "--lang", "en",
                         "--paper", "a4")
    assert status == 0, output
    assert (game / "output" / "alpha" / "en" / "a4" / "cards-deck.pdf").is_file()


def test_calibrate_from_inside_the_project_writes_to_its_output(game: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(game.parent)
    status, output = run("calibrate")
    assert status == 0, output
    assert (tmp_path / "output" / "calibration-a4-long-en.pdf").is_file()


def test_watch_inside_a_game_watches_it(game: Path) -> None:
    from pnp.commands.watch import run_watch

    calls: list[tuple[str, ...]] = []
    cards = game / "cards" / "deck.csv"
    threading.Timer(0.3, lambda: cards.write_text(cards.read_text(encoding="utf-8") + "\n",
                                                  encoding="utf-8")).start()
    status: list[int] = []
    worker = threading.Thread(daemon=True, target=lambda: status.append(
        run_watch(game / "data", lambda names: calls.append(names) or 0, interval=0.1, rounds=1)))
    worker.start()
    worker.join(timeout=30)
    assert status == [0], "the edit inside the game was not seen"  # else it would watch on for ever
    assert calls == [(str(game),), (str(game),)]  # the first build, then the one the edit asked for


def test_inside_the_data_folder_its_games_are_the_games(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(game.parent)  # data/, which holds alpha and no data/ of its own
    status, output = run("check")
    assert status == 0 and "alpha: ok" in output, output
    assert CliRunner().invoke(cli, ["new", "beta"]).exit_code == 0
    assert (game.parent / "beta" / "game.toml").is_file()  # beside alpha, not in data/data/
    status, output = run("list")
    assert "alpha" in output and "beta" in output


@pytest.mark.parametrize("data", [None, "."])
def test_new_does_not_start_a_game_inside_another(game: Path, data: str | None) -> None:
    """From inside alpha, `pnp new beta` made alpha/data/beta: every edit of beta then rebuilt alpha,
    whose inputs its files were."""
    status, output = run("new", "beta", *(["--data", data] if data else []))
    assert status == 1
    assert "would be inside the game alpha" in output and "pass --data DIR" in output
    assert not (game / "data").exists() and not (game / "beta").exists()


def test_new_beside_a_game_is_fine(game: Path) -> None:
    status, output = run("new", "beta", "--data", "..")
    assert status == 0, output
    assert (game.parent / "beta" / "game.toml").is_file()

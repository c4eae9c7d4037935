"""`pnp build --lang`: a language no game ships in is an error, not an empty build that exits 0."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"


def build(tmp_path: Path, *args: str):
    return CliRunner().invoke(cli, ["build", "--data", str(DATA), "--out", str(tmp_path / "out"), "--what", "aid",
                                    "--paper", "a4", *args])


def test_a_country_code_for_a_language_is_an_error_with_the_language(tmp_path: Path) -> None:
    result = build(tmp_path, "two-ops", "--lang", "jp")
    assert result.exit_code == 1
    assert "--lang jp: no game being built ships in that language" in result.output
    assert "did you mean ja?" in result.output
    assert not (tmp_path / "out").exists()


def test_the_languages_that_exist_are_still_built(tmp_path: Path) -> None:
    result = build(tmp_path, "two-ops", "--lang", "fr", "--lang", "en")
    assert result.exit_code == 1
    assert "--lang fr" in result.output and "languages shipped: en, ja" in result.output
    assert (tmp_path / "out" / "two-ops" / "en" / "a4" / "aid.pdf").is_file()


def test_a_language_some_games_ship_is_a_note_for_the_others(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "both", "--lang", "en", "--lang", "ja"]).exit_code == 0
    assert CliRunner().invoke(cli, ["new", "english", "--lang", "en"]).exit_code == 0
    result = CliRunner().invoke(cli, ["build", "--lang", "ja", "--what", "cards", "--paper", "a4"])
    assert result.exit_code == 0, result.output
    assert "note: --lang ja: not shipped by english, which are built without it" in result.output
    assert (tmp_path / "output" / "both" / "ja" / "a4" / "cards-deck.pdf").is_file()
    assert not (tmp_path / "output" / "english").exists()


def test_check_list_and_i18n_say_which_language_was_meant() -> None:
    """--lang only picks the language of names in check and list: a code no game ships is a warning there."""
    check = CliRunner().invoke(cli, ["check", "--data", str(DATA), "two-ops", "--lang", "jp"])
    assert check.exit_code == 0
    assert "warning: --lang jp: no game checked ships in that language" in check.output
    assert "did you mean ja? languages shipped: en, ja" in check.output
    listing = CliRunner().invoke(cli, ["list", "--data", str(DATA), "--lang", "jp"])
    assert "warning: --lang jp: no game here ships in that language" in listing.output
    translations = CliRunner().invoke(cli, ["i18n", "--data", str(DATA), "two-ops", "--lang", "jp"])
    assert translations.exit_code == 1
    assert "did you mean ja?" in translations.output
    fine = CliRunner().invoke(cli, ["check", "--data", str(DATA), "two-ops", "--lang", "ja"])
    assert ": --lang" not in fine.output  # no word about the language (a fix may name --lang ja)
    # a warning like any other: --strict fails on it (it exited 0)
    strict = CliRunner().invoke(cli, ["check", "--data", str(DATA), "two-ops", "--lang", "jp", "--strict"])
    assert strict.exit_code == 1, strict.output


def test_a_game_in_french_only_checks_without_a_language_warning(tmp_path: Path) -> None:
    """--lang was never given, yet every check warned '--lang en: no game checked ships in that language'."""
    assert CliRunner().invoke(cli, ["new", "--data", str(tmp_path), "jeu", "--lang", "fr"]).exit_code == 0
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path), "jeu", "--strict"])
    assert result.exit_code == 0, result.output
    assert "--lang" not in result.output


def test_asking_for_an_aid_a_game_cannot_have_says_why(tmp_path: Path) -> None:
    """'wrote 0 file(s)' was all: a game without a rules module has no aid tables, so no aid."""
    assert CliRunner().invoke(cli, ["new", "--data", str(tmp_path / "data"), "plain"]).exit_code == 0
    result = CliRunner().invoke(cli, ["build", "--data", str(tmp_path / "data"), "plain", "--what", "aid",
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "note: plain: no player aid: its rules (generic) give no aid tables" in result.output
    assert "wrote 0 file(s)" in result.output
    shipped = CliRunner().invoke(cli, ["build", "--data", str(DATA), "two-ops", "--what", "aid", "--lang", "en",
                                       "--paper", "a4", "--out", str(tmp_path / "out")])
    assert "no player aid" not in shipped.output and "wrote 2 file(s)" in shipped.output

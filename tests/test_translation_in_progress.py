"""A translation in progress stops its own rulebook only: the source's author still prints theirs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli

TWO_OPS = Path(__file__).resolve().parents[1] / "data" / "two-ops"


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """Two Ops with the Japanese translation's last section (the credits) not written yet."""
    folder = tmp_path / "data"
    shutil.copytree(TWO_OPS, folder / "two-ops")
    ja = folder / "two-ops" / "rules" / "ja.md"
    text = ja.read_text(encoding="utf-8")
    ja.write_text(text[:text.rindex("\n## ")] + "\n", encoding="utf-8")
    return folder


def build(data: Path, out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "two-ops", "--what", "rules", "--paper", "a4",
                                      "--out", str(out), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_the_source_rulebook_is_built_while_the_translation_is_missing_a_section(data: Path, tmp_path: Path) -> None:
    """Before, both rulebooks were left out, "wrote 0 file(s)", even with --lang en."""
    code, output = build(data, tmp_path / "out")
    assert code == 1
    assert "section 'credits' (en.md line" in output and "is missing from rules/ja.md" in output
    assert "two-ops: ja rulebooks not built" in output
    assert (tmp_path / "out" / "two-ops" / "en" / "a4" / "rules.pdf").is_file()
    assert not (tmp_path / "out" / "two-ops" / "ja").exists()


def test_asking_for_the_source_language_only_builds_it_without_a_word_of_the_translation(
        data: Path, tmp_path: Path) -> None:
    code, output = build(data, tmp_path / "out", "--lang", "en")
    assert code == 0, output
    assert "ja.md" not in output and "not built" not in output
    assert (tmp_path / "out" / "two-ops" / "en" / "a4" / "rules-booklet.pdf").is_file()


def test_an_error_in_the_source_text_still_stops_every_rulebook(data: Path, tmp_path: Path) -> None:
    en = data / "two-ops" / "rules" / "en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("{{ players.max }}", "{{ players.max }", 1), encoding="utf-8")
    code, output = build(data, tmp_path / "out", "--lang", "en")
    assert code == 1
    assert "two-ops: rulebooks not built" in output
    assert not (tmp_path / "out" / "two-ops" / "en" / "a4" / "rules.pdf").exists()


def test_hints_name_a_game_outside_data_by_its_path(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                    ) -> None:
    """"see the change with pnp i18n two-ops" failed, copied, for a game checked with --data elsewhere:
    "no game 'two-ops' in ./data"."""
    elsewhere = data.rename(tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path)
    en = elsewhere / "two-ops" / "rules" / "en.md"
    en.write_text(en.read_text(encoding="utf-8").replace("trick-free card game", "trick-free game", 1),
                  encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data", "elsewhere", "two-ops"])
    assert "see the change with pnp i18n elsewhere/two-ops, update the translation, then pnp i18n " \
           "elsewhere/two-ops --lang ja --accept overview" in result.output, result.output
    hinted = CliRunner().invoke(cli, ["i18n", "elsewhere/two-ops", "--lang", "ja", "--accept", "overview"])
    assert "two-ops — ja: recorded as translated: overview" in hinted.output  # (the credits are still missing)


# card and game.toml texts a translation has not filled in yet: two-ops' source is English
UNTRANSLATED = {
    "a card's text": ("cards/deck.csv", "AS,1,pip,spades,black,1,Ace of spades,スペードのエース",
                      "AS,1,pip,spades,black,1,Ace of spades,", "missing translation name.ja"),
    "the subtitle": ("game.toml", 'ja = "ふたつの演算で目標をめざせ"', "", "subtitle: missing translation for 'ja'"),
}


@pytest.mark.parametrize("case", sorted(UNTRANSLATED))
def test_a_text_not_yet_translated_stops_that_language_only(tmp_path: Path, case: str) -> None:
    """A Japanese-first designer could not print the Japanese cards until every English text was in:
    a missing translation stopped the whole game, whichever language was asked for."""
    file, old, new, message = UNTRANSLATED[case]
    folder = tmp_path / "data" / "two-ops"
    shutil.copytree(TWO_OPS, folder)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    out = tmp_path / "out"
    args = ["build", "--data", str(tmp_path / "data"), "two-ops", "--what", "cards", "--paper", "a4",
            "--out", str(out)]
    source_only = CliRunner().invoke(cli, [*args, "--lang", "en"])
    assert source_only.exit_code == 0, source_only.output
    assert message not in source_only.output and (out / "two-ops" / "en" / "a4" / "cards-deck.pdf").is_file()
    both = CliRunner().invoke(cli, args)
    assert both.exit_code == 1
    assert message in both.output and "two-ops: ja not built — fix the errors above" in both.output
    assert not (out / "two-ops" / "ja").exists()
    checked = CliRunner().invoke(cli, ["check", "--data", str(tmp_path / "data"), "two-ops"])
    assert checked.exit_code == 1 and message in checked.output  # still an error to fix


def test_a_text_missing_in_the_source_language_still_stops_everything(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "two-ops"
    shutil.copytree(TWO_OPS, folder)
    cards = folder / "cards" / "deck.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(
        "AS,1,pip,spades,black,1,Ace of spades,", "AS,1,pip,spades,black,1,,", 1), encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(tmp_path / "data"), "two-ops", "--what", "cards",
                                      "--paper", "a4", "--lang", "ja", "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and "missing translation name.en" in result.output
    assert "two-ops: not built" in result.output

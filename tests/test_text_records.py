"""Card texts and game.toml texts are recorded as translated, and go stale, as rule sections do.

Rudy is written in Japanese first: a card text changed from 最も多い (most) to 最も少ない (fewest)
reverses the rule, and `pnp i18n` still said every card text was translated.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from translation_check import check

from pnp.commands.i18n import run_i18n
from pnp.diagnostics import Level, Report
from pnp.model.build import load_game
from pnp.validate.translation_records import load_records

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def rudy(tmp_path: Path) -> Path:
    target = tmp_path / "rudy"
    shutil.copytree(ROOT / "data" / "rudy", target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


COIN = "coin-5,20,coin,,black,,5,5オプト,5 opt,オプト,opt"


def test_records_with_only_sections_still_load_and_leave_texts_not_yet_recorded(
        rudy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped en.sources.toml was written before card texts were recorded: its sections are still
    in step, and its card texts are a note, not a warning."""
    assert "[cards." not in (rudy / "rules" / "en.sources.toml").read_text(encoding="utf-8")
    report = check(rudy)
    assert report.errors == [] and report.warnings == [], [d.format() for d in report.diagnostics]
    [note] = [d for d in report.notes if "never recorded" in d.message]
    assert note.message.startswith("72 card text(s) and 26 game.toml text(s) in en were never recorded")
    # Rudy has a section {#cards}, which --accept cards means: the card texts are named by component
    assert "--accept deck --accept coins --accept texts" in (note.fix or "")
    assert run_i18n(rudy.parent, ("rudy",), "en") == 0
    out = capsys.readouterr().out
    assert "26 translated, 0 stale, 0 untracked" in out
    assert "coins.text: 4/4 translated, 4 not yet recorded" in out
    assert "game.toml texts: 26 translated, 26 not yet recorded" in out


def test_a_changed_source_card_text_is_stale_with_its_change_until_accepted(
        rudy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_i18n(rudy.parent, ("rudy",), "en", accept_all=True) == 0
    assert "72 card text(s), 26 game.toml text(s)" in capsys.readouterr().out
    assert check(rudy).diagnostics == []  # every text recorded: not even a note
    coins = rudy / "cards" / "coins.csv"
    edit(coins, COIN, COIN.replace(",オプト,opt", ",最も多いオプト,opt"))
    assert run_i18n(rudy.parent, ("rudy",), "en", accept=("coins/coin-5/text",)) == 0
    capsys.readouterr()
    edit(coins, "最も多いオプト", "最も少ないオプト")  # the rule reversed; the English still says "opt"
    [warning] = check(rudy).warnings
    assert warning.message == "card coin-5 text.en is stale: its ja text changed after it was translated"
    assert (warning.file, warning.line) == (coins, line_of(coins, "coin-5,"))
    assert "--accept coins/coin-5/text" in (warning.fix or "")
    assert run_i18n(rudy.parent, ("rudy",), "en") == 0  # stale is a warning
    out = capsys.readouterr().out
    assert "coins.text: 4/4 translated, 1 stale" in out
    assert "stale      coins/coin-5/text" in out
    assert "changed: …最も[-多-]{+少な+}いオプト…" in out
    assert run_i18n(rudy.parent, ("rudy",), "en", accept=("coins/coin-5/text",)) == 0
    assert "recorded as translated: coins/coin-5/text" in capsys.readouterr().out
    assert check(rudy).diagnostics == []


def test_a_changed_game_toml_text_is_stale_at_its_translation(rudy: Path) -> None:
    game_toml = rudy / "game.toml"
    assert run_i18n(rudy.parent, ("rudy",), "en", accept=("texts", "deck", "coins")) == 0
    assert check(rudy).diagnostics == []
    edit(game_toml, 'ja = "Rudy"', 'ja = "ルディ"')
    [warning] = check(rudy).warnings
    assert warning.message == "game.toml title.en is stale: its ja text changed after it was translated"
    assert (warning.file, warning.line) == (game_toml, line_of(game_toml, 'en = "Rudy"'))
    assert run_i18n(rudy.parent, ("rudy",), "en", accept=("title",)) == 0
    assert check(rudy).diagnostics == []
    game = load_game(rudy, Report())
    assert game is not None
    records = load_records(game, "en", Report())
    assert records is not None and records.texts["title"] == "ルディ" and "overview" in records.sections


def test_accepting_a_name_that_is_nothing_is_an_error(rudy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_i18n(rudy.parent, ("rudy",), "en", accept=("coins/coin-99",)) == 1
    assert "no section, card text or game.toml text 'coins/coin-99'" in capsys.readouterr().err


def test_a_record_of_a_card_the_lists_no_longer_have_is_a_warning(rudy: Path) -> None:
    assert run_i18n(rudy.parent, ("rudy",), "en", accept_all=True) == 0
    records = rudy / "rules" / "en.sources.toml"
    edit(rudy / "cards" / "coins.csv", COIN, COIN.replace("coin-5,", "coin-five,"))
    messages = [d.message for d in check(rudy).diagnostics if d.level == Level.WARNING]
    assert "en.sources.toml records card text 'coins/coin-5/name', which the game no longer has" in messages
    assert run_i18n(rudy.parent, ("rudy",), "en", accept=("coins/coin-five",)) == 0
    assert "coin-5/" not in records.read_text(encoding="utf-8")

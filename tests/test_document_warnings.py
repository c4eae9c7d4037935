"""What a rulebook writer notices reaches the person building, and the shipped books draw real faces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.rulebook import card_art
from pnp.rules import get_rules

DATA = Path(__file__).resolve().parent.parent / "data"
GAMES = ["two-ops", "take-over-that-job", "rudy", "gadget-trick"]


@pytest.mark.parametrize("game_id", GAMES)
def test_shipped_rulebooks_draw_real_card_faces(game_id: str) -> None:
    game = load_game(DATA / game_id, Report())
    rules = get_rules(game.rules)
    for lang in game.languages:
        report = Report()
        assert isinstance(card_art.make_card_art(game, rules, lang, report), card_art.FaceArt)
        assert report.diagnostics == []


def test_a_rulebook_drawn_with_chips_says_so_in_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(DATA / "two-ops", tmp_path / "data" / "two-ops")

    def broken(*args, **kwargs):
        raise RuntimeError("layout engine down")

    monkeypatch.setattr(card_art, "bind_components", broken)
    result = CliRunner().invoke(cli, ["build", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "out"),
                                      "--what", "rules", "--lang", "en", "--paper", "a4", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "rules.pdf: card faces could not be drawn (RuntimeError: layout engine down)" in result.output
    assert "rules-booklet.pdf: card faces could not be drawn" in result.output

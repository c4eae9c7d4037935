"""Pieces too big for a home paper: pnp check notes them, a default build leaves their sheets out, and a
paper asked for by name still fails. Before, check said ok and the default build then failed for Letter,
and anything over 280 mm was refused even with --paper a3."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli

TWO_OPS = Path(__file__).resolve().parents[1] / "data" / "two-ops"


def game_with_size(tmp_path: Path, size: str) -> Path:
    data = tmp_path / "data"
    shutil.copytree(TWO_OPS, data / "two-ops")
    manifest = data / "two-ops" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert 'size = "poker"' in text
    manifest.write_text(text.replace('size = "poker"', f"size = {size}", 1), encoding="utf-8")
    return data


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_a_board_that_fits_a4_only_is_noted_and_built_on_a4(tmp_path: Path) -> None:
    data = game_with_size(tmp_path, "[190, 270]")
    code, output = run("check", "--data", str(data), "two-ops")
    assert code == 0, output
    assert ("note: component 'deck' (190 × 270 mm) does not fit Letter paper, nor A4 fold sheets (half a page): "
            "a default build leaves those sheets out") in output
    out = tmp_path / "out"
    code, output = run("build", "--data", str(data), "two-ops", "--lang", "en", "--what", "cards", "--what", "fold",
                       "--out", str(out))
    assert code == 0, output
    assert "letter/cards-deck.pdf, cards-deck-fold.pdf left out: 190 × 270 mm pieces do not fit Letter" in output
    assert "a4/cards-deck-fold.pdf left out" in output
    assert sorted(path.relative_to(out).as_posix() for path in out.rglob("*.pdf")) == [
        "two-ops/en/a4/cards-deck.pdf"]


def test_a_paper_asked_for_by_name_that_cannot_hold_the_pieces_is_still_an_error(tmp_path: Path) -> None:
    data = game_with_size(tmp_path, "[190, 270]")
    code, output = run("build", "--data", str(data), "two-ops", "--lang", "en", "--what", "cards",
                       "--paper", "letter", "--out", str(tmp_path / "out"))
    assert code == 1
    assert "does not fit on Letter paper" in output


def test_a_piece_bigger_than_a4_and_letter_builds_on_a3(tmp_path: Path) -> None:
    data = game_with_size(tmp_path, "[205, 292]")
    code, output = run("check", "--data", str(data), "two-ops")
    assert code == 0, output
    assert "205 × 292 mm  too big    too big" in output
    out = tmp_path / "out"
    code, output = run("build", "--data", str(data), "two-ops", "--lang", "en", "--what", "cards", "--paper", "a3",
                       "--out", str(out))
    assert code == 0, output
    assert (out / "two-ops" / "en" / "a3" / "cards-deck.pdf").is_file()


@pytest.mark.parametrize("size", ["[635, 889]", '"63.5x889"'])
def test_a_size_longer_than_any_print_shop_sheet_is_taken_for_a_typo(tmp_path: Path, size: str) -> None:
    code, output = run("check", "--data", str(game_with_size(tmp_path, size)), "two-ops")
    assert code == 1
    assert "is longer than any print-shop sheet (450 mm)" in output
    assert "63.5 for a poker card's width, not 635" in output

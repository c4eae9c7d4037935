"""Issue 29, class 3: outputs that cannot collide. Every output name is known before anything is
written; two components that would write the same file, or a game id that is not one, are errors
at their game.toml line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_game import check, errors, mini_game

from pnp.load.game_folder import GAME_ID


def _add_component(game: Path, component_id: str) -> None:
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text + f'\n[components.{component_id}]\nname = {{ en = "Other" }}\nkind = "tokens"\n'
                               'count = 4\nsize = [20, 20]\n', encoding="utf-8")


@pytest.mark.parametrize(("other", "theirs"), [
    ("deck-fold", "fold sheets"),
    ("deck-lowink", "low-ink sheets"),
    ("deck-reprint", "reprinted card sheets"),
    ("Deck", "card sheets"),  # one file on macOS and Windows
])
def test_components_whose_outputs_share_a_name_are_an_error(tmp_path: Path, other: str, theirs: str) -> None:
    game = mini_game(tmp_path)
    _add_component(game, other)
    result = check(game)
    assert result.exit_code == 1
    line = (game / "game.toml").read_text(encoding="utf-8").splitlines().index(f"[components.{other}]") + 1
    assert [error for error in errors(result) if "would write" in error] == [
        f"data/mini/game.toml:{line}: error: components.{other}: component {other!r} would write cards-{other}.pdf "
        f"(card sheets), which component 'deck' writes too (its {theirs})\n"
        "    fix: rename one of them: an id that is not another's with -fold, -lowink or -reprint added"]


def test_components_with_distinct_outputs_are_fine(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    _add_component(game, "deck-tokens")
    assert not [error for error in errors(check(game)) if "would write" in error]


@pytest.mark.parametrize("game_id", ["two-ops\n", "a" * 65, "Two", "-x", ""])
def test_game_id_pattern_refuses(game_id: str) -> None:
    assert GAME_ID.match(game_id) is None


def test_game_id_pattern_takes(game_id: str = "a" * 64) -> None:
    assert GAME_ID.match(game_id) is not None
    assert GAME_ID.match("two-ops") is not None

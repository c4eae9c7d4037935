"""Issue 29, class 2: expressions, blocks and Markdown nested thousands deep are errors at their line,
measured before Jinja2 or markdown-it recurse per level into a RecursionError."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_game import check, errors, mini_game

from pnp.model.nesting import expression_depth


def _append_to_rules(game: Path, text: str) -> int:
    """The line ``text`` starts at, appended after a blank line to the English rule text."""
    rules = game / "rules" / "en.md"
    before = rules.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    rules.write_text(before + text + "\n", encoding="utf-8")
    return before.count("\n") + 1


@pytest.mark.parametrize(("expression", "depth"), [
    ("x", 0), ("card.rank", 1), ("(((x)))", 3), ("[1, 2, 3, 4, 5, 6, 7, 8, 9]", 1), ("1 + 1 + 1 + 1", 3),
    ("not not not x", 3), ("f(a.b, c.d)", 2), ("((a + b) * c)", 4), ("(" * 1000 + "x", 1000),
])
def test_depth_counts_levels_not_length(expression: str, depth: int) -> None:
    assert expression_depth(expression) == depth


@pytest.mark.parametrize("placeholder", [
    "{{ " + "(" * 1000 + "1" + ")" * 1000 + " }}",
    "{{ " + "not " * 2000 + "1 }}",
    "{{ " + "-" * 2000 + "1 }}",
    "{{ " + "1 + " * 1000 + "1 }}",
])
def test_a_placeholder_nested_thousands_deep_is_an_error_at_its_line(tmp_path: Path, placeholder: str) -> None:
    game = mini_game(tmp_path)
    line = _append_to_rules(game, placeholder)
    result = check(game)
    assert result.exit_code == 1
    assert (f"data/mini/rules/en.md:{line}: error: this expression nests more than 40 levels deep (brackets and "
            "operators)\n    fix: split it into simpler placeholders or blocks") in errors(result), result.output


def test_blocks_nested_hundreds_deep_are_an_error_at_the_first_too_deep(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    line = _append_to_rules(game, "{% if 1 %}\n" * 500 + "x\n" + "{% endif %}\n" * 500)
    result = check(game)
    assert result.exit_code == 1
    assert (f"data/mini/rules/en.md:{line + 20}: error: {{% if %}} blocks nest more than 20 deep here\n"
            "    fix: split it into simpler placeholders or blocks") in errors(result), result.output


def test_emphasis_nested_thousands_deep_is_one_error_and_the_rest_of_the_text_is_read(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    line = _append_to_rules(game, "*a " * 5000 + "x" + "*" * 5000)
    result = check(game)
    assert result.exit_code == 1
    assert errors(result) == [f"data/mini/rules/en.md:{line}: error: Markdown nests more than 40 levels deep here "
                              "(lists, quotes, emphasis, links)\n"
                              "    fix: close the * and _ and [ left open, or flatten the list"], result.output


def test_a_layout_expression_nested_a_thousand_deep_is_an_error_at_its_key(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "layouts").mkdir()
    (game / "layouts" / "deep.toml").write_text(
        '[[element]]\ntype = "text"\nx = 3\ny = 3\nw = 20\nh = 8\ntext = "{{ card.name }}"\n'
        'when = "' + "(" * 1000 + "card.rank" + ")" * 1000 + '"\n', encoding="utf-8")
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('size = "poker"', 'size = "poker"\nface = "deep"'),
                        encoding="utf-8")
    result = check(game)
    assert result.exit_code == 1
    assert ("data/mini/layouts/deep.toml:8: error: layout 'deep': text.when: the expression nests more than 40 levels "
            "deep (brackets and operators)\n    fix: split it into simpler conditions") in errors(result), result.output

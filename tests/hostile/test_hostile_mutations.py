"""Issue 29: what benchmarks/mutate.py found in random mutations of data/two-ops, each pinned as the
smallest input that showed it (the seed that found it in brackets)."""

from __future__ import annotations

import shutil
from pathlib import Path

from hostile_game import check, errors, mini_game

SHIPPED = Path(__file__).resolve().parents[2] / "data"


def _two_ops(tmp_path: Path) -> Path:
    game = tmp_path / "data" / "two-ops"
    shutil.copytree(SHIPPED / "two-ops", game)
    return game


def test_a_source_language_no_rule_text_is_written_in_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """(seed 4116) source_language = "En": no source sections, and the translation records' check of
    orphaned sections tested names against None."""
    game = _two_ops(tmp_path)
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('source_language = "en"',
                                                                     'source_language = "En"', 1), encoding="utf-8")
    result = check(game)
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("source_language"))
    assert any(error.startswith(f"data/two-ops/game.toml:{line}: error: source_language: 'En' is not in languages")
               for error in errors(result)), result.output


def test_a_rule_text_of_thousands_of_placeholders_is_refused_before_jinja_compiles_it(tmp_path: Path) -> None:
    """(seeds 3371, 4128, 4199) a paragraph of placeholders repeated to 1 MB: Jinja2 took over 10 s."""
    game = mini_game(tmp_path)
    rules = game / "rules" / "en.md"
    before = rules.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    rules.write_text(before + "{{ players.min }} and {{ players.max }}\n" * 1001, encoding="utf-8")
    result = check(game)
    assert result.exit_code == 1
    existing = before.count("{{") + before.count("{%")  # the starter text's own placeholders count too
    line = before.count("\n") + 1 + (2_000 - existing) // 2  # two a line: the 2,001st tag's line
    assert (f"data/mini/rules/en.md:{line}: error: the text holds more than 2,000 placeholders and {{% %}} tags (a "
            "long rulebook has a few hundred)\n    fix: split it into simpler placeholders or blocks") in errors(result)


def test_eighteen_thousand_blank_lines_check_as_none(tmp_path: Path) -> None:
    """(seed 5953) a regex's \\s* before a fence ran on over every blank line below each line start."""
    from pnp.validate.rule_prose import numbers, prose

    text = "## Setup {#setup}\n" + "\n" * 18_000 + "```example a\n1. Deal 3 cards.\n```\n"
    assert "example a" not in prose(text) and "example" in prose(text)
    assert numbers(text) == {"3": 1}
    game = mini_game(tmp_path)
    rules = game / "rules" / "en.md"
    written = rules.read_text(encoding="utf-8")
    rules.write_text(written.replace("## Setup", "\n" * 18_000 + "## Setup", 1), encoding="utf-8")
    result = check(game)
    assert result.exit_code == 0, result.output
    assert errors(result) == []


def test_example_fences_nested_hundreds_deep_are_one_error(tmp_path: Path) -> None:
    """(seed 253) each example's body is parsed again, by recursion: a RecursionError."""
    game = mini_game(tmp_path)
    rules = game / "rules" / "en.md"
    before = rules.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    rules.write_text(before + "".join("`" * (400 - i) + "example a\n" for i in range(300)), encoding="utf-8")
    result = check(game)
    assert result.exit_code == 1
    line = before.count("\n") + 1 + 6
    assert any(error.startswith(f"data/mini/rules/en.md:{line}: error: examples, lists and quotes nest more than 6 "
                                "deep here") for error in errors(result)), result.output

"""Issue 29, the template sandbox: a name a filter looks up is an unknown name like any other, and
nothing a rule text or layout is given, or makes, can be changed. Each case is a rule text line or a
layout value of a stranger's game; `pnp check` must end with exit 1 and the error at its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_game import check, errors, mini_game

CARDS = "components.deck.cards"  # the deck's cards, as a rule text reaches them


def with_rule_line(tmp_path: Path, line: str) -> tuple[Path, int]:
    """The mini game with ``line`` added at the end of its English rule text, and that line's number."""
    game = mini_game(tmp_path)
    text = game / "rules" / "en.md"
    source = text.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + line + "\n"
    text.write_text(source, encoding="utf-8")
    return game, source.count("\n")


def with_layout_text(tmp_path: Path, value: str) -> Path:
    """The mini game whose deck has a face layout of one text element (its ``text`` on line 9)."""
    game = mini_game(tmp_path)
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "[components.deck]\n", '[components.deck]\nface = "my-face"\n', 1), encoding="utf-8")
    (game / "layouts").mkdir()
    (game / "layouts" / "my-face.toml").write_text(
        f'# my-face\n\n[[element]]\ntype = "text"\nx = 5\ny = 5\nw = 40\nh = 10\ntext = "{value}"\n',
        encoding="utf-8")
    return game


def only_error(game: Path) -> str:
    result = check(game)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    found = errors(result)
    assert len(found) == 1, result.output
    return found[0]


@pytest.mark.parametrize("placeholder", [
    f'{{{{ {CARDS}|map(attribute="nosuch")|list }}}}',  # printed "[Undefined]" with exit 0
    f'{{{{ {CARDS}|map(attribute="nosuch")|join(", ") }}}}',
    f'{{{{ {CARDS}|sort(attribute="nosuch")|first }}}}',  # sorted by nothing, silently
    f'{{{{ {CARDS}|selectattr("nosuch")|list }}}}',
    f'{{{{ {CARDS}|sum(attribute="nosuch") }}}}',
    f'{{{{ {CARDS}|groupby("nosuch")|list }}}}',
])
def test_a_name_a_filter_looks_up_in_a_rule_text_is_an_unknown_name(tmp_path: Path, placeholder: str) -> None:
    game, line = with_rule_line(tmp_path, placeholder)
    error = only_error(game)
    assert error.startswith(f"data/mini/rules/en.md:{line}: error: unknown name in a placeholder: "
                            f"a card of {CARDS} has no field 'nosuch' (it has: id, count, "), error


def test_a_misspelt_name_a_filter_looks_up_gets_a_did_you_mean(tmp_path: Path) -> None:
    game, line = with_rule_line(tmp_path, f'Cards: {{{{ {CARDS}|map(attribute="nme")|join(", ") }}}}.')
    assert only_error(game).startswith(f"data/mini/rules/en.md:{line}: error: unknown name in a placeholder: "
                                       f"a card of {CARDS} has no field 'nme' (did you mean 'name'?)")


def test_an_item_no_name_reaches_is_called_an_item(tmp_path: Path) -> None:
    game, line = with_rule_line(tmp_path, '{{ [{"nme": 1}]|map(attribute="name")|list }}')
    assert only_error(game).startswith(f"data/mini/rules/en.md:{line}: error: unknown name in a placeholder: "
                                       "an item has no field 'name' (did you mean 'nme'?)")


@pytest.mark.parametrize("value", ["{{ [card]|map(attribute='nosuch')|list }}",
                                   "{{ [card]|map(attribute='nosuch')|join }}"])
def test_a_name_a_filter_looks_up_in_a_layout_is_an_unknown_field(tmp_path: Path, value: str) -> None:
    error = only_error(with_layout_text(tmp_path, value))
    assert error.startswith("data/mini/layouts/my-face.toml:9: error: layout 'my-face', cards 'red-1', "), error
    assert "unknown field: card has no field 'nosuch' (it has: id, count, kind, rank, " in error, error


def test_a_misspelt_name_in_a_layout_filter_gets_a_did_you_mean(tmp_path: Path) -> None:
    error = only_error(with_layout_text(tmp_path, "{{ [card]|map(attribute='nme')|join }}"))
    assert error.startswith("data/mini/layouts/my-face.toml:9: error: ")
    assert error.split("\n")[0].endswith("unknown field: card has no field 'nme' (did you mean 'name'?)"), error


def test_attr_on_a_field_says_it_reads_attributes(tmp_path: Path) -> None:
    game, line = with_rule_line(tmp_path, f'{{{{ {CARDS}|map("attr", "name")|join }}}}')
    assert only_error(game).startswith(f"data/mini/rules/en.md:{line}: error: unknown name in a placeholder: "
                                       "attr('name') reads an attribute, and 'name' is a field: write "
                                       "map(attribute='name')")


@pytest.mark.parametrize("placeholder", [f'{{{{ {CARDS}|map(attribute="__class__")|list }}}}',
                                         f'{{{{ {CARDS}|map("attr", "__class__")|list }}}}',
                                         f'{{{{ {CARDS}|sort(attribute="__class__")|list }}}}'])
def test_internals_through_a_filter_are_refused(tmp_path: Path, placeholder: str) -> None:
    game, line = with_rule_line(tmp_path, placeholder)
    error = only_error(game)
    assert error.startswith(f"data/mini/rules/en.md:{line}: error: refused by the sandbox: access to attribute "
                            "'__class__' of 'CardView' object is unsafe."), error
    assert "never Python internals" in error


def test_internals_through_a_layout_filter_are_refused(tmp_path: Path) -> None:
    error = only_error(with_layout_text(tmp_path, "{{ [card]|map('attr', '__init__')|list }}"))
    assert error.startswith("data/mini/layouts/my-face.toml:9: error: ")
    assert "refused by the sandbox: access to attribute '__init__' of 'dict' object is unsafe" in error


def test_changing_a_namespace_in_a_rule_text_is_refused(tmp_path: Path) -> None:
    game, line = with_rule_line(tmp_path, "{% set ns = namespace(n=0) %}{% for card in components.deck.cards %}"
                                          "{% set ns.n = ns.n + card.count %}{% endfor %}{{ ns.n }}")
    error = only_error(game)
    assert error.startswith(f"data/mini/rules/en.md:{line}: error: refused by the sandbox: setting .n of a "
                            "namespace() is not allowed"), error
    assert "fix: work the value out in one expression" in error


def test_changing_a_namespace_in_a_layout_is_refused(tmp_path: Path) -> None:
    error = only_error(with_layout_text(tmp_path, "{% set ns = namespace(a=1) %}{% set ns.a = 2 %}{{ ns.a }}"))
    assert error.startswith("data/mini/layouts/my-face.toml:9: error: layout 'my-face': refused by the sandbox: "
                            "setting .a of a namespace() is not allowed"), error


@pytest.mark.parametrize("placeholder", ["{% set seen = [] %}{{ seen.append(1) }}",
                                         "{{ game.update(title='x') }}",
                                         "{{ players.pop('min') }}"])
def test_changing_what_a_rule_text_is_given_is_refused(tmp_path: Path, placeholder: str) -> None:
    game, line = with_rule_line(tmp_path, placeholder)
    error = only_error(game)
    assert error.startswith(f"data/mini/rules/en.md:{line}: error: refused by the sandbox: access to attribute "), error
    assert "is unsafe" in error


@pytest.mark.parametrize("placeholder", [
    f'{{{{ {CARDS}|map(attribute="nosuch", default="-")|join }}}}',  # a default asked for is given
    f'{{{{ {CARDS}|map(attribute="name")|join(", ") }}}}',
    f'{{{{ {CARDS}|sum(attribute="count") }}}}',
    "{% set ns = namespace(n=3) %}{{ ns.n }}",  # made and read, never changed
])
def test_what_a_filter_finds_still_works(tmp_path: Path, placeholder: str) -> None:
    game, _ = with_rule_line(tmp_path, placeholder)
    result = check(game)
    assert result.exit_code == 0, result.output
    assert not errors(result)


def test_a_default_fills_only_what_is_missing_and_a_miss_prints_a_question_mark(tmp_path: Path) -> None:
    from pnp.compose.template import render_template

    items = {"items": [{"n": 1}, {}]}
    path = tmp_path / "en.md"
    assert render_template('{{ items|map(attribute="n", default="-")|join(",") }}', path, items) == ("1,-", [])
    text, [problem] = render_template('x\n{{ items|map(attribute="n")|join(",") }}', path, items)
    assert text == "x\n1,?"
    assert (problem.line, problem.message) == (2, "unknown name in a placeholder: an item has no field 'n'")

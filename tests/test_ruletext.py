"""Rule texts: placeholders from the model, the sandbox, section ids, example blocks, and their errors.

Expected numbers come from the Two Ops seed (deal 6 to each player, 12 court
cards, the Ace is worth 1) or by hand (52 - 12 = 40 pip cards; the K/neither
example averages 3 and 4 to 7/2).
"""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from pnp.compose.blocks import AidTableRef, ExampleRef, Heading, Paragraph, plain
from pnp.compose.rule_names import format_value
from pnp.compose.rule_source import bind_example_results
from pnp.compose.ruletext import load_rule_text
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.rules import get_rules

ROOT = Path(__file__).resolve().parents[1]
TWO_OPS = ROOT / "data" / "two-ops"


def load(folder: Path) -> Game:
    report = Report()
    game = load_game(folder, report)
    assert game is not None, [d.format() for d in report.errors]
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return load(TWO_OPS)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "two-ops"
    shutil.copytree(TWO_OPS, target)
    return target


def render(game: Game, lang: str) -> tuple[object, Report]:
    report = Report()
    text = load_rule_text(game, get_rules(game.rules), lang, report)
    return text, report


def paragraph_texts(text) -> list[str]:
    return [plain(block.runs) for block in text.walk() if isinstance(block, Paragraph | Heading)]


def write_en(copy: Path, old: str, new: str) -> Path:
    path = copy / "rules" / "en.md"
    source = path.read_text(encoding="utf-8")
    assert old in source
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


# ----------------------------------------------------------------------------- the shipped texts


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_shipped_rule_texts_render_without_problems(game: Game, lang: str) -> None:
    text, report = render(game, lang)
    assert text is not None
    assert report.diagnostics == []


def test_placeholders_print_the_models_numbers(game: Game) -> None:
    text, _ = render(game, "en")
    paragraphs = paragraph_texts(text)
    assert "Deal 6 number cards face down to every player." in paragraphs  # seed: "Deal 6 to each player"
    assert any(p.startswith("Take the 12 court cards out of the deck") for p in paragraphs)  # seed: the 12 court cards
    assert "Shuffle the 40 pip cards into a number stack." in paragraphs  # 52 - 12, by hand
    assert any("the Ace is worth 1." in p for p in paragraphs)  # seed: Ace is worth 1
    assert any("for 2 to 6 players" in p for p in paragraphs)


def test_japanese_placeholders_and_soft_breaks(game: Game) -> None:
    text, _ = render(game, "ja")
    paragraphs = paragraph_texts(text)
    assert "各プレイヤーに数字カードを6枚ずつ、裏向きで配ります。" in paragraphs
    overview = next(p for p in paragraphs if p.startswith("『ツー・オプス』"))
    # the source wraps this paragraph over three lines: joined without spaces between Japanese characters
    assert "カードゲームです。全員が同時に考えます。" in overview
    assert " " not in overview.replace("Bill de Veas", "")


def test_sections_share_ids_across_languages(game: Game) -> None:
    en, _ = render(game, "en")
    ja, _ = render(game, "ja")
    ids = [h.section for h in en.sections]
    assert ids == [h.section for h in ja.sections]
    assert {"setup", "operators", "scoring", "worked-examples"} <= set(ids)


def test_example_blocks_carry_the_recomputed_result(game: Game) -> None:
    text, _ = render(game, "en")
    refs = {ref.example: ref for ref in text.examples}
    assert set(refs) == {example.id for example in game.examples}
    wording = plain(refs["op-king-neither"].body[0].runs)
    assert "which here is 7/2." in wording  # (3 + 4) / 2, never rounded
    lowest = plain(refs["hand-lowest-sum"].body[0].runs)
    assert "The goal card 6♥" in lowest and "is \u22127" in lowest  # inputs.goal = 6H; result with a real minus


def test_tables_are_placed_by_id(game: Game) -> None:
    text, _ = render(game, "ja")
    assert [ref.table for ref in text.walk() if isinstance(ref, AidTableRef)] == ["goals", "operators"]


def test_format_value() -> None:
    assert format_value(Fraction(7, 2)) == "7/2"
    assert format_value(Fraction(-2)) == "\u22122"
    assert format_value(["2H", "8S"]) == "2H, 8S"


def test_example_binding_keeps_every_line() -> None:
    source = "a\n```example x\nbody {{ result.value }}\n```\nb\n"
    bound = bind_example_results(source)
    assert bound.count("\n") == source.count("\n")
    assert "with result = _example_result('x')" in bound.split("\n")[1]
    assert bound.split("\n")[3].startswith("{% endwith %}")


# ----------------------------------------------------------------------------- errors, with file and line


@pytest.mark.parametrize("expression", [
    "''.__class__.__mro__",
    "setup.__class__.__subclasses__()",
    "cycler.__init__.__globals__",
    "card.__globals__",
])
def test_a_template_reaching_python_internals_is_refused(copy: Path, expression: str) -> None:
    path = write_en(copy, "Shuffle the {{ rules.pips }} pip cards",
                    "Shuffle the {{ " + expression + " }} pip cards")
    text, report = render(load(copy), "en")
    [error] = report.errors
    assert error.file == path and error.line == line_of(path, expression)
    assert "refused by the sandbox" in error.message or "unknown name" in error.message
    if text is not None:  # an unknown name prints "?" so the rest can be checked: nothing of Python shows
        printed = " ".join(plain(block.runs) for block in text.walk() if hasattr(block, "runs"))
        assert "Shuffle the ? pip cards" in printed and "class" not in printed


def test_every_unknown_name_of_a_rule_text_is_reported_in_one_run(copy: Path) -> None:
    """Each unknown name prints "?" and is noted, so the rest renders and parses for its own problems."""
    path = write_en(copy, "{{ rules.pips }} pip cards into", "{{ rules.pipz }} pip cards into")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{{ players.min }}", "{{ players.minimum }}", 1)
                    .replace("```example op-jack-one\n", "```example op-jack-none\n"), encoding="utf-8")
    _, report = render(load(copy), "en")
    found = {(error.line, error.message) for error in report.errors}
    assert found == {
        (line_of(path, "rules.pipz"), "unknown name in a placeholder: rules has no field 'pipz' "
                                      "(did you mean 'pips'?)"),
        (line_of(path, "players.minimum"), "unknown name in a placeholder: players has no field 'minimum' "
                                           "(did you mean 'min'?)"),
        (line_of(path, "op-jack-none"), "example 'op-jack-none' does not exist in examples.toml"),
    }, found


def test_unknown_placeholder_name_names_the_line_and_the_known_names(copy: Path) -> None:
    path = write_en(copy, "{{ rules.pips }} pip cards into", "{{ rules.pipz }} pip cards into")
    _, report = render(load(copy), "en")
    [error] = report.errors
    assert error.line == line_of(path, "rules.pipz") and "pipz" in error.message
    assert "players" in (error.fix or "")


def test_unknown_example_id_is_an_error_at_its_line(copy: Path) -> None:
    path = write_en(copy, "```example op-jack-one\n", "```example op-jack-none\n")
    _, report = render(load(copy), "en")
    [error] = report.errors
    assert "op-jack-none" in error.message and error.line == line_of(path, "op-jack-none")


def test_unknown_table_and_missing_heading_id_are_errors(copy: Path) -> None:
    path = write_en(copy, '{{ table("goals") }}', '{{ table("goalz") }}')
    write_en(copy, "## Fine points {#fine-points}", "## Fine points")
    _, report = render(load(copy), "en")
    messages = {e.message: e.line for e in report.errors}
    assert any("goalz" in m for m in messages)
    heading_error = next(line for m, line in messages.items() if "no section id" in m)
    assert heading_error == line_of(path, "## Fine points")


def test_duplicate_ids_and_unclosed_example_blocks_are_errors(copy: Path) -> None:
    write_en(copy, "## Fine points {#fine-points}", "## Fine points {#scoring}")
    source = (copy / "rules" / "en.md").read_text(encoding="utf-8")
    (copy / "rules" / "en.md").write_text(source + "\n```example op-jack-one\nunclosed\n", encoding="utf-8")
    _, report = render(load(copy), "en")
    messages = " | ".join(e.message for e in report.errors)
    assert "used twice" in messages and "never closed" in messages


def test_jinja_comments_use_double_hashes(copy: Path) -> None:
    write_en(copy, "## Fine points {#fine-points}", "## Fine points {#fine-points} {## not printed ##}")
    text, report = render(load(copy), "en")
    assert not report.errors
    assert "fine-points" in [h.section for h in text.sections]


def test_example_placement_in_paragraph_and_body(game: Game) -> None:
    text, _ = render(game, "en")
    solve = next(ref for ref in text.examples if ref.example == "hand-highest-sum")
    assert isinstance(solve, ExampleRef) and len(solve.body) == 1
    assert "reached in 2 ways" in plain(solve.body[0].runs)  # two layouts reach 22 (examples.toml, by hand)


def test_a_japanese_line_break_before_a_digit_adds_no_space(copy: Path) -> None:
    path = copy / "rules" / "ja.md"
    source = path.read_text(encoding="utf-8")
    old = "- 勝者はそれぞれ2点を得ます。"
    assert old in source
    path.write_text(source.replace(old, "- 勝者はそれぞれ\n2点を得ます。", 1), encoding="utf-8")
    text, _ = render(load(copy), "ja")
    assert "勝者はそれぞれ2点を得ます。" in paragraph_texts(text)


def test_a_text_with_a_syntax_error_still_has_its_structure_checked(copy: Path) -> None:
    """Jinja2 cannot render past a syntax error, but headings, ids and example blocks are plain Markdown:
    they are checked on the text with its template code blanked, so one run names them all."""
    path = write_en(copy, "{{ rules.pips }} pip cards into", "{{ rules.pips pip cards into")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("```example op-jack-one\n", "```example op-jack-none\n"), encoding="utf-8")
    text, report = render(load(copy), "en")
    assert text is None
    messages = {(error.line, error.message.split(":")[0]) for error in report.errors}
    assert messages == {(line_of(path, "rules.pips pip"), "template syntax error"),
                        (line_of(path, "op-jack-none"), "example 'op-jack-none' does not exist in examples.toml")}


def test_past_a_syntax_error_every_placeholder_is_checked_on_its_own(copy: Path) -> None:
    """Jinja2 stops at the first syntax error: a second one, and an unknown name, showed only once it
    was fixed. Each placeholder is now compiled and rendered alone, so one run names all three; the
    placeholders of example fences see their result, and nothing else is reported."""
    path = write_en(copy, "{{ rules.pips }} pip cards into", "{{ rules.pips } pip cards into")
    write_en(copy, "{{ players.min }}", "{{ players.minimum }}")
    last = [line for line in path.read_text(encoding="utf-8").split("\n") if "{{" in line][-1]
    placeholder = last[last.index("{{"):last.index("}}") + 2]
    write_en(copy, last, last.replace(placeholder, placeholder.replace("}}", ") }}"), 1))
    text, report = render(load(copy), "en")
    assert text is None
    messages = {(error.line, error.message) for error in report.errors}
    assert messages == {
        (line_of(path, "rules.pips } pip"), "template syntax error: unexpected '}'"),
        (line_of(path, "players.minimum"),
         "unknown name in a placeholder: players has no field 'minimum' (did you mean 'min'?)"),
        (line_of(path, placeholder.replace("}}", ") }}")), "template syntax error: unexpected ')'"),
    }


def test_names_a_statement_binds_are_not_unknown_past_a_syntax_error(copy: Path) -> None:
    """A placeholder alone cannot see a {% set %} (or a macro's argument): in a text with statements,
    only the placeholders' syntax is checked past a syntax error."""
    path = write_en(copy, "## Fine points {#fine-points}", "## Fine points {#fine-points}\n\n{% set n = 2 %}{{ n }}")
    write_en(copy, "{{ rules.pips }} pip cards into", "{{ rules.pips } pip cards into")
    _, report = render(load(copy), "en")
    assert [(error.line, error.message) for error in report.errors] == [
        (line_of(path, "rules.pips } pip"), "template syntax error: unexpected '}'")]


def test_an_unknown_result_taken_apart_by_a_macro_stays_quiet() -> None:
    """Take Over That Job's macros take a card id apart (id.split("-"), then colours[...]). When its
    examples cannot be computed (any rules.toml error), each fence's result is unknown: that printed
    '?' but stopped the render with "None is undefined", and the text then failed its structure check.
    Now it prints "?" and only real unknown names are reported."""
    from pnp.compose.rule_names import UnknownResult
    from pnp.compose.template import render_template

    source = ('{% macro c(id) %}{% set part = id.split("-") %}{{ colours[part[0]] }} {{ part[1] }}{% endmacro %}\n'
              "won by {{ c(result.card) }}; {{ colours.bleu }}")
    text, problems = render_template(source, Path("en.md"), {"colours": {"green": "green"},
                                                              "result": UnknownResult()})
    assert text == "\nwon by ? ?; ?"
    assert [(p.line, p.message) for p in problems] == [
        (2, "unknown name in a placeholder: colours has no field 'bleu' (it has: green)")]


@pytest.mark.parametrize(("placeholder", "message"), [
    ("{{ setup[9].hand }}", "unknown name in a placeholder: setup has no entry 9 (it has: 2, 3)"),
    ('{{ setup["2"].hand }}', "unknown name in a placeholder: setup's keys are numbers: write setup[2], not "
                              "setup['2']"),
])
def test_a_missing_entry_says_which_entries_there_are(placeholder: str, message: str) -> None:
    """setup[9] was "dict object has no element 9"; setup["2"] "has no field '2' (did you mean '2'?)"."""
    from pnp.compose.template import render_template

    _, problems = render_template(placeholder, Path("en.md"), {"setup": {2: {"hand": 6}, 3: {"hand": 6}}})
    assert [problem.message for problem in problems] == [message]


def test_a_helper_called_with_the_wrong_arguments_says_so_in_a_writers_words() -> None:
    """card() was "TypeError: rule_context.<locals>.card() missing 1 required positional argument", no fix."""
    from pnp.compose.template import RuleTextError, render_template

    def card(card_id: str) -> str:
        return card_id

    with pytest.raises(RuleTextError) as raised:
        render_template("First line.\n{{ card() }}", Path("en.md"), {"card": card})
    diagnostic = raised.value.diagnostic
    assert diagnostic.line == 2
    assert diagnostic.message == "placeholder failed: card() missing 1 required positional argument: 'card_id'"
    assert 'write card("10S")' in diagnostic.fix


def test_a_syntax_error_in_a_file_with_macros_is_one_error() -> None:
    """With the text unrenderable, its structure is read with the template code blanked; the text between
    a macro's placeholders ("の") was left, and reported as "text before the first heading"."""
    from pnp.compose.markdown import parse_rule_text
    from pnp.compose.rule_source import without_template_code
    from pnp.diagnostics import Report

    source = ('{% macro c(id) %}{% set part = id.split("-") %}{{ colours[part[0]] }}の{{ part[1] }}{% endmacro %}\n'
              "{% call c('x') %}body{% endcall %}\n\n## 概要 {#overview}\n\n{{ players.min }人で遊びます。\n")
    blanked = without_template_code(source)
    assert blanked.split("\n")[:2] == [" " * len(line) for line in source.split("\n")[:2]]
    report = Report()
    parse_rule_text(blanked, Path("ja.md"), report, set(), set())
    assert report.diagnostics == []


def test_a_block_left_open_is_reported_where_it_opens_not_where_the_file_ends() -> None:
    """Jinja2 says "Unexpected end of template" at the file's last tag: line 9 here, for the if on line 4."""
    from pnp.compose.template import RuleTextError, render_template

    source = ("## A {#a}\n\ntext\n{% if x %}\nb\n\n## B {#b}\n\n"
              "{% for i in y %}{{ i }}{% endfor %}{% set n = 1 %} more\nand more\n")
    with pytest.raises(RuleTextError) as raised:
        render_template(source, Path("en.md"), {"x": 1, "y": [2]})
    diagnostic = raised.value.diagnostic
    assert (diagnostic.line, diagnostic.message) == (4, "this {% if %} is never closed")
    assert diagnostic.fix == "close it with {% endif %} where it should end"

"""Translation checks on deliberately broken copies of Two Ops, and the pieces they are made of.

Each test breaks one thing in a copy of data/two-ops and expects `pnp check`
(check_translations, check_folder) or `pnp i18n` (run_i18n) to name it with
file and line. The shipped data must come out clean.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.commands.i18n import run_i18n
from pnp.diagnostics import Level, Report
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.validate import check_folder
from pnp.validate.glossary_match import uses_term
from pnp.validate.rule_prose import numbers, placeholders, prose
from pnp.validate.translation_records import accept_sections, load_translated_sources, split_sections
from pnp.validate.translations import check_translations

ROOT = Path(__file__).resolve().parents[1]
TWO_OPS = ROOT / "data" / "two-ops"


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "two-ops"
    shutil.copytree(TWO_OPS, target)
    return target


def load(folder: Path) -> Game:
    game = load_game(folder, Report())
    assert game is not None
    return game


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


def check(folder: Path) -> Report:
    report = Report()
    check_translations(load(folder), report)
    return report


def messages(report: Report, level: Level) -> list[str]:
    return [d.message for d in report.of(level)]


# ----------------------------------------------------------------------------- pieces


def test_split_sections_by_heading_id() -> None:
    text = "<!-- note -->\n\n## One {#one}\n\nText.\n\n```\n## not a heading\n```\n\n### Two {#two}\nMore.\n\n\n"
    sections = split_sections(text)
    assert [(s.id, s.title, s.level, s.line) for s in sections] == [("one", "One", 2, 3), ("two", "Two", 3, 11)]
    assert sections[0].text.endswith("```") and sections[1].text == "### Two {#two}\nMore."


def test_numbers_are_compared_after_nfkc_without_placeholders_or_list_markers() -> None:
    assert numbers("たとえば１２点。") == {"12": 1}
    assert numbers("1. Deal {{ setup[4].hand }} cards, add 5.\n2. Score 10 ## Head {#h2}") == {"5": 1, "10": 1}
    assert numbers("```example hand-2\n7/2, 2\n```") == {"7": 1, "2": 2}


def test_placeholders_ignore_spacing_and_quotes_and_include_examples() -> None:
    assert placeholders('{{table("goals")}} and {{ rules.pips }}\n```example op-1\n```') == {
        "{{ table('goals') }}", "{{ rules.pips }}", "example op-1"}


def test_what_raw_holds_is_text_not_a_placeholder() -> None:
    """`{% raw %}{{ x }}{% endraw %}` prints the braces as written: it was flagged as an extra placeholder."""
    assert placeholders("Write {% raw %}{{ card.name }}{% endraw %} for the name; {{ players.min }}.") == {
        "{{ players.min }}"}


def test_glossary_terms_match_words_plurals_and_japanese() -> None:
    assert uses_term("Two Operators each", ["operator"])
    assert not uses_term("operations", ["operator"])
    assert uses_term("the on-color number", ["on-colour", "on-color"])
    assert not uses_term(prose("## X {#operators}"), ["operator"])
    assert uses_term("演算子カード", ["演算子"])


# ----------------------------------------------------------------------------- the shipped data


def test_shipped_two_ops_translation_is_clean() -> None:
    report = check(TWO_OPS)
    assert report.errors == [] and report.warnings == [], [d.format() for d in report.diagnostics]


def test_i18n_reports_the_shipped_translation(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_i18n(ROOT / "data", ("two-ops",), None) == 0
    out = capsys.readouterr().out
    assert "two-ops — ja (source: en)" in out
    assert "17 translated, 0 stale, 0 untracked, 0 missing, 0 extra" in out
    assert "deck.name: 52/52 translated" in out  # every card name has a Japanese text


# ----------------------------------------------------------------------------- broken copies


def test_missing_section_is_an_error(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ja = copy / "rules" / "ja.md"
    text = ja.read_text(encoding="utf-8")
    start, end = text.index("## 細かな点 {#fine-points}"), text.index("## クレジット {#credits}")
    ja.write_text(text[:start] + text[end:], encoding="utf-8")
    report = check(copy)
    [error] = [d for d in report.errors if "missing" in d.message]
    assert "'fine-points'" in error.message and error.file == ja
    assert run_i18n(copy.parent, ("two-ops",), "ja") == 1
    assert "missing    fine-points" in capsys.readouterr().out


def test_stale_section_is_a_warning_with_the_change(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    en = copy / "rules" / "en.md"
    edit(en, "Deal again, passing the deal to the left.", "Deal again, passing the deal to the right.")
    report = check(copy)
    assert report.errors == []
    [warning] = report.warnings
    assert "'scoring' is stale" in warning.message
    assert warning.line == line_of(copy / "rules" / "ja.md", "{#scoring}")
    assert run_i18n(copy.parent, ("two-ops",), "ja") == 0  # stale is a warning, not an error
    out = capsys.readouterr().out
    assert "stale      scoring" in out
    assert "-Deal again, passing the deal to the left." in out
    assert "+Deal again, passing the deal to the right." in out


@pytest.mark.parametrize(("old", "new", "stale"), [
    ("あなたはそのカードを発掘し、売り買いして", "あなたはそのカードを発掘し、\n売り買いして", False),  # wrapped
    ("あなたはそのカードを発掘し、売り買いして", "あなたはそのカードを\n   発掘し、売り買いして", False),
    ("あなたはそのカードを発掘し、売り買いして", "あなたはそのカードを発掘し、売って", True),  # reworded
])
def test_rewrapping_a_japanese_source_leaves_its_translation_current(tmp_path: Path, old: str, new: str,
                                                                      stale: bool) -> None:
    """Rudy's source is Japanese. A line break between two Japanese characters prints as nothing, and
    docs/rulebooks.md says the source may be wrapped freely, yet wrapping a line marked the English
    translation of its section stale."""
    rudy = tmp_path / "rudy"
    shutil.copytree(ROOT / "data" / "rudy", rudy)
    edit(rudy / "rules" / "ja.md", old, new)
    warnings = messages(check(rudy), Level.WARNING)
    assert any("'concept' is stale" in warning for warning in warnings) == stale, warnings


def test_accepting_a_section_records_its_source(copy: Path) -> None:
    edit(copy / "rules" / "en.md", "passing the deal to the left.", "passing the deal to the right.")
    game = load(copy)
    assert accept_sections(game, "ja", ["scoring"], Report()) == ["scoring"]
    assert "to the right." in load_translated_sources(game, "ja", Report())["scoring"]
    assert check(copy).warnings == []


def test_accepting_in_the_source_language_is_refused(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It wrote rules/en.sources.toml, "the en text each en section was translated from", and pnp check
    took it without a word."""
    assert run_i18n(copy.parent, ("two-ops",), "en", accept=["scoring"]) == 1
    assert run_i18n(copy.parent, ("two-ops",), "en", accept_all=True) == 1
    said = capsys.readouterr().err
    assert "two-ops: 'en' is the source language, which is translated from nothing" in said
    assert "fix: accept sections of a translation (--lang ja)" in said
    assert not (copy / "rules" / "en.sources.toml").exists()


def test_accepting_one_section_does_not_overwrite_records_that_cannot_be_read(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The file was rewritten with only the section named: every other record, lost to a typo."""
    records = copy / "rules" / "ja.sources.toml"
    damaged = records.read_text(encoding="utf-8") + "x = = 1\n"
    records.write_text(damaged, encoding="utf-8")
    assert run_i18n(copy.parent, ("two-ops",), "ja", accept=["scoring"]) == 1
    said = capsys.readouterr().err
    assert "error: nothing recorded: ja.sources.toml cannot be read as it is" in said
    # the game is not under ./data: named by its path, or the hint would accept another game's records
    assert f"fix: fix it by hand, or record every section afresh: pnp i18n {copy.resolve()} --lang ja --accept-all" \
        in said
    assert said.count("malformed TOML") == 1
    assert records.read_text(encoding="utf-8") == damaged
    # recording every section afresh is what the fix offers: it rewrites the file, and the game checks clean
    assert run_i18n(copy.parent, ("two-ops",), "ja", accept_all=True) == 0
    assert "malformed" not in capsys.readouterr().err
    assert check(copy).errors == []


def test_records_that_cannot_be_written_are_an_error(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder in the file's place: os.replace's IsADirectoryError and its traceback."""
    records = copy / "rules" / "ja.sources.toml"
    records.unlink()
    records.mkdir()
    assert run_i18n(copy.parent, ("two-ops",), "ja", accept_all=True) == 1
    assert "error: nothing recorded: cannot write ja.sources.toml: Is a directory" in capsys.readouterr().err


def test_a_changed_number_in_a_translation_is_caught(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ja = copy / "rules" / "ja.md"
    edit(ja, "大きい方の数に5を足します", "大きい方の数に６を足します")  # full width: NFKC makes it 6
    report = check(copy)
    errors = [d for d in report.errors if "operators-both" in d.message]
    # the section says 5 twice (adds 5, subtracts 5): one of them is gone, and a 6 appeared
    assert {e.message.split(": ", 1)[1] for e in errors} == {
        "the source states 5 in 2 places, the translation in 1", "the translation states 6, the source does not"}
    assert {e.line for e in errors} >= {line_of(ja, "６を足します")}
    assert run_i18n(copy.parent, ("two-ops",), "ja") == 1
    assert "numbers: 2 problem(s)" in capsys.readouterr().out


def test_a_placeholder_replaced_by_a_number_is_caught(copy: Path) -> None:
    ja = copy / "rules" / "ja.md"
    edit(ja, "数字カードを{{ setup[players.min].hand }}枚ずつ", "数字カードを6枚ずつ")
    errors = messages(check(copy), Level.ERROR)
    assert any("lacks {{ setup[players.min].hand }}" in m for m in errors)
    assert any("the translation states 6" in m for m in errors)


def test_a_misspelt_placeholder_in_the_source_is_one_error_not_three(copy: Path) -> None:
    """The source's error was followed by "lacks {{ players.maximum }}" and "has {{ players.max }}" at a
    translation that was right, and whose fix would have been to copy the misspelling."""
    en = copy / "rules" / "en.md"
    edit(en, "{{ players.max }} players", "{{ players.maximum }} players")
    report = check(copy)
    errors = [(d.file.name if d.file else None, d.line, d.message) for d in report.of(Level.ERROR)]
    assert len(errors) == 1, errors
    assert errors[0][:2] == ("en.md", line_of(en, "players.maximum"))
    assert "players has no field 'maximum'" in errors[0][2]


def test_a_placeholder_the_translation_dropped_is_still_caught_beside_a_source_error(copy: Path) -> None:
    """Only the section holding the source's error waits; another section is still compared."""
    edit(copy / "rules" / "en.md", "{{ players.max }} players", "{{ players.maximum }} players")
    edit(copy / "rules" / "ja.md", "数字カードを{{ setup[players.min].hand }}枚ずつ", "数字カードを6枚ずつ")
    errors = messages(check(copy), Level.ERROR)
    assert any("lacks {{ setup[players.min].hand }}" in m for m in errors)
    assert not any("players.max }}" in m for m in errors)


def test_a_placeholder_or_number_only_the_translation_has_is_reported_at_its_own_line() -> None:
    """"has {{ setup[2].hand }}" was reported at the paragraph's first "{{", and "states 0" at the first
    line holding the character 0, "10点" two lines above it."""
    from pnp.validate.translation_records import Section
    from pnp.validate.translations import compare_section

    source = Section("scoring", "Scoring", 2, 20, "## Scoring {#scoring}\n\nFirst to 10 points wins.\n\n"
                     "Deal {{ setup[players.min].hand }} cards.")
    target = Section("scoring", "得点", 2, 30, "## 得点 {#scoring}\n\n10点で勝ちです。\n\n"
                     "{{ setup[players.min].hand }}枚配り、\n{{ setup[2].hand }}枚めくります。\n0点から始めます。")
    findings = {finding.message: finding.line for finding in
                compare_section(source, target, Path("ja.md"), None, "en", "ja")}
    assert findings == {
        "section 'scoring' has {{ setup[2].hand }}, which the source section does not": 35,
        "section 'scoring': the translation states 0, the source does not": 36,
    }


def test_a_misspelt_placeholder_in_the_translation_is_one_error(copy: Path) -> None:
    ja = copy / "rules" / "ja.md"
    edit(ja, "{{ players.min }}～", "{{ players.mni }}～")
    errors = [(d.file.name if d.file else None, d.line, d.message) for d in check(copy).of(Level.ERROR)]
    assert len(errors) == 1, errors
    assert errors[0][:2] == ("ja.md", line_of(ja, "players.mni"))


def test_records_that_cannot_be_read_are_one_error_not_every_section_never_recorded(copy: Path) -> None:
    """A malformed ja.sources.toml also warned that 17 sections were never recorded, with --accept-all
    as the fix: that would mark every section translated, and lose which were stale."""
    records = copy / "rules" / "ja.sources.toml"
    records.write_text(records.read_text(encoding="utf-8") + "x = [\n", encoding="utf-8")
    report = check(copy)
    assert [d.file.name for d in report.of(Level.ERROR) if d.file] == ["ja.sources.toml"]
    assert messages(report, Level.WARNING) == []


def test_an_unknown_field_one_level_down_is_named_with_its_owner_and_a_suggestion() -> None:
    """components.deck.cont was "unknown name 'cont'", with no owner and no hint; a colour renamed in
    game.toml got "colours has no field 'blue' (did you mean 'table', without 'colours.'?)"."""
    from pnp.compose.bind import describe_missing

    deck = {"id": "deck", "count": 52, "name": "Deck"}
    colours = {"green": "green", "orange": "orange"}
    context = {"components": {"deck": deck}, "colours": colours, "table": object(), "width": 63.5}
    assert describe_missing(deck, "cont", context) == "components.deck has no field 'cont' (did you mean 'count'?)"
    assert describe_missing(colours, "blue", context) == "colours has no field 'blue' (it has: green, orange)"
    card = {"name": "Ace"}
    assert describe_missing(card, "widht", {**context, "card": card}) == (
        "card has no field 'widht' (did you mean 'width', without 'card.'?)")


def test_a_source_typo_noted_while_the_data_has_errors_is_not_two_errors_in_the_translation(copy: Path) -> None:
    """With the game's data in error a misspelt source placeholder is a note; the translation, which was
    right, still got "lacks {{ game.titel }}" and "has {{ game.title }}" as errors."""
    from click.testing import CliRunner

    from pnp.cli import cli

    edit(copy / "rules" / "en.md", "{{ game.title }}", "{{ game.titel }}")
    edit(copy / "game.toml", "count = 52", "count = 53")  # a data error elsewhere
    result = CliRunner().invoke(cli, ["check", "--data", str(copy.parent), "two-ops"])
    assert "game has no field 'titel'" in result.output  # said once, at the source (as a note)
    assert "lacks {{ game.titel }}" not in result.output and "has {{ game.title }}" not in result.output


def test_glossary_violation_is_a_warning(copy: Path) -> None:
    ja = copy / "rules" / "ja.md"
    text = ja.read_text(encoding="utf-8")
    start, end = text.index("### 演算を組み立てる"), text.index("### 手を見せる")
    ja.write_text(text[:start] + text[start:end].replace("数字カード", "数のカード") + text[end:], encoding="utf-8")
    report = check(copy)
    [warning] = [d for d in report.warnings if "glossary" in d.message]
    assert "'play-build'" in warning.message
    assert "'number card'" in warning.message and "'数字カード'" in warning.message


def test_unknown_and_unplaced_examples(copy: Path) -> None:
    ja = copy / "rules" / "ja.md"
    edit(ja, "```example op-jack-one", "```example op-jack-uno")
    report = check(copy)
    unknown = next(d for d in report.errors if "op-jack-uno" in d.message and "does not exist" in d.message)
    assert unknown.file == ja and unknown.line == line_of(ja, "op-jack-uno")
    unplaced = next(d for d in report.warnings if "'op-jack-one' is not placed" in d.message)
    assert unplaced.file == copy / "examples.toml" and "ja" in unplaced.message


def test_an_example_block_the_translation_dropped_is_asked_for_as_a_block(copy: Path) -> None:
    """Its fix said "use the same placeholders as the source, so the numbers come from the model"."""
    ja = copy / "rules" / "ja.md"
    block = ("```example op-jack-one\nジャックは色違いの数を無視し、同色の数をそのまま値にします："
             "{{ result.value }}。\n```\n")
    edit(ja, block, "")
    lacks = next(d for d in check(copy).errors if "lacks example op-jack-one" in d.message)
    assert lacks.fix.startswith("add the block ```example op-jack-one as the source section has it")


def test_template_reaching_internals_fails_the_check(copy: Path) -> None:
    ja = copy / "rules" / "ja.md"
    edit(ja, "{{ players.max }}人", "{{ game.__class__.__mro__ }}人")
    [error] = [d for d in check(copy).errors if "sandbox" in d.message]
    assert error.file == ja and error.line == line_of(ja, "__mro__")


def test_missing_translation_file_is_an_error(copy: Path) -> None:
    (copy / "rules" / "ja.md").unlink()
    [error] = check(copy).errors
    assert "rules/ja.md is missing" in error.message


def test_an_example_with_a_wrong_stated_result_fails_pnp_check(copy: Path) -> None:
    examples = copy / "examples.toml"
    text = examples.read_text(encoding="utf-8")
    start = text.index('id = "hand-most-difference"')
    wrong = text[:start] + text[start:].replace('value = "27/2"', 'value = "25/2"', 1)
    examples.write_text(wrong, encoding="utf-8")
    result = check_folder(copy)
    [error] = [d for d in result.report.errors if "hand-most-difference" in d.message]
    # as examples.toml writes them (a fraction is the string "a/b"), not as Python shows Fraction(27, 2)
    assert 'value is stated as "25/2" but the rules give "27/2"' in error.message
    lines = wrong.split("\n")
    first = line_of(examples, 'id = "hand-most-difference"')
    expect_line = next(n for n in range(first, len(lines) + 1) if lines[n - 1].strip() == "[example.expect]")
    assert error.file == examples and error.line == expect_line


def test_a_record_of_a_section_the_source_lacks_is_a_warning_and_accepting_drops_it(copy: Path) -> None:
    """A section renamed since it was accepted, or a typo in a hand edit, sat in ja.sources.toml unseen."""
    records = copy / "rules" / "ja.sources.toml"
    records.write_text(records.read_text(encoding="utf-8") + '\n[sections.no-such-section]\nsource = "old"\n',
                       encoding="utf-8")
    [warning] = check(copy).warnings
    assert warning.message == "ja.sources.toml records section 'no-such-section', which rules/en.md does not have"
    assert (warning.file, warning.line) == (records, line_of(records, "[sections.no-such-section]"))
    accept_sections(load(copy), "ja", ["overview"], Report())
    assert "no-such-section" not in records.read_text(encoding="utf-8")
    # the shipped card texts are not recorded yet: a note, and nothing else
    assert [d.message for d in check(copy).diagnostics if "never recorded" not in d.message] == []


def test_records_are_not_called_orphans_while_the_source_lost_its_sections(copy: Path) -> None:
    """A note left open over the source's headings is one error; its swallowed sections are not also each
    "recorded but not in the source"."""
    heading = "## What operators do {#operators}"
    edit(copy / "rules" / "en.md", heading, "<!-- note\n\n" + heading)
    said = [d for d in check_folder(copy).report.diagnostics if d.level >= Level.WARNING]
    assert len(said) == 1 and "this comment runs over the heading" in said[0].message, said

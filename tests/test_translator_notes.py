"""Notes to translators (HTML comments) vanish from the book, and only they do."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.compose.blocks import ListBlock, Paragraph
from pnp.compose.markdown import parse_rule_text
from pnp.diagnostics import Level, Report
from pnp.model.runs import Text

HEADING = "## 概要 {#overview}\n\n"


def parse(body: str) -> tuple[list, Report]:
    report = Report()
    blocks = parse_rule_text(HEADING + body, Path("ja.md"), report, set(), set())
    return blocks[1:], report


def words(block: Paragraph) -> str:
    return "".join(run.text for run in block.runs)


def test_a_note_at_the_start_of_a_list_item_keeps_the_sentence_after_it() -> None:
    """Markdown reads a line beginning with <!-- as an HTML block to the end of the line that closes it:
    the item printed as an empty bullet, with a warning that told the translator to use a comment."""
    blocks, report = parse("- <!-- 訳注 -->ゼロのカードはありません。\n- 二つ目。\n")
    assert not report.diagnostics
    [items] = blocks
    assert isinstance(items, ListBlock)
    assert [words(item[0]) for item in items.items] == ["ゼロのカードはありません。", "二つ目。"]


def test_a_note_at_the_start_of_a_paragraph_keeps_it_one_paragraph_at_its_line() -> None:
    blocks, report = parse("<!-- note -->The first line\nand the second.\n")
    assert not report.diagnostics
    assert len(blocks) == 1 and isinstance(blocks[0], Paragraph)
    assert "The first line" in words(blocks[0]) and "the second." in words(blocks[0])
    assert blocks[0].line == 3
    assert Text("<!--", "regular") not in blocks[0].runs and "note" not in words(blocks[0])


def test_text_after_a_note_over_several_lines_is_an_error_not_lost_quietly() -> None:
    blocks, report = parse("<!-- a note\nover two lines -->The rule.\n")
    [error] = report.of(Level.ERROR)
    assert error.line == 3
    assert "after this note's --> on line 4 would not print" in error.message


def test_a_note_alone_and_a_note_in_code_are_left_as_they_are() -> None:
    blocks, report = parse("<!-- just a note -->\n\n    <!-- code -->kept\n")
    assert not report.diagnostics
    assert [type(block).__name__ for block in blocks] == ["Preformatted"]
    assert blocks[0].text == "<!-- code -->kept"


def test_a_jinja_comment_which_would_print_is_a_warning_at_its_line(tmp_path: Path) -> None:
    """{# #} is Jinja's usual comment, but in a rule text {# begins a heading id: it printed as it was."""
    from pnp.compose.rule_source import jinja_comments

    source = "## Overview {#overview}\n\nText. {# a note #}\n{## a real comment ##}\n"
    [warning] = jinja_comments(source, tmp_path / "en.md")
    assert (warning.level, warning.line) == (Level.WARNING, 3)
    assert "'{# a note #}' prints as it is" in warning.message and "{## ... ##}" in warning.fix


def test_full_width_braces_and_heading_marks_are_warnings_at_their_lines(tmp_path: Path) -> None:
    """What a Japanese input method types: ｛｛ players.min ｝｝ printed as written, and ＃＃ 準備 {#setup} was
    body text, so the section it began silently disappeared, with nothing said."""
    source = "## 概要 {#overview}\n\n人数は｛｛ players.min ｝｝〜4人。\n\n＃＃ 準備 {#setup}\n\n本文の＃は記号。\n"
    warnings = rendered_rule_text(source, tmp_path)
    assert [(w.line, w.message.split(":")[0]) for w in warnings] == [
        (3, "'｛｛ players.min ｝｝' prints as it is"), (5, "'＃＃ 準備 {#setup}' is body text, not a heading")]
    assert warnings[0].fix == "write it with half-width braces: {{ players.min }}"
    assert warnings[1].fix == "write the heading with half-width #: ## 準備 {#setup}"


def rendered_rule_text(source: str, tmp_path: Path) -> list:
    from pnp.compose.rule_source import full_width_marks

    return sorted(full_width_marks(source, tmp_path / "ja.md"), key=lambda d: d.line)


def test_a_note_after_a_heading_id_is_allowed() -> None:
    """"## 概要 {#overview} <!-- 注 -->" was "heading has no section id", in the rulebook and in the
    translation records alike."""
    from pnp.validate.translation_records import split_sections

    report = Report()
    text = "## 概要 {#overview} <!-- 注 -->\n\n本文。\n"
    [heading, _] = parse_rule_text(text, Path("ja.md"), report, set(), set())
    assert not report.diagnostics
    assert heading.section == "overview" and "".join(run.text for run in heading.runs) == "概要"
    assert [section.id for section in split_sections(text)] == ["overview"]


@pytest.mark.parametrize(("heading", "message", "fix"), [
    ("## Overview {#1overview}", "'1overview' is no section id: an id starts with a Latin letter", "{#overview}"),
    ("## Overview {#Over view}", "'Over view' is no section id", "{#Over-view}"),
    # 準 is a letter, just not a Latin one: "starts with a letter" left a Japanese writer guessing
    ("## 準備 {#準備}", "'準備' is no section id: an id starts with a Latin letter (a-z)", "{#setup}"),
    ("## 概要 {＃overview}", "the id '{＃overview}' has a full-width ＃", "write it with a plain #: {#overview}"),
    ("## Overview {#overview} and more", "its id '{#overview}' must end the heading", "('and more') before the id"),
    ("## Overview", "heading 'Overview' has no section id", "e.g. '## Setup {#setup}'"),
])
def test_a_heading_id_that_cannot_be_read_says_why(heading: str, message: str, fix: str) -> None:
    """Each was "has no section id", for an id that was there, so a translator looked for a missing one."""
    report = Report()
    parse_rule_text(f"{heading}\n\nText.\n", Path("ja.md"), report, set(), set())
    [error] = report.of(Level.ERROR)
    assert message in error.message and fix in error.fix


def test_pnp_check_says_a_full_width_placeholder_in_a_rule_text(tmp_path: Path) -> None:
    import shutil

    from click.testing import CliRunner

    from pnp.cli import cli

    rudy = tmp_path / "data" / "rudy"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "rudy", rudy)
    ja = rudy / "rules" / "ja.md"
    text = ja.read_text(encoding="utf-8")
    ja.write_text(text.replace("{{ players.min }}～", "｛｛ players.min ｝｝～", 1), encoding="utf-8")
    line = text[: text.index("{{ players.min }}～")].count("\n") + 1
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path / "data"), "rudy"])
    assert f"ja.md:{line}: warning: '｛｛ players.min ｝｝' prints as it is" in result.output, result.output

"""Rule texts that `pnp check` accepted and `pnp build` died on, with a reportlab traceback.

Found by mutating the rule texts' structure: a heading that skips a level (#### under ##), a quote
taller than a page, lists nested deeper than a page is wide.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from pnp.compose.markdown import parse_rule_text
from pnp.diagnostics import Report

DATA = Path(__file__).resolve().parents[1] / "data"


def edited_two_ops(tmp_path: Path, edit) -> Path:
    data = tmp_path / "data"
    shutil.copytree(DATA / "two-ops", data / "two-ops")
    text = data / "two-ops" / "rules" / "en.md"
    text.write_text(edit(text.read_text(encoding="utf-8")), encoding="utf-8")
    return data


def build_rules(tmp_path: Path, data: Path):
    return CliRunner().invoke(cli, ["build", "--data", str(data), "two-ops", "--what", "rules", "--lang", "en",
                                    "--paper", "a4", "--out", str(tmp_path / "out"), "--jobs", "1"])


def after_components_heading(text: str, *lines: str) -> str:
    head, heading, rest = text.partition("## What you need {#components}\n")
    assert heading
    return head + heading + "\n" + "\n".join(lines) + "\n\n" + rest


def test_a_heading_that_skips_a_level_builds_with_an_outline_that_does_not(tmp_path: Path) -> None:
    """reportlab refuses an outline entry two levels below the one before ("can't jump from outline
    level 0 to level 2"): the heading now sits one level below its parent in the outline."""
    data = edited_two_ops(tmp_path, lambda text: text.replace("### Choose your numbers {#play-discard}",
                                                              "#### Choose your numbers {#play-discard}", 1))
    result = build_rules(tmp_path, data)
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "out" / "two-ops" / "en" / "a4" / "rules.pdf")

    def depth_of(title: str, entries: list, depth: int = 0) -> int | None:
        for entry in entries:
            if isinstance(entry, list):
                found = depth_of(title, entry, depth + 1)
                if found is not None:
                    return found
            elif entry.title == title:
                return depth
        return None

    # "#### Choose your numbers" follows "## Playing a round": one level below it, as "###" was
    assert depth_of("Choose your numbers", reader.outline) == 1, reader.outline
    assert depth_of("Playing a round", reader.outline) == 0
    assert any("Choose your numbers" in page.extract_text() for page in reader.pages)


def test_a_quote_taller_than_a_page_is_an_error_at_its_line(tmp_path: Path) -> None:
    data = edited_two_ops(tmp_path, lambda text: after_components_heading(text, "> " + "deep words " * 400))
    line = (data / "two-ops" / "rules" / "en.md").read_text(encoding="utf-8").split("\n").index(
        "> " + "deep words " * 400) + 1
    result = build_rules(tmp_path, data)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert (f"rules/en.md:{line}: error: rulebook (en, A4): this part is taller than a page and cannot be cut "
            "across pages") in result.output, result.output
    assert not (tmp_path / "out" / "two-ops" / "en" / "a4" / "rules.pdf").exists()


def test_lists_nested_deeper_than_a_page_is_wide_are_an_error_in_check(tmp_path: Path) -> None:
    """Nine levels left the innermost text narrower than nothing ("negative availWidth")."""
    nested = ["   " * level + f"1. level {level}" for level in range(9)]
    data = edited_two_ops(tmp_path, lambda text: after_components_heading(text, *nested))
    line = (data / "two-ops" / "rules" / "en.md").read_text(encoding="utf-8").split("\n").index(nested[6]) + 1
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "two-ops"])
    assert result.exit_code == 1
    assert (f"rules/en.md:{line}: error: lists and quotes nest more than 6 deep here") in result.output, result.output


def test_an_example_left_open_is_an_error_not_the_next_examples_figure(tmp_path: Path) -> None:
    """With op-king-neither's closing line deleted, the next example's closing line closed it: pnp check
    said nothing, and the rulebook printed "keeps the greater one: 7/2" beside a figure showing "= 8"."""
    def drop_closer(text: str) -> str:
        lines = text.split("\n")
        opener = lines.index("```example op-king-neither")
        closer = lines.index("```", opener)
        return "\n".join(lines[:closer] + lines[closer + 1:])

    data = edited_two_ops(tmp_path, drop_closer)
    lines = (data / "two-ops" / "rules" / "en.md").read_text(encoding="utf-8").split("\n")
    opener = lines.index("```example op-king-neither") + 1
    swallowed = next(number for number, line in enumerate(lines, start=1)
                     if number > opener and line.startswith("```example"))
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "two-ops"])
    assert result.exit_code == 1
    assert (f"rules/en.md:{swallowed}: error: an example block opens inside the one of line {opener}, which is "
            "never closed") in result.output, result.output


@pytest.mark.parametrize(("game", "lang", "opener", "said"), [
    ("rudy", "ja", "<!-- 訳注", "this comment runs over the heading on line"),  # the source text: 77 errors
    ("take-over-that-job", "ja", "<!-- note", "this comment runs over the heading on line"),
    ("take-over-that-job", "en", "~~~", "this code block runs over the heading on line"),  # 67 errors
])
def test_a_note_or_code_block_left_open_is_one_error_at_its_line(tmp_path: Path, game: str, lang: str, opener: str,
                                                                 said: str) -> None:
    """Left open, it reads every section after it as its own: each was then "missing" from the
    translation, or the translation's sections from it, and nothing named the line that did it."""
    data = tmp_path / "data"
    shutil.copytree(DATA / game, data / game)
    text = data / game / "rules" / f"{lang}.md"
    source = text.read_text(encoding="utf-8")
    heading_end = source.index("\n", source.index("\n## ") + 1) + 1
    text.write_text(source[:heading_end] + opener + "\n" + source[heading_end:], encoding="utf-8")
    line = source[:heading_end].count("\n") + 1
    result = CliRunner().invoke(cli, ["check", "--data", str(data), game])
    errors = [row for row in result.output.splitlines() if ": error: " in row]
    assert result.exit_code == 1
    assert len(errors) == 1 and f"rules/{lang}.md:{line}: error: {said}" in errors[0], errors


def test_the_same_warning_at_the_same_line_is_said_once(tmp_path: Path) -> None:
    """200 <br> in one paragraph were 199 identical "raw HTML" warnings at one line."""
    data = edited_two_ops(tmp_path, lambda text: after_components_heading(text, "Cards" + "<br>" * 200 + "."))
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "two-ops"])
    said = [row for row in result.output.splitlines() if "raw HTML is not printed in a rulebook" in row]
    assert len(said) == 1, said


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("content", ["", "   \n", "<!-- only a note to translators -->\n"])
def test_a_rule_text_with_no_text_is_one_error(tmp_path: Path, lang: str, content: str) -> None:
    """An emptied source passed pnp check with 33 to 56 warnings (each section "not in the source", each
    example "not placed"), and its rulebook was the title page alone."""
    data = tmp_path / "data"
    shutil.copytree(DATA / "two-ops", data / "two-ops")
    (data / "two-ops" / "rules" / f"{lang}.md").write_text(content, encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "two-ops"])
    said = [row for row in result.output.splitlines() if ": error: " in row or ": warning: " in row]
    assert result.exit_code == 1
    assert len(said) == 1 and f"rules/{lang}.md holds no rule text, only white space or comments" in said[0], said


def test_a_block_left_open_in_an_example_names_the_block_not_pnps_endwith(tmp_path: Path) -> None:
    """It said "unknown tag 'endwith'", a tag the writer never wrote (pnp closes each example with it)."""
    def open_if(text: str) -> str:
        return text.replace("```example op-king-neither\n", "```example op-king-neither\n{% if true %}\n", 1)

    data = edited_two_ops(tmp_path, open_if)
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "two-ops"])
    assert result.exit_code == 1
    assert "error: the {% if %} opened in this example is not closed before the example ends" in result.output
    assert "fix: add {% endif %} before the example's closing line" in result.output
    assert "endwith" not in result.output, result.output


def test_a_table_row_with_more_cells_than_columns_is_reported_at_its_line() -> None:
    """GFM drops the extra cells silently: the printed table would lack them."""
    text = ("## Scores {#scores}\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| x |\n| p \\| q | r |\n\n"
            "> | a |\n> |---|\n> | 1 | 2 | 3 |\n")
    report = Report()
    parse_rule_text(text, Path("en.md"), report, set(), set())
    assert [(d.line, d.message) for d in report.diagnostics] == [
        (5, "this table row has 3 cells but the table has 2 columns: the last cell would not be printed"),
        (11, "this table row has 3 cells but the table has 1 column: the last 2 cells would not be printed"),
    ]  # a short row (line 6) is padded, and an escaped \| (line 7) is no separator


@pytest.mark.parametrize("opener", ["<pre>", "<PRE class=\"rules\">", "<script>"])
def test_an_unclosed_pre_running_over_a_heading_is_an_error(opener: str) -> None:
    """HTML blocks of these tags run until their end tag: never closed, the sections after vanished
    from the rulebook with only a "raw HTML is not printed" warning."""
    text = f"## Setup {{#setup}}\n\nShuffle.\n\n{opener}\nnotes\n\n## Play {{#play}}\n\nTake turns.\n"
    report = Report()
    parse_rule_text(text, Path("en.md"), report, set(), set())
    [error] = report.errors
    name = opener[1:].split()[0].rstrip(">").lower()
    assert (error.line, error.message) == (5, f"this <{name}> block runs over the heading on line 8: it is never "
                                              "closed, and raw HTML is not printed, so the sections after it "
                                              "would go missing")
    assert error.fix == f"close it with </{name}> before the heading, or remove it"


def test_seven_hashes_are_reported_not_printed_silently_as_text() -> None:
    text = "## Play {#play}\n\nTake turns.\n\n####### Fine point {#fine}\n\n#######\n\n#hashtag is text\n"
    report = Report()
    parse_rule_text(text, Path("en.md"), report, set(), set())
    assert [(d.line, d.message) for d in report.warnings] == [
        (5, "seven or more # make no heading in Markdown: this line prints as text, #s and all"),
        (7, "seven or more # make no heading in Markdown: this line prints as text, #s and all"),
    ]


@pytest.mark.parametrize(("block", "said"), [
    ("<pre>\n## shown as code\n</pre>", ["raw HTML is not printed in a rulebook"]),  # closed where it should be
    ("<!--\n## Old rule {#old}\nDropped in this edition.\n-->", []),  # a section commented out whole
])
def test_a_block_closed_where_meant_is_not_called_left_open(block: str, said: list[str]) -> None:
    """Only a block that ran on past its writer's end swallows the sections after it; a heading-like line
    inside one closed where it should be is no error (a closed <pre> was called "never closed")."""
    report = Report()
    text = f"## Setup {{#setup}}\n\nShuffle.\n\n{block}\n\n## Play {{#play}}\n\nTake turns.\n"
    blocks = parse_rule_text(text, Path("en.md"), report, set(), set())
    assert [d.message for d in report.diagnostics] == said
    assert [b.section for b in blocks if hasattr(b, "section")] == ["setup", "play"]

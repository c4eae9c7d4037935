"""Issue 29: the loaders, given any text at all, return a value or report user errors; nothing else
escapes them (no traceback, whatever a stranger's game folder holds).

Hypothesis writes the texts: arbitrary unicode, and texts built from the pieces each format is made
of (brackets, quotes, placeholders, list markers, emphasis), which reach much further into the
parsers than random characters do. ``HYPOTHESIS_PROFILE=ci`` (the default) keeps this file to a few
seconds; ``HYPOTHESIS_PROFILE=thorough`` tries twenty times as many texts.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hostile_game import check, mini_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.compose.markdown import parse_rule_text
from pnp.diagnostics import DataError, Report
from pnp.load.csv_table import read_csv
from pnp.load.toml_lines import parse_toml
from pnp.model.nesting import expression_depth, template_bounds_problem

settings.register_profile("ci", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

_TOML_PIECES = ["[", "]", "[[", "]]", "{", "}", "=", ",", ".", '"', "'", '"""', "#", "\n", " ", "a", "players",
                "1", "-1", "1e999", "nan", "inf", "99999999999999999999", "true", "[setup]", "x = ", "é", "\\"]
_CSV_PIECES = ["id", "count", "rank", "suit", "name.en", ",", '"', '""', "\n", "\r\n", " ", "1", "-1", "a",
               "99999999999999999999", "\ufeff", "é", "\t"]
_MARKDOWN_PIECES = ["#", "## ", "{#a}", "{#x}", "\n", "\n\n", "- ", "  ", "1. ", "> ", "*", "**", "_", "`", "```",
                    "```example a", "~~~", "|", "---", "[", "](", ")", "<!--", "-->", "<div>", "{{", "}}", "{%",
                    "%}", "(", "a", "é", "全", "\\", "  \n"]


def _texts(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=300), st.lists(st.sampled_from(pieces), max_size=120).map("".join))


def _file(folder: str, name: str, text: str) -> Path:
    path = Path(folder) / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


@given(_texts(_TOML_PIECES), st.lists(st.one_of(st.text(max_size=5), st.integers()), max_size=6))
def test_any_toml_text_is_a_document_or_a_data_error(text: str, keys: list) -> None:
    try:
        doc = parse_toml(text, Path("game.toml"))
    except DataError as exc:
        assert exc.diagnostic.file == Path("game.toml")
        return
    assert isinstance(doc.data, dict)
    line = doc.line_of(*keys)
    assert line is None or 1 <= line <= text.count("\n") + 1


@given(_texts(_CSV_PIECES))
def test_any_csv_text_is_a_table_or_a_data_error(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = _file(folder, "deck.csv", text)
        try:
            table = read_csv(path)
        except DataError as exc:
            assert exc.diagnostic.file == path
            return
        assert all(len(row.values) == len(table.header) for row in table.rows)
        assert all(isinstance(problem, DataError) for problem in table.problems)


@given(_texts(_MARKDOWN_PIECES))
def test_any_rule_text_parses_to_blocks_and_reported_problems(text: str) -> None:
    report = Report()
    blocks = parse_rule_text(text, Path("en.md"), report, None, None)
    assert isinstance(blocks, list)
    assert all(diagnostic.file == Path("en.md") for diagnostic in report.diagnostics)
    found = template_bounds_problem(text)
    assert found is None or 1 <= found[0] <= text.count("\n") + 1
    assert expression_depth(text) >= 0


@settings(max_examples=15)
@given(_texts(_MARKDOWN_PIECES), _texts(_TOML_PIECES))
def test_check_of_a_game_with_any_rule_text_or_manifest_tail_ends_in_a_report(text: str, tail: str) -> None:
    """The whole of `pnp check`, in process: exit 0 or 1, never an exception (hostile_game.run asserts)."""
    with tempfile.TemporaryDirectory() as folder:
        game = mini_game(Path(folder))
        (game / "rules" / "en.md").write_bytes(text.encode("utf-8", "surrogatepass"))
        manifest = game / "game.toml"
        manifest.write_bytes(manifest.read_bytes() + tail.encode("utf-8", "surrogatepass"))
        result = check(game)
        assert result.exit_code in (0, 1), result.output

"""Players in worked examples are ids; each rulebook names them as its language does.

Take Over That Job's examples play Alice, Bob, Carrie and Dave (``inputs.players``,
ids the rules model compares with ``expect.winner``). examples.toml
``[player_names.ja]`` says how Japanese writes them; the example figures and
``{{ player(id) }}`` in the rule texts read that one table, and English, which
has no table, prints the ids.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from pnp.compose.blocks import plain
from pnp.compose.ruletext import load_rule_text, require_rule_text
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.rulebook.book import write_rulebook
from pnp.render.rulebook.card_art import make_card_art
from pnp.render.rulebook.figure_specs import Label, example_figure
from pnp.rules import get_rules

GAME = Path(__file__).resolve().parents[1] / "data" / "take-over-that-job"
IDS = ("Alice", "Bob", "Carrie", "Dave")


@pytest.fixture(scope="module")
def books(cache: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    game = load_game(GAME, Report())
    assert game is not None
    rules = get_rules(game.rules)
    out = tmp_path_factory.mktemp("player-names")
    return {lang: write_rulebook(game, rules, lang, require_rule_text(game, rules, lang),
                                 "a4", out / f"{lang}.pdf", cache).path for lang in ("ja", "en")}


def page_text(path: Path, heading: str) -> str:
    """The text of the page that prints ``heading``: there, Example 1's figure sits under it."""
    pages = [page.extract_text() for page in PdfReader(path).pages]
    return next(text for text in pages if heading in text)


def test_japanese_figures_print_the_japanese_names(books: dict[str, Path]) -> None:
    text = page_text(books["ja"], "例1：切札も不利色もないとき")
    lines = [line.strip() for line in text.splitlines()]
    # each card's caption is a line of its own; "→ ボブ" is the figure's, the prose says ボブの勝ち
    assert {"アリス", "ボブ", "キャリー", "デイブ"} <= set(lines), lines
    assert "→ ボブ" in lines, lines
    # and the ids never reach the Japanese book, on any page
    everywhere = "\n".join(page.extract_text() for page in PdfReader(books["ja"]).pages)
    assert [name for name in IDS if name in everywhere] == []


def test_english_figures_print_the_ids(books: dict[str, Path]) -> None:
    text = page_text(books["en"], "Example 1: no trump, no disadvantaged colour")
    lines = [line.strip() for line in text.splitlines()]
    assert set(IDS) <= set(lines), lines
    assert "→ Bob" in lines, lines
    assert "アリス" not in text


# ----------------------------------------------------------------------------- one table for text and figure


@pytest.fixture()
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the game under tmp_path/data, with tmp_path as the working directory."""
    folder = tmp_path / "data" / "take-over-that-job"
    shutil.copytree(GAME, folder)
    monkeypatch.chdir(tmp_path)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if needle in line)


def test_renaming_a_player_in_the_table_renames_it_in_text_and_figure(copy: Path) -> None:
    edit(copy / "examples.toml", 'Bob = "ボブ"', 'Bob = "ボビー"')
    game = load_game(copy, Report())
    assert game is not None
    rules = get_rules(game.rules)
    report = Report()
    rule_text = load_rule_text(game, rules, "ja", report)
    assert rule_text is not None and not report.errors, report.diagnostics
    prose = "".join(plain(block.runs) for block in rule_text.walk() if hasattr(block, "runs"))
    assert "このトリックはボビーの勝ちです" in prose  # example 1's winner, through {{ player(result.winner) }}
    assert "ボブ" not in prose and prose.count("ボビー") > 10  # the prose names the players through player() too
    example = next(e for e in game.examples if e.id == "seed-example-1")
    figure = example_figure(game, example, rule_text.results["seed-example-1"])
    winner = figure.rows[0][-1][0]
    assert isinstance(winner, Label)
    assert winner.shown(make_card_art(game, rules, "ja", Report()).player_names) == "→ ボビー"
    assert winner.shown(make_card_art(game, rules, "en", Report()).player_names) == "→ Bob"


# ----------------------------------------------------------------------------- pnp check


def check() -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", "take-over-that-job"])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def fix_after(output: str, where: str) -> str:
    following = output.split(where, 1)[1].splitlines()
    assert following[1].strip().startswith("fix: "), output
    return following[1]


def test_check_reports_a_missing_name_at_the_table(copy: Path) -> None:
    examples = copy / "examples.toml"
    edit(examples, 'Dave = "デイブ"\n', "")
    code, output = check()
    assert code == 1, output
    where = f"data/take-over-that-job/examples.toml:{line_of(examples, '[player_names.ja]')}: error: "
    assert where + "player names for 'ja' miss 'Dave' (example 'seed-example-1')" in output, output
    assert 'Dave = "..."' in fix_after(output, where)
    assert "FAILED — 1 error(s), 0 warning(s)" in output


def test_check_reports_an_unknown_player_at_its_line(copy: Path) -> None:
    examples = copy / "examples.toml"
    edit(examples, 'Dave = "デイブ"\n', 'Dave = "デイブ"\nDavid = "デビッド"\n')
    code, output = check()
    assert code == 1, output
    where = f"data/take-over-that-job/examples.toml:{line_of(examples, 'David =')}: error: "
    assert where + "player names for 'ja' name 'David', a player no example has" in output, output
    assert "did you mean 'Dave'?" in fix_after(output, where)


def test_check_reports_a_table_for_a_language_the_game_does_not_ship(copy: Path) -> None:
    examples = copy / "examples.toml"
    edit(examples, "[player_names.ja]", "[player_names.jp]")
    code, output = check()
    assert code == 1, output
    where = f"data/take-over-that-job/examples.toml:{line_of(examples, '[player_names.jp]')}: error: "
    assert where + "player names for 'jp', a language this game does not ship" in output, output
    assert "ja, en" in fix_after(output, where)


# ----------------------------------------------------------------------------- players written out in a rule text


def test_a_player_written_out_is_a_warning_at_its_line(copy: Path) -> None:
    """A name spelled in the prose would keep the old name when the table changes: each file says where.

    Both languages spell the same player, so their placeholders still match.
    """
    en, ja = copy / "rules" / "en.md", copy / "rules" / "ja.md"
    edit(en, '1. {{ player("Alice") }} leads', "1. Alice leads")
    edit(ja, '1. {{ player("Alice") }}がリーダー', "1. アリスがリーダー")
    code, output = check()
    assert code == 0, output  # a warning: the book still prints right today
    where = f"data/take-over-that-job/rules/en.md:{line_of(en, '1. Alice leads')}: warning: "
    assert where + "the example player 'Alice' is written out on line(s) " in output, output
    assert 'write {{ player("Alice") }}' in fix_after(output, where)
    where = f"data/take-over-that-job/rules/ja.md:{line_of(ja, '1. アリスがリーダー')}: warning: "
    assert where + "the example player 'アリス' is written out on line(s) " in output, output
    assert output.count("written out") == 2, output


def test_names_count_as_words_outside_template_code_and_comments(copy: Path) -> None:
    """Bobby and ボブスレー are other words; a name in a comment or a placeholder is not prose."""
    en, ja = copy / "rules" / "en.md", copy / "rules" / "ja.md"
    edit(en, "In every example the",
         "<!-- Bob sits second -->\n\nBobby and Dave-like players aside, in every example the")
    edit(ja, "図のカードは", "{## ボブ ##}ボブスレーの話ではなく、図のカードは")
    code, output = check()
    assert code == 0 and "written out" not in output, output


def test_player_call_with_an_unknown_id_is_an_error(copy: Path) -> None:
    en = copy / "rules" / "en.md"
    edit(en, '1. {{ player("Alice") }} leads', '1. {{ player("Alise") }} leads')
    code, output = check()
    assert code == 1, output
    where = f"data/take-over-that-job/rules/en.md:{line_of(en, 'Alise')}: error: "
    assert where + "player('Alise') names no player of the examples" in output, output
    assert "did you mean player('Alice')?" in fix_after(output, where)


def test_accept_with_a_section_taken_for_a_game_records_nothing(copy: Path) -> None:
    """``--accept a b`` makes b a game name; half of what was meant is not recorded."""
    sources = copy / "rules" / "en.sources.toml"
    before = sources.read_bytes()
    edit(copy / "rules" / "ja.md", "図のカードは、", "図のカードは、いつも")
    result = CliRunner().invoke(cli, ["i18n", "take-over-that-job", "--lang", "en", "--accept", "examples",
                                      "example-1"])
    assert result.exit_code == 1, result.output
    assert "no game 'example-1'" in result.output
    assert "nothing recorded: --accept takes one section id each time" in result.output
    assert sources.read_bytes() == before

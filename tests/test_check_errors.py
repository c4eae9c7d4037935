"""Bad input: a message with file and line, exit status 1, no traceback, nothing written.

Each case starts from the starter game that `pnp new` makes (which must pass
as made), breaks one thing, and checks the exact file:line the user is sent to.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli


@pytest.fixture()
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["new", "mini", "--lang", "en", "--lang", "ja"])
    assert result.exit_code == 0, result.output
    return tmp_path / "data" / "mini"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def test_starter_game_is_clean(game: Path) -> None:
    code, output = run("check", "mini")
    assert code == 0
    assert "mini: ok — 0 error(s), 0 warning(s)" in output
    # the component table: declared 10, found 10
    assert re.search(r"deck\s+cards\s+10\s+10\s+ok", output)


def test_wrong_count_names_the_component_line(game: Path) -> None:
    manifest = game / "game.toml"
    replace(manifest, "count = 10", "count = 12")
    code, output = run("check", "mini")
    assert code == 1
    line = line_of(manifest, "[components.deck]")
    assert f"data/mini/game.toml:{line}: error: component 'deck' declares 12" in output
    assert "holds 10" in output


def test_a_card_counted_0_is_named_in_the_fix_of_the_total(tmp_path: Path) -> None:
    """In a deck with no grid, a count of 0 (a card left out on purpose, or by a slip) only showed as
    a total one short, at game.toml; the fix now names the card and its row."""
    shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "rudy", tmp_path / "rudy")
    deck = tmp_path / "rudy" / "cards" / "deck.csv"
    replace(deck, "1-red-drop,1,", "1-red-drop,0,")
    code, output = run("check", "--data", str(tmp_path), "rudy")
    assert code == 1
    assert "declares 64 pieces but cards/deck.csv holds 63" in output
    assert "(count 0: 1-red-drop on line 2)" in output


def test_an_unknown_shape_is_an_error_at_its_line(game: Path) -> None:
    """shape = "hexagon" was accepted without a word, and printed as a rectangle."""
    manifest = game / "game.toml"
    replace(manifest, "[components.deck]\n", '[components.deck]\nshape = "roud"\n')
    code, output = run("check", "mini")
    assert code == 1
    line = line_of(manifest, 'shape = "roud"')
    assert f"data/mini/game.toml:{line}: error: components.deck.shape: unknown shape 'roud'" in output
    assert "did you mean 'round'?" in output


def test_a_setup_asking_more_cards_than_the_list_holds_is_an_error(game: Path) -> None:
    """Guard: with the card list holding its declared count, the setup is still checked against it."""
    manifest = game / "game.toml"
    replace(manifest, "in_play = 10\n", "in_play = 12\n")
    code, output = run("check", "mini")
    assert code == 1
    assert "error: 2-4 players: 12 cards in play, but 'deck' holds 10" in output


def test_most_of_a_grid_at_another_count_is_the_grids_mistake(game: Path) -> None:
    """Every card at 2 where the grid says 1: one error at the grid, not one per card row."""
    cards = game / "cards" / "deck.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    cards.write_text("\n".join([rows[0], *(row.replace(",1,", ",2,", 1) for row in rows[1:])]) + "\n",
                     encoding="utf-8")
    replace(game / "game.toml", "count = 10", "count = 20")
    code, output = run("check", "mini")
    assert code == 1
    errors = [line for line in output.splitlines() if ": error: " in line]
    assert len(errors) == 1, output
    assert "appear 2 time(s), the grid declares 1 each" in errors[0]


def test_two_components_reading_one_card_list_is_one_error(game: Path) -> None:
    """Each row was a duplicate id "first at" its own line: ten errors that pointed nowhere useful."""
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("[[components.deck.grid]]", '[components.minis]\nname = { en = "Minis", '
                                     'ja = "ミニ" }\ncount = 10\nsize = "mini"\ncards = "cards/deck.csv"\n\n'
                                     "[[components.deck.grid]]", 1), encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    errors = [line for line in output.splitlines() if ": error: " in line]
    cards_line = line_of(manifest, "[components.minis]") + 4
    assert errors == [f"data/mini/game.toml:{cards_line}: error: "
                      "component 'minis' reads cards/deck.csv, the card list of component 'deck': every card id "
                      "in it would be printed twice"], output


def test_unknown_colour_names_the_csv_row(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "blue-3,1,number,,blue,", "blue-3,1,number,,bleu,")
    code, output = run("check", "mini")
    assert code == 1
    assert f"data/mini/cards/deck.csv:{line_of(cards, 'blue-3')}: error: card 'blue-3': unknown colour 'bleu'" in output
    assert "did you mean 'blue'?" in output


def test_duplicate_id(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "blue-3,", "blue-2,")
    code, output = run("check", "mini")
    assert code == 1
    line = line_of(cards, 'blue-2,1,number,,blue,3')
    assert f"deck.csv:{line}: error: duplicate card id 'blue-2' (first at line {line - 1})" in output


def test_missing_translation(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "Red 4,赤 4", "Red 4,")
    code, output = run("check", "mini")
    assert code == 1
    assert f"deck.csv:{line_of(cards, 'red-4')}: error: card 'red-4': missing translation name.ja" in output


def test_ragged_row_and_all_problems_in_one_run(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "red-2,1,number,,red,2", "red-2,1,number,,red,2,extra")
    replace(cards, "blue-5,1,number,,blue,5", "blue-5,1,number,,blue")
    replace(game / "game.toml", "[title]\n", "playerz = 3\n\n[title]\n")
    code, output = run("check", "mini")
    assert code == 1
    assert "deck.csv:3: error: row has 9 fields but the header has 8" in output
    assert f"deck.csv:{line_of(cards, 'blue-5')}: error: row has 7 fields" in output
    assert "warning: playerz: unknown key (ignored)" in output
    assert "did you mean 'players'?" in output


def test_a_column_added_to_the_header_only_is_one_error(game: Path) -> None:
    """Not one per card (900 for a big deck): the rows short of the same field are named together."""
    cards = game / "cards" / "deck.csv"
    header = cards.read_text(encoding="utf-8").split("\n", 1)[0]
    replace(cards, header + "\n", header + ",notes\n")
    code, output = run("check", "mini")
    assert code == 1
    assert "deck.csv:2: error: 10 rows have 8 fields but the header has 9 (lines 2\u201311)" in output
    assert "every row is a field short: if you added a column to the header" in output
    assert output.count("fields but the header") == 1


def test_rows_ragged_in_two_ways_are_two_errors(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    for card in ("red-2", "red-3", "blue-4"):
        replace(cards, f"{card},1,number", f"{card},1,number,extra")
    replace(cards, "blue-5,1,number,,blue,5", "blue-5,1,number,,blue")
    code, output = run("check", "mini")
    assert code == 1
    assert (f"deck.csv:3: error: 3 rows have 9 fields but the header has 8 (lines 3\u20134, "
            f"{line_of(cards, 'blue-4')})") in output
    assert f"deck.csv:{line_of(cards, 'blue-5')}: error: row has 7 fields but the header has 8" in output


def test_bad_quoting(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "red-3,1", 'red-3,"1"x')
    code, output = run("check", "mini")
    assert code == 1
    assert f"deck.csv:{line_of(cards, 'red-3')}: error: malformed CSV" in output


def test_malformed_toml(game: Path) -> None:
    manifest = game / "game.toml"
    replace(manifest, 'rgb = "#c62828"', 'rgb = "#c62828')
    code, output = run("check", "mini")
    assert code == 1
    assert f"game.toml:{line_of(manifest, 'rgb = ' + chr(34) + '#c62828')}: error: malformed TOML" in output


def test_an_unclosed_array_is_reported_where_it_opens(game: Path) -> None:
    """tomllib stops at the next key (``[title]`` two lines on); the bracket left open is what to fix."""
    manifest = game / "game.toml"
    replace(manifest, "players = [2, 4]", "players = [2, 4")
    code, output = run("check", "mini")
    assert code == 1
    opened, stopped = line_of(manifest, "players = [2, 4"), line_of(manifest, "[title]")
    assert stopped > opened + 1
    assert f"game.toml:{opened}: error: malformed TOML: unclosed array opened on this line" in output, output
    assert f"fix: close it before line {stopped}" in output


@pytest.mark.parametrize("text, opened", [
    ('a = [1,\n  "]",  # ] in a comment\n  2\nb = 1\n', 1),  # brackets in strings and comments do not count
    ("a = 1\nb = { c = [1, 2], d = '''x\n]\n'''\ne = 2\n", 2),  # nor in a multi-line literal string
    ("[t]\nx = [[1, 2], [3\ny = 2\n", 2),  # the inner one is left open, on the same line
])
def test_the_open_bracket_is_found_past_strings_and_comments(text: str, opened: int) -> None:
    from pnp.diagnostics import DataError
    from pnp.load.toml_lines import parse_toml

    with pytest.raises(DataError) as caught:
        parse_toml(text, Path("t.toml"))
    assert caught.value.diagnostic.line == opened, caught.value.diagnostic


def test_non_utf8_file(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    text = cards.read_text(encoding="utf-8")  # the starter's Japanese names: bytes Shift-JIS writes differently
    cards.write_bytes(text.encode("shift_jis"))
    code, output = run("check", "mini")
    assert code == 1
    assert f"deck.csv:{line_of_bytes(cards, 'red-1')}: error: not UTF-8 text" in output
    assert "save the file as UTF-8" in output


def line_of_bytes(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if needle.encode() in line:
            return number
    raise AssertionError(needle)


@pytest.mark.parametrize("name", ["game.toml", "cards/deck.csv"])
def test_empty_file(game: Path, name: str) -> None:
    (game / name).write_text("", encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert f"data/mini/{name}:1: error: the file is empty" in output


def test_string_where_number_belongs(game: Path) -> None:
    manifest = game / "game.toml"
    replace(manifest, "count = 10", 'count = "ten"')
    cards = game / "cards" / "deck.csv"
    replace(cards, "red-1,1,", "red-1,one,")
    code, output = run("check", "mini")
    assert code == 1
    line = line_of(manifest, "count = ")
    assert f"game.toml:{line}: error: components.deck.count: expected a whole number, found 'ten'" in output
    assert f"deck.csv:{line_of(cards, 'red-1')}: error: card 'red-1': count 'one' is not a whole number" in output


def test_negative_count(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "red-1,1,", "red-1,-1,")
    code, output = run("check", "mini")
    assert code == 1
    assert f"deck.csv:{line_of(cards, 'red-1')}: error: card 'red-1': count -1 is negative" in output
    assert "1 error(s)" in output  # the deck's total is unknown: "declares 10 but holds 9" would repeat it


def test_a_column_written_wrong_on_every_card_is_one_error(game: Path) -> None:
    """A colour renamed in game.toml, a count column of words, a translation column left empty: each
    is one error naming its cards and lines, and the deck's total is not checked on top of it."""
    cards = game / "cards" / "deck.csv"
    text = cards.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("red-")]
    for row in rows:
        card_id, count, rest = row.split(",", 2)
        text = text.replace(row, ",".join([card_id, "two", rest.replace(",red,", ",crimson,")]))
    cards.write_text(text, encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    first = line_of(cards, "red-1")
    lines = f"(lines {first}\u2013{first + 4})"
    assert (f"deck.csv:{first}: error: count 'two' is not a whole number on 5 cards: red-1, red-2, red-3, "
            f"red-4 and 1 more {lines}") in output
    assert f"deck.csv:{first}: error: unknown colour 'crimson' on 5 cards: red-1, red-2, red-3, red-4 and 1 more" \
        in output
    assert "2 error(s)" in output


def test_a_manifest_without_a_title_is_an_error_not_a_traceback(game: Path) -> None:
    """The layouts are still checked, and they print the game's title: it falls back to the id."""
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("[title]")
    manifest.write_text(text[:start] + text[text.index("\n\n", start) + 2:], encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert "game.toml: error: title: missing" in output
    assert "fix: add title = { en = ..., ja = ... }" in output


def test_a_grid_names_list_written_wrong_is_an_error(game: Path) -> None:
    """kinds = true used to be a traceback ('bool' object is not iterable), and kinds = "number" was read
    as the kinds n, u, m, b, e, r: one name alone is a list of one now, anything else an error."""
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert 'kinds = ["number"]' in text
    manifest.write_text(text.replace('kinds = ["number"]', "kinds = true", 1), encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert "kinds: expected a list of card kinds, found True" in output
    manifest.write_text(text.replace('kinds = ["number"]', 'kinds = "number"', 1), encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 0, output


def test_missing_manifest(game: Path) -> None:
    (game / "game.toml").unlink()
    code, output = run("check", "mini")
    assert code == 1
    assert "no game.toml in this folder" in output


def test_game_that_is_not_a_folder(game: Path, tmp_path: Path) -> None:
    not_a_folder = tmp_path / "data" / "flat"
    not_a_folder.write_text("x", encoding="utf-8")
    code, output = run("check", "flat")
    assert code == 1
    assert "a game must be a folder, but this is a file" in output


def test_unknown_column_warns_and_strict_fails(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    # every row has count 1, which is also the default, so only the warning remains
    replace(cards, "id,count,", "id,cuont,")
    code, output = run("check", "mini")
    assert code == 0
    assert "deck.csv:1: warning: unknown column 'cuont'" in output
    assert "did you mean 'count'?" in output
    code, _ = run("check", "--strict", "mini")
    assert code == 1


def test_setup_arithmetic(game: Path) -> None:
    manifest = game / "game.toml"
    replace(manifest, "hand = 2", "hand = 3")
    code, output = run("check", "mini")
    assert code == 1
    # 4 players × 3 + 1 revealed = 13 > 10; 3 players × 3 + 1 = 10 fits
    assert "4 players: 4 × 3 dealt + 1 revealed = 13 > 10 cards in play" in output
    assert "3 players: 3 × 3" not in output


def test_grid_gap_is_reported(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    replace(cards, "blue-4,1,number,,blue,4", "blue-4,1,number,,blue,5")
    code, output = run("check", "mini")
    assert code == 1
    assert "blue 4 appears 0 time(s), the grid declares 1" in output
    assert "blue 5 appears 2 time(s), the grid declares 1" in output


def test_a_card_list_cut_short_is_one_grid_error_and_one_count_error(game: Path) -> None:
    """Nine missing cards are one problem of the list, said by the grid and by the declared count; the
    setup, which would say it again for every player count, waits until the list holds its count."""
    cards = game / "cards" / "deck.csv"
    header, first = cards.read_text(encoding="utf-8").splitlines()[:2]
    cards.write_text(f"{header}\n{first}\n", encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert ("component 'deck': red 2, red 3, red 4, red 5, blue 1, blue 2, blue 3, blue 4 and 1 more appear "
            "0 time(s), the grid declares 1 each") in output, output
    assert output.count("the grid declares") == 1
    assert "component 'deck' declares 10 pieces but cards/deck.csv holds 1" in output
    assert "cards in play but" not in output
    assert output.count(": error: ") == 2


@pytest.mark.parametrize("counts, said", [([2], "2"), ([2, 3], "2, 3"), ([2, 3, 4], "2-4"), ([2, 4], "2, 4"),
                                          ([6, 2, 3, 4], "2-4, 6"), ([3, 4, 5, 7, 8], "3-5, 7, 8")])
def test_player_counts_are_said_as_ranges(counts: list[int], said: str) -> None:
    from pnp.validate.generic import player_counts

    assert player_counts(counts) == said


def test_usage_error_exits_2(game: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--no-such-option"])
    assert result.exit_code == 2


def test_check_and_failed_build_write_nothing(game: Path, tmp_path: Path) -> None:
    replace(game / "game.toml", "count = 10", "count = 11")
    before = sorted(p for p in tmp_path.rglob("*"))
    code, _ = run("check", "mini")
    assert code == 1
    code, output = run("build", "mini")
    assert code == 1
    assert "not built" in output
    assert sorted(p for p in tmp_path.rglob("*")) == before


def test_data_option_finds_games_elsewhere(game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, output = run("check", "--data", str(tmp_path / "data"))
    assert code == 0
    assert "mini: ok" in output
    code, output = run("check")
    assert code == 1
    assert "no game folders found" in output


def test_a_column_warning_names_the_header_line_even_when_the_first_row_is_broken(game: Path) -> None:
    cards = game / "cards" / "deck.csv"
    text = cards.read_text(encoding="utf-8")
    header, first, *rest = text.splitlines()
    cards.write_text("\n".join([header.replace(",count,", ",cuont,"), "", first + ",extra", *rest]) + "\n",
                     encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert "data/mini/cards/deck.csv:1: warning: unknown column 'cuont'" in output


def test_a_bad_setup_value_is_one_error_for_all_player_counts(game: Path) -> None:
    manifest = game / "game.toml"
    replace(manifest, "in_play = 10\n", "in_play = 10\ntricks = \"nine\"\n")
    code, output = run("check", "mini")
    assert code == 1
    assert output.count("tricks: expected a whole number") == 1


def test_a_broken_rules_model_is_not_buried_under_example_errors(tmp_path: Path) -> None:
    """One non-numeric rank in Two Ops' rules.toml used to fail 9 of its 16 examples and the four kings'
    layouts as well, each an error of its own; now the examples wait, with one note, until the model's
    errors are fixed, and the kings print "?" where the table has no line for them."""
    import shutil

    data = tmp_path / "data"
    shutil.copytree(Path(__file__).resolve().parent.parent / "data" / "two-ops", data / "two-ops")
    rules = data / "two-ops" / "rules.toml"
    replace(rules, "value = 13", 'value = "thirteen"')
    code, output = run("check", "--data", str(data), "two-ops")
    assert code == 1
    value_line = line_of(rules, 'value = "thirteen"')  # the value that is wrong, not its table's header
    assert f"two-ops/rules.toml:{value_line}: error: rank K needs a whole-number value" in output
    assert output.count("examples.toml") == 1
    assert "two-ops-face.toml" not in output  # the kings' operator lines print "?": no layout error per king
    assert "two-ops/examples.toml: note: 16 worked example(s) not recomputed" in output
    assert "examples: 0 recomputed, 16 left until the errors below are fixed" in output
    replace(rules, 'value = "thirteen"', "value = 13")
    code, output = run("check", "--data", str(data), "two-ops")
    assert code == 0 and "examples: 16 recomputed (16 ok)" in output


def test_a_new_game_has_rule_texts_to_fill_in_and_checks_clean(game: Path, tmp_path: Path) -> None:
    """`pnp new` writes a rule text per language (English and Japanese, written for the starter, with
    placeholders for its numbers), records the translation as in step, and the rulebooks build."""
    assert sorted(p.name for p in (game / "rules").iterdir()) == ["en.md", "ja.md", "ja.sources.toml"]
    assert "{{ setup[players.min].hand }}" in (game / "rules" / "en.md").read_text(encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 0 and "mini: ok — 0 error(s), 0 warning(s), 0 note(s)" in output
    code, output = run("i18n", "mini")
    assert code == 0 and "5 translated, 0 stale, 0 untracked, 0 missing" in output
    code, output = run("build", "mini", "--what", "rules", "--paper", "a4", "--out", str(tmp_path / "out"))
    assert code == 0 and "wrote 4 file(s)" in output  # rules.pdf and the booklet, in two languages
    from pypdf import PdfReader

    book = PdfReader(tmp_path / "out" / "mini" / "en" / "a4" / "rules.pdf")
    assert "Deal each player 2 cards." in book.pages[1].extract_text()  # the setup's hand, through the placeholder
    # no worked examples yet: the cover shows the deck's first, middle and last cards (its CSV has 10 rows)
    cover = book.pages[0].extract_text().splitlines()
    assert [line for line in cover if line.endswith(("1", "5")) and " " in line] == ["Red 1", "Red 5", "Blue 5"]


def test_a_new_games_starter_text_is_not_recorded_as_translated(game: Path) -> None:
    """pnp new recorded its placeholder text as translated, so the designer's first real rules were four
    stale warnings about sections nobody had translated. The records say "starter": a rewritten source is
    "not yet translated", a note, until the translation is written and accepted."""
    records = (game / "rules" / "ja.sources.toml").read_text(encoding="utf-8")
    assert records.count("starter = true") == records.count("source = ")
    en = game / "rules" / "en.md"
    for old, new in (("Say here, in two or three sentences, what the players try to do and how they win.",
                      "Each player tries to collect the most cards."),
                     ("Describe a turn: who starts, what a player may do, and what happens next.",
                      "The youngest player starts; play goes to the left."),
                     ("Describe when the game ends and who wins.", "The game ends when the deck is empty.")):
        replace(en, old, new)
    replace(game / "game.toml", 'en = "For personal use."', 'en = "Personal use only."')
    code, output = run("check", "mini")
    assert code == 0 and ": warning:" not in output, output
    assert "mini: ok — 0 error(s), 0 warning(s), 1 note(s)" in output, output
    assert ("note: 4 ja text(s) are still pnp new's starter text, not yet translated from the rewritten en "
            "source: terms, overview, playing, end") in output, output
    code, output = run("i18n", "mini")
    assert code == 0 and "2 translated, 0 stale, 0 untracked, 0 missing, 0 extra, 3 not yet translated" in output
    assert "starter    overview" in output and "game.toml texts: 6 translated, 1 not yet translated" in output
    # translated and accepted, a section is in step, and its record no longer says "starter"
    replace(game / "rules" / "ja.md", "プレイヤーが何を目指し、どうすれば勝つのかを、ここに短く書きます。",
            "各プレイヤーは、いちばん多くのカードを集めることを目指します。")
    code, output = run("i18n", "mini", "--lang", "ja", "--accept", "overview")
    assert code == 0 and "recorded as translated: overview" in output
    code, output = run("check", "mini")
    assert "source: terms, playing, end" in output, output
    replace(en, "The game ends when the deck is empty.", "The game ends when the deck runs out.")
    code, output = run("check", "mini")
    assert ": warning:" not in output, output  # a starter record is never stale


def test_a_new_game_in_a_language_pnp_cannot_write_gets_no_rule_texts(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _ = run("new", "fr-game", "--lang", "en", "--lang", "fr")
    assert code == 0 and not (tmp_path / "data" / "fr-game" / "rules").exists()
    code, output = run("check", "fr-game")
    assert code == 0 and "no rule texts yet" in output


@pytest.mark.parametrize(("separator", "named"), [(";", "semicolons"), ("\t", "tabs")])
def test_a_card_list_saved_with_semicolons_or_tabs_is_one_error_that_says_so(game: Path, separator: str,
                                                                            named: str) -> None:
    """Excel in many locales saves 'CSV' with semicolons. One error names the separator and the fix;
    the deck is not then also counted as empty (10 declared, 0 found) and its grid as all missing."""
    cards = game / "cards" / "deck.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace(",", separator), encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert f"data/mini/cards/deck.csv:1: error: the card list's columns are separated by {named}" in output
    assert "CSV UTF-8 (Comma delimited)" in output
    assert "mini: FAILED — 1 error(s)" in output


def test_a_broken_rule_text_stops_the_rulebook_not_the_card_sheets(game: Path, tmp_path: Path) -> None:
    """A translation in progress must not keep a designer from printing the cards."""
    replace(game / "rules" / "en.md", "{{ players.min }}", "{{ players.minimum }}")
    out = str(tmp_path / "out")
    code, output = run("build", "mini", "--what", "cards", "--paper", "a4", "--lang", "en", "--out", out)
    assert code == 0 and "wrote 1 file(s)" in output, output
    code, output = run("build", "mini", "--what", "rules", "--paper", "a4", "--lang", "en", "--out", out)
    assert code == 1 and "players has no field 'minimum'" in output and "rulebooks not built" in output, output
    assert "wrote 0 file(s)" in output
    code, output = run("build", "mini", "--paper", "a4", "--lang", "en", "--out", out, "--force")
    assert code == 1 and "mini: rulebooks not built" in output, output  # everything else is
    assert "(pnp check mini); the rest is built\n" in output, output  # the sentence once ended at "is"
    built = sorted(p.name for p in (tmp_path / "out" / "mini" / "en" / "a4").iterdir())
    # a game without a rules module has no aid tables, so no aid; rules.pdf and the booklet are left out
    assert built == ["calibration.pdf", "cards-deck-fold.pdf", "cards-deck-lowink.pdf", "cards-deck.pdf"], built
    code, output = run("check", "mini")
    assert code == 1 and "players has no field 'minimum'" in output


def test_manifest_typos_get_a_did_you_mean(game: Path) -> None:
    manifest = game / "game.toml"
    replace(manifest, 'kind = "cards"', 'kind = "card"')
    replace(manifest, 'size = "poker"', 'size = "pokr"')
    replace(manifest, 'cards = "cards/deck.csv"', 'cards = "cards/dek.csv"')
    code, output = run("check", "mini")
    assert code == 1
    assert "unknown component kind 'card'" in output and "did you mean 'cards'?" in output
    assert "unknown card size 'pokr' (did you mean 'poker'?)" in output
    assert "card list 'cards/dek.csv' not found" in output and "did you mean 'cards/deck.csv'?" in output


def test_a_misspelt_colour_header_is_one_grid_error_not_one_per_card(game: Path) -> None:
    """The column is ignored, so no card has a colour: that is the one grid problem, not ten missing
    cards plus ten 'None 1' cards outside the grid, and its fix names the misspelt header (the "unknown
    column" warning, which said the same, is folded in)."""
    cards = game / "cards" / "deck.csv"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace(",colour,", ",colur,", 1), encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert "unknown column 'colur'" not in output and "fix: rename 'colur' to 'colour'" in output
    # at the header, naming the column: the cards' rows are not where the mistake is
    assert "deck.csv:1: error: the card list has no 'colour' column, which the grid of component 'deck' places " \
           "its cards by" in output, output
    assert output.count(": error:") == 1, output
    assert "None" not in output and "the grid declares" not in output


def test_check_as_json_gives_every_finding_with_file_and_line(game: Path) -> None:
    import json

    manifest = game / "game.toml"
    replace(manifest, "count = 10", "count = 12")
    code, output = run("check", "mini", "--format", "json")
    assert code == 1
    document = json.loads(output)
    assert document["failed"] is True and document["general"] == []
    [mini] = document["games"]
    assert (mini["game"], mini["errors"], mini["warnings"]) == ("mini", 1, 0)
    [finding] = mini["diagnostics"]
    assert finding == {"level": "error", "file": "data/mini/game.toml", "line": line_of(manifest, "[components.deck]"),
                       "message": "component 'deck' declares 12 pieces but cards/deck.csv holds 10",
                       "fix": "fix the count in game.toml or the count column of the card list"}


def test_check_for_github_annotates_the_lines(game: Path) -> None:
    """GitHub's workflow commands: one line per finding, ':' and ',' escaped in the file, the fix after %0A."""
    manifest = game / "game.toml"
    replace(manifest, "count = 10", "count = 12")
    code, output = run("check", "mini", "--format", "github")
    assert code == 1
    line = line_of(manifest, "[components.deck]")
    assert output.splitlines()[0] == (
        f"::error file=data/mini/game.toml,line={line},title=pnp check::component 'deck' declares 12 pieces but "
        "cards/deck.csv holds 10%0Afix: fix the count in game.toml or the count column of the card list")
    assert output.splitlines()[-1] == "1 game checked: 1 error(s), 0 warning(s), 0 note(s) — FAILED"
    from pnp.commands.check_output import github_annotations
    from pnp.diagnostics import Diagnostic, Level

    [note] = github_annotations([Diagnostic(Level.NOTE, "100% sure", Path("a,b:c.csv"), 3)], Path.cwd())
    assert note == "::notice file=a%2Cb%3Ac.csv,line=3,title=pnp check::100%25 sure"


def test_a_backwards_player_range_is_one_error_with_the_fix(game: Path) -> None:
    """[4, 2] means 2-4: one error saying so, and the setup rows checked against 2-4, not against nothing."""
    manifest = game / "game.toml"
    replace(manifest, "players = [2, 4]", "players = [4, 2]")
    code, output = run("check", "mini")
    assert code == 1
    assert "players: player range 4-2 runs backwards" in output and "fix: write [2, 4]: [min, max]" in output
    assert "FAILED — 1 error(s)" in output, output


def test_examples_without_a_rules_module_say_what_they_need(game: Path) -> None:
    """A worked example is recomputed by a rules module; a game without one is told so, and a missing
    [example.expect] table is named as TOML writes it."""
    (game / "examples.toml").write_text('[[example]]\nid = "x"\nkind = "trick"\n[example.inputs]\na = 1\n',
                                        encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    assert "fix: add a [example.expect] table under that [[example]]" in output, output
    assert "example 'x': unknown kind 'trick'" in output
    assert "recomputed by the game's rules module" in output and "remove examples.toml" in output


def test_a_new_japanese_game_names_its_cards_and_colours_in_japanese(game: Path) -> None:
    """The starter deck printed "Red 1" on Japanese cards, and "red" in the Japanese rulebook."""
    cards = (game / "cards" / "deck.csv").read_text(encoding="utf-8")
    assert "red-1,1,number,,red,1,Red 1,赤 1" in cards
    manifest = (game / "game.toml").read_text(encoding="utf-8")
    for line in ('name = { en = "red", ja = "赤" }', 'name = { en = "Deck", ja = "山札" }',
                 'ja = "個人での使用に限ります。"'):
        assert line in manifest
    code, output = run("check", "mini")
    assert code == 0, output


def test_a_quote_never_closed_is_reported_where_it_opens(game: Path) -> None:
    """The reader notices only at the end of the file, where the error was reported, far from the mistake."""
    cards = game / "cards" / "deck.csv"
    replace(cards, "red-3,1", '"red-3,1')
    code, output = run("check", "mini")
    assert code == 1
    assert (f"deck.csv:{line_of(cards, 'red-3')}: error: a quote opened in this row is never closed: the rest of "
            "the file reads as one text") in output, output
    assert output.count(": error:") == 1, output


def test_the_starter_rules_take_the_card_numbers_from_the_model(game: Path) -> None:
    """The starter wrote "numbers 1 to 5" by hand, against the rule that numbers the model holds are
    placeholders: widen the deck and its rules now follow."""
    deck, manifest = game / "cards" / "deck.csv", game / "game.toml"
    deck.write_text(deck.read_text(encoding="utf-8") + "red-6,1,number,,red,6,Red 6,赤 6\n", encoding="utf-8")
    replace(manifest, "count = 10", "count = 11")
    replace(manifest, "in_play = 10", "in_play = 11")  # every card is in play
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(re.sub(r"(?m)^(\[\[components\.deck\.grid\]\](?:\n[^\[\n].*)*)", "", text), encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 0, output
    code, output = run("build", "mini", "--what", "rules", "--paper", "a4", "--lang", "en")
    assert code == 0, output
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(game.parents[1] / "output" / "mini" / "en" / "a4" /
                                                              "rules.pdf").pages)
    assert "numbers 1 to 6 in red and blue" in text


def test_errors_are_listed_in_file_and_line_order(game: Path) -> None:
    """They came in the order of the checks that found them: a designer read lines 8, then 3."""
    deck = game / "cards" / "deck.csv"
    replace(deck, "red-2,1,number,,red,", "red-2,1,number,,rouge,")  # found by the vocabulary check
    replace(deck, "blue-2,1,", "blue-2,x3,")  # found while loading, earlier
    code, output = run("check", "mini")
    assert code == 1
    lines = [int(found) for found in re.findall(r"deck\.csv:(\d+): error:", output)]
    assert lines == [line_of(deck, "red-2,"), line_of(deck, "blue-2,")] and lines[0] < lines[1], output


def test_github_annotations_name_files_from_the_repository_root(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from inside the game folder, the annotation said file=game.toml: GitHub looks for that at the
    repository's root (GITHUB_WORKSPACE), so the finding landed on no file."""
    replace(game / "game.toml", "count = 10", "count = 12")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(game.parents[1]))
    monkeypatch.chdir(game)
    code, output = run("check", "--format", "github")
    assert code == 1
    assert output.splitlines()[0].startswith("::error file=data/mini/game.toml,line=")


def test_a_lang_no_game_ships_is_a_finding_in_json_and_github_too(game: Path) -> None:
    """--strict failed on it while the JSON held no warning and GitHub got no annotation: "failed" with
    nothing to say why. It is also counted in the summary, as an unknown game is."""
    import json

    code, output = run("check", "mini", "--lang", "fr", "--strict", "--format", "json")
    assert code == 1
    document = json.loads(output)
    assert document["failed"] is True
    [warning] = document["general"]
    assert warning["level"] == "warning" and warning["message"].startswith("--lang fr: no game checked ships")
    code, output = run("check", "mini", "--lang", "fr", "--format", "github")
    assert code == 0
    assert "::warning title=pnp check::--lang fr: no game checked ships in that language" in output
    assert output.splitlines()[-1] == "1 game checked: 0 error(s), 1 warning(s), 0 note(s) — ok"
    code, output = run("check", "mini", "nosuch", "--format", "github")
    assert code == 1
    assert output.splitlines()[-1] == "1 game checked: 1 error(s), 0 warning(s), 0 note(s) — FAILED"


def test_a_toml_file_cut_short_is_an_error_at_its_last_line(game: Path) -> None:
    """tomllib names no line for "at end of document": the error had none, yet its fix said "on that line"."""
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "\nextra = [\n", encoding="utf-8")
    code, output = run("check", "mini")
    assert code == 1
    last = len(manifest.read_text(encoding="utf-8").rstrip().split("\n"))
    assert f"data/mini/game.toml:{last}: error: malformed TOML: Invalid value at the end of the file" in output


@pytest.mark.parametrize(("file", "old", "new", "found", "fix"), [
    ("game.toml", 'size = "poker"', 'sise = "poker"',
     "components.deck.size: missing; 'sise' on this line looks like it", "rename 'sise' to 'size'"),
    ("cards/deck.csv", "id,count,kind,suit,colour,rank", "id,count,kind,suit,colour,rnak",
     "the card list has no 'rank' column", "rename 'rnak' to 'rank'"),
])
def test_a_misspelt_key_or_header_is_one_error(game: Path, file: str, old: str, new: str, found: str,
                                               fix: str) -> None:
    """Each was an error (size missing, no rank column) and a warning (unknown key 'sise', unknown
    column 'rnak'): one typo, two findings."""
    replace(game / file, old, new)
    code, output = run("check", "mini")
    assert code == 1
    findings = [line for line in output.splitlines() if ": error: " in line or ": warning: " in line]
    assert len(findings) == 1, output
    assert found in findings[0] and f"fix: {fix}" in output
    assert findings[0].split(": error:")[0].endswith(f"{file}:{line_of(game / file, new.split(',')[-1])}")

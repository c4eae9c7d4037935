"""Issue 29, class 2: any input ends in bounded work, with an error at its line, never a traceback:
ranges are checked before anything is enumerated or allocated."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_game import check, errors, mini_game


def _replace(game: Path, old: str, new: str) -> int:
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.mark.parametrize(("size", "message"), [
    ("[nan, 88.9]", "card size nan × 88.9 mm is not a number of millimetres"),
    ("[inf, 88.9]", "card size inf × 88.9 mm is not a number of millimetres"),
    ("[1, 88.9]", "card size 1 × 88.9 mm is smaller than any piece pnp can print (5 mm a side)"),
    ("[63.5, 1e300]", "card size 63.5 × 1e+300 mm is longer than any print-shop sheet (450 mm)"),
])
def test_card_sizes_that_are_no_size_are_errors_at_their_line(tmp_path: Path, size: str, message: str) -> None:
    game = mini_game(tmp_path)
    line = _replace(game, 'size = "poker"', f"size = {size}")
    result = check(game)
    assert result.exit_code == 1
    assert any(error.startswith(f"data/mini/game.toml:{line}: error: ") and message in error
               for error in errors(result)), result.output


def test_a_billion_players_is_an_error_not_a_billion_setups(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    line = _replace(game, "players = [2, 4]", "players = [2, 1000000000]")
    result = check(game)
    assert result.exit_code == 1
    assert (f"data/mini/game.toml:{line}: error: players: player range 2-1000000000 goes above 100 players\n"
            "    fix: write the range of players the game is for, e.g. [2, 6]") in errors(result)


def test_toml_nested_too_deep_is_an_error_at_the_file(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    (game / "rules.toml").write_text("deep = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    result = check(game)
    assert result.exit_code == 1
    assert ("data/mini/rules.toml: error: malformed TOML: nested too deep to read\n"
            "    fix: no game file nests arrays or tables more than a few levels: check the brackets") in errors(result)


def test_svg_with_too_many_elements_is_refused_before_svglib(tmp_path: Path) -> None:
    from pnp.diagnostics import DataError
    from pnp.render.cards.vector_art import parse_svg

    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' + b"<g/>" * 100_001 + b"</svg>"
    with pytest.raises(DataError, match="SVG x.svg has more than 100,000 elements: too many to draw"):
        parse_svg(svg, "SVG x.svg", None)
    deep = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' + b"<g>" * 200 + b"</g>" * 200 + b"</svg>"
    with pytest.raises(DataError, match="nests its elements more than 100 deep"):
        parse_svg(deep, "SVG x.svg", None)
    bomb = (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg">&b;</svg>')
    with pytest.raises(DataError, match="declares XML entities"):
        parse_svg(bomb, "SVG x.svg", None)


@pytest.mark.parametrize(("old", "new", "message"), [
    ('ranks = "1-5"', 'ranks = "1-99999999999999999999"',
     "components.deck.grid[1].ranks: ranks '1-99999999999999999999' are more than 1,000 ranks\n"
     '    fix: write "1-13"'),
    ('ranks = "1-5"', "ranks = [" + ", ".join(["1"] * 1001) + "]",
     "components.deck.grid[1].ranks: 1,001 ranks are more than 1,000\n    fix: list the ranks the grid has"),
    ("copies = 1", "copies = 1000000000000",
     "components.deck.grid[1].copies: must be at most 10,000, found 1000000000000\n"
     "    fix: check the number: a typo of a few digits?"),
    ("in_play = 10", "in_play = 100000000000000000000000",
     "setup[1].in_play: must be at most 100,000, found 100000000000000000000000\n"
     "    fix: check the number: a typo of a few digits?"),
    ("hand = 2", "hand = 100001", "setup[1].hand: must be at most 100,000, found 100001"),
    ("revealed = 1", "revealed = " + "9" * 50,
     "setup[1].revealed: must be at most 100,000, found 9999999999999999999999999999999999999..."),
])
def test_counts_out_of_range_are_errors_at_their_key(tmp_path: Path, old: str, new: str, message: str) -> None:
    game = mini_game(tmp_path)
    line = _replace(game, old, new)
    result = check(game)
    assert result.exit_code == 1
    assert any(error.startswith(f"data/mini/game.toml:{line}: error: {message}") for error in errors(result)), \
        result.output


def test_a_grid_of_too_many_cells_is_one_error_and_its_unknown_names_another(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    line = _replace(game, 'colours = ["red", "blue"]', "colours = [" + ",".join(f'"c{i}"' for i in range(20_000)) + "]")
    _replace(game, 'ranks = "1-5"', 'ranks = "1-1000"')
    result = check(game)
    assert result.exit_code == 1
    found = errors(result)
    assert (f"data/mini/game.toml:{line - 2}: error: components.deck.grid[1]: a grid of 20,000 × 1,000 cards is more "
            "than 100,000\n    fix: split it, or check its suits, colours and ranks") in found
    assert (f"data/mini/game.toml:{line}: error: component 'deck': the grid names 20,000 unknown colours: 'c0', 'c1', "
            "'c2', 'c3' and 19996 more\n    fix: known colours: red, blue") in found
    assert len(found) == 2, found


def test_twenty_thousand_array_headers_index_their_lines_in_one_pass() -> None:
    """Each [[header]] once looped over every array seen: 20,000 distinct ones took 10 s. The lines
    must still be right, nested arrays restarting with their parent."""
    from pnp.load.toml_lines import parse_toml

    text = "".join(f"[[a{i}]]\nx = {i}\n" for i in range(20_000)) + "[[p]]\n[[p.q]]\n[[p.q]]\n[[p]]\n[[p.q]]\n"
    doc = parse_toml(text, Path("game.toml"))
    assert doc.line_of("a19999", 0, "x") == 40_000
    assert doc.line_of("p", 1) == 40_004
    assert doc.line_of("p", "q", 1) == 40_003
    # the second [[p]] restarts the count of [[p.q]]: its first is index 0 again, not 2
    assert ("p", "q", 2) not in doc.lines


@pytest.mark.parametrize("key", ["[" + ".".join(["a"] * 50_000) + "]", "x." * 50_000 + "y = 1",
                                 "t = { " + "a." * 50_000 + "b = 1 }"])
def test_a_key_of_fifty_thousand_dotted_parts_is_an_error_before_tomllib(key: str) -> None:
    from pnp.diagnostics import DataError
    from pnp.load.toml_lines import parse_toml

    with pytest.raises(DataError, match="malformed TOML: a key of more than 32 dotted parts") as raised:
        parse_toml("id = 'x'\n" + key + "\n", Path("game.toml"))
    assert raised.value.diagnostic.line == 2


def test_dotted_words_in_a_string_are_no_key() -> None:
    from pnp.load.toml_lines import parse_toml

    assert parse_toml("d = '" + "a." * 100 + "'\n", Path("game.toml")).data["d"] == "a." * 100


def test_a_title_of_a_megabyte_is_an_error_not_minutes_of_fitting(tmp_path: Path) -> None:
    """A 1 MB title was shrunk and broken again at every size in the default back's box: the build never
    ended. Titles and names are labels set in boxes; past 500 characters they are refused in check."""
    game = mini_game(tmp_path)
    line = _replace(game, 'en = "Mini"', f'en = "{"Mini " * 200_000}"')
    result = check(game)
    assert result.exit_code == 1
    assert (f"data/mini/game.toml:{line}: error: title.en: title of 1,000,000 characters is longer than 500\n"
            "    fix: shorten it: a title is set in a box on the page or the card") in errors(result), result.output

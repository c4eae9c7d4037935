"""Bad card layouts get clear errors from `pnp check` and `pnp build`, never a traceback or a half build.

Each case starts a game with `pnp new`, gives its deck a layout of its own (`layouts/my-face.toml`,
`face = "my-face"`), breaks one thing, then runs both commands through the CLI. A clear error names
the file (and line) to fix and what is wrong, the command exits with status 1, and a failed build
leaves no PDF in the output folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner, Result
from PIL import Image

from pnp.cli import cli

COMMANDS = ("check", "build")
FIRST_CARD = "red-1"  # the first row of the card list `pnp new` writes

# A layout whose element starts on line 3; the line of each key follows from there.
LAYOUT_HEAD = "# my-face: a test layout\n\n"
ELEMENT_LINE = 3


def text_element(text: str, extra: str = "") -> str:
    return (f'{LAYOUT_HEAD}[[element]]\ntype = "text"\n{extra}x = 5\ny = 5\nw = 40\nh = 10\n'
            f'text = "{text}"\n')


@dataclass
class NewGame:
    data: Path
    folder: Path
    out: Path

    @property
    def manifest(self) -> Path:
        return self.folder / "game.toml"

    @property
    def layout(self) -> Path:
        return self.folder / "layouts" / "my-face.toml"

    def write_layout(self, text: str) -> None:
        self.layout.parent.mkdir(exist_ok=True)
        self.layout.write_text(text, encoding="utf-8")

    def rename_card(self, old: str, new: str) -> None:
        cards = self.folder / "cards" / "deck.csv"
        content = cards.read_text(encoding="utf-8")
        assert old in content
        cards.write_text(content.replace(old, new, 1), encoding="utf-8")

    def run(self, command: str) -> Result:
        if command == "check":
            args = ["check", "--data", str(self.data), "my-game"]
        else:
            args = ["build", "--data", str(self.data), "my-game", "--what", "cards", "--paper", "a4",
                    "--out", str(self.out)]
        return CliRunner().invoke(cli, args)

    def pdfs_written(self) -> list[Path]:
        return sorted(self.out.rglob("*.pdf")) if self.out.exists() else []


@pytest.fixture
def game(tmp_path: Path) -> NewGame:
    data = tmp_path / "data"
    result = CliRunner().invoke(cli, ["new", "--data", str(data), "my-game"])
    assert result.exit_code == 0, result.output
    made = NewGame(data, data / "my-game", tmp_path / "out")
    manifest = made.manifest.read_text(encoding="utf-8")
    assert "[components.deck]\n" in manifest
    made.manifest.write_text(manifest.replace("[components.deck]\n", '[components.deck]\nface = "my-face"\n', 1),
                             encoding="utf-8")
    made.write_layout(text_element("{{ card.name }}"))
    return made


def assert_fails_cleanly(result: Result) -> None:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def error_lines(result: Result) -> list[str]:
    return [line for line in result.output.splitlines() if ": error: " in line or line.startswith("error: ")]


def assert_error_at(result: Result, file_name: str, lines: set[int], *words: str) -> None:
    """Some error line points at `file_name:<one of lines>` and contains every word."""
    pattern = re.compile(rf"{re.escape(file_name)}:(\d+): error: ")
    for line in error_lines(result):
        match = pattern.search(line)
        if match and int(match.group(1)) in lines and all(word in line for word in words):
            return
    raise AssertionError(f"no error at {file_name}:{sorted(lines)} with {words!r} in:\n{result.output}")


def test_the_new_game_with_its_own_layout_is_clean(game: NewGame) -> None:
    """The starting point of every case below: checks clean and builds."""
    assert game.run("check").exit_code == 0
    result = game.run("build")
    assert result.exit_code == 0, result.output
    assert [p.name for p in game.pdfs_written()] == ["cards-deck.pdf"]


# ----------------------------------------------------------------------------- expressions


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_field_names_the_layout_line_and_card(game: NewGame, command: str) -> None:
    game.write_layout(text_element("{{ card.nosuch }}"))
    result = game.run(command)
    assert_fails_cleanly(result)
    # at the text key's line; the same problem for all ten cards is one error that names them
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6}, "card has no field 'nosuch'",
                    f"cards {FIRST_CARD!r}, ", "and 6 more")
    assert sum("nosuch" in line for line in error_lines(result)) == 1
    assert game.pdfs_written() == []


@pytest.mark.parametrize("text, said", [("{{ card.nmae }}", "card has no field 'nmae' (did you mean 'name'?)"),
                                        ("{{ colour.rbg }}", "colour has no field 'rbg' (did you mean 'rgb'?)")])
def test_a_misspelt_field_gets_a_did_you_mean(game: NewGame, text: str, said: str) -> None:
    game.write_layout(text_element(text))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6}, said)


def _add_column(game: NewGame, name: str, value: str) -> None:
    cards = game.folder / "cards" / "deck.csv"
    rows = cards.read_text(encoding="utf-8").splitlines()
    cards.write_text("\n".join([rows[0] + f",{name}"] + [row + f",{value}" for row in rows[1:] if row]) + "\n",
                     encoding="utf-8")


def test_a_column_of_the_designers_own_says_how_to_declare_and_read_it(game: NewGame) -> None:
    """A flavour column read as {{ card.flavour }} only said the card had no such field, and the
    column's warning offered 'colour'."""
    _add_column(game, "flavour", "tasty")
    game.write_layout(text_element("{{ card.flavour }}"))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert ("did you mean 'colour'? If it is a column of your own, declare it under [components.deck] in "
            'game.toml: fields = ["flavour"], and read it in a layout as card.fields.flavour; or remove the '
            "column") in result.output
    game.manifest.write_text(game.manifest.read_text(encoding="utf-8").replace(
        'face = "my-face"\n', 'face = "my-face"\nfields = ["flavour"]\n'), encoding="utf-8")
    declared = game.run("check")
    assert_error_at(declared, "my-face.toml", {ELEMENT_LINE + 6},
                    "card has no field 'flavour' (did you mean 'fields.flavour'?")
    game.write_layout(text_element("{{ card.fields.flavour }}"))
    assert game.run("check").exit_code == 0


def test_a_misspelt_column_of_the_designers_own_gets_a_did_you_mean(game: NewGame) -> None:
    """card.fields.pionts said only "'dict object' has no attribute 'pionts'"."""
    _add_column(game, "points", "3")
    game.manifest.write_text(game.manifest.read_text(encoding="utf-8").replace(
        'face = "my-face"\n', 'face = "my-face"\nfields = ["points"]\n'), encoding="utf-8")
    game.write_layout(text_element("{{ card.fields.pionts }}"))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6},
                    "card.fields has no field 'pionts' (did you mean 'points'?)")
    assert "dict object" not in result.output
    game.write_layout(text_element("{{ card.fields.points }}"))
    assert game.run("check").exit_code == 0


def test_a_number_key_takes_an_expression_with_or_without_braces(game: NewGame) -> None:
    """w = "{{ 4 * 10 }}" means w = "4 * 10", as in the text keys' templates; a typo in it is named."""
    game.write_layout(text_element("{{ card.name }}").replace("w = 40", 'w = "{{ 4 * 10 }}"'))
    assert game.run("check").exit_code == 0
    game.write_layout(text_element("{{ card.name }}").replace("w = 40", 'w = "{{ card.widht }}"'))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 4},
                    "w = 'card.widht': card has no field 'widht' (did you mean 'width', without 'card.'?)")


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_field_in_when_is_an_error_not_a_hidden_element(game: NewGame, command: str) -> None:
    game.write_layout(text_element("{{ card.name }}", extra='when = "card.nosuch"\n'))
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE, ELEMENT_LINE + 2}, "nosuch")


@pytest.mark.parametrize("expression", [
    "{{ card.__class__.__mro__ }}",
    "{{ card.__class__ }}",  # one field deep: the binder's direct lookup must hand it to the sandbox
    "{{ ''.__class__ }}",
    "{{ lang.__class__.__base__.__subclasses__() }}",
    "{{ cycler.__init__.__globals__ }}",  # a global of Jinja2's (lipsum was one; it is gone)
])
@pytest.mark.parametrize("command", COMMANDS)
def test_sandbox_escape_is_refused(game: NewGame, command: str, expression: str) -> None:
    game.write_layout(text_element(expression))
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE, ELEMENT_LINE + 6}, "unsafe")
    assert "<class" not in result.output and "__builtins__" not in result.output
    assert game.pdfs_written() == []


# ----------------------------------------------------------------------------- sizes, types, names


@pytest.mark.parametrize("command", COMMANDS)
def test_negative_size_names_the_key_and_line(game: NewGame, command: str) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "rect"\nx = 5\ny = 5\nw = -5\nh = 10\nfill = "#000000"\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 4}, "w = -5 must be positive")
    assert game.pdfs_written() == []


@pytest.mark.parametrize("command", COMMANDS)
def test_size_that_is_not_a_number_is_an_error(game: NewGame, command: str) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "rect"\nx = 5\ny = 5\nw = "huge"\nh = 10\nfill = "#000000"\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    # "huge" reads no card: the layout's own mistake, said once, not "cards 'red-1', ... and 6 more"
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 4}, "layout 'my-face': ", "huge")
    assert "fix: fix this value of the layout" in result.output and FIRST_CARD not in result.output
    assert game.pdfs_written() == []


@pytest.mark.parametrize("command", COMMANDS)
def test_component_size_that_is_no_size_is_an_error(game: NewGame, command: str) -> None:
    manifest = game.manifest.read_text(encoding="utf-8")
    size_line = next(n for n, line in enumerate(manifest.splitlines(), 1) if line.startswith("size = "))
    game.manifest.write_text(re.sub(r'(?m)^size = "poker"', 'size = "huge"', manifest), encoding="utf-8")
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "game.toml", {size_line}, "huge")
    assert game.pdfs_written() == []


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_element_type_is_an_error(game: NewGame, command: str) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "circle"\nx = 5\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE, ELEMENT_LINE + 1}, "circle")
    assert "rect" in result.output and "frame" in result.output  # the fix lists the known types
    assert game.pdfs_written() == []


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_layout_name_is_an_error(game: NewGame, command: str) -> None:
    manifest = game.manifest.read_text(encoding="utf-8").replace('face = "my-face"', 'face = "my-fase"')
    game.manifest.write_text(manifest, encoding="utf-8")
    face_line = next(n for n, line in enumerate(manifest.splitlines(), 1) if line.startswith("face = "))
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "game.toml", {face_line, face_line - 1}, "my-fase")
    assert "my-face" in result.output and "default-face" in result.output  # the layouts there are
    assert game.pdfs_written() == []


# Values the painter only checks while drawing. Each: the layout, a word the error must contain, and the
# lines it may point at (the element's first line, or the bad key's).
VALUES_CHECKED_TOO_LATE = {
    "pattern-kind": (f'{LAYOUT_HEAD}[[element]]\ntype = "pattern"\nkind = "plaid"\n', "plaid", {3, 5}),
    "text-align": (text_element("{{ card.name }}", extra='align = "centre"\n'), "centre", {3, 5}),
    "text-valign": (text_element("{{ card.name }}", extra='valign = "centre"\n'), "centre", {3, 5}),
    "text-font": (text_element("{{ card.name }}", extra='font = "italic"\n'), "italic", {3, 5}),
    "line-without-x1": (f'{LAYOUT_HEAD}[[element]]\ntype = "line"\ny1 = 5\nx2 = 20\ny2 = 5\n', "x1", {3}),
}


def test_unknown_element_key_is_a_warning_with_a_suggestion(game: NewGame) -> None:
    game.write_layout(text_element("{{ card.name }}", extra='color = "#ff0000"\n'))
    result = game.run("check")
    assert result.exit_code == 0, result.output
    assert re.search(r"my-face\.toml:5: warning: .*'color'", result.output), result.output
    assert "did you mean 'colour'?" in result.output
    strict = CliRunner().invoke(cli, ["check", "--data", str(game.data), "my-game", "--strict"])
    assert strict.exit_code == 1


@pytest.mark.parametrize("value", ["3", "[]", "{ en = \"x\" }", "true"])
def test_a_description_that_is_no_text_is_a_warning_at_its_line(game: NewGame, value: str) -> None:
    """It is printed nowhere, so nothing breaks: but it was taken without a word."""
    game.write_layout(f"description = {value}\n" + text_element("{{ card.name }}"))
    result = game.run("check")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(warnings) == 1, result.output
    assert "my-face.toml:1: warning: layout 'my-face': description = " in warnings[0]
    assert "should be text in quotes (ignored)" in warnings[0]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_element_in_error_is_reported_in_one_run(game: NewGame, command: str) -> None:
    """The first mistake of a card's layout hid the others until it was fixed: three runs for three."""
    game.write_layout(f"{LAYOUT_HEAD}[[element]]\ntype = \"text\"\ntext = \"{{{{ card.nmae }}}}\"\n\n"
                      "[[element]]\ntype = \"text\"\nw = \"widht - 4\"\ntext = \"x\"\n\n"
                      "[[element]]\ntype = \"rect\"\nfill = \"purple\"\n")
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {5}, "card has no field 'nmae' (did you mean 'name'?)")
    assert_error_at(result, "my-face.toml", {9}, "unknown name 'widht' (did you mean 'width'?)")
    assert_error_at(result, "my-face.toml", {14}, "unknown colour 'purple'")
    assert len(error_lines(result)) == 3, result.output
    assert game.pdfs_written() == []


def test_markup_the_layout_leaves_open_is_one_error_quoting_the_layout(game: NewGame) -> None:
    """Quoted as each card's text ("in '**Red 1'", "in '**Red 2'"...), it was ten errors for one '**'."""
    game.write_layout(text_element("**{{ card.name }}"))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert len(error_lines(result)) == 1, result.output
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6}, f"cards {FIRST_CARD!r}, ", "and 6 more",
                    "'**' opens bold text that is never closed in '**{{ card.name }}'")


def test_markup_a_card_brings_is_said_at_that_card(game: NewGame) -> None:
    """A card name holding '**' is the card's, quoted as it prints, naming that card alone, at its row of
    the card list, where it is fixed (it was said at the layout's line, which is right as it is)."""
    game.rename_card("Red 1", "Red **1")
    result = game.run("check")
    assert_fails_cleanly(result)
    assert len(error_lines(result)) == 1, result.output
    assert_error_at(result, "deck.csv", {2}, f"card {FIRST_CARD!r}: ",
                    "'**' opens bold text that is never closed in 'Red **1'",
                    f"(printed by layout my-face.toml, line {ELEMENT_LINE + 6})")


def test_text_outside_the_safe_zone_is_a_warning(game: NewGame) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "text"\nx = 1\ny = 5\nw = 40\nh = 10\n'
                      'text = "{{ card.name }}"\n')
    result = game.run("check")
    assert result.exit_code == 0, result.output
    assert re.search(r"my-face\.toml:3: warning: .*within 3 mm of the trim", result.output), result.output


# ----------------------------------------------------------------------------- images


@pytest.mark.parametrize("command", COMMANDS)
def test_missing_image_is_an_error(game: NewGame, command: str) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "image"\nsrc = "art/nothere.png"\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    assert any("art/nothere.png" in line and "not found" in line and FIRST_CARD in line
               for line in error_lines(result)), result.output
    assert game.pdfs_written() == []


def test_missing_image_error_names_the_layout(game: NewGame) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "image"\nsrc = "art/nothere.png"\n')
    result = game.run("check")
    assert "my-face.toml" in "\n".join(error_lines(result)), result.output


@pytest.mark.parametrize("how", ["relative", "absolute", "symlink"])
@pytest.mark.parametrize("command", COMMANDS)
def test_image_outside_the_game_folder_is_refused(game: NewGame, command: str, how: str) -> None:
    secret = game.data.parent / "secret.png"  # exists, so only its place can be the problem
    Image.new("RGB", (40, 40), "#336699").save(secret)
    src = {"relative": "../../secret.png", "absolute": str(secret), "symlink": "art/link.png"}[how]
    if how == "symlink":
        (game.folder / "art").mkdir()
        (game.folder / "art" / "link.png").symlink_to(secret)
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "image"\nsrc = "{src}"\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    assert any("outside the game folder" in line and FIRST_CARD in line for line in error_lines(result)), \
        result.output
    assert game.pdfs_written() == []


@pytest.mark.parametrize("command", COMMANDS)
def test_file_that_is_not_an_image_is_an_error(game: NewGame, command: str) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "image"\nsrc = "cards/deck.csv"\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    assert any("cards/deck.csv" in line and FIRST_CARD in line for line in error_lines(result)), result.output
    assert game.pdfs_written() == []


# ----------------------------------------------------------------------------- text, icons, glyphs


@pytest.mark.parametrize("character", ["\U0001f600", "\U00013000"])  # an emoji; EGYPTIAN HIEROGLYPH A001
def test_character_no_font_has_fails_the_build_naming_the_text(game: NewGame, character: str) -> None:
    game.rename_card("Red 3", f"Red 3 {character}")
    result = game.run("build")
    assert_fails_cleanly(result)
    assert f"U+{ord(character):04X}" in result.output and f"Red 3 {character}" in result.output
    assert game.pdfs_written() == []


def test_character_no_font_has_is_reported_by_check(game: NewGame) -> None:
    game.rename_card("Red 3", "Red 3 \U0001f600")
    result = game.run("check")
    assert_fails_cleanly(result)
    assert "U+1F600" in result.output


@pytest.mark.parametrize(("layout", "words"), [
    (text_element("a :nosuch: b"), (":nosuch:",)),
    (text_element("**bold"), ("**",)),
    (f'{LAYOUT_HEAD}[[element]]\ntype = "icon"\nname = "nosuch"\n', ("nosuch",)),
], ids=["inline-icon", "unclosed-bold", "icon-element"])
def test_bad_markup_or_icon_fails_the_build_cleanly(game: NewGame, layout: str, words: tuple[str, ...]) -> None:
    game.write_layout(layout)
    result = game.run("build")
    assert_fails_cleanly(result)
    assert any(all(word in line for word in words) for line in error_lines(result)), result.output
    assert game.pdfs_written() == []


@pytest.mark.parametrize("layout", [
    text_element("a :nosuch: b"),
    text_element("**bold"),
    f'{LAYOUT_HEAD}[[element]]\ntype = "icon"\nname = "nosuch"\n',
], ids=["inline-icon", "unclosed-bold", "icon-element"])
@pytest.mark.parametrize("command", COMMANDS)
def test_bad_markup_or_icon_is_located(game: NewGame, command: str, layout: str) -> None:
    game.write_layout(layout)
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE, ELEMENT_LINE + 6, ELEMENT_LINE + 2}, FIRST_CARD)


def test_pips_symbol_prints_as_itself_or_fails(game: NewGame) -> None:
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "pips"\nx = 19\ny = 15\nw = 25.5\nh = 57\n'
                      'count = "card.rank"\nsymbol = "桜"\nsize = 9\n')
    result = game.run("build")
    if result.exit_code != 0:
        assert_fails_cleanly(result)
        assert "桜" in result.output
        return
    document = pdfium.PdfDocument(game.pdfs_written()[0])
    try:
        text = document[0].get_textpage().get_text_range()
    finally:
        document.close()
    assert text.count("桜") == 1 + 2 + 3 + 4 + 5 + 1 + 2 + 3 + 4  # red 1-5 and blue 1-4 on sheet 1


def test_a_malformed_hex_colour_is_a_layout_error_at_check_time(game: NewGame) -> None:
    """'#gg0000' looks like a colour but is not one: reportlab would fail mid-drawing."""
    game.write_layout(text_element("{{ card.name }}", 'colour = "#gg0000"\n'))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 2}, "unknown colour '#gg0000'")


def test_css_short_colours_are_taken_and_an_alpha_channel_is_said(game: NewGame) -> None:
    """'#fff' and '#ffffff80' were 'unknown colour', as if no colour were meant."""
    game.write_layout(text_element("{{ card.name }}", 'colour = "#c22"\n'))
    assert game.run("check").exit_code == 0
    game.write_layout(text_element("{{ card.name }}", 'colour = "#ffffff80"\n'))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 2}, "colour '#ffffff80' has an alpha channel",
                    "write '#ffffff'")


def test_every_built_in_layout_parses_cleanly_when_first_used() -> None:
    """Built-in layouts are parsed only when a deck names one; each must parse without a diagnostic."""
    from pnp.diagnostics import Report
    from pnp.model.layout import builtin_layout_files, load_library

    report = Report()
    library = load_library(None, report)
    names = set(builtin_layout_files())
    assert {"default-face", "default-back", "full-bleed-image"} <= names
    assert library.layouts == {}  # nothing parsed before it is asked for
    for name in sorted(names):
        layout = library.get(name)
        assert layout is not None and layout.elements, name
    assert library.names() == sorted(names) and report.diagnostics == []


def test_a_games_own_layout_replaces_the_built_in_one_of_that_name(tmp_path: Path) -> None:
    from pnp.diagnostics import Report
    from pnp.model.layout import load_library

    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "default-back.toml").write_text(
        '[[element]]\ntype = "rect"\nfill = "#000000"\n', encoding="utf-8")
    library = load_library(tmp_path, Report())
    back = library.get("default-back")
    assert back is not None and [e.type for e in back.elements] == ["rect"]
    assert library.names().count("default-back") == 1


def test_an_editors_hidden_copy_of_a_layout_is_no_layout(tmp_path: Path) -> None:
    """`layouts/.my-face.toml` (an editor's backup, broken mid-edit) is neither loaded nor checked."""
    from pnp.diagnostics import Report
    from pnp.model.layout import load_library

    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / ".my-face.toml").write_text("[[element]\ntype = ", encoding="utf-8")
    (tmp_path / "layouts" / "my-face.toml").write_text('[[element]]\ntype = "rect"\n', encoding="utf-8")
    report = Report()
    library = load_library(tmp_path, report)
    assert report.diagnostics == [] and library.get("my-face") is not None
    assert ".my-face" not in library.names()


def test_an_element_without_a_type_says_what_to_add(game: NewGame) -> None:
    game.write_layout(f"{LAYOUT_HEAD}[[element]]\nx = 5\n")
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE}, "an element without a type")
    assert 'add type = "..." to it, one of: rect' in result.output


def test_an_unknown_icon_in_a_layout_is_one_error_at_the_text_line(game: NewGame) -> None:
    """The layout's text is the same on every card: one error naming the cards, at the `text` key."""
    game.write_layout(text_element("a :nosuch: b"))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6}, f"cards {FIRST_CARD!r}, ", "and 6 more",
                    "unknown icon ':nosuch:'")
    assert sum("unknown icon" in line for line in error_lines(result)) == 1


@pytest.mark.parametrize("text, said", [
    ('{{ "ab" * 10**8 }}', "a repeat of 200,000,000 items is too long"),
    ("{{ 2 ** 100000 }}", "an exponent of 100,000 is too large"),
    ('{{ "x".ljust(10**9) }}', "a width of 1,000,000,000 is too wide"),
    ('{{ "x".zfill(width=10**8) }}', "a width of 100,000,000 is too wide"),
    ('{{ "{:>999999999}".format(1) }}', "a width of 999,999,999 is too wide"),
    ('{{ "%999999999d" % 1 }}', "a width of 999,999,999 is too wide"),
    ('{{ "x"|center(10**9) }}', "a width of 1,000,000,000 is too wide"),
    ('{{ "%999999999s"|format(1) }}', "a width of 999,999,999 is too wide"),
])
def test_the_sandbox_refuses_to_fill_the_memory(game: NewGame, text: str, said: str) -> None:
    """Jinja2's sandbox stops a reach for internals, not a gigabyte string or a million-digit number."""
    game.write_layout(text_element(text.replace('"', "'")))
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6}, "refused by the sandbox", said)


def test_small_repeats_and_powers_still_work() -> None:
    from pnp.compose.sandbox import make_environment

    env = make_environment()
    assert env.from_string("{{ '-' * 3 }}{{ 2 ** 10 }}{{ [0] * 2 }}").render() == "---1024[0, 0]"
    # widths a layout uses, and big values (not widths) in formats
    assert env.from_string("{{ 'ab'.ljust(4) }}|{{ '{:>3}'.format(7) }}|{{ '%03d' % 7 }}|{{ 'a'|center(3) }}|"
                           "{{ '{:,}'.format(1000000) }}|{{ '%s'|format(10**7) }}|{{ '%d%%' % 5 }}").render() \
        == "ab  |  7|007| a |1,000,000|10000000|5%"


# Values of the wrong TOML type, each with the line it is on and words the error must hold. Before,
# these reached the painter: a list for x was multiplied by a float, a number for a colour was
# shifted as if it were a hex string, a list for type was looked up in a set (tracebacks all).
RECT = f'{LAYOUT_HEAD}[[element]]\ntype = "rect"\nx = 5\ny = 5\nw = 10\nh = 10\n'
WRONGLY_TYPED = {
    "x-list": (RECT.replace("x = 5", "x = [1, 2]"), 5, ("x = [1, 2]", "a number, or an expression")),
    "w-table": (RECT.replace("w = 10", "w = {}"), 7, ("w = {}", "a number")),
    "h-boolean": (RECT.replace("h = 10", "h = true"), 8, ("h = true", "a number")),
    "fill-number": (RECT + "fill = 1e9\n", 9, ("fill = 1000000000.0", "text in quotes")),
    "stroke-list": (RECT + 'stroke = ["#000000"]\n', 9, ('stroke = ["#000000"]', "text in quotes")),
    "bleed-string": (RECT + 'bleed = "false"\n', 9, ('bleed = "false"', "true or false")),
    "type-list": (f'{LAYOUT_HEAD}[[element]]\ntype = ["rect"]\n', 4, ('type = ["rect"]', "one element type")),
    "when-number": (RECT + "when = 3\n", 9, ("when = 3", "a condition")),
    "text-table": (text_element("x").replace('text = "x"', "text = { a = 1 }"), 9, ("text = { a = 1 }",)),
    "safe-zone": ('safe_zone = "wide"\n' + RECT, 1, ('safe_zone = "wide"', "distance in mm")),
    "element-number": ("element = 3\n", 1, ("element = 3", "not a list of elements")),
}


def test_a_number_for_text_is_printed(game: NewGame) -> None:
    game.write_layout(text_element("x").replace('text = "x"', "text = 7"))
    result = game.run("build")
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(game.pdfs_written()[0])
    assert "7" in pdf[0].get_textpage().get_text_range()


# Numbers no card can take: a pattern repeating every 0.001 mm drew for hours; a coordinate of 1e300
# (or an expression overflowing to infinity) ended in reportlab's "number too large" traceback.
OUT_OF_RANGE = {
    "spacing-written": (f'{LAYOUT_HEAD}[[element]]\ntype = "pattern"\nspacing = 0.001\n', 5,
                        ("spacing = 0.001 is finer than a pattern can repeat",)),
    "spacing-computed": (f'{LAYOUT_HEAD}[[element]]\ntype = "pattern"\nspacing = "width / 1000"\n', 5,
                         ("layout 'my-face': spacing = 'width / 1000' gives 0.0635, which is finer",)),
    "x-written": (RECT.replace("x = 5", "x = 1e300"), 5, ("x = 1e+300 is out of range",)),
    "x-computed": (RECT.replace("x = 5", 'x = "1e308 * 10"'), 5, ("gives inf, which is out of range",)),
    "w-computed": (RECT.replace("w = 10", 'w = "width - 100"'), 7, ("gives -36.5, which must be positive",)),
    # lines printed over each other, or the second above the box (a designer's find)
    "leading-zero": (text_element("a long text that wraps onto a second line", 'leading = 0\n'), ELEMENT_LINE + 2,
                     ("leading = 0 is too tight: the lines would print over each other",)),
    "leading-negative": (text_element("x", 'leading = -3\n'), ELEMENT_LINE + 2, ("leading = -3 is too tight",)),
}


# every bad value above: its layout, the lines the error may point at, and the words it must hold
BAD_VALUES = {
    **{case: (layout, lines, (word,)) for case, (layout, word, lines) in VALUES_CHECKED_TOO_LATE.items()},
    **{case: (layout, {line}, words) for case, (layout, line, words) in {**WRONGLY_TYPED, **OUT_OF_RANGE}.items()},
}


@pytest.mark.parametrize("case", sorted(BAD_VALUES))
@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_value_is_a_layout_error_before_drawing(game: NewGame, command: str, case: str) -> None:
    layout, lines, words = BAD_VALUES[case]
    game.write_layout(layout)
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", lines, *words)
    assert game.pdfs_written() == []


@pytest.mark.parametrize("text", [LAYOUT_HEAD, LAYOUT_HEAD + "element = []\n"])
def test_a_layout_with_no_elements_is_a_warning(game: NewGame, text: str) -> None:
    """Its cards printed blank without a word."""
    game.write_layout(text)
    result = game.run("check")
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(warnings) == 1, result.output
    assert "my-face.toml" in warnings[0]
    assert "warning: layout 'my-face' has no elements: the cards it draws print blank" in warnings[0]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_layout_file_that_cannot_be_read_is_not_also_unknown(game: NewGame, command: str) -> None:
    """Malformed TOML was reported at its line, and then game.toml said "unknown face layout 'my-face'
    ... or add layouts/my-face.toml", a file that was there."""
    game.write_layout(LAYOUT_HEAD + "size = 12pt\n")
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {3}, "malformed TOML")
    assert len(error_lines(result)) == 1, result.output


def test_an_unknown_layout_is_reported_at_the_line_that_names_it(game: NewGame) -> None:
    manifest = game.manifest.read_text(encoding="utf-8")
    game.manifest.write_text(manifest.replace('face = "my-face"\n', 'face = "my-face"\nback = "my-bak"\n', 1),
                             encoding="utf-8")
    line = game.manifest.read_text(encoding="utf-8").splitlines().index('back = "my-bak"') + 1
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "game.toml", {line}, "unknown back layout 'my-bak'")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_misspelt_colour_does_not_hide_a_missing_image_and_both_get_a_suggestion(game: NewGame,
                                                                                   command: str) -> None:
    """Only the colour was reported; the missing picture came a run later. A literal value also named
    every card and told to fix "the card data it reads", which it does not read."""
    (game.folder / "art").mkdir()
    (game.folder / "art" / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
        encoding="utf-8")
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "rect"\nx = 5\ny = 5\nw = 10\nh = 10\nfill = "bleu"\n\n'
                      '[[element]]\ntype = "image"\nsrc = "art/logoo.svg"\nx = 5\ny = 20\nw = 20\nh = 20\n')
    result = game.run(command)
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 6}, "layout 'my-face': unknown colour 'bleu' "
                    "(did you mean 'blue'?")
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 8, ELEMENT_LINE + 10}, "image 'art/logoo.svg' not found")
    assert "fix: did you mean 'art/logo.svg'? Or add the file" in result.output
    assert "fix: fix this value of the layout" in result.output


def test_one_line_failing_differently_per_card_is_one_error_saying_each_way(game: NewGame) -> None:
    """An icon named by the card's colour, misspelt: "unknown icon 'redx'" and "... 'bluex'" were two
    errors at one line for one typo."""
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "icon"\nname = "{{{{ colour.id }}}}x"\nx = 5\ny = 5\n'
                      'size = 6\n')
    result = game.run("check")
    assert_fails_cleanly(result)
    [error] = error_lines(result)
    assert "my-face.toml:5: error: layout 'my-face', cards 'red-1'" in error
    assert "unknown icon 'redx'" in error and " / unknown icon 'bluex'" in error


def test_mistakes_that_had_no_fix_line_get_one(game: NewGame) -> None:
    """valign = "centre", font = "italic", a palette colour of five digits and a picture outside the game
    folder were errors with no fix; "centre" found no suggestion, being nearer "center" than "middle"."""
    manifest = game.manifest.read_text(encoding="utf-8")
    game.manifest.write_text(manifest + '\n[palette]\naccent = "#ffd54"\n', encoding="utf-8")
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "text"\ntext = "x"\nx = 5\ny = 5\nw = 40\nh = 10\n'
                      'valign = "centre"\nfont = "italic"\n\n[[element]]\ntype = "image"\nsrc = "../../out.png"\n'
                      'x = 5\ny = 20\nw = 20\nh = 20\n')
    result = game.run("check")
    assert_fails_cleanly(result)
    output = result.output
    assert "valign = 'centre' is not one of top, middle, bottom (did you mean 'middle'?)" in output
    assert 'fix: write valign = "middle", or another of those (pnp docs layouts)' in output
    assert 'fix: write font = "regular", or another of those' in output
    assert "fix: write # and six hex digits (two each for red, green and blue)" in output
    assert "fix: copy the picture into the game folder (images/ is the usual place)" in output
    errors = error_lines(result)
    lines = output.splitlines()
    for error in errors:  # every error is followed by its fix
        assert lines[lines.index(error) + 1].startswith("    fix: "), error


def test_a_picture_box_of_negative_width_is_one_error_and_no_dpi_warning(game: NewGame) -> None:
    """The error came with a warning that the art 'prints at -300 dpi' and a fix asking for -608 pixels."""
    (game.folder / "art").mkdir()
    Image.new("RGB", (608, 473), (200, 30, 30)).save(game.folder / "art" / "p.png")
    game.write_layout(f'{LAYOUT_HEAD}[[element]]\ntype = "image"\nsrc = "art/p.png"\nx = 5\ny = 5\nw = -51.5\n'
                      'h = 40\n')
    result = game.run("check")
    assert_fails_cleanly(result)
    assert_error_at(result, "my-face.toml", {ELEMENT_LINE + 5}, "w = -51.5 must be positive")
    assert "dpi" not in result.output

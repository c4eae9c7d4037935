"""A game may name its own fonts; pnp then embeds those, and checks coverage against them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import reportlab
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

VERA = Path(reportlab.__file__).parent / "fonts"


@pytest.fixture()
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "vera-game"]).exit_code == 0
    folder = tmp_path / "data" / "vera-game"
    (folder / "fonts").mkdir()
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "Vera.ttf")
    shutil.copy(VERA / "VeraBd.ttf", folder / "fonts" / "VeraBd.ttf")
    manifest = folder / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    # Vera is Latin-only: the starter's colour symbols (● ▲) are not in it
    text = "\n".join(line for line in text.splitlines() if not line.startswith("symbol = "))
    manifest.write_text(text.replace("[title]", 'fonts = { regular = "fonts/Vera.ttf", bold = "fonts/VeraBd.ttf" }'
                                              "\n\n[title]", 1), encoding="utf-8")
    return folder


def base_fonts(pdf: Path) -> set[str]:
    names = set()
    for page in PdfReader(pdf).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def test_the_game_fonts_are_embedded_instead_of_noto(game: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "vera-game", "--what", "cards", "--paper", "a4", "--out",
                                      str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    names = base_fonts(tmp_path / "out" / "vera-game" / "en" / "a4" / "cards-deck.pdf")
    assert any("Vera" in name for name in names), names
    assert not any("Noto" in name for name in names), names


@pytest.mark.parametrize(("vera", "said"), [
    (("regular", "bold"), "no font has U+8D64 '赤'"),
    # with a Latin-only bold font beside Noto, check said "no font has" of a character the regular font
    # has, while the build named the bold font: both name it now
    (("bold",), "the bold font (VeraBd.ttf) has no U+8D64 '赤'"),
])
def test_coverage_is_checked_against_the_game_fonts(game: Path, vera: tuple[str, ...], said: str) -> None:
    if vera == ("bold",):
        manifest = game / "game.toml"
        manifest.write_text(manifest.read_text(encoding="utf-8").replace('regular = "fonts/Vera.ttf", ', ""),
                            encoding="utf-8")
    cards = game / "cards" / "deck.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Red 1", "赤 1", 1), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "vera-game"])
    assert result.exit_code == 1
    assert said in result.output
    assert "Traceback" not in result.output and (len(vera) == 2 or "no font has" not in result.output)


def test_a_missing_or_outside_font_is_an_error(game: Path) -> None:
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("fonts/VeraBd.ttf", "../../VeraBd.ttf"),
                        encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "vera-game"])
    assert result.exit_code == 1
    assert "fonts.bold: '../../VeraBd.ttf' points outside the game folder" in result.output


def test_a_symbol_missing_from_the_game_fonts_stops_the_build(game: Path, tmp_path: Path) -> None:
    manifest = game / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('rgb = "#c62828"', 'rgb = "#c62828"\nsymbol = "●"'), encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "vera-game", "--what", "cards", "--paper", "a4", "--out",
                                      str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "U+25CF '●' (BLACK CIRCLE)" in result.output
    assert "Traceback" not in result.output
    assert not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("damage", ["renamed", "cut short"])
def test_a_file_that_is_no_font_is_an_error_at_its_line_not_a_traceback(game: Path, tmp_path: Path,
                                                                         command: str, damage: str) -> None:
    """A font cut short (a download that stopped) opened, and its first table read past the end was a
    fontTools traceback in check and build alike."""
    font = game / "fonts" / "VeraBd.ttf"
    font.write_bytes(b"not a font, a text file renamed" if damage == "renamed" else font.read_bytes()[:5000])
    args = [command, "vera-game"] + (["--out", str(tmp_path / "out")] if command == "build" else [])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    line = next(n for n, text in enumerate((game / "game.toml").read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("fonts = "))
    errors = [row for row in result.output.splitlines() if ": error: " in row]
    assert len(errors) == 1, result.output
    assert f"game.toml:{line}: error: fonts.bold: " in errors[0] and "is not a usable font" in errors[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))

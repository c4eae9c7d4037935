"""Numbers that read as another number upside down are underlined, as printed cards do it.

A corner index is printed twice, the second turned through 180°, so a 6 seen from across the table
reads as a 9. The built-in default face (and the shipped games' faces) ask for an underline with
``underline = "card.rank_label is ambiguous_upside_down"``. These tests read the built PDF as a printer
would: every 6 and 9 index has a filled bar on its baseline side, 0.07 em thick with its middle 0.12 em
from the baseline, and no other number has one.

Checked by hand on the first build (a deck of red and blue 5 to 9 on default-face): the upright red 6
index (24 pt) has its glyphs' bottom at 767.6 pt and its bar from 764.2 to 765.9 pt, whose middle lies
2.88 pt (0.12 × 24) under the 7's baseline at 767.9 pt; the turned index's bar lies 2.88 pt above its
turned baseline; the big middle 6 (64 pt) has a 4.48 pt bar. Seen as a PNG at 4× too.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.compose.upside_down import ambiguous_upside_down

DROP_EM, THICKNESS_EM = 0.12, 0.07  # as docs/layouts.md gives them


@pytest.mark.parametrize("text, ambiguous", [
    ("6", True), ("9", True), ("16", True), ("18", True), ("68", True), ("66", True), ("61", True),
    ("8", False), ("0", False), ("1", False), ("11", False), ("69", False), ("88", False), ("96", False),
    ("10", False),  # turned it is "01", which no card prints
    ("7", False), ("A", False), ("6a", False), ("", False), (" ", False),
])
def test_which_numbers_read_as_another_upside_down(text: str, ambiguous: bool) -> None:
    assert ambiguous_upside_down(text) is ambiguous


def test_a_number_is_read_as_it_prints() -> None:
    assert ambiguous_upside_down(6) is True
    assert ambiguous_upside_down(None) is False


@pytest.fixture(scope="module")
def deck_5_to_9(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A `pnp new` game whose deck is red and blue 5 to 9 on the built-in default face, built."""
    root = tmp_path_factory.mktemp("underline")
    data = root / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "demo"]).exit_code == 0
    manifest = data / "demo" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    assert 'ranks = "1-5"' in text
    manifest.write_text(text.replace('ranks = "1-5"', 'ranks = "5-9"'), encoding="utf-8")
    rows = ["id,count,kind,suit,colour,rank,name.en"]
    rows += [f"{colour}-{rank},1,number,,{colour},{rank},{colour} {rank}" for colour in ("red", "blue")
             for rank in range(5, 10)]
    (data / "demo" / "cards" / "deck.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "demo", "--what", "cards", "--paper", "a4",
                                      "--lang", "en", "--out", str(root / "out")])
    assert result.exit_code == 0, result.output
    return root / "out" / "demo" / "en" / "a4" / "cards-deck.pdf"


def _numbers_and_bars(pdf: Path) -> tuple[list[tuple[str, float, tuple]], list[tuple]]:
    """Every digit of an index or middle number (20 pt and up) with its size and box, and every thin
    filled bar, on the front sheets."""
    document = pdfium.PdfDocument(pdf)
    digits, bars = [], []
    for index in (0, 2):  # the two sheets of fronts; backs come between
        page = document[index]
        text = page.get_textpage()
        for i in range(text.count_chars()):
            size = pdfium_raw.FPDFText_GetFontSize(text, i)
            char = text.get_text_range(i, 1)
            if char.isdigit() and size >= 20:
                digits.append((char, size, (index, *text.get_charbox(i))))
        for item in page.get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_PATH], max_depth=5):
            left, bottom, right, top = item.get_bounds()
            if top - bottom < 6 and right - left > 5:
                bars.append((index, left, bottom, right, top))
    document.close()
    return digits, bars


def _bar_of(size: float, box: tuple, bars: list[tuple]) -> tuple | None:
    """The bar ruled under this digit (above it, for a turned index), if any."""
    page, left, bottom, right, top = box
    middle = (left + right) / 2
    for bar_page, bar_left, bar_bottom, bar_right, bar_top in bars:
        if bar_page != page or not bar_left <= middle <= bar_right:
            continue
        centre = (bar_bottom + bar_top) / 2
        # the glyph's own edge on the baseline side is within 0.02 em of the baseline (round overshoot)
        if abs(bottom - DROP_EM * size - centre) < 0.03 * size or abs(top + DROP_EM * size - centre) < 0.03 * size:
            return bar_page, bar_left, bar_bottom, bar_right, bar_top
    return None


def test_sixes_and_nines_are_underlined_and_nothing_else(deck_5_to_9: Path) -> None:
    digits, bars = _numbers_and_bars(deck_5_to_9)
    assert {char for char, _, _ in digits} == set("56789")
    underlined = []
    for char, size, box in digits:
        bar = _bar_of(size, box, bars)
        if char in "69":
            assert bar is not None, (char, size, box)
            assert bar[4] - bar[2] == pytest.approx(THICKNESS_EM * size, abs=0.05)
            assert bar[3] - bar[1] >= box[3] - box[1]  # at least as wide as the glyph
            underlined.append(bar)
        else:
            assert bar is None, (char, size, box)
    # a 6 and a 9 in each colour: two corner indices and the middle number on each card
    assert len(underlined) == 4 * 3
    assert sorted(underlined) == sorted(bars)  # no bar is left over, drawn under nothing


def _layout_game(tmp_path: Path, underline: str) -> list[str]:
    data = tmp_path / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "demo"]).exit_code == 0
    manifest = data / "demo" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("[components.deck]\n", '[components.deck]\nface = "my-face"\n', 1),
                        encoding="utf-8")
    (data / "demo" / "layouts").mkdir()
    (data / "demo" / "layouts" / "my-face.toml").write_text(
        '[[element]]\ntype = "text"\nx = 5\ny = 5\nw = 40\nh = 10\ntext = "{{ card.rank_label }}"\n'
        f"underline = {underline}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "demo"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return [line for line in result.output.splitlines() if ": error: " in line]


def test_an_underline_that_is_no_condition_is_an_error_at_its_line(tmp_path: Path) -> None:
    errors = _layout_game(tmp_path, "3")
    assert len(errors) == 1
    assert "my-face.toml:8: error:" in errors[0]
    assert "underline = 3 should be a condition in quotes" in errors[0]


def test_a_misspelt_test_gets_a_did_you_mean(tmp_path: Path) -> None:
    errors = _layout_game(tmp_path, '"card.rank_label is ambigous_upside_down"')
    assert len(errors) == 1
    assert "my-face.toml:8: error:" in errors[0]
    assert "there is no test named 'ambigous_upside_down' (did you mean 'ambiguous_upside_down'?)" in errors[0]

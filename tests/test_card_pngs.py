"""--png writes the backs too: print-on-demand services that take pictures ask for the back beside the faces.

Found following docs/printing.md as a new user (30 November 2026): only the faces and a contact sheet
were written. Checked by eye on the first build: Take Over That Job's number cards share the default
back (slate #37474f over the bleed, a white box with the title), so one back.png; its trump markers
each show their own colour on the back ("Disadvantaged", a red frame, arrow and star on
marker-red.back.png), so one back per card.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import cli

DATA = Path(__file__).resolve().parent.parent / "data"
BLEED_BOX_PX = (821, 1121)  # poker 63.5 × 88.9 mm with 3 mm bleed a side, at 300 dpi: 69.5 / 25.4 × 300, 94.9 / ...


@pytest.fixture(scope="module")
def pngs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("png")
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "take-over-that-job", "--what", "png", "--lang",
                                      "en", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out / "take-over-that-job" / "en" / "png"


def test_a_back_every_card_shares_is_one_back_png(pngs: Path) -> None:
    numbers = sorted(p.name for p in (pngs / "numbers").iterdir())
    assert numbers.count("back.png") == 1 and not [name for name in numbers if name.endswith(".back.png")]
    assert len(numbers) == 56 + 1  # the faces and the back: the contact sheet is beside the folder, not in it
    assert (pngs / "numbers-contact-sheet.png").is_file()
    back = Image.open(pngs / "numbers" / "back.png").convert("RGB")
    assert back.size == BLEED_BOX_PX
    assert back.getpixel((10, 10)) == (0x37, 0x47, 0x4F)  # the palette's back colour, into the bleed
    assert back.getpixel((BLEED_BOX_PX[0] // 2, BLEED_BOX_PX[1] // 2)) == (255, 255, 255)  # the title box


def test_backs_that_differ_are_one_png_per_card(pngs: Path) -> None:
    markers = sorted(p.name for p in (pngs / "markers").iterdir())
    backs = [name for name in markers if name.endswith(".back.png")]
    assert backs == ["marker-blue.back.png", "marker-green.back.png", "marker-purple.back.png",
                     "marker-red.back.png"]
    assert "back.png" not in markers
    pictures = {name: Image.open(pngs / "markers" / name).convert("RGB") for name in backs}
    assert all(picture.size == BLEED_BOX_PX for picture in pictures.values())
    assert len({picture.tobytes() for picture in pictures.values()}) == 4


def test_the_pixels_are_what_print_services_ask_for(tmp_path: Path) -> None:
    """An eighth of an inch of bleed on a poker card is 2.75 × 3.75 in, the 825 × 1125 px template of the US
    print services; pdfium rounds a page's pixels up, and 69.85 mm made 826."""
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "two-ops", "--what", "png", "--lang", "en",
                                      "--bleed", "3.175", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "two-ops" / "en" / "png" / "deck"
    sizes = {Image.open(path).size for path in folder.glob("*.png")}
    assert sizes == {(825, 1125)}


def _starter(root: Path) -> Path:
    result = CliRunner().invoke(cli, ["new", "--data", str(root / "data"), "demo"])
    assert result.exit_code == 0, result.output
    return root / "data" / "demo" / "cards" / "deck.csv"


def _build_pngs(root: Path):
    return CliRunner().invoke(cli, ["build", "--data", str(root / "data"), "demo", "--what", "png", "--lang", "en",
                                    "--out", str(root / "out")])


def test_a_card_renamed_or_counted_0_leaves_no_png_behind(tmp_path: Path) -> None:
    """Uploading the folder would print them: the singles PDF leaves a card counted 0 out, and a card
    renamed in the card list kept its old PNG beside the new one."""
    cards = _starter(tmp_path)
    assert _build_pngs(tmp_path).exit_code == 0
    folder = tmp_path / "out" / "demo" / "en" / "png" / "deck"
    assert (folder / "red-1.png").is_file() and (folder / "red-2.png").is_file()
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text.replace("red-1,1,", "ruby-1,1,") + "spare,0,number,,red,3,Spare\n", encoding="utf-8")
    result = _build_pngs(tmp_path)
    assert result.exit_code == 0, result.output
    names = {path.name for path in folder.glob("*.png")}
    assert "ruby-1.png" in names and "red-1.png" not in names and "spare.png" not in names
    assert len(names) == 10 + 1


def test_card_ids_whose_pngs_would_be_one_file_are_an_error(tmp_path: Path) -> None:
    """'Red-1' and 'red-1' are one file on macOS, Windows and in a zip: the second overwrote the first."""
    cards = _starter(tmp_path)
    cards.write_text(cards.read_text(encoding="utf-8").replace("red-1,1,", "Red-2,1,"), encoding="utf-8")
    result = _build_pngs(tmp_path)
    assert result.exit_code == 1
    assert "the PNG files red-2.png and Red-2.png are the same file" in result.output or \
           "the PNG files Red-2.png and red-2.png are the same file" in result.output
    assert "fix: rename one of the cards" in result.output


def test_a_list_gives_each_picture_its_back_and_count(pngs: Path) -> None:
    """Print services that take one picture per distinct card ask for its quantity; it was only written on
    the contact sheet's picture."""
    import csv

    numbers = list(csv.DictReader((pngs / "numbers-cards.csv").open(encoding="utf-8")))
    assert len(numbers) == 56 and numbers[0] == {"card": "green-1", "count": "1", "front": "numbers/green-1.png",
                                                 "back": "numbers/back.png"}
    markers = list(csv.DictReader((pngs / "markers-cards.csv").open(encoding="utf-8")))
    assert [(row["front"], row["back"]) for row in markers][0] == ("markers/marker-green.png",
                                                                   "markers/marker-green.back.png")
    assert all((pngs / row["front"]).is_file() and (pngs / row["back"]).is_file() for row in numbers + markers)

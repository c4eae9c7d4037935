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
    assert len(numbers) == 56 + 2  # the faces, the back and the contact sheet
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

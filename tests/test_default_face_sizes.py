"""The built-in default face fits every preset card size, not only the poker card it was drawn on.

A deck of each preset (poker, bridge, mini, tarot, square) with ranks and texts of one to four lines is
built as singles (one card a page, its trim box the card). Read as a printer would: every character
lies inside the card's trim, no two characters are drawn over each other, and the build's text report
says nothing shrank or overflowed. Before, on a mini card the text box began 3 mm below the card (202
characters outside it) and the turned index sat on the text; on a square card the text ran off the
bottom. Looked at as PNGs at 144 dpi: mini cards show the index, name, rule and text, the big number
left out; square cards a 31 pt number; bridge text wraps inside the card.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from pnp.model.sizes import CARD_PRESETS

TEXTS = ["", "Draw a card.", "Each player passes one card to the left, then draws two and discards one.",
         "Swap hands with any player.", "Score 3."]


@pytest.fixture(scope="module")
def singles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sizes")
    data = root / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "sizes"]).exit_code == 0
    game = data / "sizes"
    manifest = (game / "game.toml").read_text(encoding="utf-8")
    start = manifest.index("[components.deck]")
    end = manifest.index("[[setup]]")
    components = ""
    for size in CARD_PRESETS:
        rows = ["id,count,kind,suit,colour,rank,name.en,text.en"]
        rows += [f'{size}-{colour}-{rank},1,number,,{colour},{rank},{colour} {rank},"{TEXTS[rank % 5]}"'
                 for colour in ("red", "blue") for rank in (1, 2, 3, 4, 10)]
        (game / "cards" / f"{size}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        components += (f'[components.{size}]\nname = {{ en = "{size}" }}\ncount = 10\nsize = "{size}"\n'
                       f'cards = "cards/{size}.csv"\n\n')
    manifest = manifest[:start] + components + manifest[end:].replace('pool = "deck"', 'pool = "poker"')
    (game / "game.toml").write_text(manifest, encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "sizes", "--what", "singles", "--lang", "en",
                                      "--out", str(root / "out")])
    assert result.exit_code == 0, result.output
    assert "shrunk" not in result.output and "overflow" not in result.output, result.output
    return root / "out" / "sizes" / "en" / "singles"


@pytest.mark.parametrize("size", list(CARD_PRESETS))
def test_every_character_is_on_its_card_and_none_on_another(singles: Path, size: str) -> None:
    pdf = singles / f"cards-{size}.pdf"
    pages = PdfReader(pdf).pages
    document = pdfium.PdfDocument(pdf)
    assert len(document) == 20  # ten faces, ten backs
    for index in range(0, len(document), 2):
        left, bottom, right, top = (float(v) for v in pages[index].trimbox)
        text = document[index].get_textpage()
        boxes = [text.get_charbox(i) for i in range(text.count_chars()) if not text.get_text_range(i, 1).isspace()]
        assert boxes, index
        for box in boxes:
            assert left - 0.01 <= box[0] and box[2] <= right + 0.01, (size, index, box)
            assert bottom - 0.01 <= box[1] and box[3] <= top + 0.01, (size, index, box)
        for i, one in enumerate(boxes):
            for other in boxes[i + 1:]:
                across = min(one[2], other[2]) - max(one[0], other[0])
                up = min(one[3], other[3]) - max(one[1], other[1])
                assert across <= 0.3 or up <= 0.3, (size, index, one, other)
    document.close()


def _overlapping(boxes: list[tuple[float, float, float, float]]) -> list[tuple]:
    return [(one, other) for i, one in enumerate(boxes) for other in boxes[i + 1:]
            if min(one[2], other[2]) - max(one[0], other[0]) > 0.3
            and min(one[3], other[3]) - max(one[1], other[1]) > 0.3]


def test_a_long_text_ends_above_the_upside_down_index(tmp_path: Path) -> None:
    """A Japanese designer's 60-character effect on a poker card printed its fourth line under the turned
    corner index: on a card tall enough for that index, a text and the name above it move up instead."""
    data = tmp_path / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "long"]).exit_code == 0
    cards = data / "long" / "cards" / "deck.csv"
    effect = ("このカードでトリックに勝ったら、好きなプレイヤー1人を選び、"
              "そのプレイヤーの獲得したカードから1枚を選んで自分のものにする。")
    rows = cards.read_text(encoding="utf-8").splitlines()
    rows = [rows[0] + ",text.en"] + [row + (f",{effect}" if row.startswith("red-2,") else ",") for row in rows[1:]]
    cards.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "long", "--what", "singles", "--lang", "en",
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    document = pdfium.PdfDocument(tmp_path / "out" / "long" / "en" / "singles" / "cards-deck.pdf")
    face = document[2].get_textpage()  # red-2's face: pages are front, back for each card
    assert "自分のものにす" in face.get_text_range()
    boxes = [face.get_charbox(i) for i in range(face.count_chars()) if not face.get_text_range(i, 1).isspace()]
    document.close()
    assert _overlapping(boxes) == []

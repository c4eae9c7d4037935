"""`pnp new GAME --images DIR`: a folder of card pictures becomes a game that checks clean and builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from pnp.cli import cli
from pnp.commands.new_from_pictures import card_id, natural_key

BRIDGE_LANDSCAPE_WITH_BLEED = (1121, 746)  # (88.9 + 6) × (57.15 + 6) mm at 300 dpi


def picture(path: Path, size: tuple[int, int], colour: str) -> None:
    Image.new("RGB", size, colour).save(path)


def run(tmp_path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [*args[:1], "--data", str(tmp_path / "data"), *args[1:]])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_a_folder_of_pictures_becomes_a_deck_that_builds(tmp_path: Path) -> None:
    art = tmp_path / "art"
    art.mkdir()
    for name, colour in (("Dragon Card.png", "red"), ("card 10.png", "blue"), ("card 2.png", "green"),
                         ("Back.png", "black")):
        picture(art / name, BRIDGE_LANDSCAPE_WITH_BLEED, colour)
    (art / "notes.txt").write_text("not a picture", encoding="utf-8")
    (art / ".hidden.png").write_bytes(b"")
    code, output = run(tmp_path, "new", "art-deck", "--images", str(art))
    assert code == 0, output
    assert "from 3 picture(s): size bridge, landscape, from the pictures' 1121 × 746 px" in output
    assert "back: images/Back.png" in output
    game = tmp_path / "data" / "art-deck"
    assert (game / "cards" / "deck.csv").read_text(encoding="utf-8").splitlines() == [
        "id,count,image", "card-2,1,images/card 2.png", "card-10,1,images/card 10.png",
        "dragon-card,1,images/Dragon Card.png"]
    manifest = game / "game.toml"
    assert 'size = "88.9x57.15"' in manifest.read_text(encoding="utf-8")
    assert 'back = "picture-back"' in manifest.read_text(encoding="utf-8")
    assert sorted(p.name for p in (game / "rules").iterdir()) == ["en.md"]  # rule texts to fill in
    code, output = run(tmp_path, "check", "art-deck")
    assert code == 0 and "art-deck: ok — 0 error(s), 0 warning(s), 0 note(s)" in output, output
    code, output = run(tmp_path, "build", "art-deck", "--what", "cards", "--paper", "a4", "--out",
                       str(tmp_path / "out"))
    assert code == 0, output
    reader = PdfReader(tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck.pdf")
    assert len(reader.pages) == 2  # three landscape bridge cards on one sheet, then its backs


def test_a_folder_without_pictures_or_no_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    code, output = run(tmp_path, "new", "deck", "--images", str(tmp_path / "empty"))
    assert code == 1 and "no PNG, JPEG or SVG card pictures in it" in output
    code, output = run(tmp_path, "new", "deck", "--images", str(tmp_path / "nowhere"))
    assert code == 1 and "no such folder" in output
    assert not (tmp_path / "data" / "deck").exists()


def test_pictures_pnp_cannot_print_are_named_and_nothing_is_created(tmp_path: Path) -> None:
    """The game was made, said to check clean, and failed its first check: an empty file, text named
    .png, an SVG cut short, a PNG header claiming 100,000 x 140,000 pixels."""
    import struct
    import zlib

    folder = tmp_path / "pics"
    folder.mkdir()
    picture(folder / "good.png", (822, 1122), "red")
    (folder / "empty.png").write_bytes(b"")
    (folder / "text.png").write_text("not a picture", encoding="utf-8")
    (folder / "cut.svg").write_text("<svg", encoding="utf-8")

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    (folder / "huge.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 140_000,
                                      8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))
    code, output = run(tmp_path, "new", "deck", "--images", str(folder))
    assert code == 1, output
    assert "4 picture(s) pnp cannot print as they are" in output
    for name in ("empty.png", "text.png", "cut.svg"):
        assert name in output
    assert ("huge.png: 100,000 × 140,000 pixels (14,000 megapixels), more than a PDF reader or a printer should be "
            "asked to decode (at most 179)") in output
    assert "good.png" not in output
    assert not (tmp_path / "data" / "deck").exists()


def test_pictures_of_no_preset_shape_get_poker_and_a_word(tmp_path: Path) -> None:
    art = tmp_path / "art"
    art.mkdir()
    picture(art / "a.png", (500, 500 * 3), "red")  # 1 : 3, no card preset
    code, output = run(tmp_path, "new", "deck", "--images", str(art))
    assert code == 0 and "match no preset's proportions; set size in game.toml" in output
    assert "the default back" in output


def test_two_back_pictures_are_an_error_not_a_guess(tmp_path: Path) -> None:
    """With Back.PNG and card-back.png, the first became the back and the other a card, with nothing said."""
    art = tmp_path / "art"
    art.mkdir()
    for name in ("a.png", "Back.PNG", "card-back.png"):
        picture(art / name, (821, 1121), "red")
    code, output = run(tmp_path, "new", "deck", "--images", str(art))
    assert code == 1 and "2 pictures are named as the back: Back.PNG, card-back.png" in output
    assert not (tmp_path / "data" / "deck").exists()


def test_pictures_of_another_shape_are_named_as_cropped(tmp_path: Path) -> None:
    """A square picture among poker ones was cut to a poker card without a word."""
    art = tmp_path / "art"
    art.mkdir()
    for name in ("a.png", "b.png"):
        picture(art / name, (821, 1121), "red")
    picture(art / "c.png", (1000, 1000), "blue")
    code, output = run(tmp_path, "new", "deck", "--images", str(art))
    assert code == 0
    assert "1 picture(s) of other proportions are cropped to fill the card: c.png (1000 × 1000 px)" in output


@pytest.mark.parametrize("stems, ids", [
    (["Dragon Card", "dragon_card", "dragon-card"], ["dragon-card", "dragon-card-2", "dragon-card-3"]),
    (["!!!", "Élan", "カード"], ["card", "elan", "card-2"]),
])
def test_card_ids_are_made_unique_from_file_names(stems: list[str], ids: list[str]) -> None:
    taken: set[str] = set()
    assert [card_id(stem, taken) for stem in stems] == ids


def test_pictures_are_in_the_order_a_file_manager_shows() -> None:
    names = ["card 10.png", "card 2.png", "Card 1.png"]
    assert sorted(names, key=natural_key) == ["Card 1.png", "card 2.png", "card 10.png"]


def test_accented_names_sort_beside_their_letters_not_after_z() -> None:
    """Code points put 'élan' after 'Wizard'; a file manager, and a designer, put it among the e's."""
    names = ["Wizard.png", "élan.png", "Elf.png", "apple.png", "Zebra.png"]
    assert sorted(names, key=natural_key) == ["apple.png", "élan.png", "Elf.png", "Wizard.png", "Zebra.png"]


def test_names_alike_but_for_case_or_accents_keep_one_order() -> None:
    names = ["elan.png", "Élan.png", "élan.png", "Elan.png"]
    assert sorted(names, key=natural_key) == sorted(reversed(names), key=natural_key) == [
        "Elan.png", "elan.png", "Élan.png", "élan.png"]


def test_a_name_of_digits_other_than_0_to_9_sorts_without_an_error() -> None:
    """'²'.isdigit() is true but int('²') fails: the key took it for a number."""
    assert sorted(["b.png", "².png", "1.png"], key=natural_key) == ["1.png", "².png", "b.png"]

"""Bring your own card images: a component whose faces are image files, built with `pnp build`.

The game folder is made in a temporary directory: a manifest, a card list, and art generated with
pillow. Each picture is a solid centre colour inside a 40-pixel dark grey frame, so a
rasterised card shows both whether the right picture landed in the right slot (centre) and whether
it covers the bleed (the frame, which lies outside the trim).
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from click.testing import CliRunner
from PIL import Image, ImageDraw
from pypdf import PdfReader

from pnp.cli import cli
from pnp.render.sheets.imposition import plan_sheet
from pnp.render.sheets.paper import CARD_SIZES, PAPER_SIZES

MANIFEST = """\
id = "art-deck"
source_language = "en"
languages = ["en"]
players = 2
[title]
en = "Art Deck"
[credits]
author = "Test"
[terms]
en = "Test only."
[components.deck]
kind = "cards"
name = {{ en = "Deck" }}
count = {count}
size = "poker"
cards = "cards/deck.csv"
face = "full-bleed-image"
fields = ["image"]
[[setup]]
players = 2
pool = "deck"
in_play = {count}
hand = 1
"""
FULL_ART = (821, 1121)  # 69.5 × 94.9 mm at 300 dpi: poker plus 3 mm bleed on each side
FRAME = (40, 40, 40)
DPI = 50


def art(path: Path, centre: tuple[int, int, int], size: tuple[int, int] = FULL_ART) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.new("RGB", size, FRAME)
    ImageDraw.Draw(image).rectangle((40, 40, size[0] - 41, size[1] - 41), fill=centre)
    image.save(path, quality=95) if path.suffix == ".jpg" else image.save(path)


def make_game(root: Path, rows: list[str], count: int) -> Path:
    game = root / "data" / "art-deck"
    (game / "cards").mkdir(parents=True)
    (game / "game.toml").write_text(MANIFEST.format(count=count), encoding="utf-8")
    (game / "cards" / "deck.csv").write_text("id,count,image\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return game


def run(root: Path, *args: str):
    return CliRunner().invoke(cli, [*args, "--data", str(root / "data"), "art-deck"], catch_exceptions=False)


def build(root: Path):
    return CliRunner().invoke(cli, ["build", "--data", str(root / "data"), "art-deck", "--lang", "en", "--paper",
                                    "a4", "--what", "cards", "--out", str(root / "out")], catch_exceptions=False)


def image_objects(reader: PdfReader) -> dict[int, object]:
    found = {}
    for page in reader.pages:
        for ref in (page["/Resources"].get("/XObject") or {}).values():
            found[ref.idnum] = ref.get_object()
    return {number: obj for number, obj in found.items() if obj["/Subtype"] == "/Image"}


def test_image_deck_builds_with_each_image_once(tmp_path: Path) -> None:
    # ten cards, two sheets: the first has the whole 3 × 3 grid, whose columns abut on A4 (a set that
    # fits on one sheet gets a grid of its own size, which may separate every card)
    game = make_game(tmp_path, ["red,1,art/red.png", "green,2,", "blue,1,art/blue.jpg", "again,1,art/red.png",
                                "violet,5,"], count=10)
    art(game / "art" / "red.png", (200, 20, 20))
    art(game / "images" / "green.png", (20, 160, 40))  # found by card id
    art(game / "art" / "blue.jpg", (20, 40, 200))
    art(game / "images" / "violet.jpg", (120, 20, 160))  # found by card id, as a JPEG
    result = build(tmp_path)
    assert result.exit_code == 0, result.output

    pdf = tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck.pdf"
    reader = PdfReader(pdf)
    images = image_objects(reader)
    assert len(images) == 4  # red drawn for two cards, green for two copies: four distinct files
    jpegs = sorted(raw._data for raw in images.values() if raw["/Filter"] == "/DCTDecode")
    assert jpegs == sorted([(game / "art" / "blue.jpg").read_bytes(), (game / "images" / "violet.jpg").read_bytes()])

    plan = plan_sheet(PAPER_SIZES["a4"], CARD_SIZES["poker"], bleed_mm=3.0)
    page_h = PAPER_SIZES["a4"].height_mm
    document = pdfium.PdfDocument(pdf)
    sheet = document[0].render(scale=DPI / 72).to_pil().convert("RGB")
    document.close()

    def pixel(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return sheet.getpixel((round(x_mm * DPI / 25.4), round((page_h - y_mm) * DPI / 25.4)))

    expected = [(200, 20, 20), (20, 160, 40), (20, 160, 40), (20, 40, 200), (200, 20, 20), (120, 20, 160)]
    for slot, colour in zip(plan.slots, expected, strict=False):
        centre = pixel(*slot.trim.center)
        assert all(abs(a - b) <= 8 for a, b in zip(centre, colour, strict=True)), (slot.index, centre, colour)
    # the frame is 40 px = 3.4 mm wide at 300 dpi and the art covers the 3 mm bleed, so 1.5 mm outside
    # the trim lies in the frame only if the bleed edge carries the art's edge; the slots abut
    # horizontally, so look above the top row, where every slot has its own bleed
    first = plan.slots[0].trim
    assert all(v <= 60 for v in pixel(first.x + first.width / 2, first.top + 1.5))
    # on A4 the poker grid abuts on shared cut lines, so slot 4 has no bleed of its own; its art must
    # still be placed for a 3 mm bleed (the frame ends 0.4 mm inside the trim), not squeezed into the trim
    # (which would put the frame 3.1 mm deep): 1 mm inside its left cut line is centre colour
    assert plan.bleed_mode == "abutting"
    middle = plan.slots[4].trim
    inside = pixel(middle.x + 1.0, middle.y + middle.height / 2)
    assert all(abs(a - b) <= 8 for a, b in zip(inside, (200, 20, 20), strict=True)), inside


def test_missing_image_names_the_card(tmp_path: Path) -> None:
    game = make_game(tmp_path, ["here,1,art/here.png", "gone,1,art/gone.png", "nameless,1,"], count=3)
    art(game / "art" / "here.png", (0, 0, 0))
    result = run(tmp_path, "check")
    assert result.exit_code == 1
    assert "card 'gone': image 'art/gone.png' not found" in result.output
    assert ("card 'nameless': image folder 'images/' not found (a card with no picture named looks for "
            "images/<its id>.png, .jpg, .jpeg or .svg)") in result.output
    assert "card 'here'" not in result.output
    # the fix is in the card list or the art folder, not in the built-in layout: the error says
    # where the card is (rows 3 and 4 of the card list) and which layout asked for the picture
    assert "cards/deck.csv:3: error: card 'gone'" in result.output
    assert "cards/deck.csv:4: error: card 'nameless'" in result.output
    assert "(layout full-bleed-image.toml, line" in result.output
    assert "templates/layouts/full-bleed-image.toml" not in result.output


def test_a_renamed_art_folder_is_one_error_saying_where_the_pictures_are(tmp_path: Path) -> None:
    """Not one error per card (900 for a big deck): the folder is the one mistake."""
    rows = [f"c{index},1,art/c{index}.png" for index in range(6)]
    game = make_game(tmp_path, rows, count=6)
    for index in range(6):
        art(game / "pictures" / f"c{index}.png", (0, 0, 0))
    result = run(tmp_path, "check")
    assert result.exit_code == 1
    assert ("cards/deck.csv:2: error: image folder 'art/' not found (layout full-bleed-image.toml, line 15) on 6 "
            "cards: c0, c1, c2, c3 and 2 more (lines 2\u20137)") in result.output
    assert "fix: the pictures are in pictures/: rename it back to art/, or change the paths to pictures/" \
        in result.output
    assert result.output.count("error:") == 1


def test_image_outside_the_game_folder_names_the_card(tmp_path: Path) -> None:
    make_game(tmp_path, ["sneaky,1,../../secret.png"], count=1)
    art(tmp_path / "secret.png", (0, 0, 0))
    result = run(tmp_path, "check")
    assert result.exit_code == 1
    assert "card 'sneaky': image '../../secret.png' is outside the game folder" in result.output


def test_low_resolution_art_is_a_warning(tmp_path: Path) -> None:
    game = make_game(tmp_path, ["small,1,art/small.png", "fine,1,art/fine.png"], count=2)
    art(game / "art" / "small.png", (0, 0, 0), size=(400, 560))
    art(game / "art" / "fine.png", (0, 0, 0))
    result = run(tmp_path, "check")
    # 400 px across 69.5 mm = 146.2 dpi; 560 px down 94.9 mm = 149.9 dpi; the lower one prints
    assert "card 'small': image 'art/small.png' prints at 146 dpi (below 300)" in result.output
    assert "821 × 1121 pixels for its 69.5 × 94.9 mm box" in result.output
    assert "card 'fine'" not in result.output
    assert result.exit_code == 0  # a warning, not an error


def test_recompress_makes_a_smaller_file_with_the_same_pixels(tmp_path: Path) -> None:
    game = make_game(tmp_path, ["noisy,2,art/noisy.png"], count=2)
    # a PNG saved at zlib level 1, as art tools often do: level 9 must shrink it
    image = Image.new("RGB", FULL_ART, FRAME)
    ImageDraw.Draw(image).rectangle((40, 40, FULL_ART[0] - 41, FULL_ART[1] - 41), fill=(230, 200, 90))
    for step in range(0, FULL_ART[1], 7):
        ImageDraw.Draw(image).line((0, step, FULL_ART[0], step), fill=(step % 255, 90, 30), width=2)
    (game / "art").mkdir()
    image.save(game / "art" / "noisy.png", compress_level=1)
    sizes, pictures = {}, {}
    for flag in ("", "--recompress"):
        out = tmp_path / f"out{flag}"
        args = ["build", "--data", str(tmp_path / "data"), "art-deck", "--lang", "en", "--paper", "a4", "--what",
                "cards", "--out", str(out), *([flag] if flag else [])]
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        pdf = out / "art-deck" / "en" / "a4" / "cards-deck.pdf"
        sizes[flag] = pdf.stat().st_size
        document = pdfium.PdfDocument(pdf)
        pictures[flag] = document[0].render(scale=DPI / 72).to_pil().convert("RGB").tobytes()
        document.close()
    assert sizes["--recompress"] < sizes[""] * 0.9, sizes
    assert pictures["--recompress"] == pictures[""]


def test_art_that_cannot_be_decoded_is_reported_not_a_traceback(tmp_path: Path) -> None:
    """An RGBA PNG must be decoded (for its alpha); data that inflates to garbage, with right CRCs,
    only shows when it is drawn. The build names the file and fails, as for any bad input."""
    import struct
    import zlib

    game = make_game(tmp_path, ["a,1,art/broken.png", "b,1,"], 2)
    art(game / "images" / "b.png", (200, 40, 40))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 821, 1121, 8, 6, 0, 0, 0)  # RGBA: decoded, never passed through
    (game / "art").mkdir()
    (game / "art" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                                              + chunk(b"IDAT", b"not deflate data at all") + chunk(b"IEND", b""))
    result = build(tmp_path)
    assert result.exit_code == 1
    assert "broken.png" in result.output and "cannot be decoded" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck.pdf").exists()


def test_sheet_warnings_are_reported_and_repeated_by_a_skipped_build(tmp_path: Path) -> None:
    """A 200 × 140 mm card leaves no margin for the ruler: the build says so, and says it again when
    the sheet is up to date (issue 9: a skipped output repeats the warnings it was built with)."""
    game = make_game(tmp_path, ["a,2,art/a.png"], 2)
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text().replace('size = "poker"', 'size = "200x140"'), encoding="utf-8")
    art(game / "art" / "a.png", (200, 30, 30))
    warning = "en/a4/cards-deck.pdf: no margin is wide enough for the sheet label and the 50 mm ruler"
    low_dpi = "image 'art/a.png' prints at 101 dpi"
    first = build(tmp_path)
    assert first.exit_code == 0 and "wrote 1 file(s)" in first.output
    assert warning in first.output and low_dpi in first.output
    second = build(tmp_path)
    assert "wrote 0 file(s)" in second.output and "1 up to date" in second.output
    assert second.output.count(warning) == 1 and second.output.count(low_dpi) == 1


def test_art_drawn_without_bleed_is_one_warning_for_the_deck(tmp_path: Path) -> None:
    """750 x 1050 px has the poker card's proportions (63.5 : 88.9), so it was drawn to the cut line:
    one warning for the component names the cards and the size to export; art with bleed (821 x 1121)
    gets none."""
    game = make_game(tmp_path, ["a,1,art/a.png", "b,1,art/b.png", "c,1,art/c.png"], 3)
    for name in "ab":
        art(game / "art" / f"{name}.png", (200, 30, 30), size=(750, 1050))
    art(game / "art" / "c.png", (30, 30, 200))  # FULL_ART: with its bleed
    result = run(tmp_path, "check")
    warnings = [line for line in result.output.splitlines() if "drawn without bleed" in line]
    assert len(warnings) == 1, result.output
    assert "the art of 2 card(s) ('a', 'b')" in warnings[0] and "'c'" not in warnings[0]
    assert "69.5 × 94.9 mm (821 × 1121 pixels at 300 dpi)" in result.output


def test_square_art_gets_no_bleed_warning(tmp_path: Path) -> None:
    """A square card's art is square with its bleed or without: 898 × 898 px art for a 70 mm card was
    told to export 898 × 898 pixels, the size it already was."""
    game = make_game(tmp_path, ["a,2,art/a.png"], 2)
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('size = "poker"', 'size = "square"'),
                        encoding="utf-8")
    art(game / "art" / "a.png", (200, 30, 30), size=(898, 898))
    result = run(tmp_path, "check")
    assert result.exit_code == 0, result.output
    assert "drawn without bleed" not in result.output


def test_a_deck_of_low_resolution_art_is_one_warning_not_one_per_card(tmp_path: Path) -> None:
    """Seven cards at 146 dpi: one warning for the component, naming four cards and the count, the
    lowest picture and the pixels it needs (five or fewer are still reported card by card)."""
    rows = [f"c{n},1,art/c{n}.png" for n in range(7)]
    game = make_game(tmp_path, rows, 7)
    for n in range(7):
        art(game / "art" / f"c{n}.png", (0, 0, 0), size=(400, 560))
    result = run(tmp_path, "check")
    assert result.exit_code == 0
    lines = [line for line in result.output.splitlines() if "dpi" in line and "warning" in line]
    assert len(lines) == 1, result.output
    assert "the art of 7 card(s) prints below 300 dpi ('c0', 'c1', 'c2', 'c3' and 3 more)" in lines[0]
    assert "at 146 dpi" in lines[0] and "821 × 1121 pixels for its 69.5 × 94.9 mm box" in result.output


def build_low_ink(root: Path):
    return CliRunner().invoke(cli, ["build", "--data", str(root / "data"), "art-deck", "--lang", "en", "--paper",
                                    "a4", "--what", "cards", "--what", "lowink", "--out", str(root / "out")],
                              catch_exceptions=False)


def test_no_low_ink_copy_of_a_deck_the_ink_saver_cannot_change(tmp_path: Path) -> None:
    """Picture faces and a picture back: nothing to leave out, so no second copy of every picture.

    The build says why, says it again when up to date, and removes a low-ink file an earlier build
    wrote while the back was still a filled background. With that back, the file is written."""
    game = make_game(tmp_path, ["a,1,art/a.png", "b,1,art/b.png"], 2)
    art(game / "art" / "a.png", (200, 30, 30))
    art(game / "art" / "b.png", (30, 30, 200))
    low_ink = tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck-lowink.pdf"
    first = build_low_ink(tmp_path)  # the default back: a title over a filled pattern
    assert first.exit_code == 0 and "wrote 2 file(s)" in first.output and low_ink.is_file()

    art(game / "art" / "back.png", (40, 90, 40))
    (game / "layouts").mkdir()
    (game / "layouts" / "picture-back.toml").write_text(
        '[[element]]\ntype = "image"\nsrc = "art/back.png"\nbleed = true\n', encoding="utf-8")
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text().replace('face = "full-bleed-image"',
                                                     'face = "full-bleed-image"\nback = "picture-back"'),
                        encoding="utf-8")
    note = ("note: en/a4/cards-deck-lowink.pdf: not written, the ink saver changes nothing on these cards "
            "(pictures, no filled backgrounds or patterns); cards-deck.pdf is the same sheets")
    second = build_low_ink(tmp_path)
    assert second.exit_code == 0 and "wrote 1 file(s)" in second.output and note in second.output
    assert not low_ink.exists()  # the stale one is gone: it showed the old back
    third = build_low_ink(tmp_path)
    assert "wrote 0 file(s)" in third.output and "1 up to date" in third.output
    assert third.output.count(note) == 1


def test_a_folder_or_a_non_picture_named_as_art_says_so(tmp_path: Path) -> None:
    """No Python object in the message ('<_io.BytesIO object at 0x...>'), and a folder is not 'not found'."""
    game = make_game(tmp_path, ["a,1,art/folder.png", "b,1,cards/deck.csv"], 2)
    (game / "art" / "folder.png").mkdir(parents=True)
    result = run(tmp_path, "check")
    assert result.exit_code == 1
    assert "card 'a': image 'art/folder.png' is a folder, not a picture" in result.output
    assert "card 'b': image 'cards/deck.csv' cannot be read: deck.csv is not an image pnp can read: use PNG, " \
           "JPEG or SVG" in result.output
    assert "object at 0x" not in result.output


def _build_in_a_fresh_interpreter(tmp_path: Path, pictures: dict[str, str]) -> dict[str, bool]:
    """Build a deck of plain fields whose art is ``pictures`` (file name: PIL mode) in a new Python, and
    say which of the modules that a build should import only when needed were imported."""
    import subprocess
    import sys

    game = make_game(tmp_path, [f"c{i},1,art/{name}" for i, name in enumerate(pictures)], len(pictures))
    for i, (name, mode) in enumerate(pictures.items()):
        art(game / "art" / name, (200, 30 * i, 0), size=(82, 112))
        if mode != "RGB":
            Image.open(game / "art" / name).convert(mode).save(game / "art" / name)
    manifest = game / "game.toml"  # a back of plain fields, as the benchmark's (the default back has conditions)
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('fields = ["image"]',
                                                                      'fields = ["image"]\nback = "plain-back"'))
    (game / "layouts").mkdir()
    (game / "layouts" / "plain-back.toml").write_text(
        '[[element]]\ntype = "rect"\nfill = "#334d66"\nbleed = true\n'
        '[[element]]\ntype = "text"\ntext = "{{ game.title }}"\nsize = 16\ncolour = "#ffffff"\n', encoding="utf-8")
    watched = ["jinja2", "PIL._imaging"]  # PIL._imaging: Pillow's C core, which running PIL.Image imports
    script = ("import sys; from pnp.cli import cli\n"
              "try:\n    cli(sys.argv[1:])\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
              f"print([name in sys.modules for name in {watched!r}])")
    result = subprocess.run([sys.executable, "-c", script, "build", "--data", str(tmp_path / "data"), "art-deck",
                             "--lang", "en", "--paper", "a4", "--what", "cards", "--out", str(tmp_path / "out"),
                             "--jobs", "1"], capture_output=True, text=True, check=True)
    assert (tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck.pdf").is_file()
    imported = eval(result.stdout.strip().splitlines()[-1])  # a list of booleans the script printed
    return dict(zip(watched, imported, strict=True))


def test_a_deck_of_plain_fields_builds_without_importing_jinja2(tmp_path: Path) -> None:
    """Jinja2 is imported by the first template that needs it, not on every build: its import is a
    tenth of a 90-card image build (docs/benchmarks.md). The time limit's clock imported it for its
    exception class, so every build paid for it; this build, in a fresh interpreter, must not."""
    imported = _build_in_a_fresh_interpreter(tmp_path, {f"c{i}.png": "RGB" for i in range(3)})
    assert imported["jinja2"] is False


def test_art_that_must_be_decoded_is_decoded_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """An RGBA picture is decoded to split off its alpha, in a process that did not import Pillow
    beforehand (the test suite's own imports load it early): each picture keeps its soft mask."""
    pictures = {f"c{i}.png": "RGBA" for i in range(6)}
    imported = _build_in_a_fresh_interpreter(tmp_path, pictures)
    assert imported["PIL._imaging"] is True
    reader = PdfReader(tmp_path / "out" / "art-deck" / "en" / "a4" / "cards-deck.pdf")
    masked = [image for image in image_objects(reader).values() if "/SMask" in image]
    assert len(masked) == len(pictures)


def _png_claiming(width: int, height: int) -> bytes:
    """A valid PNG (CRCs right) whose header claims this size, with a few bytes of image data:
    what a pass-through build would copy as it is, for every PDF reader to choke on."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
            + chunk(b"IEND", b""))


def _bmp_claiming(width: int, height: int) -> bytes:
    """A BMP header claiming this size: Pillow reads the size, and refuses it, without the pixels."""
    import struct

    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + 40 + 12, 0, 0, 54) + info + b"\0" * 12


def test_art_with_more_pixels_than_any_reader_should_decode_is_an_error(tmp_path: Path) -> None:
    """100,000 pixels square (10 gigapixels) in a 100-byte PNG: passed through, it would reach every
    printer; with --max-dpi, Pillow refused it with a traceback. A BMP of 20,000 square is what
    Pillow itself refuses to open."""
    game = make_game(tmp_path, ["huge,1,art/huge.png", "wide,1,art/wide.bmp", "fine,1,art/fine.png"], 3)
    (game / "art").mkdir()
    (game / "art" / "huge.png").write_bytes(_png_claiming(100_000, 100_000))
    (game / "art" / "wide.bmp").write_bytes(_bmp_claiming(20_000, 20_000))
    art(game / "art" / "fine.png", (200, 30, 30))
    for args in (["check"], ["build", "--what", "cards", "--paper", "a4", "--out", str(tmp_path / "out")],
                 ["build", "--what", "cards", "--paper", "a4", "--out", str(tmp_path / "out"), "--max-dpi", "300"]):
        result = run(tmp_path, *args)
        assert result.exit_code == 1, result.output
        errors = [line for line in result.output.splitlines() if ": error: " in line]
        assert len(errors) == 2, result.output
        assert "deck.csv:2: error: card 'huge': image 'art/huge.png' is 100,000 × 100,000 pixels " \
               "(10,000 megapixels), more than a PDF reader or a printer should be asked to decode (at most 179)" \
            in errors[0]
        # 69.5 × 94.9 mm (poker and the art's 3 mm bleed) at 600 dpi
        assert "fix: resample it: 1642 × 2242 pixels print its 69.5 × 94.9 mm box at 600 dpi" in result.output
        assert "deck.csv:3: error: card 'wide': image 'art/wide.bmp' cannot be read: wide.bmp has more pixels " \
               "than pnp decodes (at most 179 megapixels)" in errors[1]
    assert not list((tmp_path / "out").rglob("*.pdf"))

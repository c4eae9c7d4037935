"""SVG card art prints as vectors; SVG text, which would need an unembedded font, is refused."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

CIRCLE = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140" viewBox="0 0 100 140">'
          '<rect width="100" height="140" fill="#ffffff"/><circle cx="50" cy="70" r="40" fill="#d01010"/></svg>')
WITH_TEXT = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140">'
             '<text x="10" y="20" font-family="Helvetica">Hello</text></svg>')
LAYOUT = 'description = "art"\n\n[[element]]\ntype = "image"\nsrc = "art/{name}"\nfit = "contain"\n'


@pytest.fixture()
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "svg-game"]).exit_code == 0
    folder = tmp_path / "data" / "svg-game"
    (folder / "art").mkdir()
    (folder / "layouts").mkdir()
    manifest = folder / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'cards = "cards/deck.csv"', 'cards = "cards/deck.csv"\nface = "art-face"'), encoding="utf-8")
    return folder


def use(game: Path, name: str, svg: str) -> None:
    (game / "art" / name).write_text(svg, encoding="utf-8")
    (game / "layouts" / "art-face.toml").write_text(LAYOUT.format(name=name), encoding="utf-8")


def test_svg_art_is_drawn_as_vectors(game: Path, tmp_path: Path) -> None:
    use(game, "circle.svg", CIRCLE)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", "svg-game", "--what", "cards", "--paper", "a4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    pdf = out / "svg-game" / "en" / "a4" / "cards-deck.pdf"
    page = PdfReader(pdf).pages[0]
    xobjects = page["/Resources"].get("/XObject") or {}
    assert not [x for x in xobjects.values() if x.get_object()["/Subtype"] == "/Image"]
    assert b"/Helvetica" not in pdf.read_bytes()
    # the first card's trim centre (A4, poker 3×3 abutting: trims start 9.75 mm from the left and
    # 15.15 mm from the bottom) is inside the red circle
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    document.close()
    x_mm, y_mm = 9.75 + 63.5 / 2, 297 - (15.15 + 2 * 88.9 + 88.9 / 2)
    red, green, blue = image.getpixel((round(x_mm * 100 / 25.4), round(y_mm * 100 / 25.4)))
    assert red > 180 and green < 60 and blue < 60


def test_svg_with_text_is_refused_by_check(game: Path) -> None:
    use(game, "words.svg", WITH_TEXT)
    result = CliRunner().invoke(cli, ["check", "svg-game"])
    assert result.exit_code == 1
    assert "contains text, which would print in an unembedded font" in result.output
    assert "art-face.toml" in result.output
    assert "Traceback" not in result.output


def test_damaged_svg_art_is_refused_not_drawn_in_part(game: Path) -> None:
    """svglib recovers from broken XML and draws what survived; card art now goes through the same
    strict parse as icons, so a truncated file is an error with its name, not half a picture."""
    use(game, "cut.svg", CIRCLE[: CIRCLE.index("<circle")])  # saved halfway: no closing tags
    result = CliRunner().invoke(cli, ["check", "svg-game"])
    assert result.exit_code == 1, result.output
    assert "SVG cut.svg is not valid SVG" in result.output
    assert "Traceback" not in result.output


def test_a_cards_own_svg_in_error_is_reported_at_its_row(tmp_path: Path) -> None:
    """docs/image-decks.md: a problem with a card's own picture is reported at the card's row; an SVG's
    was reported at the SVG file, so the card list never said which card."""
    from PIL import Image

    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for name, colour in (("a.png", "red"), ("b.png", "green")):
        Image.new("RGB", (822, 1122), colour).save(pictures / name)
    data = tmp_path / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "--images", str(pictures), "deck"]).exit_code == 0
    images = data / "deck" / "images"
    (images / "b.png").unlink()
    (images / "b.svg").write_text(WITH_TEXT, encoding="utf-8")
    cards = data / "deck" / "cards" / "deck.csv"
    cards.write_text(cards.read_text(encoding="utf-8").replace("images/b.png", "images/b.svg"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "deck"])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert len(errors) == 1, result.output
    assert "/deck/cards/deck.csv:3: error: card 'b': image 'images/b.svg': SVG b.svg contains text" in errors[0]


def _embedded_png(colour: tuple[int, int, int]) -> str:
    import base64
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (20, 28), colour).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def test_a_picture_embedded_in_svg_art_is_drawn(game: Path, tmp_path: Path) -> None:
    """What Inkscape writes with 'embed image': renderPDF put it inline, which reportlab cannot do with
    binary streams, and the build ended in a TypeError traceback."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
           'height="140" viewBox="0 0 100 140"><image x="0" y="0" width="100" height="140" '
           f'xlink:href="data:image/png;base64,{_embedded_png((20, 160, 40))}"/></svg>')
    use(game, "photo.svg", svg)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", "svg-game", "--what", "cards", "--paper", "a4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    pdf = out / "svg-game" / "en" / "a4" / "cards-deck.pdf"
    xobjects = PdfReader(pdf).pages[0]["/Resources"]["/XObject"]
    assert [x for x in xobjects.values() if x.get_object()["/Subtype"] == "/Image"]
    document = pdfium.PdfDocument(pdf)
    image = document[0].render(scale=100 / 72).to_pil().convert("RGB")
    document.close()
    x_mm, y_mm = 9.75 + 63.5 / 2, 297 - (15.15 + 2 * 88.9 + 88.9 / 2)
    assert image.getpixel((round(x_mm * 100 / 25.4), round(y_mm * 100 / 25.4))) == (20, 160, 40)


@pytest.mark.parametrize("href", ["linked.png", "https://example.com/a.png", "data:image/gif;base64,R0lGOD"])
def test_a_picture_the_svg_only_links_to_is_an_error(game: Path, href: str) -> None:
    """It was left out of the print, with nothing said but svglib's log line."""
    (game / "art" / "linked.png").write_bytes(b"")
    use(game, "linked.svg", '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                            f'width="100" height="140"><image width="100" height="140" xlink:href="{href}"/></svg>')
    result = CliRunner().invoke(cli, ["check", "svg-game"])
    assert result.exit_code == 1
    assert "SVG linked.svg links to a picture pnp cannot draw" in result.output
    assert "embed the picture as PNG or JPEG" in result.output


GRADIENT = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140" viewBox="0 0 100 140">'
            '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#c02422"/>'
            '<stop offset="1" stop-color="#c02422"/></linearGradient></defs>'
            '<rect width="100" height="140" fill="url(#g)"/></svg>')


def test_a_gradient_in_art_drawn_on_every_card_keeps_its_colour(game: Path, tmp_path: Path) -> None:
    """Art repeated from card to card is drawn once as a form, whose resources lacked the gradient's
    shading: from the second card on, the singles PDF printed it black."""
    use(game, "frame.svg", GRADIENT)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["build", "svg-game", "--what", "singles", "--lang", "en", "--out", str(out)])
    assert result.exit_code == 0, result.output
    document = pdfium.PdfDocument(out / "svg-game" / "en" / "singles" / "cards-deck.pdf")
    centres = []
    for index in (0, 2, 4):  # the fronts of the first three cards (each followed by its back)
        image = document[index].render(scale=1).to_pil().convert("RGB")
        centres.append(image.getpixel((image.width // 2, image.height // 2)))
    document.close()
    assert centres == [(0xC0, 0x24, 0x22)] * 3


EFFECTS = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140" viewBox="0 0 100 140">'
           '<defs><filter id="shadow"><feGaussianBlur stdDeviation="2"/></filter></defs>'
           '<g style="opacity:0.5"><rect width="100" height="140" fill="#d01010"/></g>'
           '<circle cx="50" cy="70" r="30" fill="#ffffff" filter="url(#shadow)"/></svg>')


def test_art_using_what_svg_drawing_leaves_out_is_a_warning(game: Path) -> None:
    """A group at 50 % opacity printed solid and a drop shadow vanished, with nothing said."""
    use(game, "effects.svg", EFFECTS)
    result = CliRunner().invoke(cli, ["check", "svg-game"])
    warnings = [line for line in result.output.splitlines() if ": warning: " in line and "effects.svg" in line]
    assert len(warnings) == 1, result.output
    assert "prints without it: filters (shadows, blurs), opacity" in warnings[0]
    use(game, "circle.svg", CIRCLE)
    assert "leaves out" not in CliRunner().invoke(cli, ["check", "svg-game"]).output

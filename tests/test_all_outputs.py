"""Every PDF of every shipped game, as a print shop would open it.

One build of all four games (Japanese, Letter: the paper where cards abut
and the font is the CJK one) and a check of every file it writes: fonts
embedded and no reference to an unembedded base-14 font, page boxes on
every page, text that extracts.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

DATA = Path(__file__).resolve().parent.parent / "data"
BASE_14 = (b"/Helvetica", b"/Times-Roman", b"/Courier", b"/Symbol", b"/ZapfDingbats", b"/HeiseiMin",
           b"/HeiseiKakuGo")


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Path]]:
    """The build's output (progress, warnings, text report) and every PDF it wrote."""
    out = tmp_path_factory.mktemp("all")
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "--lang", "ja", "--paper", "letter",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    found = sorted(out.rglob("*.pdf"))
    games = {path.relative_to(out).parts[0] for path in found}
    assert games == {"two-ops", "take-over-that-job", "rudy", "gadget-trick"}
    return result.output, found


@pytest.fixture(scope="module")
def pdfs(build: tuple[str, list[Path]]) -> list[Path]:
    return build[1]


def test_the_build_is_quiet_but_for_progress(build: tuple[str, list[Path]]) -> None:
    """A newcomer's first build of the shipped games warns of nothing: no text shrunk to fit (the built-in
    back's 代われそのジョブ used to be), no warning. (Every language's card texts: tests/test_games.py.)"""
    output, _ = build
    lines = output.splitlines()
    assert lines and lines[-1].startswith("wrote ") and lines[-1].endswith("/"), lines[-1:]
    assert [line for line in lines[:-1] if not line.startswith("built ")] == []


def test_every_font_is_embedded(pdfs: list[Path]) -> None:
    for pdf in pdfs:
        data = pdf.read_bytes()
        assert not [name for name in BASE_14 if name in data], pdf
        for page in PdfReader(pdf).pages:
            for font in (page["/Resources"].get("/Font") or {}).values():
                font = font.get_object()
                descendants = font.get("/DescendantFonts")
                target = descendants[0].get_object() if descendants else font
                descriptor = target["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor or "/FontFile3" in descriptor, (pdf, target["/BaseFont"])


def test_every_page_has_trim_and_bleed_boxes(pdfs: list[Path]) -> None:
    for pdf in pdfs:
        if pdf.name.startswith(("rules", "aid.pdf")):
            continue  # documents are not cut
        for number, page in enumerate(PdfReader(pdf).pages):
            assert "/TrimBox" in page and "/BleedBox" in page, (pdf, number)
            media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
            assert media.left <= bleed.left <= trim.left and trim.right <= bleed.right <= media.right, (pdf, number)


def test_text_extracts_in_japanese(pdfs: list[Path]) -> None:
    rulebooks = [pdf for pdf in pdfs if pdf.name == "rules.pdf"]
    assert len(rulebooks) == 4
    expected = {"two-ops": "演算子", "take-over-that-job": "切札", "rudy": "オプト", "gadget-trick": "監視カード"}
    for pdf in rulebooks:
        document = pdfium.PdfDocument(pdf)
        text = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
        document.close()
        game = pdf.parent.parent.parent.name
        assert expected[game] in text, game

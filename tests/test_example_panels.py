"""An example panel is a table, which breaks across pages only between its rows: a paragraph in it
longer than a page must still print, whole, in the rulebook and the booklet."""

from __future__ import annotations

import shutil
from pathlib import Path

from pypdf import PdfReader

from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.booklet import write_booklet
from pnp.render.rulebook import write_rulebook
from pnp.rules import get_rules

GAME = Path(__file__).resolve().parents[1] / "data" / "take-over-that-job"
SENTENCE = "She weighs every card in her hand before she plays."
TIMES = 240  # about three A4 pages of one paragraph


def test_a_paragraph_longer_than_a_page_continues_in_its_panel(tmp_path: Path, cache: Path) -> None:
    folder = tmp_path / "take-over-that-job"
    shutil.copytree(GAME, folder)
    rules = folder / "rules" / "en.md"
    text = rules.read_text(encoding="utf-8")
    anchor = "The card still face up at the end is"
    assert anchor in text
    rules.write_text(text.replace(anchor, " ".join([SENTENCE] * TIMES) + "\n\n" + anchor, 1), encoding="utf-8")
    game = load_game(folder, Report())
    assert game is not None
    book = write_rulebook(game, get_rules(game.rules), "en", "a4", tmp_path / "rules.pdf", cache).path
    pages = [page.extract_text().replace("\n", " ") for page in PdfReader(book).pages]
    holding = [number for number, page in enumerate(pages) if "weighs every card" in page]
    assert len(holding) >= 3 and holding == list(range(holding[0], holding[-1] + 1))  # page after page
    assert sum(page.count("weighs every card") for page in pages) == TIMES  # no line lost at a break
    booklet = write_booklet(game, get_rules(game.rules), "en", "a4", tmp_path / "booklet.pdf", cache).path
    assert sum(page.extract_text().replace("\n", " ").count("weighs every card")
               for page in PdfReader(booklet).pages) == TIMES

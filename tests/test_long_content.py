"""Content longer than a page in a rule text: an example panel's paragraph, a table cell, a list item.

Each sits in a table, which Platypus breaks across pages only between rows; each must still print,
whole, in the rulebook and the booklet, instead of stopping the build with a LayoutError.
"""

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


def copy_with(tmp_path: Path, replacement: tuple[str, str]) -> Path:
    folder = tmp_path / "take-over-that-job"
    shutil.copytree(GAME, folder)
    rules = folder / "rules" / "en.md"
    text = rules.read_text(encoding="utf-8")
    assert replacement[0] in text
    rules.write_text(text.replace(*replacement, 1), encoding="utf-8")
    return folder


def printed(folder: Path, tmp_path: Path, cache: Path) -> list[str]:
    game = load_game(folder, Report())
    assert game is not None
    book = write_rulebook(game, get_rules(game.rules), "en", "a4", tmp_path / "rules.pdf", cache).path
    return [page.extract_text().replace("\n", " ") for page in PdfReader(book).pages]


def test_a_table_cell_longer_than_a_page_breaks_inside(tmp_path: Path, cache: Path) -> None:
    long = " ".join([SENTENCE] * TIMES)
    folder = copy_with(tmp_path, ("## End of a round {#end-of-round}",
                                  f"| a | b |\n| --- | --- |\n| x | {long} |\n\n## End of a round {{#end-of-round}}"))
    pages = printed(folder, tmp_path, cache)
    assert sum(page.count("weighs every card") for page in pages) == TIMES
    assert len([page for page in pages if "weighs every card" in page]) >= 2


def test_a_list_item_longer_than_a_page_breaks_inside(tmp_path: Path, cache: Path) -> None:
    long = " ".join([SENTENCE] * TIMES)
    folder = copy_with(tmp_path, ("## End of a round {#end-of-round}",
                                  f"- {long}\n- and a short one\n\n## End of a round {{#end-of-round}}"))
    pages = printed(folder, tmp_path, cache)
    assert sum(page.count("weighs every card") for page in pages) == TIMES
    assert any("and a short one" in page for page in pages)

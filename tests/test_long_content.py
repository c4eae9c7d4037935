"""Content longer than a page in a rule text: an example panel's paragraph, a table cell, a list item.

Each sits in a table, which Platypus breaks across pages only between rows; each must still print,
whole, in the rulebook and the booklet, instead of stopping the build with a LayoutError.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.compose.ruletext import require_rule_text
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.rulebook.book import write_rulebook
from pnp.render.rulebook.booklet import write_booklet
from pnp.rules import get_rules

GAME = Path(__file__).resolve().parents[1] / "data" / "take-over-that-job"
SENTENCE = "She weighs every card in her hand before she plays."
TIMES = 240  # about three A4 pages of one paragraph
LONG = " ".join([SENTENCE] * TIMES)
END_OF_ROUND = "## End of a round {#end-of-round}"

#: where the long text goes in rules/en.md: (what it is put before, the Markdown that holds it)
PLACES = {
    "example panel": ("The card still face up at the end is", f"{LONG}\n\n"),
    "table cell": (END_OF_ROUND, f"| a | b |\n| --- | --- |\n| x | {LONG} |\n\n"),
    "list item": (END_OF_ROUND, f"- {LONG}\n- and a short one\n\n"),
}


def pages_of(path: Path) -> list[str]:
    return [page.extract_text().replace("\n", " ") for page in PdfReader(path).pages]


@pytest.mark.parametrize("place", PLACES)
def test_text_longer_than_a_page_continues_whole(place: str, tmp_path: Path, cache: Path) -> None:
    folder = tmp_path / "take-over-that-job"
    shutil.copytree(GAME, folder)
    rules = folder / "rules" / "en.md"
    text = rules.read_text(encoding="utf-8")
    before, block = PLACES[place]
    assert before in text
    rules.write_text(text.replace(before, block + before, 1), encoding="utf-8")
    game = load_game(folder, Report())
    assert game is not None
    book = write_rulebook(game, get_rules(game.rules), "en", require_rule_text(game, get_rules(game.rules),
                          "en"), "a4", tmp_path / "rules.pdf", cache).path
    pages = pages_of(book)
    holding = [number for number, page in enumerate(pages) if "weighs" in page]
    assert len(holding) >= 2 and holding == list(range(holding[0], holding[-1] + 1))  # page after page
    # a word never breaks across lines, so each sentence's "weighs" is counted once: none lost at a break
    assert sum(page.split().count("weighs") for page in pages) == TIMES
    if place == "list item":
        assert any("and a short one" in page for page in pages)  # the next item follows
    booklet = write_booklet(game, get_rules(game.rules), "en", require_rule_text(game, get_rules(game.rules),
                            "en"), "a4", tmp_path / "booklet.pdf", cache).path
    assert sum(page.split().count("weighs") for page in pages_of(booklet)) == TIMES  # pages imposed out of order

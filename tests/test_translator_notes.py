"""Issues 6 to 8: a translated rulebook says on its title page what the translation is and is not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.rulebook import write_rulebook
from pnp.rules import get_rules

DATA = Path(__file__).resolve().parent.parent / "data"


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("game_id", ["take-over-that-job", "rudy", "gadget-trick"])
def test_the_title_page_carries_the_translators_note(game_id: str, cache: Path, tmp_path: Path) -> None:
    game = load_game(DATA / game_id, Report())
    rules = get_rules(game.rules)
    assert set(game.translator_notes) == set(game.languages)
    for lang in game.languages:
        note = game.translator_notes[lang]
        assert len(note) > 20
        path = write_rulebook(game, rules, lang, "a4", tmp_path / f"{lang}.pdf", cache).path
        title_page = squeezed(PdfReader(path).pages[0].extract_text())
        # the note wraps over several lines: compare without the spaces and breaks
        assert squeezed(note)[:60] in title_page

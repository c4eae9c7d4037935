"""Every PDF states its language (/Lang), as the rulebooks did: screen readers and text extraction pick
the right rules for Japanese by it. The aid cards' title names the cards, not every table on them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"


def test_card_sheets_aids_and_the_calibration_sheet_state_their_language(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "two-ops", "--paper", "a4", "--out", str(tmp_path),
                                      "--what", "cards", "--what", "aid", "--what", "calibration"])
    assert result.exit_code == 0, result.output
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    names = {path.name for path in pdfs}
    assert {"cards-deck.pdf", "aid.pdf", "aid-cards.pdf", "calibration.pdf"} <= names, names
    for path in pdfs:
        lang = path.parts[-3]  # output/<game>/<lang>/<paper>/<file>
        assert PdfReader(path).trailer["/Root"].get("/Lang") == lang, path
    for lang, words in (("en", "player aid cards"), ("ja", "サマリーカード")):
        title = PdfReader(tmp_path / "two-ops" / lang / "a4" / "aid-cards.pdf").metadata.title
        assert title.endswith(f" — {words}") and len(title) < 40, title

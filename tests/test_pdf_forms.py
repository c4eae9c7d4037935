"""Forms keep their transparency: a `gs` inside a form must find its graphics state in the form's resources.

reportlab's forms list fonts but not graphics states, so a viewer skipped the `gs` and drew the
booklet's 55 % white veil over dimmed example cards as solid white: blank rectangles on paper.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
from pypdf import PdfReader
from reportlab.lib.colors import black, white
from reportlab.pdfgen.canvas import Canvas

from pnp.compose.ruletext import require_rule_text
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.pdf.pdf_forms import end_form
from pnp.render.rulebook.booklet import write_booklet
from pnp.rules import get_rules

DATA = Path(__file__).resolve().parents[1] / "data"


def forms_missing_states(path: Path) -> list[str]:
    """Form XObjects whose content selects a graphics state their resources do not define."""
    missing = []
    seen: set[int] = set()
    for page in PdfReader(path).pages:
        for name, ref in (page["/Resources"].get("/XObject") or {}).items():
            form = ref.get_object()
            if form.get("/Subtype") != "/Form" or ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            used = {m.decode() for m in re.findall(rb"/(\S+) gs", form.get_data())}
            states = (form.get("/Resources") or {}).get("/ExtGState") or {}
            missing.extend(f"{name}: /{state}" for state in sorted(used) if f"/{state}" not in states)
    return missing


def test_a_veil_inside_a_form_is_translucent(tmp_path: Path) -> None:
    path = tmp_path / "veil.pdf"
    canvas = Canvas(str(path), pagesize=(100, 100), invariant=1)
    canvas.beginForm("veiled", 0, 0, 100, 100)
    canvas.setFillColor(black)
    canvas.rect(0, 0, 100, 100, stroke=0, fill=1)
    canvas.setFillColor(white, alpha=0.55)
    canvas.rect(0, 0, 100, 100, stroke=0, fill=1)
    end_form(canvas)
    canvas.doForm("veiled")
    canvas.showPage()
    canvas.save()
    assert forms_missing_states(path) == []
    grey = pdfium.PdfDocument(path)[0].render(scale=1).to_pil().convert("L").getpixel((50, 50))
    assert 120 <= grey <= 160  # 55 % white over black is 140; a skipped gs gives 255


def test_the_booklets_dimmed_example_cards_keep_their_veil(tmp_path: Path, cache: Path) -> None:
    game = load_game(DATA / "take-over-that-job", Report())
    assert game is not None
    path = tmp_path / "booklet.pdf"
    write_booklet(game, get_rules(game.rules), "en", require_rule_text(game, get_rules(game.rules),
                  "en"), "letter", path, cache)
    reader = PdfReader(path)
    veiled = [ref for page in reader.pages for ref in (page["/Resources"].get("/XObject") or {}).values()
              if b" gs" in ref.get_object().get_data()]
    assert veiled, "the booklet's example figures dim the cards that lose the trick"
    assert forms_missing_states(path) == []

"""Example panels continue on the next page between paragraphs; a figure keeps its first paragraph."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from pnp.render.rulebook.story import _boxed
from pnp.render.rulebook.style import EXAMPLE_TINT
from pnp.render.text.fonts import prepare_fonts

WORDS = "Paragraph {n} of the long example, which explains one more step of the trick in detail."


def build(tmp_path: Path, cache: Path, before: float) -> list[str]:
    """Page texts of a document: ``before`` points of other content, then a panel of twelve paragraphs."""
    texts = [WORDS.format(n=n) for n in range(1, 13)]
    fontset = prepare_fonts(texts, cache)
    style = ParagraphStyle("body", fontName=fontset.regular, fontSize=10, leading=13, spaceAfter=4)
    figure = Paragraph("FIGURE", style)
    panel = _boxed([[figure, Paragraph(texts[0], style)], *(Paragraph(t, style) for t in texts[1:])],
                   A5[0] - 72, EXAMPLE_TINT, fontset)
    path = tmp_path / "panel.pdf"
    SimpleDocTemplate(str(path), pagesize=A5, leftMargin=36, rightMargin=36, topMargin=36,
                      bottomMargin=36).build([Spacer(1, before), panel])
    return [page.extract_text() for page in PdfReader(path).pages]


def test_a_long_panel_continues_on_the_next_page(tmp_path, cache):
    pages = build(tmp_path, cache, before=400)
    assert len(pages) == 2
    assert "FIGURE" in pages[0] and "Paragraph 1 of" in pages[0]  # the page is not left empty below the spacer
    assert "Paragraph 12 of" in pages[1]
    first_on_next = min(n for n in range(1, 13) if f"Paragraph {n} of" in pages[1])
    assert all(f"Paragraph {n} of" in pages[0] for n in range(1, first_on_next))


def test_a_figure_never_ends_a_page_without_its_first_paragraph(tmp_path, cache):
    """Room for the figure alone: the figure row (figure and first paragraph) moves on whole."""
    pages = build(tmp_path, cache, before=470)
    figure_page = next(i for i, text in enumerate(pages) if "FIGURE" in text)
    assert "Paragraph 1 of" in pages[figure_page]

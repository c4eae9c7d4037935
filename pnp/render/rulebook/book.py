"""Rulebooks with reportlab Platypus: a title page with credits, then the rule text.

Every string is known before the first page is drawn (rule text, aid tables,
figure labels, card faces, title page), so :func:`prepare_fonts` subsets the
fonts to exactly those characters and refuses a character no font has, naming
it, instead of printing an empty box. All body text is set by
:class:`KinsokuParagraph`, so English words never split and Japanese keeps
kinsoku, in tables and figures alike.

Output is reproducible: ``invariant=1`` fixes the document id and the dates
(reportlab honours SOURCE_DATE_EPOCH), and the file is written atomically.

This module assembles the document; its parts are the look (:mod:`pnp.render.rulebook.style`),
the blocks as flowables (:mod:`pnp.render.rulebook.story`) and the title page
(:mod:`pnp.render.rulebook.cover`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
)
from reportlab.platypus.doctemplate import LayoutError

from pnp.compose.blocks import (
    RuleText,
)
from pnp.compose.data_aids import all_aid_tables
from pnp.diagnostics import DataError, Report
from pnp.files.atomic import atomic_write
from pnp.load.text_files import read_text
from pnp.model.game import Game
from pnp.render.rulebook.card_art import CardArt, make_card_art
from pnp.render.rulebook.cover import TITLE_FOOT_HEIGHT, cover_figure, title_page, title_page_texts
from pnp.render.rulebook.figure_specs import figure_texts
from pnp.render.rulebook.story import StoryContext, flowables_for
from pnp.render.rulebook.style import GREY, RULE_GREY, RulebookStyles, aid_table_texts, ink_of
from pnp.render.sheets.paper import Paper, parse_paper
from pnp.render.text.fonts import FontSet, MissingGlyphError, prepare_fonts
from pnp.rules.base import AidTable, GameRules


class PageCountingDoc(BaseDocTemplate):
    """Remembers how many pages it made, which Platypus forgets after the build, and the rule text's
    line of the part it is laying out, for a part too tall for any page."""

    pages_made = 0
    source_line: int | None = None

    def afterPage(self) -> None:
        self.pages_made += 1

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        if flowables:
            self.source_line = getattr(flowables[0], "source_line", self.source_line)
        super().handle_flowable(flowables)


@dataclass(frozen=True)
class RulebookResult:
    path: Path
    lang: str
    paper: str
    pages: int
    page_size: tuple[float, float]  # points
    warnings: tuple[str, ...] = ()


def footer_painter(title: str, fontset: FontSet, styles: RulebookStyles) -> Callable[[Any, Any], None]:
    """Game title at the left, page number at the right, in grey at the foot of each body page."""

    def paint(canvas: Any, doc: Any) -> None:
        width, _ = doc.pagesize
        y = styles.margin * 0.5
        canvas.saveState()
        canvas.setFillColor(GREY)
        canvas.setFont(fontset.regular, styles.footer)
        canvas.drawString(styles.margin, y, title)
        canvas.drawRightString(width - styles.margin, y, str(doc.page))
        canvas.setStrokeColor(RULE_GREY)
        canvas.setLineWidth(0.4)
        canvas.line(styles.margin, y + styles.footer * 1.4, width - styles.margin, y + styles.footer * 1.4)
        canvas.restoreState()

    return paint


def page_templates(page_size: tuple[float, float], styles: RulebookStyles, title: str,
                   fontset: FontSet) -> list[PageTemplate]:
    width, height = page_size
    margin = styles.margin
    body_width = width - 2 * margin
    foot = Frame(margin, margin, body_width, TITLE_FOOT_HEIGHT, id="foot", leftPadding=0, rightPadding=0,
                 topPadding=0, bottomPadding=0)
    top = Frame(margin, margin + TITLE_FOOT_HEIGHT, body_width, height - 2 * margin - TITLE_FOOT_HEIGHT, id="top",
                leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    body = Frame(margin, margin, body_width, height - 2 * margin, id="body", leftPadding=0, rightPadding=0,
                 topPadding=0, bottomPadding=0)
    return [PageTemplate("title", [top, foot], pagesize=page_size),
            PageTemplate("body", [body], onPage=footer_painter(title, fontset, styles), pagesize=page_size)]


@dataclass
class PreparedRulebook:
    """Everything a rulebook needs before typesetting: text, tables, art, fonts."""

    game: Game
    lang: str
    rule_text: RuleText
    tables: dict[str, AidTable]
    art: CardArt
    fontset: FontSet
    warnings: list[str]


def prepare_rulebook(game: Game, rules: GameRules, lang: str, rule_text: RuleText,
                     cache_dir: Path) -> PreparedRulebook:
    """Collect every string the rulebook prints before fonts are subset (raises DataError on bad data).

    The rule text comes parsed (:func:`pnp.compose.ruletext.require_rule_text`): render sets blocks,
    it reads no template and no Markdown of its own."""
    tables = {table.id: table for table in all_aid_tables(game, rules, lang)}
    report = Report()
    art = make_card_art(game, rules, lang, report)
    placed = [e for e in game.examples if e.id in {ref.example for ref in rule_text.examples}]
    texts = [*rule_text.texts(), *aid_table_texts(tables.values()), *title_page_texts(game, lang),
             *figure_texts(game, placed, rule_text.results), *art.texts(), "0123456789"]
    fontset = fonts_for(texts, cache_dir, rule_text, overrides=game.fonts)
    art.fontset = fontset
    return PreparedRulebook(game, lang, rule_text, tables, art, fontset, [d.message for d in report.diagnostics])


def fonts_for(texts: Iterable[str], cache_dir: Path, rule_text: RuleText | None = None,
              overrides: Mapping[str, Path] | None = None) -> FontSet:
    """prepare_fonts (with the game's own fonts, if any), a missing glyph reported at the line using it."""
    texts = [text for text in texts if text]
    try:
        return prepare_fonts(texts, cache_dir, overrides=overrides)
    except MissingGlyphError as exc:
        chars = {char for missing in exc.missing.values() for char in missing}
        file, line = (rule_text.path, _line_using(rule_text.path, chars)) if rule_text else (None, None)
        raise DataError(str(exc), file, line, exc.diagnostic.fix) from None


def _line_using(path: Path, chars: set[str]) -> int | None:
    try:
        lines = read_text(path).split("\n")
    except DataError:
        return None
    return next((number for number, text in enumerate(lines, start=1) if chars & set(text)), None)


def rulebook_story(prepared: PreparedRulebook, page_size: tuple[float, float], outline: bool = True
                   ) -> tuple[list[Flowable], RulebookStyles]:
    game, lang = prepared.game, prepared.lang
    styles = RulebookStyles.for_page(page_size[0], lang, ink_of(game))
    ctx = StoryContext(game=game, fontset=prepared.fontset, styles=styles, art=prepared.art, tables=prepared.tables,
                       examples={e.id: e for e in game.examples}, results=prepared.rule_text.results,
                       outline=outline)
    width = page_size[0] - 2 * styles.margin
    story = title_page(game, lang, ctx, width, cover_figure(prepared.rule_text, ctx))
    story.extend(flowables_for(prepared.rule_text.blocks, ctx, width))
    return story, styles


def make_doc(target: Any, page_size: tuple[float, float], styles: RulebookStyles, prepared: PreparedRulebook,
             subject: str) -> PageCountingDoc:
    game = prepared.game
    doc = PageCountingDoc(
        target, pagesize=page_size, leftMargin=styles.margin, rightMargin=styles.margin, topMargin=styles.margin,
        bottomMargin=styles.margin, invariant=1, initialFontName=prepared.fontset.regular, pageCompression=1,
        title=game.title(prepared.lang), author=game.author(prepared.lang), subject=subject,
        creator="pnp", lang=prepared.lang,
    )
    doc.addPageTemplates(page_templates(page_size, styles, game.title(prepared.lang), prepared.fontset))
    return doc


def build_story(doc: PageCountingDoc, story: list[Flowable], prepared: PreparedRulebook, what: str,
                **options: Any) -> None:
    """``doc.build(story)``; a part no page can hold (a heading, a quote or a list item thousands of
    words long) is the rule text's to change, an error at its line, not a traceback."""
    try:
        doc.build(story, **options)
    except LayoutError:
        raise DataError(f"{what}: this part is taller than a page and cannot be cut across pages",
                        prepared.rule_text.path, doc.source_line,
                        "cut it into shorter paragraphs: a heading, a quote or a list item must fit one page") from None


def write_rulebook(game: Game, rules: GameRules, lang: str, rule_text: RuleText, paper: str | Paper, path: Path,
                   cache_dir: Path) -> RulebookResult:
    """The rulebook PDF for one language and paper, written atomically.

    Raises :class:`DataError` (with file and line) when the rule text or a
    character in it cannot be printed; `pnp check` reports the same earlier.
    """
    sheet = parse_paper(paper)
    prepared = prepare_rulebook(game, rules, lang, rule_text, cache_dir)
    page_size = sheet.size_pt
    story, styles = rulebook_story(prepared, page_size)
    with atomic_write(path) as handle:
        doc = make_doc(handle, page_size, styles, prepared, f"Rulebook ({lang}, {sheet.name})")
        build_story(doc, story, prepared, f"rulebook ({lang}, {sheet.name})")
    return RulebookResult(Path(path), lang, sheet.name, doc.pages_made, page_size, tuple(prepared.warnings))

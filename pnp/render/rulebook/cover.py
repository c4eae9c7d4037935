"""The rulebook's title page: title, a few cards, credits, and at its foot the translator's note
and the terms. The cards are the first worked example's, or a deck's first, middle and last card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    FrameBreak,
    KeepInFrame,
    NextPageTemplate,
    PageBreak,
    Spacer,
)
from reportlab.platypus.flowables import HRFlowable

from pnp.compose.blocks import (
    RuleText,
)
from pnp.model.game import Game
from pnp.render.rulebook.figure_specs import CardSlot, FigureSpec, example_figure
from pnp.render.rulebook.figures import FigureFlowable
from pnp.render.rulebook.story import StoryContext
from pnp.render.rulebook.style import GREY, RULE_GREY, bold, regular
from pnp.render.text.paragraph import KinsokuParagraph


def _credit_texts(game: Game, lang: str) -> dict[str, str]:
    credits = game.credits

    def localized(key: str) -> str:
        value = credits.get(key)
        if isinstance(value, Mapping):
            return str(value.get(lang) or value.get(game.source_language) or "")
        return "" if value is None else str(value)

    return {"role": localized("role"), "author": localized("author"), "year": localized("year"),
            "edition": localized("edition")}


def title_page_texts(game: Game, lang: str) -> list[str]:
    credits = _credit_texts(game, lang)
    return [game.title(lang), game.subtitles.get(lang, ""), *credits.values(),
            game.translator_notes.get(lang, ""), game.terms.get(lang, ""), "()"]


def title_page(game: Game, lang: str, ctx: StoryContext, width: float, cover: FigureSpec | None) -> list[Flowable]:
    """Title, subtitle, a few cards, credits; then, at the foot, translator's note and terms."""
    styles, fontset = ctx.styles, ctx.fontset
    centred = replace(styles.body, alignment="center")
    credits = _credit_texts(game, lang)
    story: list[Flowable] = [Spacer(1, 18 * mm), KinsokuParagraph(bold(game.title(lang)), styles.title, fontset)]
    if game.subtitles.get(lang):
        story.append(KinsokuParagraph(regular(game.subtitles[lang]), styles.subtitle, fontset))
    story.append(Spacer(1, 12 * mm))
    if cover is not None:
        figure = FigureFlowable(cover, ctx.art, fontset, card_width=styles.card_width * 1.6,
                                font_size=styles.body.font_size)
        figure.hAlign = "CENTER"
        story.extend([figure, Spacer(1, 12 * mm)])
    if credits["role"]:
        story.append(KinsokuParagraph(regular(credits["role"]), replace(centred, colour=GREY, space_after=1), fontset))
    author = credits["author"] + (f" ({credits['year']})" if credits["year"] else "")
    if author.strip():
        story.append(KinsokuParagraph(bold(author), replace(styles.subtitle, colour=styles.ink), fontset))
    if credits["edition"]:
        story.append(Spacer(1, 4 * mm))
        story.append(KinsokuParagraph(regular(credits["edition"]), replace(styles.small, alignment="center"), fontset))
    foot: list[Flowable] = []
    note = game.translator_notes.get(lang, "")
    if note:
        foot.append(KinsokuParagraph(regular(note), styles.small, fontset))
    terms = game.terms.get(lang, "")
    if terms:
        foot.append(HRFlowable(width="100%", thickness=0.5, color=RULE_GREY, spaceBefore=2, spaceAfter=4))
        foot.append(KinsokuParagraph(regular(terms), styles.small, fontset))
    story.append(FrameBreak())
    story.append(AtFoot(KeepInFrame(width, TITLE_FOOT_HEIGHT, foot, mode="shrink")))
    story.append(NextPageTemplate("body"))
    story.append(PageBreak())
    return story


TITLE_FOOT_HEIGHT = 55 * mm


class AtFoot(Flowable):
    """Takes the whole frame and sets its content against the bottom edge (terms at the foot of the title page)."""

    def __init__(self, content: Flowable) -> None:
        super().__init__()
        self.content = content
        self._content_height = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        _, self._content_height = self.content.wrapOn(self.canv, availWidth, availHeight)
        self.width, self.height = availWidth, max(availHeight, self._content_height)
        return self.width, self.height

    def draw(self) -> None:
        self.content.drawOn(self.canv, 0, 0)


COVER_CARDS = 3


def cover_figure(rule_text: RuleText, ctx: StoryContext) -> FigureSpec | None:
    """The first row of cards of the first example placed: a glimpse of the game on the cover.

    A game without worked examples (a new one, an image deck) shows a few of its cards instead,
    spread over its first printed deck, so the cover is never bare once there are cards.
    """
    for ref in rule_text.examples:
        example = ctx.examples.get(ref.example)
        if example is None:
            continue
        spec = example_figure(ctx.game, example, ctx.results.get(example.id))
        first = spec.rows[0] if spec.rows else ()
        groups = tuple(tuple(i for i in group if isinstance(i, CardSlot)) for group in first)
        groups = tuple(group for group in groups if group)
        if groups:
            return FigureSpec((groups,))
    return sample_cards(ctx.game)


def sample_cards(game: Game) -> FigureSpec | None:
    """First, middle and last card of the first printed deck: its range at a glance."""
    deck = next((c for c in game.components.values() if c.printed and c.kind == "cards" and c.cards), None)
    if deck is None:
        return None
    cards = deck.cards
    picked = sorted({round(i * (len(cards) - 1) / (COVER_CARDS - 1)) for i in range(COVER_CARDS)})
    return FigureSpec(((tuple(CardSlot(cards[i].id) for i in picked),),))

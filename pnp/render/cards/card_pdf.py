"""One component's card sheets as a PDF: bound cards + imposition + painter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pnp.compose.deck import BoundComponent
from pnp.model.game import Game
from pnp.render.cards.art import decode_art_ahead
from pnp.render.cards.deck import DeckRenderer, expand_copies, make_painter
from pnp.render.cards.faces import TextIssue, ink_saver_changes
from pnp.render.sheets.draw import SheetLabels, SheetOptions, SheetsResult, write_card_sheets
from pnp.render.sheets.imposition import plan_fold_sheet, plan_sheet, plan_single_card
from pnp.render.sheets.paper import CardSize, Paper
from pnp.render.text.fonts import FontSet

Variant = Literal["duplex", "fold", "lowink", "singles"]


@dataclass(frozen=True)
class PrintOptions:
    """How the user prints: part of every card sheet's inputs."""

    bleed_mm: float = 3.0
    duplex_edge: Literal["long", "short"] = "long"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    only: tuple[str, ...] = ()
    recompress: bool = False  # PNG art re-deflated at level 9 instead of copied as it is
    max_dpi: int | None = None  # art that would print finer than this is resampled down to it


@dataclass(frozen=True)
class CardPdfResult:
    path: Path
    sheets: int
    cards: int
    issues: tuple[TextIssue, ...]
    warnings: tuple[str, ...]


SHEET_WORDS = {
    "en": SheetLabels(),
    "ja": SheetLabels(
        sheet="シート {n} / {m}",
        backs="シート {n} / {m} の裏面",
        print_note="実際のサイズ（100%）で印刷",
        duplex_long="両面印刷：長辺とじ",
        duplex_short="両面印刷：短辺とじ",
        fold_note="点線の印で折って貼り合わせてから切る",
    ),
}


def labels_for(game: Game, component_name: str, lang: str) -> SheetLabels:
    base = SHEET_WORDS.get(lang, SHEET_WORDS["en"])
    return SheetLabels(game=game.title(lang), component=component_name, sheet=base.sheet, backs=base.backs,
                       print_note=base.print_note, duplex_long=base.duplex_long, duplex_short=base.duplex_short,
                       fold_note=base.fold_note, separator=base.separator)


def label_texts(game: Game, lang: str) -> list[str]:
    """Every string a sheet label may print, so the font subset covers it."""
    words = SHEET_WORDS.get(lang, SHEET_WORDS["en"])
    sample = [words.sheet, words.backs, words.print_note, words.duplex_long, words.duplex_short, words.fold_note,
              words.separator, game.title(lang), "0123456789 A4 Letter mm ×", "50 mm"]
    sample.extend(component.name(lang) for component in game.components.values())
    return sample


def write_component_pdf(game: Game, bound: BoundComponent, fontset: FontSet, paper: Paper | None, lang: str,
                        variant: Variant, options: PrintOptions, path: Path) -> CardPdfResult:
    """``paper``: the sheet to impose on; None for ``singles``, whose pages are the cards themselves."""
    component = bound.component
    width, height = component.trim_mm
    card = CardSize(width, height, "custom")
    mode = "fold" if variant == "fold" else "duplex"
    back_offset = options.back_offset_mm
    copies: Sequence = expand_copies(bound, options.only)
    if variant == "singles":
        plan = plan_single_card(card, bleed_mm=options.bleed_mm)
        back_offset = (0.0, 0.0)  # a home printer's drift means nothing to a print service
    elif paper is None:
        raise ValueError(f"{variant} sheets need a paper")
    elif mode == "fold":
        plan = plan_fold_sheet(paper, card, bleed_mm=options.bleed_mm, count=len(copies))
    else:
        plan = plan_sheet(paper, card, bleed_mm=options.bleed_mm, count=len(copies))
    painter = make_painter(fontset, game, ink_saver=variant == "lowink", recompress=options.recompress,
                           max_dpi=options.max_dpi, sheet_bleed_mm=options.bleed_mm)
    decode_art_ahead(bound, painter)
    renderer = DeckRenderer(bound, painter)
    sheet_options = SheetOptions(
        label_font=fontset.regular,
        mode=mode,
        duplex_edge=options.duplex_edge,
        back_offset_mm=back_offset,
        labels=labels_for(game, component.name(lang), lang),
        title=f"{game.title(lang)} — {component.name(lang)}",
        author=game.author(lang),
        subject=f"pnp card sheets ({variant}, {plan.paper.name}, {lang})",
        ink_saver=variant == "lowink",
        round_pieces=component.shape == "round",
        lang=lang,
    )
    result: SheetsResult = write_card_sheets(path, copies, renderer.draw_face, renderer.draw_back, plan,
                                             sheet_options)
    return CardPdfResult(path=path, sheets=result.sheet_count, cards=len(copies), issues=tuple(renderer.issues),
                         warnings=tuple(result.warnings))


def low_ink_changes_nothing(normal: BoundComponent, low_ink: BoundComponent) -> bool:
    """Whether the low-ink sheets would print exactly what the duplex ones print.

    So it is for a deck of pictures with a picture back: nothing for the ink saver to leave out. A
    900-card image deck would otherwise get a second copy of every picture (750 MB per paper and
    language) that differs from cards-<component>.pdf in nothing but its name.
    """
    if [(c.face, c.back) for c in normal.cards] != [(c.face, c.back) for c in low_ink.cards]:
        return False  # binding already differs: a layout tests ink_saver, or light ink turned dark
    return not any(ink_saver_changes(element) for card in low_ink.cards for element in (*card.face, *card.back))

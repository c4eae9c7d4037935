"""Cards bound to their layouts, and every problem of the binding worded at its file and line.

Compose binds (:mod:`pnp.compose.deck`) and render tells what it could not draw
(:func:`pnp.render.cards.deck.ready_to_draw`); neither says anything to the user. This is where
their findings become errors and warnings: an unknown layout at the game.toml line naming it, a
layout's mistake once for all the cards it hits, a card's own picture at its row, art that prints
badly once per deck. ``pnp check`` (:func:`pnp.validate.check_layouts`) and every card output
(pnp/write/outputs.py) bind through :func:`bind_game`, so both say the same.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from pnp.compose.deck import BoundComponent, ComponentBinding, LayoutProblem, bind_components
from pnp.diagnostics import CardErrors, Report, listed
from pnp.model.game import Game, where
from pnp.model.layout import Layout, LayoutLibrary, load_library, text_outside_safe_zone
from pnp.render.cards.art import (
    MIN_DPI,
    art_without_bleed,
    in_game,
    low_resolution_art,
    pixels_at_min_dpi,
    svg_left_out,
)
from pnp.render.cards.deck import DrawingFindings, ready_to_draw
from pnp.rules.base import GameRules

CARDS_NAMED = 4
SAME_LINE_SHOWN = 6  # distinct problems one layout line gives different cards, said in one error
LOW_DPI_LISTED = 5  # more cards than this below MIN_DPI: one warning for the deck, not one per card


def bind_game(game: Game, rules: GameRules, lang: str, report: Report, ink_saver: bool = False,
              library: LayoutLibrary | None = None,
              components: tuple[str | None, ...] | None = None,
              leave_out: Collection[str] = ()) -> dict[str, BoundComponent]:
    """Resolve every printed component's cards (or only ``components``), but those ``leave_out`` names,
    ready to draw; problems go to ``report``."""
    library = library or load_library(game.path, report)
    bindings = bind_components(game, rules, lang, library, ink_saver, components, leave_out)
    bound: dict[str, BoundComponent] = {}
    for found in ready_to_draw(game, bindings, ink_saver):
        report_sides(game, found.binding, library, report)
        if found.bound is None:
            continue
        report_drawing_findings(found, report)
        warn_low_resolution(game, found.bound, report)
        warn_art_without_bleed(found.bound, report)
        warn_svg_left_out(game, found.bound, report)
        bound[found.binding.component.id] = found.bound
    return bound


def report_sides(game: Game, binding: ComponentBinding, library: LayoutLibrary, report: Report) -> None:
    """A layout name no file has, at the face = or back = line that wrote it; a text box near the trim."""
    component = binding.component
    for side in binding.sides:
        if side.layout is not None:
            _warn_safe_zone(side.layout, binding, report)
            continue
        if side.name in library.in_error:
            continue  # its file is there, with errors reported at their lines: not "unknown" too
        line = component.source.line if component.source else None
        if game.manifest is not None:  # the face = or back = line, where the name was written
            line = game.manifest.line_of("components", component.id, side.role) or line
        report.error(f"component {component.id!r}: unknown {side.role} layout {side.name!r}",
                     game.manifest.path if game.manifest else None, line,
                     f"available: {', '.join(library.names())}; or add layouts/{side.name}.toml to the game")


def _warn_safe_zone(layout: Layout, binding: ComponentBinding, report: Report) -> None:
    component = binding.component
    if component.size is None:
        return
    for element in text_outside_safe_zone(layout, *component.size):
        report.warning(f"layout {layout.name!r}: text box reaches within {layout.safe_zone:g} mm of the trim "
                       f"(component {component.id!r}); a print shop's cut may clip it",
                       Path(layout.path), element.line, "move the box inside the safe zone")


def report_drawing_findings(found: DrawingFindings, report: Report) -> None:
    """The cards' own pictures at their rows (a missing folder once for all), then one error per layout line."""
    pictures = CardErrors()
    for problem, card_id in found.pictures:
        pictures.add(problem.message.removeprefix(f"card {card_id!r}: "), problem.file, problem.line,
                     problem.fix, card_id)
    pictures.report_to(report)
    _report_layout_problems(found.failed, len(found.binding.component.cards), report)


def _report_layout_problems(failed: dict[LayoutProblem, list[str]], cards: int, report: Report) -> None:
    """One error per layout line. A value that differs by card fails differently on each: "{{ colour.icon
    }}x" was four errors, "unknown icon 'starx'", "'moonx'"..., for one typo; they are said together."""
    by_line: dict[tuple, list[tuple[LayoutProblem, list[str]]]] = {}
    for problem, card_ids in failed.items():
        by_line.setdefault((problem.layout, problem.path, problem.line), []).append((problem, card_ids))
    for (layout, path, line), found in by_line.items():
        fix = found[0][0].fix  # the first card's: the others differ only in the name they would add
        card_ids = [card_id for _, ids in found for card_id in ids]
        every = len(card_ids) == cards
        hit = "" if all(problem.static for problem, _ in found) and every else f", {cards_named(card_ids)}"
        messages = [problem.message for problem, _ in found]  # each kept: they may be different mistakes
        message = " / ".join(messages[:SAME_LINE_SHOWN])
        if len(messages) > SAME_LINE_SHOWN:
            message += f" / and {len(messages) - SAME_LINE_SHOWN} more"
        report.error(f"layout {layout!r}{hit}: {message}", Path(path), line, fix)


def cards_named(card_ids: list[str]) -> str:
    """"card 'red-1'", or "cards 'red-1', 'red-2', 'red-3', 'red-4' and 6 more": a problem of the
    layout itself (a typo in an expression) hits every card the same way, and is one problem."""
    if len(card_ids) == 1:
        return f"card {card_ids[0]!r}"
    return "cards " + listed((repr(card_id) for card_id in card_ids), CARDS_NAMED)


def warn_low_resolution(game: Game, bound: BoundComponent, report: Report) -> None:
    """Art that prints below MIN_DPI: a warning per card, or one for the deck when there are more than
    LOW_DPI_LISTED (a deck exported at 150 dpi would otherwise bury the report under 900 of them)."""
    found = low_resolution_art(game, bound)
    if not found:
        return

    def need(box: tuple[float, float]) -> str:
        return f"supply at least {pixels_at_min_dpi(*box)} pixels for its {box[0]:g} × {box[1]:g} mm box"

    if len(found) <= LOW_DPI_LISTED:
        for art in found:
            report.warning(f"card {art.card.card.id!r}: image {art.src!r} prints at {art.dpi:.0f} dpi "
                           f"(below {MIN_DPI})", *where(art.card.card.source), need(art.box))
        return
    lowest = min(found, key=lambda art: art.dpi)
    shown = listed(repr(art.card.card.id) for art in found)
    report.warning(f"component {bound.component.id!r}: the art of {len(found)} card(s) prints below {MIN_DPI} dpi "
                   f"({shown}); the lowest is {lowest.src!r} at {lowest.dpi:.0f} dpi",
                   *where(bound.component.source), need(lowest.box))


def warn_art_without_bleed(bound: BoundComponent, report: Report) -> None:
    """One warning per component for full-card pictures drawn to the trim, without bleed."""
    from pnp.render.cards.images import ART_BLEED_MM

    cards = art_without_bleed(bound)
    if not cards:
        return
    trim_w, trim_h = bound.component.trim_mm
    shown = listed(repr(card) for card in cards)
    art_w, art_h = trim_w + 2 * ART_BLEED_MM, trim_h + 2 * ART_BLEED_MM
    report.warning(f"component {bound.component.id!r}: the art of {len(cards)} card(s) ({shown}) has the card's "
                   f"proportions, drawn without bleed: it is enlarged to cover the bleed, so about "
                   f"{ART_BLEED_MM:g} mm of each edge is cut off", *where(bound.component.source),
                   f"export the art with {ART_BLEED_MM:g} mm bleed on every side: {art_w:g} × {art_h:g} mm "
                   f"({pixels_at_min_dpi(art_w, art_h)} pixels at {MIN_DPI} dpi)")


def warn_svg_left_out(game: Game, bound: BoundComponent, report: Report) -> None:
    """One warning per SVG file that uses what pnp's SVG drawing leaves out."""
    for path, features in svg_left_out(bound):
        report.warning(f"SVG {in_game(game, path)} uses what pnp's SVG drawing leaves out, so it prints "
                       f"without it: {', '.join(features)}", path, None,
                       "export the art as a PNG at 300 dpi (it prints as you see it), or flatten those "
                       "effects in your drawing program")

"""Stage 3: validate a loaded game against the generic and game-specific rules."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

from pnp.diagnostics import CardErrors, DataError, Report, listed
from pnp.load.game_folder import EXAMPLES
from pnp.load.rule_files import has_rule_texts
from pnp.load.text_files import read_text
from pnp.model.build import load_game
from pnp.model.game import Card, Component, Game, where
from pnp.rules import rules_of, unknown_rules_fix
from pnp.rules.base import GameRules
from pnp.rules.local import RulesLoadError
from pnp.validate import generic
from pnp.validate.aids import check_aid_ids
from pnp.validate.examples import check_examples, skip_examples

NO_RULE_TEXTS = "no rule texts yet: add rules/<lang>.md to build a rulebook"


@dataclass
class CheckResult:
    folder: Path
    game: Game | None
    rules: GameRules | None
    report: Report = field(default_factory=Report)
    examples: dict[str, str] = field(default_factory=dict)


def check_game(game: Game, report: Report, layouts: bool = True, rule_texts: bool = True,
               text_report: Report | None = None) -> tuple[GameRules | None, dict[str, str]]:
    """Run every check on a modelled game, adding to ``report``.

    ``layouts=False`` skips the dry run of the card layouts: `pnp build` binds
    every card anyway and reports the same problems from there. ``rule_texts=False``
    skips the rule texts and translations, for a build that makes no rulebook;
    ``text_report`` takes their problems apart, so that a translation in progress
    stops the rulebook and not the card sheets.
    """
    generic.check_counts(game, report)
    generic.check_fonts(game, report)
    generic.check_vocabulary(game, report)
    icons_in_error = generic.check_term_icons(game, report)
    generic.check_duplicate_ids(game, report)
    generic.check_grids(game, report)
    generic.check_setup(game, report)
    generic.note_provisional(game, report)
    # the data's errors so far, but for the examples' own: what rule texts and examples read (a card's
    # colour, a count) may be wrong or missing for them, and each would fail again for the same reason
    examples_file = (game.path / EXAMPLES).resolve()
    # a translation not yet filled in is nothing an example reads: they are still recomputed
    data_in_error = any((error.file is None or Path(error.file).resolve() != examples_file)
                        and error.only_holds(game.source_language) is None for error in report.errors)
    if "rules" in game.unreadable:  # which rules module is meant is unknown: its checks, tables and
        return None, {}             # texts too, so layouts and rule texts that use them are left alone
    try:
        rules = rules_of(game)
    except RulesLoadError as exc:  # untrusted, or broken: the game's error, the other checks reported above
        report.diagnostics.append(exc.diagnostic)
        return None, {}
    if rules is None:
        line = game.manifest.line_of("rules") if game.manifest else None
        report.error(f"unknown rules module {game.rules!r}", game.manifest.path if game.manifest else None, line,
                     unknown_rules_fix(game))
        return None, {}
    try:
        return rules, _check_with_rules(game, rules, report, data_in_error, layouts, rule_texts, text_report,
                                        icons_in_error)
    except RulesLoadError as exc:  # the game's own code raised in one of its hooks (a table, a text)
        report.diagnostics.append(exc.diagnostic)
        return None, {}


def _check_with_rules(game: Game, rules: GameRules, report: Report, data_in_error: bool, layouts: bool,
                      rule_texts: bool, text_report: Report | None,
                      icons_in_error: Collection[tuple[str, str]]) -> dict[str, str]:
    errors_before = len(report.errors)
    rules.check(game, report)
    results: dict = {}
    if data_in_error or len(report.errors) > errors_before:  # every example would fail for the data's fault
        outcome = skip_examples(game, report, results,
                                "the rules model has errors" if len(report.errors) > errors_before
                                else "the game's data has errors")
    else:
        outcome = check_examples(game, rules, report, results)
    check_aid_ids(game, rules, report)  # after the examples: not the rules model's error
    if layouts:
        check_layouts(game, rules, report, icons_in_error)
    if rule_texts and has_rule_texts(game):  # the Markdown machinery is imported only where it is needed
        from pnp.validate.translations import check_translations

        check_translations(game, report if text_report is None else text_report, rules, results, data_in_error)
    elif rule_texts:
        report.note(NO_RULE_TEXTS, game.path, fix="see pnp docs rulebooks")
    return outcome


def check_layouts(game: Game, rules: GameRules, report: Report,
                  terms_in_error: Collection[tuple[str, str]] = ()) -> None:
    """Bind every card to its layouts in every language: a dry run of the faces.

    This finds unknown layouts, unknown fields, missing images and unsafe
    expressions in `pnp check`, before anything is drawn.
    """
    from pnp.model.layout import load_library
    from pnp.render.text.fonts import NO_GLYPH_FIX, covered_characters, missing_glyphs, no_glyph
    from pnp.validate.card_layouts import bind_game

    library = load_library(game.path, report)
    covered = covered_characters(game.fonts)
    seen: set[tuple] = set()
    rows_in_error = report.rows_in_error()
    # a card whose row is already in error (a misspelt animal the rules found) is left out: its faces
    # would only fail on the same value again (an unknown icon) at the layout's line
    leave_out = {card.id for card in game.all_cards()
                 if (card.source and card.source.in_error(rows_in_error))
                 or any((attribute, getattr(card, attribute)) in terms_in_error
                        for attribute, _ in generic.TERM_TABLES)}
    # a card list whose header is in error (a column missing): every card of it would fail alike
    leave_out |= {card.id for component in game.components.values() if _header_in_error(component, rows_in_error)
                  for card in component.cards}
    manifest_lines: list[str] | None = None
    for lang in game.languages:
        lang_report = Report()
        bound = bind_game(game, rules, lang, lang_report, library=library, leave_out=leave_out)
        glyphs = CardErrors()  # a character in a card's own text: at its row, alike ones grouped
        in_manifest: dict[tuple[str, int], dict[str, None]] = {}  # a suit symbol: once, naming its cards
        for component in bound.values():
            for card in component.cards:
                for element in (*card.face, *card.back):
                    text = str(element.values.get("text", element.values.get("symbol", "")))
                    missing = covered.missing(set(text) - {"\n"})
                    if not missing:
                        continue
                    if manifest_lines is None:  # read once, only when some character is missing
                        manifest_lines = _manifest_lines(game)
                    line = None if _in_own_data(card.card, missing) else _manifest_line(manifest_lines, missing)
                    if line is None:
                        glyphs.add(no_glyph(missing, text, covered), *where(card.card.source), NO_GLYPH_FIX,
                                   card.card.id)
                    else:
                        in_manifest.setdefault((missing_glyphs(missing, covered), line), {})[card.card.id] = None
        glyphs.report_to(lang_report)
        for (chars, line), cards in in_manifest.items():
            lang_report.error(f"{chars}, written here and printed on {len(cards)} card(s): "
                              f"{listed(cards)}", game.manifest.path if game.manifest else None, line, NO_GLYPH_FIX)
        for diagnostic in lang_report.diagnostics:
            key = (diagnostic.level, diagnostic.message, diagnostic.file, diagnostic.line)
            if key not in seen:  # the same layout problem in every language is one problem
                seen.add(key)
                report.diagnostics.append(diagnostic)


def _manifest_lines(game: Game) -> list[str]:
    if game.manifest is None:
        return []
    try:
        return read_text(game.manifest.path).split("\n")
    except DataError:
        return []


def _in_own_data(card: Card, missing: set[str]) -> bool:
    """Whether the card's own row holds one of the characters: then it is said there, not at a game.toml
    line that happens to share a character (a card named 残り火 was pinned to the terms' り)."""
    own = "".join([*(text for texts in card.texts.values() for text in texts.values()), *card.fields.values()])
    return any(char in own for char in missing)


def _manifest_line(lines: list[str], missing: set[str]) -> int | None:
    """game.toml's line holding a character no font has (a suit symbol, a colour's name), or None: then it
    is in the card's own data. Reported at every card's row, one symbol was 13 errors."""
    for number, line in enumerate(lines, start=1):
        if any(char in line for char in missing) and not line.lstrip().startswith("#"):
            return number
    return None


def _header_in_error(component: Component, rows_in_error: set[tuple[Path, int]]) -> bool:
    """An error in the component's card list above its first card: its header."""
    lines = [card.source.line for card in component.cards if card.source and card.source.line]
    if component.cards_file is None or not lines:
        return False
    listed = component.cards_file.resolve()
    return any(file == listed and line < min(lines) for file, line in rows_in_error)


def check_folder(folder: Path, layouts: bool = True) -> CheckResult:
    """Load, model and validate one game folder."""
    report = Report()
    game = load_game(folder, report)
    result = CheckResult(folder=folder, game=game, rules=None, report=report)
    if game is not None:
        result.rules, result.examples = check_game(game, report, layouts)
    return result

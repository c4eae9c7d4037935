"""The characters a build is likely to draw, so that each default font is converted once per build.

Each unit subsets the fonts to exactly the texts it prints (pnp.write.outputs), about 25 sets per font
for the shipped games, and a set made from the 16 MB font costs the same 0.4 s however few characters
it holds. So before the units run, every character of the games' text files (cards, rule texts,
translations, settings), of the built-in templates and of the calibration sheets is converted once
per font into a *base* (pnp.render.text.font_subsets), and the units cut their sets from it. The
guess need not be right: a set with a character the base lacks is made from the font, as before,
and either way gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pnp.diagnostics import DataError
from pnp.load.game_folder import editor_litter, is_output_folder
from pnp.load.guarded import read_input
from pnp.load.rule_files import has_rule_texts
from pnp.model.game import Game
from pnp.render.text.font_subsets import Base
from pnp.render.text.fonts import plan_bases
from pnp.write.stamps import files_in

#: files that hold text a build may print; pictures and fonts hold none
TEXT_SUFFIXES = (".md", ".csv", ".toml", ".txt", ".j2", ".po", ".json")


def bases_for(games: Iterable[Game], cache_dir: Path) -> list[Base]:
    """The bases of the default fonts for ``games``, planned (their files may not exist yet); none when
    every game sets both fonts of its own."""
    drawn_in_defaults = [game for game in games if not {"regular", "bold"} <= set(game.fonts)]
    return plan_bases(likely_characters(drawn_in_defaults), cache_dir) if drawn_in_defaults else []


def likely_characters(games: Iterable[Game]) -> set[str]:
    """Every character of the games' text files, the built-in templates, the calibration sheets, and
    the words pnp itself prints on sheets and figures."""
    from pnp.render.cards.card_pdf import label_texts
    from pnp.render.sheets.calibration_words import CALIBRATION_TEXTS, all_calibration_strings

    chars: set[str] = set()
    for game in games:
        if has_rule_texts(game):  # figures are drawn in rulebooks only; their words need Jinja2's import
            from pnp.render.rulebook.figure_specs import figure_texts

            chars.update("".join(figure_texts(game, (), {})))
        for lang in game.languages:
            chars.update("".join(label_texts(game, lang)))
        for relative in files_in(game.path, skip=editor_litter, skip_folder=is_output_folder):
            if relative.lower().endswith(TEXT_SUFFIXES):
                try:
                    chars.update(read_input(game.path / relative).decode("utf-8", "replace"))
                except (DataError, OSError):  # its own problem, reported where the file is read for the build
                    continue
    chars.update(_template_characters())
    for lang in CALIBRATION_TEXTS:
        chars.update("".join(all_calibration_strings(lang)))
    return chars


def _template_characters() -> set[str]:
    """pnp's own layouts and texts (built-in backs, rule text parts): not a game folder's, read directly."""
    from pnp.resources import templates_root

    chars: set[str] = set()
    pending = [templates_root()]
    while pending:
        folder = pending.pop()
        for entry in folder.iterdir():
            if entry.is_dir():
                pending.append(entry)
            elif entry.name.lower().endswith(TEXT_SUFFIXES):
                chars.update(entry.read_text(encoding="utf-8", errors="replace"))
    return chars

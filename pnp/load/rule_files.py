"""Where a game keeps its rule texts: ``rules/<lang>.md``.

Kept apart from the Markdown machinery so that asking "has this game a rulebook?" (as every
check and build does) costs a directory lookup, not the import of a Markdown parser.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only its folder is read: load needs no model at run time
    from pnp.model.game import Game

RULES_FOLDER = "rules"
SOURCES_SUFFIX = ".sources.toml"  # rules/<lang>.sources.toml: what each translated section was translated from


def rules_folder(game: Game) -> Path:
    return game.path / RULES_FOLDER


def rule_text_path(game: Game, lang: str) -> Path:
    return rules_folder(game) / f"{lang}.md"


def has_rule_texts(game: Game) -> bool:
    """Games get their rule texts one by one; a game without a rules/ folder has no rulebook yet."""
    return rules_folder(game).is_dir()

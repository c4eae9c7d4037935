"""`pnp new`: a starter game folder that passes `pnp check` as made."""

from __future__ import annotations

import datetime
import os
import shutil
import tempfile
import textwrap
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from jinja2.sandbox import SandboxedEnvironment

from pnp.commands.languages import COUNTRY_NOT_LANGUAGE, NO_LANGUAGE_CODE
from pnp.diagnostics import clipped
from pnp.load.game_folder import GAME_ID, LONGEST_GAME_ID, data_dir, enclosing_game, game_argument
from pnp.model.build import LANGUAGE_CODE
from pnp.render.cards.icons import available_icons
from pnp.resources import templates_root
from pnp.write.output_errors import output_problem

if TYPE_CHECKING:
    from pnp.commands.new_from_pictures import PictureDeck




def _umask() -> int:
    """The process's umask: read by setting it, so set it straight back."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def run_new(data: Path | None, game_id: str, languages: tuple[str, ...], images: Path | None = None,
            rules: bool = False) -> int:
    """A starter game folder; with ``images``, a deck of those pictures (pnp/commands/new_from_pictures.py);
    with ``rules``, a rules.py of its own (one check, one aid table, one kind of example) and examples.toml."""
    if len(game_id) > LONGEST_GAME_ID:  # it names the folder, and every output file's folder
        click.echo(f"error: game id {clipped(game_id, 40)!r} is {len(game_id)} characters; keep it to "
                   f"{LONGEST_GAME_ID}", err=True)
        return 2
    if not GAME_ID.match(game_id):
        click.echo(f"error: game id {clipped(game_id, 60)!r} must be lower-case letters, digits and '-' (e.g. my-game)",
                   err=True)
        return 2
    bad = [code for code in languages if not LANGUAGE_CODE.fullmatch(code)]
    if bad:  # the game would not pass its own check (or, with a quote or a newline, even parse)
        click.echo(f"error: --lang {bad[0]!r} is not a language code; write codes such as en, ja, pt-BR",
                   err=True)
        return 2
    countries = [code for code in languages if code.lower() in NO_LANGUAGE_CODE]
    if countries:  # jp was taken, and its game wrote no rule text and English colour names for it
        code = countries[0]
        click.echo(f"error: --lang {code} is a country code; the language is {COUNTRY_NOT_LANGUAGE[code.lower()]}",
                   err=True)
        return 2
    folder = data_dir(data) / game_id
    if folder.exists():
        click.echo(f"error: {folder} already exists; choose another id or remove it", err=True)
        return 1
    host = enclosing_game(folder.parent.resolve())
    if host is not None:  # its files would be the host's inputs, rebuilding the host at each edit
        click.echo(f"error: {folder} would be inside the game {host.name} ({host / 'game.toml'})\n"
                   f"    fix: run pnp new from the folder that holds your games, or pass --data DIR", err=True)
        return 1
    deck = None
    if images is not None:
        from pnp.commands.new_from_pictures import PictureFolderError, read_picture_folder

        try:
            deck = read_picture_folder(images)
        except PictureFolderError as exc:
            click.echo(f"error: {exc}", err=True)
            return 1
    env = SandboxedEnvironment(keep_trailing_newline=True)
    starter = templates_root() / "new-game"
    context = {
        "game_id": game_id,
        "check_name": game_argument(folder),  # how the commands in its comments name it from here
        "languages": list(dict.fromkeys(languages)) or ["en"],
        "title": game_id.replace("-", " ").title(),
        "year": datetime.date.today().year,
        "rules": rules and images is None,
        # the built-in icons by name: a path into this pnp's install would be wrong in a folder shared
        "icon_lines": textwrap.wrap(", ".join(available_icons()), 96),
        "class_name": "".join(part.title() for part in game_id.replace("-", " ").split() if part) + "Rules",
    }
    if context["class_name"][0].isdigit():  # a class name cannot start with a digit (a game "7-wonders")
        context["class_name"] = "Game" + context["class_name"]
    context["words"] = {lang: STARTER_WORDS.get(lang, STARTER_WORDS["en"]) for lang in context["languages"]}
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        # Build the folder beside its destination and rename it into place, so an
        # interrupted `pnp new` never leaves a half-made game behind.
        staging = Path(tempfile.mkdtemp(prefix=f".{game_id}-", dir=folder.parent))
        staging.chmod(0o777 & ~_umask())  # mkdtemp's 0700 would survive the rename: a folder only its maker opens
    except OSError as exc:
        problem = output_problem(exc, folder, folder.parent, option="--data DIR")
        if problem is None:
            raise
        click.echo(problem.format(), err=True)
        return 1
    try:
        if deck is not None:
            _write_picture_deck(staging, starter, env, context, deck)
            rule_texts = _write_rule_texts(staging, starter, context["languages"], "rules-pictures")
        else:
            (staging / "cards").mkdir()
            outputs = {staging / "game.toml": "game.toml.j2", staging / "cards" / "deck.csv": "deck.csv.j2"}
            if context["rules"]:
                outputs |= {staging / "rules.py": "rules.py.j2", staging / "examples.toml": "examples.toml.j2"}
            for target, template in outputs.items():
                text = env.from_string((starter / template).read_text(encoding="utf-8")).render(context)
                target.write_text(text, encoding="utf-8")
            rule_texts = _write_rule_texts(staging, starter, context["languages"],
                                           code="rules-code" if context["rules"] else None)
        staging.rename(folder)
        if rule_texts:
            _accept_translations(folder, context["languages"])
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    named = game_argument(folder)  # its id under ./data, else its path: "pnp check x" said no game x
    if deck is not None:
        back = f"back: images/{deck.back}" if deck.back else "the default back (no back.png among them)"
        rules = ", and rules/*.md for the rulebook" if rule_texts else _no_rule_texts(context["languages"])
        click.echo(f"created {folder} from {len(deck.cards)} picture(s): size {deck.size_note}; {back}. "
                   f"Run 'pnp build {named}' for the sheets; edit game.toml and cards/deck.csv for counts, "
                   f"names and players{rules}")
        return 0
    edit = "game.toml, cards/deck.csv" + (", rules.py, examples.toml" if context["rules"] else "") + (
        " and rules/*.md" if rule_texts else "")
    click.echo(f"created {folder}: edit {edit}, then run 'pnp check {named}'{_no_rule_texts(context['languages'])}")
    click.echo("the guide from here to a printed deck: pnp docs your-own-game")
    if context["rules"]:
        click.echo(f"rules.py is code: pnp runs it only once you trust the folder. Read it, then run "
                   f"'pnp trust {named}' (again after each change to it)")
    return 0


def _write_picture_deck(staging: Path, starter: Traversable, env: SandboxedEnvironment, context: dict,
                        deck: PictureDeck) -> None:
    from pnp.commands.new_from_pictures import write_picture_game

    write_picture_game(staging, deck)
    manifest = env.from_string((starter / "game-pictures.toml.j2").read_text(encoding="utf-8")).render(
        {**context, "count": len(deck.cards), "size": deck.size, "size_note": deck.size_note, "back": deck.back})
    (staging / "game.toml").write_text(manifest, encoding="utf-8")


RULE_TEXT_LANGUAGES = ("en", "ja")  # the languages a starter rule text is written in
#: the starter's names and terms in the languages pnp writes rule texts in; any other language starts
#: with the English ones, for its translator to replace (a Japanese deck printed "Red 1" before)
STARTER_WORDS = {
    "en": {"red": "red", "blue": "blue", "number_card": "number card", "deck": "Deck",
           "terms": "For personal use."},
    "ja": {"red": "赤", "blue": "青", "number_card": "数字カード", "deck": "山札", "terms": "個人での使用に限ります。"},
}


def _no_rule_texts(languages: list[str]) -> str:
    """Why no rule text was written, when none was: pnp writes starters in some languages only, and a game
    gets them for all its languages or none (with fr beside en and ja, there were none, and no word)."""
    if set(languages) <= set(RULE_TEXT_LANGUAGES):
        return ""
    others = ", ".join(lang for lang in languages if lang not in RULE_TEXT_LANGUAGES)
    return (f"; no rule texts: pnp writes starters in {' and '.join(RULE_TEXT_LANGUAGES)} only, and not for "
            f"{others} (write rules/<lang>.md for each language, see pnp docs rulebooks)")


def _write_rule_texts(folder: Path, starter: Traversable, languages: list[str], stem: str = "rules",
                      code: str | None = None) -> bool:
    """A rule text per language, headings and placeholders to fill in, when pnp has one for every
    language the game ships in; else none (a game with a language pnp cannot write still checks).
    ``code``: the stem of a section placing rules.py's aid table and example, appended to each."""
    if not set(languages) <= set(RULE_TEXT_LANGUAGES):
        return False
    (folder / "rules").mkdir()
    for lang in languages:  # copied as they are: their {{ placeholders }} are for the rulebook, not for here
        text = (starter / f"{stem}-{lang}.md").read_text(encoding="utf-8")
        if code is not None:
            text += (starter / f"{code}-{lang}.md").read_text(encoding="utf-8")
        (folder / "rules" / f"{lang}.md").write_text(text, encoding="utf-8")
    return True


def _accept_translations(folder: Path, languages: list[str]) -> None:
    """The starter texts say the same in each language, but nobody translated them: record them as the
    starter (``starter = true``), so the fresh game checks clean, and a section or text whose source the
    designer rewrites is "not yet translated" (a note) rather than stale. Recording them as translated
    gave real rules four stale warnings for sections no translator had seen."""
    from pnp.diagnostics import Report
    from pnp.model.build import load_game
    from pnp.validate.translation_records import accept_sections

    game = load_game(folder, Report())
    if game is None:
        return
    for lang in languages[1:]:
        accept_sections(game, lang, None, Report(), starter=True)

"""The `pnp` command: wiring only. Each command calls one stage function."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnp import __version__
from pnp.model.project import WHAT_CHOICES as PROJECT_WHAT
from pnp.render.sheets.paper import PAPER_SIZES

DATA_HELP = "Folder holding one sub-folder per game (default: ./data)."
WHAT_CHOICES = list(PROJECT_WHAT)


class OffsetParam(click.ParamType):
    """An "X,Y" pair of millimetres, as the calibration sheet tells the user to type it."""

    name = "X,Y"

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 - click's signature
        if isinstance(value, tuple):
            return value
        from pnp.load.printers import back_offset_problem

        try:
            x_text, y_text = str(value).split(",")
            x, y = float(x_text), float(y_text)
        except ValueError:
            self.fail(f"{value!r} is not X,Y in mm (for example 1.5,-0.5)", param, ctx)
        problem = back_offset_problem(x, y)
        if problem:
            self.fail(f"{value!r} {problem}", param, ctx)
        return x, y


class PaperParam(click.ParamType):
    """A paper by name (a4, letter, legal, jis-b5, a3, sra3...) or any "WIDTHxHEIGHT" in mm, e.g. 330x480."""

    name = "PAPER"

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 - click's signature
        from pnp.render.sheets.paper import SizeError, paper_key, parse_paper, smaller_than_smallest

        text = str(value).strip().lower()
        if text in PAPER_SIZES:
            return text
        try:
            paper = parse_paper(text)
        except SizeError as exc:
            self.fail(f"{exc}; or one of: {', '.join(PAPER_SIZES)}", param, ctx)
        if smaller_than_smallest(paper):
            inches = (f"; if you meant {paper.width_mm:g} × {paper.height_mm:g} in, write --paper "
                      f"{paper.width_mm * 25.4:.0f}x{paper.height_mm * 25.4:.0f}"
                      if max(paper.width_mm, paper.height_mm) <= 60 else "")
            self.fail(f"{paper.name} is smaller than A5 (148 × 210 mm), the smallest paper pnp lays rulebooks "
                      f"and aids on{inches}; for one card a page, use --what singles, without --paper", param, ctx)
        return paper_key(paper)


def _complete_games(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of GAMES: the game ids under --data (or ./data) that begin as typed."""
    from pnp.load.game_folder import data_dir, discover

    try:
        folders = discover(data_dir(ctx.params.get("data")))
    except OSError:
        return []
    return [folder.name for folder in folders if folder.name.startswith(incomplete)]


_out_option = click.option(
    "--out", type=click.Path(path_type=Path, file_okay=False), default=None,
    help="Output folder (default: output/ beside data/, wherever in the project pnp runs).")


def _data_option(function: Callable[..., Any]):
    return click.option("--data", "data", type=click.Path(path_type=Path, file_okay=False), default=None,
                        help=DATA_HELP)(function)


def _trust_option(function: Callable[..., Any]):
    """--trust, and --follow-links: the two ways to let a command do more with a game folder than read
    its data (SECURITY.md)."""
    function = click.option("--follow-links", is_flag=True, expose_value=False, callback=_follow_links,
                            help="Read files through symbolic links that lead out of the game folder.")(function)
    return click.option("--trust", "trust", is_flag=True,
                        help="Run game folders' own rules code (rules.py) for this command without `pnp trust`.")(
        function)


def _follow_links(_ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    from pnp.load.guarded import set_follow_links

    set_follow_links(value)
    return value


def _games_languages_papers_what(function: Callable[..., Any]):
    """What to build, the same for `pnp build` and `pnp watch`."""
    for option in reversed([
        click.argument("games", nargs=-1, shell_complete=_complete_games),
        click.option("--lang", "languages", multiple=True, help="Languages to build (default: all the game ships in)."),
        click.option("--paper", "papers", multiple=True, type=PaperParam(),
                     help=f"Papers to build: {', '.join(PAPER_SIZES)} or WIDTHxHEIGHT in mm (default: a4 and "
                          "letter)."),
        click.option("--what", "what", multiple=True, type=click.Choice(WHAT_CHOICES),
                     help="Only these outputs (repeat for several; default: all but png and singles), "
                          "e.g. --what cards."),
    ]):
        function = option(function)
    return function


def _set_colour(ctx: click.Context, _param: click.Parameter, value: bool | None) -> None:
    """--color / --no-color, over NO_COLOR and over whether the output is a terminal."""
    if value is not None:
        ctx.color = value


#: on the group and on every command: `pnp --no-color check` and `pnp check --no-color` alike
COLOUR_OPTION = click.Option(["--color/--no-color"], default=None, expose_value=False, is_eager=True,
                             callback=_set_colour,
                             help="Colour errors, warnings and notes (default: on a terminal, unless NO_COLOR is set).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Print-and-play card sheets, player aids and rulebooks from plain game data."""
    import os

    if ctx.color is None and os.environ.get("NO_COLOR"):  # https://no-color.org: any value but empty
        ctx.color = False


cli.params.append(COLOUR_OPTION)


@cli.command()
@_data_option
@click.argument("games", nargs=-1, shell_complete=_complete_games)
@click.option("--strict", is_flag=True, help="Treat warnings as errors (notes never fail).")
@click.option("--lang", default=None,
              help="Language for titles in the report (default: en, or each game's source language).")
@click.option("--format", "output", type=click.Choice(["text", "json", "github"]), default="text", show_default=True,
              help="json: one document of every finding; github: GitHub Actions annotations on the lines.")
@_trust_option
def check(data: Path | None, games: tuple[str, ...], strict: bool, lang: str | None, output: str,
          trust: bool) -> None:
    """Check that each game's components, setup and examples add up.

    GAMES are game ids under --data, or paths to game folders; none means all.

    Example: pnp check two-ops --strict
    """
    from pnp.commands.check import run_check
    from pnp.rules.trust import for_this_command

    with for_this_command(trust):
        sys.exit(run_check(data, games, strict, lang, output))


@cli.command(name="list")
@_data_option
@click.option("--lang", default=None, help="Language for titles (default: each game's source language).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one document of the games (pnp docs json-output).")
def list_games(data: Path | None, lang: str | None, output: str) -> None:
    """List the games found, with players and components.

    Example: pnp list --lang ja
    """
    from pnp.commands.listing import run_list

    sys.exit(run_list(data, lang, output))


@cli.command()
@_data_option
@click.argument("game_id")
@click.option("--lang", "languages", multiple=True, default=("en",), show_default=True,
              help="Languages the game ships in (repeat for several; the first is the source).")
@click.option("--images", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Make the deck from a folder of card pictures: a card per picture, back.png as the back.")
@click.option("--rules", "rules", is_flag=True,
              help="Also write rules.py (the game's own check, aid table and example kind) and examples.toml.")
def new(data: Path | None, game_id: str, languages: tuple[str, ...], images: Path | None, rules: bool) -> None:
    """Start a new game folder: a commented manifest, a card list and (English, Japanese) rule texts.

    Example: pnp new my-game --lang en --lang ja
    """
    from pnp.commands.scaffold import run_new

    sys.exit(run_new(data, game_id, languages, images, rules))


#: the options of `pnp build`, which `pnp watch` takes too: one list, so that the two cannot drift
#: (tests/test_cli_conventions.py holds them equal)
BUILD_OPTIONS = [
    click.option("--only", "only", multiple=True, metavar="CARD-ID",
                 help="Reprint only these cards (repeat for several), e.g. the one that got coffee on it."),
    click.option("--bleed", type=click.FloatRange(0, 10), default=None,
                 help="Bleed in mm (default: 3, or the project's pnp.toml).",
                 callback=lambda _ctx, _param, value: _finite(value, "--bleed")),
    click.option("--duplex-edge", type=click.Choice(["long", "short"]), default=None,
                 help="How your printer flips duplex pages (default: long, or the printer profile's)."),
    click.option("--back-offset", type=OffsetParam(), default=None, metavar="X,Y",
                 help="Shift backs by X,Y mm to cancel duplex drift, read off `pnp calibrate` (default: 0,0, "
                      "or the printer profile's)."),
    click.option("--printer", default=None, metavar="NAME",
                 help="Use a printer profile from printers.toml (duplex edge and back offset)."),
    click.option("--png", is_flag=True, help="Also write one 300 dpi PNG per card with bleed, and a contact sheet."),
    click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                 help="Processes to build with (default: the number of cores, or pnp.toml's jobs)."),
    click.option("--force", is_flag=True, help="Rebuild outputs even when they are up to date."),
    click.option("--recompress", is_flag=True,
                 help="Re-deflate PNG card art at the highest level: smaller PDFs, slower builds."),
    click.option("--max-dpi", type=click.IntRange(72, 2400), default=None, metavar="DPI",
                 help="Resample card art that would print finer than this (smaller PDFs; art is decoded)."),
    click.option("--quiet", "-q", is_flag=True, help="Print errors only."),
    click.option("--verbose", "-v", is_flag=True,
                 help="Say what is rebuilt and why (which input changed, new, forced), and what is skipped."),
]


def _build_options(function: Callable[..., Any]):
    """Every option of `pnp build` that `pnp watch` takes for its rebuilds (all of them but --dry-run)."""
    function = _games_languages_papers_what(function)
    for option in reversed(BUILD_OPTIONS):
        function = option(function)
    return _out_option(function)


@cli.command()
@_data_option
@_build_options
@click.option("--dry-run", is_flag=True, help="List what would be built, and why; write nothing.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: the build's summary as one document on stdout (pnp docs json-output).")
@_trust_option
def build(data: Path | None, games: tuple[str, ...], trust: bool, **options: Any) -> None:
    """Build every printable for the games (all games, languages and papers when none are named).

    Example: pnp build two-ops --lang en --paper a4 --what cards
    """
    from pnp.commands.build import request_from_options, run_build

    request = request_from_options(games, options)
    from pnp.rules.trust import for_this_command

    with for_this_command(trust):
        sys.exit(run_build(data, request))


@cli.command()
@_data_option
@click.argument("games", nargs=-1, shell_complete=_complete_games)
@click.option("--lang", default=None, help="Only this translation (default: every language but the source).")
@click.option("--accept", "accept", multiple=True, metavar="ID",
              help="Record these sections of --lang as translated from the current source (repeat); also "
                   "'cards', 'texts' (game.toml), a card text COMPONENT/CARD/FIELD, or a game.toml text key.")
@click.option("--accept-all", is_flag=True,
              help="Record every section, card text and game.toml text --lang has as translated.")
@click.option("--no-diff", is_flag=True, help="Don't print how stale sections' and texts' sources changed.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one document of every translation's state (pnp docs json-output).")
@_trust_option
def i18n(data: Path | None, games: tuple[str, ...], lang: str | None, accept: tuple[str, ...], accept_all: bool,
         no_diff: bool, output: str, trust: bool) -> None:
    """How each translation stands: sections, placeholders, numbers, glossary, card and game.toml texts.

    Example: pnp i18n two-ops --lang ja
    """
    from pnp.commands.i18n import run_i18n
    from pnp.rules.trust import for_this_command

    with for_this_command(trust):
        sys.exit(run_i18n(data, games, lang, accept, accept_all, not no_diff, output))


@cli.command()
@_data_option
@_build_options
@_trust_option
def watch(data: Path | None, games: tuple[str, ...], trust: bool, **options: Any) -> None:
    """Rebuild what a saved file affects, until Ctrl-C (only the games named, if any).

    Example: pnp watch my-game --what cards
    """
    from dataclasses import replace

    from pnp.commands.build import request_from_options, request_usable, run_build
    from pnp.commands.watch import run_watch
    from pnp.load.game_folder import data_dir

    request = request_from_options(games, options)
    from pnp.rules.trust import for_this_command

    if not request_usable(data, request):
        sys.exit(1)
    from pnp.commands.console import verbosity

    with for_this_command(trust), verbosity(request.verbosity):
        sys.exit(run_watch(data_dir(data), lambda names: run_build(data, replace(request, games=names)), games,
                           explicit_data=data is not None))


@cli.command(context_settings={"ignore_unknown_options": True})
@_data_option
@click.argument("game", shell_complete=_complete_games)
@click.argument("position", nargs=-1, type=click.UNPROCESSED)
@click.option("--lang", default="en", show_default=True, help="Language of the answer.")
@_trust_option
def solve(data: Path | None, game: str, position: tuple[str, ...], lang: str, trust: bool) -> None:
    """Settle a dispute: the best play for a position, computed by the game's rules.

    POSITION is the cards, then what the game's solver asks for. Two Ops: the five number cards,
    the two operators and --goal CARD, the goal card (en or ja answers with --lang):

    pnp solve two-ops 7H 3S 10D AS 5C KD QS --goal 4H
    """
    from pnp.commands.solve import run_solve
    from pnp.rules.trust import for_this_command

    with for_this_command(trust):
        sys.exit(run_solve(data, game, list(position), lang))


@cli.command(name="trust")
@_data_option
@click.argument("games", nargs=-1, shell_complete=_complete_games)
@click.option("--revoke", is_flag=True, help="Forget the games named: their code asks again.")
@click.option("--list", "listing", is_flag=True, help="Show the trusted game folders.")
def trust_games(data: Path | None, games: tuple[str, ...], revoke: bool, listing: bool) -> None:
    """Let pnp run the rules code (rules.py) in these game folders, as it is now.

    GAMES are game ids under --data, or paths to game folders; none means those found, as for
    `pnp check`. Any later change to the code asks again. Read the code first: it runs as you.

    Example: pnp trust my-game
    """
    from pnp.commands.trust import run_trust

    sys.exit(run_trust(data, games, revoke, listing))


@cli.command()
@click.option("--paper", type=PaperParam(), default="a4", show_default=True,
              help="Paper the sheet is printed on: one you build cards for (a4, letter... or WIDTHxHEIGHT in mm).")
@click.option("--duplex-edge", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="How your printer flips duplex pages.")
@click.option("--lang", default="en", show_default=True, help="Language of the instructions (en, ja).",
              callback=lambda _ctx, _param, value: _calibration_language(value))
@_out_option
def calibrate(paper: str, duplex_edge: str, lang: str, out: Path | None) -> None:
    """Print a duplex test sheet to measure how far your printer shifts the backs.

    Example: pnp calibrate --paper letter --duplex-edge short
    """
    from pnp.commands.calibrate import run_calibrate

    sys.exit(run_calibrate(paper, duplex_edge, lang, out))


def _complete_topics(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of `pnp docs TOPIC`: the installed guides that begin as typed."""
    from pnp.commands.docs import guides

    return [topic for topic in guides() if topic.startswith(incomplete)]


@cli.command()
@click.argument("topic", required=False, shell_complete=_complete_topics)
@click.option("--path", "path_only", is_flag=True, help="Print the guide's file (or the guides' folder), not its text.")
def docs(topic: str | None, path_only: bool) -> None:
    """Read pnp's guides, installed with it: with no TOPIC, list them; else print one.

    Example: pnp docs game-toml
    """
    from pnp.commands.docs import run_docs

    sys.exit(run_docs(topic, path_only))


def _finite(value: float, option: str) -> float:
    """click's FloatRange lets NaN through (no comparison with it is true); it broke the drawing."""
    if value != value:
        raise click.BadParameter(f"{value!r} is not a number of mm", param_hint=f"'{option}'")
    return value


def _calibration_language(lang: str) -> str:
    """A language the sheet is written in: it also names the file, so nothing else (a path) gets through."""
    from pnp.render.sheets.calibration_words import CALIBRATION_TEXTS

    if lang not in CALIBRATION_TEXTS:
        from pnp.diagnostics import clipped

        written_in = ", ".join(CALIBRATION_TEXTS)
        raise click.BadParameter(f"{clipped(lang, 40)!r}: the calibration sheet is written in {written_in} only",
                                 param_hint="'--lang'")
    return lang


for _command in cli.commands.values():
    _command.params.append(COLOUR_OPTION)


def main() -> None:
    """The `pnp` console command: SIGTERM as Ctrl-C and streams that print any text, then the CLI."""
    from pnp.commands.process import output_any_text, stop_on_sigterm

    stop_on_sigterm()
    output_any_text()
    cli(prog_name="pnp")

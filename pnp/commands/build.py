"""`pnp build`: check each game, plan its outputs, build what is out of date."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.commands.console import NORMAL, QUIET, VERBOSE, echo, verbose, verbosity
from pnp.commands.environment import environment_usable
from pnp.commands.languages import language_fix
from pnp.commands.progress import BuildProgress, shown
from pnp.commands.project_defaults import project_defaults
from pnp.compose.data_aids import NO_AID_FIX
from pnp.diagnostics import Diagnostic, Report
from pnp.load.game_folder import data_dir, default_output, game_argument, outputs_among_inputs, resolve_games
from pnp.load.rule_files import SOURCES_SUFFIX, rules_folder
from pnp.model.build import load_game
from pnp.model.fields import closest
from pnp.model.game import Game
from pnp.model.project import ProjectDefaults
from pnp.rules import rules_or_none
from pnp.validate import check_game
from pnp.write.jobs import WHAT_DOCUMENTS, BuildOptions, Job, Unit, plan_game
from pnp.write.runner import BuildSummary, all_fresh, run_units
from pnp.write.stamps import StampStore

if TYPE_CHECKING:
    from pnp.rules.base import GameRules

PAPERS = ("a4", "letter")
WHAT = ("cards", "fold", "lowink", "calibration", "rules", "aid")


@dataclass
class BuildRequest:
    games: tuple[str, ...]
    languages: tuple[str, ...]
    papers: tuple[str, ...]
    out: Path | None  # None: the project's output/ (pnp.load.game_folder.default_output)
    options: BuildOptions
    what: tuple[str, ...] = ()
    jobs: int | None = None
    verbosity: int = NORMAL  # QUIET: errors only; VERBOSE: what is rebuilt and why, what is skipped
    dry_run: bool = False  # say what would be built, and why; build nothing
    output: str = "text"  # "json": the summary as one document on stdout (pnp.commands.json_output)


def printer_settings(printer: str | None, duplex_edge: str | None,
                     back_offset: tuple[float, float] | None) -> tuple[str, tuple[float, float]]:
    """Flags win over the printer profile, which wins over the defaults (long edge, no offset)."""
    profile = None
    if printer is not None:
        from pnp.diagnostics import DataError
        from pnp.load.printers import load_profile

        try:
            profile = load_profile(printer)
        except DataError as exc:
            for diagnostic in getattr(exc, "diagnostics", [exc.diagnostic]):
                echo(diagnostic.format(Path.cwd()), err=True)
            raise SystemExit(2) from None
    edge = duplex_edge or (profile.duplex_edge if profile else None) or "long"
    offset = back_offset or (profile.back_offset if profile else None) or (0.0, 0.0)
    return edge, offset


def request_from_options(games: tuple[str, ...], options: dict[str, Any]) -> BuildRequest:
    """The build `pnp build` and `pnp watch` ask for, from the options they share (pnp.cli.BUILD_OPTIONS):
    one function, so the two commands cannot read them differently."""
    from pnp.render.cards.card_pdf import PrintOptions

    defaults = _project_defaults()
    what = tuple(options["what"]) or defaults.what
    printer = options["printer"] if options["printer"] is not None else defaults.printer  # "" is an error there
    duplex_edge, back_offset = printer_settings(printer, options["duplex_edge"], options["back_offset"])
    bleed = options["bleed"] if options["bleed"] is not None else defaults.bleed
    build_options = BuildOptions(
        print=PrintOptions(bleed_mm=3.0 if bleed is None else bleed, duplex_edge=duplex_edge,
                           back_offset_mm=back_offset,
                           only=tuple(options["only"]), recompress=options["recompress"],
                           max_dpi=options["max_dpi"]),
        png=options["png"] or "png" in what, force=options["force"])
    if options["quiet"] and options["verbose"]:
        raise click.UsageError("-q/--quiet and -v/--verbose: give one")
    level = QUIET if options["quiet"] else VERBOSE if options["verbose"] else NORMAL
    return BuildRequest(games=games, languages=tuple(options["languages"]) or defaults.languages,
                        papers=tuple(options["papers"]) or defaults.papers,
                        out=options["out"] if options["out"] is not None else defaults.out,
                        options=build_options, what=what, jobs=options["jobs"] or defaults.jobs,
                        verbosity=level, dry_run=options.get("dry_run", False),
                        output=options.get("output", "text"))


def _project_defaults() -> ProjectDefaults:
    """pnp.toml's defaults; its warnings said, and on an error in it, nothing built (exit 1): a bleed
    of "3mm" read as no bleed at all would print sheets nobody asked for."""
    report = Report()
    defaults = project_defaults(report)
    for diagnostic in report.diagnostics:
        echo(diagnostic.format(Path.cwd()), err=True)
    if report.errors:
        echo("nothing built: fix the project's defaults above (pnp check says them too)", err=True, error=True)
        raise SystemExit(1)
    return defaults


def documents_for(game: Game, rules: GameRules | None, what: tuple[str, ...]) -> list[str]:
    """The documents a game can have: a rulebook needs rule texts, an aid needs aid tables.

    ``rules=None`` (a game not checked yet, whose rules must not be asked for tables) counts the
    aid in; its outputs are fresh only if the last build, with these very inputs, made them.
    """
    from pnp.load.rule_files import has_rule_texts

    kinds = []
    if "rules" in what and has_rule_texts(game):
        kinds.extend(WHAT_DOCUMENTS["rules"])
    if "aid" in what and (rules is None or game.aids or _has_aid_tables(game, rules)):
        kinds.extend(WHAT_DOCUMENTS["aid"])
    return kinds


def _has_aid_tables(game: Game, rules: GameRules) -> bool:
    from pnp.diagnostics import DataError

    try:
        return any(rules.aid_tables(game, lang) for lang in game.languages)
    except DataError:  # a game's own aid_tables() raised: its aid's job reports it (pnp/rules/local.py)
        return True


def settled_request(data: Path | None, request: BuildRequest) -> BuildRequest:
    """The request as built: each language, paper and --what once ("--lang en --lang en" is not two jobs
    writing one file), and the default output folder filled in."""
    request = replace(request, languages=tuple(dict.fromkeys(request.languages)),
                      papers=tuple(dict.fromkeys(request.papers)), what=tuple(dict.fromkeys(request.what)))
    if request.out is None:
        request = replace(request, out=default_output(explicit_data=data is not None))
    return request


def request_folders(data: Path | None, request: BuildRequest,
                    general: Report | None = None) -> tuple[list[Path], bool] | None:
    """The game folders a request names, and whether all it named were found; None (errors shown) when it
    cannot be built as asked, whatever the games' files say: the environment, or an --out among them.
    What is said of no game (a game name not found) is added to ``general`` too, for `--format json`."""
    if not environment_usable():
        return None
    report = general if general is not None else Report()
    folders = resolve_games(data_dir(data), request.games, report, explicit_data=data is not None)
    for diagnostic in report.diagnostics:
        echo(diagnostic.format(Path.cwd()), err=True)
    among = outputs_among_inputs(request.out, folders)
    if among is not None:
        echo(f"error: --out {request.out} puts the outputs among the files of the game folder {among}, "
             "which are its inputs: each build would change what the next one reads", err=True)
        echo("    fix: build into a folder outside the game folders (the default is output/ beside data/)",
             err=True, error=True)
        return None
    return folders, not report.errors


def request_usable(data: Path | None, request: BuildRequest) -> bool:
    """Whether a request can ever be built as asked, whatever is later saved in the games' files: for
    `pnp watch`, which otherwise watched on after an unknown game, a --data that is no folder of games
    or a --lang no game ships, repeating the error at every save (errors shown)."""
    request = settled_request(data, request)
    named = request_folders(data, request)
    if named is None or not named[1]:
        return False
    games = [game for folder in named[0] if (game := load_game(folder, Report())) is not None]
    return _languages_shipped(request.languages, games)


def run_build(data: Path | None, request: BuildRequest) -> int:
    with verbosity(request.verbosity):
        return _run_build(data, request)


def _run_build(data: Path | None, request: BuildRequest) -> int:
    request = settled_request(data, request)
    general = Report()
    named = request_folders(data, request, general)
    if named is None:
        return 1
    folders, found = named
    json_out = request.output == "json"
    if not folders:  # "wrote 0 file(s)" under "no game 'nosuch'" read as if something had been done
        if json_out:  # a script still gets its document, not an empty stdout
            from pnp.commands.json_output import build_record

            assert request.out is not None  # settled
            click.echo(build_record(request.out, [], [], [], {}, {}, [], [], True, Path.cwd(), general=general))
        return 1
    failed = not found
    units: list[Unit] = []
    loaded: dict[Path, Game] = {}
    lacking: list[str] = []  # outputs a game does not get, and why: in the summary, not as warnings
    not_built: dict[str, str] = {}  # for --format json: the games not built, or built in part, and why
    stopped: dict[str, list[Diagnostic]] = {}  # for --format json: the errors that did so
    for folder in folders:
        planned = _plan_checked(folder, request, lacking, stopped.setdefault(folder.name, []))
        if planned is None:
            failed = True
            not_built[folder.name] = f"errors: fix them (pnp check {game_argument(folder)})"
            continue
        game, game_units, whole = planned
        if not whole:
            not_built[game.id] = f"in part: errors in some texts (pnp check {game_argument(folder)})"
        failed = failed or not whole
        loaded[game.path] = game
        units.extend(game_units)
    # a game that failed its check is not loaded: its cards would read as unknown ids on top of its errors
    if not failed and not _only_names_cards(request.options.print.only, loaded.values()):
        return 1
    failed = not _languages_shipped(request.languages, loaded.values()) or failed
    assert request.out is not None  # settled
    if request.dry_run:
        for line in lacking:
            echo(line)
        _dry_run(units, request.out, request.options.force)
        return 1 if failed else 0
    if verbose():
        _say_why(units, request.options.force)
    summary = BuildSummary()
    run_units(units, summary, request.jobs, loaded, None if json_out else BuildProgress())
    # a warning a skipped output repeats from its stamp may also come from a rebuilt one beside it
    for diagnostic in dict.fromkeys(summary.report.diagnostics):
        echo(diagnostic.format(Path.cwd()), err=True)
    if verbose():
        for note in dict.fromkeys(summary.cache_notes):
            echo(f"note: {note}", err=True)
    failed = failed or bool(summary.report.errors)
    if json_out:
        from pnp.commands.json_output import build_record

        not_made: dict[str, list[str]] = {}
        for line in lacking:  # "<game id>: no aid: ..."
            game_id, _, why = line.partition(": ")
            not_made.setdefault(game_id, []).append(why)
        click.echo(build_record(request.out, [folder.name for folder in folders], summary.written, summary.skipped,
                                not_built, not_made, summary.report.diagnostics, summary.issues, failed,
                                Path.cwd(), stopped, general))
        return 1 if failed else 0
    for line in lacking:
        echo(line)
    echo(summary.describe(Path.cwd(), request.out))
    return 1 if failed else 0


def stale_jobs(units: Iterable[Unit], force: bool) -> Iterable[tuple[Job, str | None]]:
    """Each job with why it is to be built ("new", "changed: cards/deck.csv", "forced"), or None when
    it is up to date."""
    for unit in units:
        stamps = StampStore(unit.stamp_root)
        for job in unit.jobs:
            yield job, "forced (--force)" if force else stamps.why_stale(job.path, job.key, job.inputs)


def _say_why(units: list[Unit], force: bool) -> None:
    """-v: what is rebuilt and why, and what is skipped, before the build."""
    for job, reason in stale_jobs(units, force):
        echo(f"rebuilding {shown(job.path)}: {reason}" if reason else f"up to date: {shown(job.path)}")


def _dry_run(units: list[Unit], out: Path, force: bool) -> None:
    """--dry-run: the outputs a build would write, each with why; nothing is written."""
    building = fresh = 0
    for job, reason in stale_jobs(units, force):
        if reason:
            building += 1
            echo(f"would build {shown(job.path)}: {reason}")
        else:
            fresh += 1
            if verbose():
                echo(f"up to date: {shown(job.path)}")
    echo(f"would build {building} output(s) in {shown(out).rstrip('/')}/"
         + (f"; {fresh} up to date" if fresh else "") + " (dry run: nothing written)")


def _only_names_cards(only: tuple[str, ...], games: Iterable[Game]) -> bool:
    """Every --only id is a printed card of a game being built; else say which are not, and build nothing
    (a typo would otherwise reprint the rest and leave the wanted card out)."""
    known = {card.id for game in games for component in game.components.values() if component.printed
             for card in component.cards}
    unknown = [card_id for card_id in dict.fromkeys(only) if card_id not in known]
    for card_id in unknown:
        hint = next((k for k in sorted(known) if k.lower() == card_id.lower()), None) or closest(card_id, known)
        echo(f"error: --only {card_id}: no printed card has that id", err=True)
        echo(f"    fix: {f'did you mean {hint}?' if hint else 'use an id from the card lists'} "
             "(nothing was built)", err=True, error=True)
    return not unknown


def _languages_shipped(requested: tuple[str, ...], games: Iterable[Game]) -> bool:
    """Say which games a requested language leaves out; a language none of them ships in is an error
    (``--lang jp`` for ``ja`` would otherwise build nothing and exit as if it had)."""
    games = list(games)
    shipped = {lang for game in games for lang in game.languages}
    for lang in dict.fromkeys(requested):
        if lang not in shipped and games:
            echo(f"error: --lang {lang}: no game being built ships in that language", err=True)
            echo(f"    fix: {language_fix(lang, shipped)}", err=True, error=True)
            continue
        without = [game.id for game in games if lang not in game.languages]
        if without:
            echo(f"note: --lang {lang}: not shipped by {', '.join(without)}, which are built without it",
                 err=True)
    return all(lang in shipped for lang in requested) or not games


def _not_made(game: Game, documents: list[str]) -> list[str]:
    """The outputs a game does not get, each with why: "harvest: no aid: declare [[aid]] tables ..."."""
    from pnp.load.rule_files import has_rule_texts

    missing = []
    if not any(kind in documents for kind in WHAT_DOCUMENTS["rules"]) and not has_rule_texts(game):
        missing.append(f"{game.id}: no rulebook: write rules/{game.source_language}.md (pnp docs rulebooks)")
    if not any(kind in documents for kind in WHAT_DOCUMENTS["aid"]):
        missing.append(f"{game.id}: no aid: {NO_AID_FIX}")
    return missing


def _plan_checked(folder: Path, request: BuildRequest, lacking: list[str] | None = None,
                  stopped: list[Diagnostic] | None = None) -> tuple[Game, list[Unit], bool] | None:
    """The game, its build units and whether they are all it was asked for, once it passes the check;
    None (errors shown) when it does not. Errors in rule texts (a translation in progress) leave out the
    rulebooks only: the units are the rest, and the flag is False. Every error shown is also added to
    ``stopped``, for `--format json`, whose reader does not parse stderr.

    A game whose every output is up to date skips the check: each output's key covers every file
    the game folder holds, the options and pnp itself, and an output is only ever written after
    its game passed the check, so the check would pass again. A no-op build then costs loading
    and planning, not recomputing every example and translation.
    """
    report = Report()
    game = load_game(folder, report)
    rules = rules_or_none(game) if game is not None else None
    if game is not None:
        languages, what = _languages(game, request), request.what or WHAT
        if rules is not None and not report.errors and not request.options.force:
            probe = plan_game(game, languages, request.papers or PAPERS, request.out, what, request.options,
                              documents_for(game, None, what))
            probe, left_out = _without_papers_too_small(game, probe, request)
            if probe and all(all_fresh(unit) is not None for unit in probe):
                _say(left_out)
                return game, probe, True
        # what check_folder does, on the game loaded above; rule texts only when a rulebook is wanted
        texts = Report()
        rules, _ = check_game(game, report, layouts=False, rule_texts="rules" in what, text_report=texts)
    # every error is a translation not yet filled in, or this is empty (pnp check says them all)
    held = _translations_held(game, report) if game is not None else {}
    asked: list[str] = []  # of the languages asked for, those a translation in progress holds up
    if game is not None and held:  # texts missing in a translation only: the other languages are built
        asked = [lang for lang in languages if lang in held]
        for lang in asked:
            for diagnostic in held[lang]:
                _say_error(diagnostic, stopped)
        languages = tuple(lang for lang in languages if lang not in held)
        if asked and languages:
            echo(f"{folder.name}: {', '.join(asked)} not built — fix the errors above (pnp check "
                 f"{game_argument(folder)}); the rest is built", err=True, error=True)
    if (report.errors and not held) or game is None or rules is None or (asked and not languages):
        for diagnostic in [] if held else report.errors:  # a held translation's were said above
            _say_error(diagnostic, stopped)
        echo(f"{folder.name}: not built — fix the errors above (pnp check {game_argument(folder)})", err=True,
             error=True)
        return None
    blocked = _rulebooks_in_error(game, texts, languages)
    whole = not blocked and not asked
    if blocked:
        for diagnostic in texts.errors:
            if blocked is ALL_LANGUAGES or _translation_of(game, diagnostic.file) in blocked:
                _say_error(diagnostic, stopped)
        which = "rulebooks" if blocked is ALL_LANGUAGES else f"{', '.join(sorted(blocked))} rulebooks"
        echo(f"{folder.name}: {which} not built — fix the errors above (pnp check {game_argument(folder)}); "
             "the rest is built", err=True, error=True)
        if blocked is ALL_LANGUAGES:
            what = tuple(choice for choice in what if choice != "rules")
    documents = documents_for(game, rules, what)
    if "aid" in request.what and not any(kind in documents for kind in WHAT_DOCUMENTS["aid"]):
        # asked for by name, made of nothing: "wrote 0 file(s)" alone left the user guessing why
        echo(f"note: {folder.name}: no player aid: its rules ({game.rules or 'generic'}) give no aid tables "
             f"and game.toml declares none (fix: {NO_AID_FIX})", err=True)
    if lacking is not None and not request.what:  # a whole build: say once what this game does not get, and why
        lacking.extend(_not_made(game, documents))
    units = plan_game(game, languages, request.papers or PAPERS, request.out, what, request.options, documents)
    if blocked and blocked is not ALL_LANGUAGES:
        units = _without_rulebooks(units, blocked)
    units, left_out = _without_papers_too_small(game, units, request)
    _say(left_out)
    return game, units, whole


def _say_error(diagnostic: Diagnostic, stopped: list[Diagnostic] | None) -> None:
    """An error that keeps a game, or part of it, from being built: on stderr, and kept in ``stopped``."""
    echo(diagnostic.format(Path.cwd()), err=True)
    if stopped is not None:
        stopped.append(diagnostic)


def _say(notes: list[str]) -> None:
    for note in notes:
        echo(note, err=True)


def _without_papers_too_small(game: Game, units: list[Unit], request: BuildRequest) -> tuple[list[Unit], list[str]]:
    """A default build (A4 and Letter) leaves out the sheets a paper cannot hold, with a note: a 190 ×
    270 mm board fits A4, not Letter, and a larger one needs a print-shop sheet. pnp check passed it, so
    failing the build for a paper nobody asked for was a contradiction. A paper asked for by name
    (--paper letter) still fails."""
    if request.papers:
        return units, []
    from pnp.render.sheets.imposition import paper_holds
    from pnp.render.sheets.paper import parse_paper

    bleed_mm = request.options.print.bleed_mm
    left_out: dict[tuple[str, str], list[str]] = {}

    def fits(unit: Unit, job: Job) -> bool:
        component = game.components.get(unit.component) if unit.component else None
        if component is None or not job.paper or paper_holds(job.paper, component.trim_mm, bleed_mm,
                                                              job.kind == "fold"):
            return True
        left_out.setdefault((component.id, job.paper), []).append(job.path.name)
        return False

    kept = _keeping(units, fits)
    notes = []
    for (component_id, paper), names in left_out.items():
        width, height = game.components[component_id].trim_mm
        notes.append(f"note: {game.id}: {paper}/{', '.join(dict.fromkeys(names))} left out: {width:g} × {height:g} "
                     f"mm pieces do not fit {parse_paper(paper).name} paper (build them on a bigger sheet, e.g. "
                     "--paper a3)")
    return kept, notes


def _keeping(units: list[Unit], keep: Callable[[Unit, Job], bool]) -> list[Unit]:
    """The units with only the jobs ``keep`` keeps; a unit left with none is dropped."""
    kept = []
    for unit in units:
        jobs = tuple(job for job in unit.jobs if keep(unit, job))
        if jobs:
            kept.append(unit if len(jobs) == len(unit.jobs) else replace(unit, jobs=jobs))
    return kept


ALL_LANGUAGES: frozenset[str] = frozenset({"*"})  # an error no one translation holds: no rulebook is built


def _translation_of(game: Game, file: Path | None) -> str | None:
    """The translation a file belongs to (rules/ja.md, rules/ja.sources.toml), or None: the source text,
    the examples or the rules' data, which every language's rulebook reads."""
    if file is None or file.parent != rules_folder(game):
        return None
    lang = file.name.removesuffix(SOURCES_SUFFIX).removesuffix(".md")
    return lang if lang in game.languages and lang != game.source_language else None


def _translations_held(game: Game, report: Report) -> dict[str, list[Diagnostic]]:
    """The errors that hold up one translation only (a text not yet translated), by language; none when
    any other error stops the whole game anyway. A Japanese-first designer could not print the
    Japanese cards until every English text was in."""
    held: dict[str, list[Diagnostic]] = {}
    for diagnostic in report.errors:
        lang = diagnostic.only_holds(game.source_language)
        if lang is None:
            return {}
        held.setdefault(lang, []).append(diagnostic)
    return held


def _rulebooks_in_error(game: Game, texts: Report, languages: Iterable[str]) -> frozenset[str]:
    """Languages whose rulebooks the rule-text errors stop, of those asked for. A translation in progress
    stops its own rulebook only: the source's author still prints theirs, and other translations theirs."""
    asked = set(languages)
    blocked: set[str] = set()
    for diagnostic in texts.errors:
        lang = _translation_of(game, diagnostic.file)
        if lang is None:
            return ALL_LANGUAGES
        if lang in asked:
            blocked.add(lang)
    return frozenset(blocked)


def _without_rulebooks(units: list[Unit], languages: frozenset[str]) -> list[Unit]:
    rulebooks = set(WHAT_DOCUMENTS["rules"])
    return _keeping(units, lambda unit, job: not (unit.component is None and unit.lang in languages
                                                  and job.kind in rulebooks))


def _languages(game: Game, request: BuildRequest) -> tuple[str, ...]:
    """The requested languages this game ships in (all it ships, if none were asked for); the others are
    reported once for every game (:func:`_languages_shipped`)."""
    languages = request.languages or game.languages
    return tuple(lang for lang in languages if lang in game.languages)

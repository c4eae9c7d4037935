"""Output jobs: what a build writes, described as data before anything runs.

A job names one output and everything it is a function of: the game folder's
files it reads, its kind, language, paper, component and options, and pnp's
own fingerprint. Jobs sharing expensive state (the bound deck and its fonts)
form a :class:`Unit`, the grain at which builds are skipped and spread over
processes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pnp.diagnostics import Report
from pnp.load.digests import digest_all
from pnp.load.game_folder import editor_litter, is_output_folder
from pnp.load.rule_files import SOURCES_SUFFIX, rules_folder
from pnp.model.game import Game
from pnp.render.cards.card_pdf import PrintOptions
from pnp.render.cards.faces import TextIssue
from pnp.render.text.fonts import font_cache_dir
from pnp.write.stamps import files_in, input_digests, inputs_digest, job_key, stamps_folder

CARD_KINDS = ("cards", "fold", "lowink", "png", "singles")
#: document kind -> file name; `--what rules` builds the first two, `--what aid` the last two
DOCUMENT_FILES = {"rules": "rules.pdf", "booklet": "rules-booklet.pdf", "aid": "aid.pdf", "aid-cards": "aid-cards.pdf"}
WHAT_DOCUMENTS = {"rules": ("rules", "booklet"), "aid": ("aid", "aid-cards")}


@dataclass(frozen=True)
class BuildOptions:
    print: PrintOptions = PrintOptions()
    png: bool = False
    force: bool = False


@dataclass(frozen=True)
class Job:
    kind: str  # one of CARD_KINDS, DOCUMENT_KINDS or "calibration"
    lang: str
    paper: str  # "" for paper-independent outputs (card PNGs)
    path: Path  # a file, or a folder for PNG sets
    component: str | None = None
    key: str = ""
    #: its input files' digests by name (pnp.write.stamps.input_digests), kept in its stamp: what changed
    inputs: Mapping[str, str] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Unit:
    """Jobs of one game, language and component (or document set) that share state."""

    game_path: Path
    game_id: str
    lang: str
    component: str | None
    jobs: tuple[Job, ...]
    options: BuildOptions
    cache_dir: Path
    stamp_root: Path


@dataclass
class UnitResult:
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    issues: list[TextIssue] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    cache_notes: list[str] = field(default_factory=list)  # damaged cache entries made again, said under -v


def output_folder(out: Path, game: str, lang: str, paper: str) -> Path:
    return out / game / lang / paper


def card_inputs(game: Game, component: str, listing: Sequence[str]) -> list[Path]:
    """Everything a component's card sheets read, of the game folder's files (:func:`files_in`): not
    the other card lists, rule texts or examples."""
    root = os.path.realpath(game.path)
    other_lists = {os.path.relpath(os.path.realpath(c.cards_file), root) for c in game.components.values()
                   if c.cards_file is not None and c.id != component}
    skipped_names = {"examples.toml", "glossary.toml"}
    return [game.path / relative for relative in listing
            if relative not in other_lists and os.path.basename(relative) not in skipped_names
            and relative.split(os.sep, 1)[0] != "rules"]


def plan_game(game: Game, languages: Sequence[str], papers: Sequence[str], out: Path, what: Sequence[str],
              options: BuildOptions, document_kinds: Sequence[str] | None = None) -> list[Unit]:
    """Every output of one game, grouped into units, each job keyed by its inputs.

    ``document_kinds`` defaults to what ``what`` asks for; the caller narrows it to
    the documents a game can have (no rule texts, no rulebook).
    """
    if document_kinds is None:
        document_kinds = [kind for choice in what for kind in WHAT_DOCUMENTS.get(choice, ())]
    units: list[Unit] = []
    only = set(options.print.only)
    # --only reprints chosen cards: only their components, into files of their own (the deck's stay whole)
    printed = [c for c in game.components.values()
               if c.printed and c.cards and (not only or any(card.id in only for card in c.cards))]
    reprint = "-reprint" if only else ""
    # once: a deck of 900 images is a long folder to list. Outputs built into the game folder (a build run
    # from inside it) are no input of the game.
    listing = files_in(game.path, skip=editor_litter, skip_folder=is_output_folder)
    every_file = [game.path / relative for relative in listing]
    inputs_of = {component.id: card_inputs(game, component.id, listing) for component in printed}
    _hash_inputs(every_file)
    digest_of_inputs = {component: _Inputs(input_digests(inputs, game.path), game.path)
                        for component, inputs in inputs_of.items()}
    document_digests: dict[tuple[str, str], _Inputs] = {}

    def document_digest(kind: str, lang: str) -> _Inputs:
        group = "aid" if kind in WHAT_DOCUMENTS["aid"] else "rules"
        if (group, lang) not in document_digests:
            named = input_digests(document_inputs(game, every_file, group, lang), game.path)
            document_digests[(group, lang)] = _Inputs(named, game.path)
        return document_digests[(group, lang)]
    no_inputs = _Inputs({}, game.path)
    cache_dir = font_cache_dir()
    stamp_root = stamps_folder(out)
    parameters = {"print": asdict(options.print)}
    for lang in languages:
        for component in printed:
            inputs = digest_of_inputs[component.id]
            jobs = []
            for paper in papers:
                folder = output_folder(out, game.id, lang, paper)
                names = {"cards": f"cards-{component.id}{reprint}.pdf",
                         "fold": f"cards-{component.id}{reprint}-fold.pdf",
                         "lowink": f"cards-{component.id}{reprint}-lowink.pdf"}
                for kind, name in names.items():
                    if kind in what:
                        jobs.append(_job(kind, lang, paper, folder / name, component.id, parameters, inputs))
            if options.png:
                pngs = out / game.id / lang / "png" / f"{component.id}{reprint}"
                jobs.append(_job("png", lang, "", pngs, component.id, parameters, inputs))
            if "singles" in what:  # one card a page, for print-on-demand services: no paper
                singles = out / game.id / lang / "singles" / f"cards-{component.id}{reprint}.pdf"
                jobs.append(_job("singles", lang, "", singles, component.id, parameters, inputs))
            if jobs:
                units.append(Unit(game.path, game.id, lang, component.id, tuple(jobs), options, cache_dir,
                                  stamp_root))
        documents = []
        for paper in papers:
            folder = output_folder(out, game.id, lang, paper)
            if "calibration" in what:
                documents.append(_job("calibration", lang, paper, folder / "calibration.pdf", None, parameters,
                                      no_inputs))
            for kind in document_kinds:
                documents.append(_job(kind, lang, paper, folder / DOCUMENT_FILES[kind], None, parameters,
                                      document_digest(kind, lang)))
        if documents:
            units.append(Unit(game.path, game.id, lang, None, tuple(documents), options, cache_dir, stamp_root))
    return units


def document_inputs(game: Game, every_file: Sequence[Path], group: str, lang: str) -> list[Path]:
    """The game's files a rulebook or an aid of ``lang`` reads: not the other languages' rule texts and
    translation records (an edit of rules/ja.md rebuilt the English rulebooks), and for an aid, whose
    tables come from the rules model, no rule text at all."""
    rules = rules_folder(game)
    if group == "aid":
        return [path for path in every_file if path.parent != rules]
    others = {rules / f"{other}{suffix}" for other in game.languages if other != lang
              for suffix in (".md", SOURCES_SUFFIX)}
    return [path for path in every_file if path not in others]


IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg"}


def _hash_inputs(paths: list[Path]) -> None:
    """Hash the game's files up front, on all cores; art is analysed from the bytes read for its hash."""
    on_read = None
    if any(path.suffix.lower() in IMAGE_SUFFIXES for path in paths):
        from pnp.render.cards.images import learn_from_bytes

        def on_read(path: Path, stat: os.stat_result, data: bytes) -> None:
            if path.suffix.lower() in IMAGE_SUFFIXES:
                learn_from_bytes(path, stat, data)
    digest_all(paths, on_read)


class _Inputs:
    """The files a set of jobs reads: each one's digest, and the :func:`inputs_digest` of them all."""

    def __init__(self, named: dict[str, str], base: Path) -> None:
        self.named = named
        self.digest = inputs_digest(named, base)


def _job(kind: str, lang: str, paper: str, path: Path, component: str | None, parameters: dict,
         inputs: _Inputs) -> Job:
    """A job keyed by its parameters and ``inputs``, the files it reads."""
    key = job_key({"kind": kind, "lang": lang, "paper": paper, "component": component, "name": path.name,
                   **parameters}, inputs.digest)
    return Job(kind, lang, paper, path, component, key, inputs.named)

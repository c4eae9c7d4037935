"""Output jobs: what a build writes, described as data, run one by one.

A job names one output file and everything it is a function of (game, kind,
language, paper, component, options), so builds can later skip up-to-date
outputs and spread jobs over processes: a worker rebuilds whatever shared
state it needs (the bound deck, the fonts) from the job alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pnp.diagnostics import DataError, Report
from pnp.model.game import Game
from pnp.render.card_pdf import PrintOptions, label_texts, write_component_pdf
from pnp.render.deck import BoundComponent, bind_game
from pnp.render.faces import TextIssue
from pnp.render.fonts import FontSet, prepare_fonts
from pnp.render.paper import PAPER_SIZES
from pnp.rules.base import GameRules


@dataclass(frozen=True)
class BuildOptions:
    print: PrintOptions = PrintOptions()
    png: bool = False


@dataclass(frozen=True)
class Job:
    kind: str  # "cards" | "fold" | "lowink" | "calibration" | "png" | "rules" | "booklet" | "aid" | "aid-cards"
    game: str
    lang: str
    paper: str
    path: Path
    component: str | None = None


@dataclass
class GameJobs:
    game: Game
    rules: GameRules
    options: BuildOptions
    cache_dir: Path
    jobs: list[Job]


@dataclass
class BuildSummary:
    written: list[Path] = field(default_factory=list)
    issues: list[TextIssue] = field(default_factory=list)
    report: Report = field(default_factory=Report)

    def describe(self, base: Path) -> str:
        """The end-of-build report: every shrunk or overflowing text, grouped, then the files."""
        lines = []
        groups: dict[tuple, list[TextIssue]] = {}
        for issue in self.issues:
            groups.setdefault((issue.problem, issue.layout, issue.line, issue.text), []).append(issue)
        if groups:
            shrunk = sum(1 for key in groups if key[0] == "shrunk")
            lines.append(f"text report: {shrunk} text(s) shrunk to fit, {len(groups) - shrunk} overflowing "
                         f"or broken inside a word")
            order = {"overflow": 0, "forced break": 1, "shrunk": 2}
            for (problem, layout, line, text), issues in sorted(groups.items(),
                                                                key=lambda g: (order[g[0][0]], g[0][1:3])):
                cards = sorted({i.card for i in issues})
                shown = ", ".join(cards[:4]) + (f" and {len(cards) - 4} more" if len(cards) > 4 else "")
                smallest = min(i.size for i in issues)
                lines.append(f"  {problem}: {layout} line {line}, {text[:40]!r} at "
                             f"{smallest:g}/{issues[0].max_size:g} pt — card(s) {shown}")
        folders = sorted({_rel(p.parent, base) for p in self.written})
        lines.append(f"wrote {len(self.written)} file(s) in {len(folders)} folder(s)")
        return "\n".join(lines)


def _rel(path: Path, base: Path) -> str:
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path)


def output_folder(out: Path, game: str, lang: str, paper: str) -> Path:
    return out / game / lang / paper


def plan_game_jobs(game: Game, rules: GameRules, languages: Sequence[str], papers: Sequence[str], out: Path,
                   what: Sequence[str], options: BuildOptions) -> GameJobs:
    jobs: list[Job] = []
    printed = [c for c in game.components.values() if c.printed and c.cards]
    for lang in languages:
        for paper in papers:
            folder = output_folder(out, game.id, lang, paper)
            for component in printed:
                if "cards" in what:
                    jobs.append(Job("cards", game.id, lang, paper, folder / f"cards-{component.id}.pdf", component.id))
                if "fold" in what:
                    jobs.append(Job("fold", game.id, lang, paper, folder / f"cards-{component.id}-fold.pdf",
                                    component.id))
                if "lowink" in what:
                    jobs.append(Job("lowink", game.id, lang, paper, folder / f"cards-{component.id}-lowink.pdf",
                                    component.id))
            if "calibration" in what:
                jobs.append(Job("calibration", game.id, lang, paper, folder / "calibration.pdf"))
        if options.png:
            # card images do not depend on the paper
            for component in printed:
                jobs.append(Job("png", game.id, lang, "", out / game.id / lang / "png" / component.id,
                                component.id))
    return GameJobs(game, rules, options, out / ".cache" / "fonts", jobs)


@dataclass
class _LangState:
    bound: dict[str, BoundComponent]
    fontset: FontSet


def run_jobs(plan: GameJobs, summary: BuildSummary) -> None:
    states: dict[str, _LangState] = {}
    for job in plan.jobs:
        state = states.get(job.lang)
        if state is None:
            state = states[job.lang] = _prepare(plan, job.lang, summary.report)
        _execute(plan, job, state, summary)


def _prepare(plan: GameJobs, lang: str, report: Report) -> _LangState:
    bind_report = Report()
    bound = bind_game(plan.game, plan.rules, lang, bind_report)
    report.extend(bind_report)
    if bind_report.errors:
        raise DataError(f"{plan.game.id}: the card layouts have errors (see above)")
    from pnp.render.calibration_words import all_calibration_strings

    texts = list(label_texts(plan.game, lang)) + all_calibration_strings(lang)
    for component in bound.values():
        texts.extend(component.texts())
    fontset = prepare_fonts(texts, plan.cache_dir)
    return _LangState(bound, fontset)


def _execute(plan: GameJobs, job: Job, state: _LangState, summary: BuildSummary) -> None:
    paper = PAPER_SIZES.get(job.paper)
    job.path.parent.mkdir(parents=True, exist_ok=True)
    if job.kind in ("cards", "fold", "lowink"):
        variant = "duplex" if job.kind == "cards" else job.kind
        bound = state.bound[job.component]
        result = write_component_pdf(plan.game, bound, state.fontset, paper, job.lang, variant,
                                     plan.options.print, job.path)
        summary.issues.extend(result.issues)
    elif job.kind == "png":
        from pnp.render.card_png import write_card_pngs

        result = write_card_pngs(plan.game, state.bound[job.component], state.fontset, plan.options.print.bleed_mm,
                                 job.path)
        summary.issues.extend(result.issues)
        summary.written.extend(result.written)
        return
    elif job.kind == "calibration":
        from pnp.render.calibration import write_calibration_sheet
        from pnp.render.calibration_words import calibration_texts

        write_calibration_sheet(job.path, paper, state.fontset.regular, plan.options.print.duplex_edge,
                                calibration_texts(job.lang))
    else:
        raise ValueError(f"unknown job kind {job.kind!r}")
    summary.written.append(job.path)

"""Run build units: skip what is up to date, spread the rest over processes.

A worker needs nothing but its :class:`Unit`: it reloads the game folder,
binds the one component it draws and prepares that component's fonts. So
the same unit gives the same bytes in any process, and a worker crash or a
Ctrl-C never leaves a half-written file (every write is atomic).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pnp.diagnostics import DataError, Level, Report, listed
from pnp.files.release import wait_for_closing
from pnp.load.user_cache import discarded_entries
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.render.cards.faces import TextIssue
from pnp.render.text.font_subsets import Base, make_base, use_bases
from pnp.rules import rules_of
from pnp.rules.base import GameRules
from pnp.write.jobs import Job, Unit, UnitResult
from pnp.write.output_errors import output_problem
from pnp.write.stamps import Stamp, StampStore

if TYPE_CHECKING:
    from concurrent.futures import Future


@dataclass
class BuildSummary:
    written: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    issues: list[TextIssue] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    cache_notes: list[str] = field(default_factory=list)  # what -v says of damaged cache entries made again

    def add(self, result: UnitResult) -> None:
        self.written.extend(result.written)
        self.skipped.extend(result.skipped)
        self.issues.extend(result.issues)
        self.report.extend(result.report)
        self.cache_notes.extend(result.cache_notes)

    def describe(self, base: Path, out: Path | None = None) -> str:
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
            quoted = distinct_quotes({key[3] for key in groups})
            for (problem, layout, line, text), issues in sorted(groups.items(),
                                                                key=lambda g: (order[g[0][0]], str(g[0][1:3]))):
                cards = sorted({i.card for i in issues})
                shown = listed(cards)
                smallest = min(i.size for i in issues)
                lines.append(f"  {problem}: {layout} line {line}, {quoted[text]} at "
                             f"{smallest:g}/{issues[0].max_size:g} pt — card(s) {shown}")
        folders = sorted({_rel(p.parent, base) for p in self.written})
        into = f" to {_rel(out, base).rstrip('/')}/" if out is not None else ""
        lines.append(f"wrote {len(self.written)} file(s) in {len(folders)} folder(s){into}"
                     + (f"; {len(self.skipped)} up to date (use --force to rebuild)" if self.skipped else ""))
        return "\n".join(lines)


def distinct_quotes(texts: Iterable[str], shortest: int = 40) -> dict[str, str]:
    """Each text quoted for the report, cut after ``shortest`` characters, or later where another text
    begins the same way: two texts alike in their first 40 characters were reported as one text twice."""
    texts = sorted(set(texts))
    quoted = {}
    for index, text in enumerate(texts):
        neighbours = texts[max(0, index - 1):index] + texts[index + 1:index + 2]  # sorted: the likest are adjacent
        shared = max((len(os.path.commonprefix([text, other])) for other in neighbours), default=0)
        keep = max(shortest, shared + 10)
        quoted[text] = repr(text[:keep]) + ("…" if len(text) > keep else "")
    return quoted


def _rel(path: Path, base: Path) -> str:
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path)


#: job kind -> function writing that job's output; returns the files written and text issues
JobWriter = Callable[["UnitState", Job], tuple[list[Path], list[TextIssue]]]
WRITERS: dict[str, JobWriter] = {}


def writer(*kinds: str) -> Callable[[JobWriter], JobWriter]:
    def register(function: JobWriter) -> JobWriter:
        for kind in kinds:
            WRITERS[kind] = function
        return function
    return register


@dataclass
class UnitState:
    """What a unit's jobs share, prepared once per unit in the worker."""

    unit: Unit
    game: Game
    rules: GameRules
    report: Report
    _cache: dict = field(default_factory=dict)

    def memo(self, name: str, make: Callable[[], object]) -> object:
        if name not in self._cache:
            self._cache[name] = make()
        return self._cache[name]


class ReportedAlready(Exception):
    """A job cannot be written for errors already in the unit's report: it is left out, said nowhere again."""


def run_unit(unit: Unit, game: Game | None = None) -> UnitResult:
    """Build every stale job of a unit. Runs in a worker process or in-process.

    ``game``: the game as the build already loaded and checked it, when the unit runs in the same
    process (a worker reloads it from ``unit.game_path``, which gives the same model).
    """
    import pnp.write.outputs  # noqa: F401  (registers the job writers)

    result = UnitResult()
    stamps = StampStore(unit.stamp_root)
    stale: list[Job] = []
    for job in unit.jobs:
        stamp = None if unit.options.force else stamps.fresh(job.path, job.key)
        if stamp is None:
            stale.append(job)
        else:
            _repeat(stamp, result)
    if not stale:
        return result
    report = Report()
    if game is None:
        game = load_game(unit.game_path, report)
    rules = None
    if game is not None:
        try:
            rules = rules_of(game)
        except DataError as exc:  # its own code changed since the check, say (pnp/rules/local.py)
            report.diagnostics.append(exc.diagnostic)
    if game is None or rules is None or report.errors:
        result.report.extend(report)
        result.report.error(f"{unit.game_id}: could not reload the game for building")
        return result
    state = UnitState(unit, game, rules, result.report)
    # A unit builds many short-lived objects and few cycles; the cyclic collector would rescan the
    # bound deck thousands of times (about a tenth of a big deck's build). Collect once at the end.
    collecting = gc.isenabled()
    gc.disable()
    try:
        for job in stale:
            reported = len(result.report.diagnostics)
            try:
                written, issues = WRITERS[job.kind](state, job)
                said = [d for d in result.report.diagnostics[reported:] if d.level in (Level.WARNING, Level.NOTE)]
                stamps.record(job.path, job.key, written, issues, said, job.inputs)
            except DataError as exc:
                result.report.diagnostics.append(exc.diagnostic)
                continue
            except ReportedAlready:
                continue
            except OSError as exc:
                problem = output_problem(exc, job.path, unit.stamp_root.parent.parent)  # <out>/.cache/stamps
                if problem is None:
                    raise  # not about where the outputs go: a bug keeps its traceback
                result.report.diagnostics.append(problem)
                continue
            result.written.extend(written)
            result.issues.extend(issues)
    finally:
        if collecting:
            gc.enable()
        remember_for_next_build()
        wait_for_closing()  # replaced outputs were freed while later ones were drawn (pnp/files/release.py)
    return result


def run_unit_noting(unit: Unit, game: Game | None = None) -> UnitResult:
    """:func:`run_unit`, with the damaged cache entries it threw away, which a worker cannot say itself."""
    result = run_unit(unit, game)
    result.cache_notes = discarded_entries()
    return result


def remember_for_next_build() -> None:
    """Keep the digests and image facts this process learnt, so the next build need not read the files."""
    from pnp.load.digests import save_digests

    save_digests()
    images = sys.modules.get("pnp.render.cards.images")  # a build that drew no art learnt no image facts
    if images is not None:
        images.save_image_facts()


def all_fresh(unit: Unit) -> UnitResult | None:
    """The unit's result without any work when every job is up to date, else None."""
    if unit.options.force:
        return None
    stamps = StampStore(unit.stamp_root)
    result = UnitResult()
    for job in unit.jobs:
        stamp = stamps.fresh(job.path, job.key)
        if stamp is None:
            return None
        _repeat(stamp, result)
    return result


def _repeat(stamp: Stamp, result: UnitResult) -> None:
    """A skipped output says again what its build said: its files, text issues and warnings."""
    result.skipped.extend(Path(p) for p in stamp.outputs)
    result.issues.extend(stamp.issues)
    result.report.diagnostics.extend(stamp.warnings)


class Progress(Protocol):
    """Told how many units are to be built, then of each as it finishes (pnp.commands.progress)."""

    def begin(self, units: int) -> None: ...

    def finished(self, unit: Unit, result: UnitResult) -> None: ...

    def end(self) -> None: ...


def _remove_strays(units: Sequence[Unit]) -> None:
    """A build killed with SIGKILL leaves its hidden temporary files: the next build of the folder clears them."""
    import time

    from pnp.files.atomic import remove_stray_temporaries

    folders = {job.path.parent for unit in units for job in unit.jobs}
    folders |= {job.path for unit in units for job in unit.jobs if job.kind == "png"}
    remove_stray_temporaries(sorted(folders), time.time_ns())


def run_units(units: Sequence[Unit], summary: BuildSummary, jobs: int | None = None,
              loaded: Mapping[Path, Game] | None = None, progress: Progress | None = None) -> None:
    """Run units; ``progress`` hears of each as it finishes, whatever order that is (one slow first unit
    does not hold up the others' news), and the results are gathered in unit order all the same.

    ``loaded`` maps game folders to the games already loaded, for units run in this process.
    """
    loaded = loaded or {}
    _remove_strays(units)
    pending: list[tuple[int, Unit]] = []
    results: dict[int, UnitResult] = {}
    for index, unit in enumerate(units):
        fresh = all_fresh(unit)
        if fresh is None:
            pending.append((index, unit))
        else:
            results[index] = fresh
    workers = min(jobs or os.cpu_count() or 1, len(pending))
    bases = _font_bases([unit for _, unit in pending], loaded)
    progress = progress or _Silent()
    progress.begin(len(pending))
    try:
        if workers <= 1:
            use_bases(bases)
            for base in bases:
                make_base(base)
            for index, unit in pending:
                results[index] = run_unit_noting(unit, loaded.get(unit.game_path))
                progress.finished(unit, results[index])
        else:
            from concurrent.futures import ProcessPoolExecutor  # multiprocessing costs a one-process build its import

            from pnp.load.guarded import follow_links
            from pnp.rules.trust import allowed_without_record
            from pnp.write.workers import stop_workers, worker_started

            # --trust holds in the workers too, however they are started
            pool = ProcessPoolExecutor(max_workers=workers, initializer=worker_started,
                                       initargs=(os.getpid(), allowed_without_record(), follow_links(), bases))
            try:
                for _ in pool.map(make_base, bases):  # one font on each core, before any unit needs them
                    pass
                futures = {index: pool.submit(run_unit_noting, unit) for index, unit in longest_first(pending)}
                of_index = dict(pending)
                for index, result in finished_first(futures):
                    results[index] = result
                    progress.finished(of_index[index], result)
            except BaseException:  # Ctrl-C, SIGTERM or a bug: not every queued unit first
                stop_workers(pool)
                raise
            pool.shutdown()
    finally:
        progress.end()
    remember_for_next_build()  # what planning hashed, for builds that had nothing to draw
    for index in sorted(results):
        summary.add(results[index])
    summary.cache_notes.extend(discarded_entries())  # found while planning, in this process


def longest_first(pending: Sequence[tuple[int, Unit]]) -> list[tuple[int, Unit]]:
    """Document units first: a game's rulebooks, booklets and aids take two to five times its deck's
    sheets, and the last unit to start sets when a parallel build ends; one started last left a core
    idle while it ran alone. Otherwise in plan order."""
    return sorted(pending, key=lambda item: item[1].component is not None)


def _font_bases(units: Sequence[Unit], loaded: Mapping[Path, Game]) -> list[Base]:
    """The default fonts' bases for the games of ``units`` (pnp.write.font_bases): none for a build with
    nothing to draw, whose fonts stay unread."""
    if not units:
        return []
    from pnp.write.font_bases import bases_for

    games = [loaded[path] for path in dict.fromkeys(unit.game_path for unit in units) if path in loaded]
    return bases_for(games, units[0].cache_dir)


def finished_first(futures: Mapping[int, Future[UnitResult]]) -> Iterator[tuple[int, UnitResult]]:
    """Each future's index and result in the order they finish: a bar that waited for the first submitted
    stood still while a big deck was drawn, however many units finished beside it."""
    from concurrent.futures import as_completed

    index_of = {future: index for index, future in futures.items()}
    for future in as_completed(index_of):
        yield index_of[future], future.result()


class _Silent:
    def begin(self, units: int) -> None:
        return None

    def finished(self, unit: Unit, result: UnitResult) -> None:
        return None

    def end(self) -> None:
        return None

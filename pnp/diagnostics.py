"""Problems found in a user's game data, collected rather than raised.

A designer fixing a deck wants every problem in one run, so the load and
validate stages append to a :class:`Report` and carry on; only the CLI decides
what the exit status is. Bugs in pnp itself are ordinary exceptions and keep
their traceback.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


class Level(enum.IntEnum):
    """Severity, ordered so that ``max()`` gives the worst."""

    NOTE = 0  # provisional content, known seed errata: informative, never fails
    WARNING = 1  # probably a mistake (unknown key, typo); fails only with --strict
    ERROR = 2  # the data is wrong; nothing is built from it


@dataclass(frozen=True)
class Diagnostic:
    level: Level
    message: str
    file: Path | None = None
    line: int | None = None
    fix: str | None = None
    #: the other lines one error stands for (a problem shared by many cards): checks that would stumble on
    #: those rows again (the layouts' dry run) leave them out, as they do the row of ``line``
    also_lines: tuple[int, ...] = field(default=(), compare=False)
    #: the one language a text is missing in (a translation not yet filled in): unless it is the source's,
    #: only that language's outputs need it, so a build of the others goes on (pnp.commands.build)
    language: str | None = None

    def only_holds(self, source_language: str) -> str | None:
        """The translation this error holds up, alone: its language when that is not the source's."""
        return self.language if self.language not in (None, source_language) else None

    def location(self, base: Path | None = None) -> str:
        return location(self.file, self.line, base)

    def format(self, base: Path | None = None) -> str:
        where = self.location(base)
        head = f"{where}: " if where else ""
        text = f"{head}{self.level.name.lower()}: {self.message}"
        if self.fix:
            text += f"\n    fix: {self.fix}"
        return text


def clipped(text: str, longest: int) -> str:
    """What a user typed, cut to ``longest`` characters for a message (a 10,000-character argument
    would otherwise fill the terminal)."""
    return text if len(text) <= longest else text[: longest - 3] + "..."


def listed(items: Iterable[object], shown: int = 4) -> str:
    """"a, b, c, d and 6 more": a message names the first few of many (cards, lines), then counts."""
    names = [str(item) for item in items]
    head = ", ".join(names[:shown])
    return f"{head} and {len(names) - shown} more" if len(names) > shown else head


def line_spans(lines: Iterable[int]) -> list[str]:
    """Line numbers as a reader scans them: runs of consecutive lines as "4–11", others alone."""
    spans: list[list[int]] = []
    for line in sorted(set(lines)):
        if spans and line == spans[-1][1] + 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    return [str(first) if first == last else f"{first}\u2013{last}" for first, last in spans]


def location(file: Path | None, line: int | None, base: Path | None = None) -> str:
    """``file:line`` as a message shows it: relative to ``base`` when the file lies below it."""
    if file is None:
        return ""
    path = file
    if base is not None:
        shown, under = _resolved(file.parent) / file.name, _resolved(base)  # a link by its own name
        if shown.is_relative_to(under):
            path = shown.relative_to(under)
    return f"{path}:{line}" if line else f"{path}"


def _resolved(path: Path) -> Path:
    """The real path, or the absolute one where links cannot be followed: a file that is a link to
    itself is reported, not a crash of the report. Remembered for absolute paths (a relative one
    depends on the working folder): a report of 20,000 errors in one file resolved its folder
    40,000 times, 10 s of system calls."""
    return _resolved_absolute(path) if path.is_absolute() else _resolve(path)


@functools.lru_cache(maxsize=1024)
def _resolved_absolute(path: Path) -> Path:
    return _resolve(path)


def _resolve(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: Python 3.11's "Symlink loop"
        return path.absolute()


@dataclass
class Report:
    """Everything found while loading and checking one game."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    _said: set[Diagnostic] = field(default_factory=set, repr=False, compare=False)

    def add(
        self,
        level: Level,
        message: str,
        file: Path | None = None,
        line: int | None = None,
        fix: str | None = None,
        also_lines: tuple[int, ...] = (),
        language: str | None = None,
    ) -> None:
        """Once: the same problem at the same line (200 <br> in one table cell) is one entry, not 200."""
        diagnostic = Diagnostic(level, message, file, line, fix, also_lines, language)
        if diagnostic not in self._said:
            self._said.add(diagnostic)
            self.diagnostics.append(diagnostic)

    def error(self, message: str, file: Path | None = None, line: int | None = None,
              fix: str | None = None, also_lines: tuple[int, ...] = (), language: str | None = None) -> None:
        self.add(Level.ERROR, message, file, line, fix, also_lines, language)

    def warning(self, message: str, file: Path | None = None, line: int | None = None,
                fix: str | None = None) -> None:
        self.add(Level.WARNING, message, file, line, fix)

    def note(self, message: str, file: Path | None = None, line: int | None = None,
             fix: str | None = None) -> None:
        self.add(Level.NOTE, message, file, line, fix)

    def extend(self, other: Report) -> None:
        self.diagnostics.extend(other.diagnostics)

    def of(self, level: Level) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.level == level]

    @property
    def errors(self) -> list[Diagnostic]:
        return self.of(Level.ERROR)

    @property
    def warnings(self) -> list[Diagnostic]:
        return self.of(Level.WARNING)

    @property
    def notes(self) -> list[Diagnostic]:
        return self.of(Level.NOTE)

    def rows_in_error(self) -> set[tuple[Path, int]]:
        """(resolved file, line) of every error so far, the lines a grouped error stands for included: a
        check that would only fail again on such a row (a card whose rank is already wrong) leaves it out."""
        return {(_resolved(Path(error.file)), line) for error in self.errors if error.file and error.line
                for line in (error.line, *error.also_lines)}

    def failed(self, strict: bool = False) -> bool:
        return bool(self.errors) or (strict and bool(self.warnings))


@dataclass
class CardErrors:
    """Errors about cards, one per distinct problem however many cards share it.

    A vocabulary renamed in game.toml, or a translation column not yet filled in, is the same
    mistake on every card it touches: one error naming the cards (and their lines) reads better
    than one per card, 900 of them for a big deck. A problem on a single card reads as before,
    "card 'red-1': unknown colour 'red'".
    """

    _seen: dict[tuple[str, Path | None, str | None, str | None], list[tuple[str | None, int | None]]] = field(
        default_factory=dict)

    def add(self, message: str, file: Path | None, line: int | None, fix: str | None = None,
            card: str | None = None, language: str | None = None) -> None:
        """``card``: the card's id, where the row has one (a row without one is named by its line);
        ``language``: see :attr:`Diagnostic.language`."""
        self._seen.setdefault((message, file, fix, language), []).append((card, line))

    def __bool__(self) -> bool:
        return bool(self._seen)

    def report_to(self, report: Report) -> None:
        for (message, file, fix, language), hits in self._seen.items():
            cards = [card for card, _ in hits if card is not None]
            lines = [line for _, line in hits if line is not None]
            first = lines[0] if lines else None
            if len(hits) == 1:
                report.error(f"card {cards[0]!r}: {message}" if cards else message, file, first, fix,
                             language=language)
                continue
            where = f" (lines {listed(line_spans(lines))})" if lines else ""
            if len(cards) == len(hits):
                report.error(f"{message} on {len(hits)} cards: {listed(cards)}{where}", file, first, fix,
                             tuple(lines[1:]), language)
            else:
                report.error(f"{message} on {len(hits)} rows{where}", file, first, fix, tuple(lines[1:]), language)
        self._seen.clear()


class DataError(Exception):
    """A single fatal problem in user input, for code paths that cannot go on.

    Prefer ``Report`` where the caller can continue; raise this where it can't
    (an unreadable file), and let the stage catch it into the report.
    """

    def __init__(self, message: str, file: Path | None = None, line: int | None = None,
                 fix: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(Level.ERROR, message, file, line, fix)

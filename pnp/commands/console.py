"""What the commands print, and how: colour on terminals, and how much a quiet or verbose run says.

Colour follows click: none when the stream is not a terminal, none when ``NO_COLOR`` is set to anything
(https://no-color.org), and ``--color`` / ``--no-color`` over both (pnp.cli sets the context's colour).
The texts themselves stay plain (``error:``, ``warning:``, ``note:``, ``ok``): the style is put on the level
word when the line is printed, so a log, a test or a pipe reads the same words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import click

QUIET, NORMAL, VERBOSE = -1, 0, 1

#: a diagnostic's level where Diagnostic.format puts it: at the start of a line, or after "file:line: " (not
#: after "    fix: ", whose text is the fix's own)
_LEVEL = re.compile(r"(?m)^(\s*|\S[^\n]*?: )(error|warning|note)(?=: )")
#: a check's verdict: "two-ops: ok — ...", "... — FAILED"
_VERDICT = re.compile(r"(?m)(^\S+: |— )(ok|FAILED)\b")
STYLES: dict[str, dict[str, object]] = {
    "error": {"fg": "red", "bold": True},
    "warning": {"fg": "yellow", "bold": True},
    "note": {"fg": "cyan"},
    "ok": {"fg": "green", "bold": True},
    "FAILED": {"fg": "red", "bold": True},
}

_verbosity = NORMAL


def styled(text: str) -> str:
    """The text with its level words and verdicts in colour (click strips it again where colour is off)."""
    def paint(match: re.Match[str]) -> str:
        return match.group(1) + click.style(match.group(2), **STYLES[match.group(2)])  # type: ignore[arg-type]

    return _VERDICT.sub(paint, _LEVEL.sub(paint, text))


def is_error(text: str) -> bool:
    return any(match.group(2) == "error" for match in _LEVEL.finditer(text))


@contextmanager
def verbosity(level: int) -> Iterator[None]:
    """How much is said while a command runs: QUIET (errors only), NORMAL or VERBOSE."""
    global _verbosity
    before, _verbosity = _verbosity, level
    try:
        yield
    finally:
        _verbosity = before


def quiet() -> bool:
    return _verbosity <= QUIET


def verbose() -> bool:
    return _verbosity >= VERBOSE


def echo(text: str = "", err: bool = False, *, error: bool = False) -> None:
    """Print a line as click.echo does, in colour where colour is on. A quiet run prints errors only: a
    diagnostic at the error level, or a line said to be one (``error=True``: "not built", say)."""
    if quiet() and not (error or is_error(text)):
        return
    click.echo(styled(text), err=err)

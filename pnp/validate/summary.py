"""The text `pnp check` prints: tables a designer can compare with the rulebook."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pnp.diagnostics import Diagnostic, Level
from pnp.model.game import Deal
from pnp.validate import CheckResult
from pnp.validate.generic import component_rows


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain fixed-width table; East Asian wide characters count double."""
    widths = [max(_width(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]
    lines = [_row(header, widths), "  ".join("-" * w for w in widths)]
    lines.extend(_row(row, widths) for row in rows)
    return "\n".join(lines)


def _width(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    padded = (str(cell) + " " * (width - _width(str(cell))) for cell, width in zip(cells, widths, strict=False))
    return "  ".join(padded).rstrip()


def format_check(result: CheckResult, lang: str, base: Path | None, strict: bool,
                 sheets: tuple[list[str], list[list[str]]] | None = None) -> str:
    """The report of one game; ``sheets``: a header and rows saying what each component takes to
    print (pnp.commands.sheet_counts), shown after the setup."""
    game = result.game
    parts: list[str] = []
    title = game.title(lang) if game else result.folder.name
    parts.append(f"== {result.folder.name}: {title}")
    if game is not None:
        rows = []
        for component, found in component_rows(game):
            if found is None:
                status = "not listed" if component.printed else "bring your own"
            elif found == component.count:
                status = "ok"
            else:
                status = "MISMATCH"
            if component.provisional:
                status += " (provisional)"
            found_text = "-" if found is None else str(found)
            rows.append([component.id, component.kind, str(component.count), found_text, status])
        parts.append(table(["component", "kind", "declared", "found", "status"], rows))
        if game.setup:
            extra_names = sorted({name for row in game.setup.values() for name in row.also})
            header = ["players", "in play", "dealt", "revealed", "tricks", "left", "colours"]
            header += [f"{name} dealt" for name in extra_names]
            setup_rows = []
            for players, row in sorted(game.setup.items()):
                cells = [str(players), str(row.in_play), f"{row.hand} each", str(row.revealed),
                         _opt(row.tricks), _opt(row.left), _opt(row.colours)]
                cells += [_deal_cell(row.also[n]) if n in row.also else "-" for n in extra_names]
                setup_rows.append(cells)
            parts.append(table(header, setup_rows))
        if sheets is not None and sheets[1]:
            parts.append(table(*sheets))
        if result.examples:
            parts.append(_examples_line(list(result.examples.values())))
    for level in (Level.ERROR, Level.WARNING, Level.NOTE):
        # in file and line order, as a compiler lists them: the checks found them in their own order,
        # and a designer fixing a card list read lines 8, 4, 1, 6
        for diagnostic in sorted(result.report.of(level), key=_place):
            parts.append(diagnostic.format(base))
    parts.append(summary_line(result, strict))
    return "\n\n".join(parts)


def _place(diagnostic: Diagnostic) -> tuple[str, int]:
    return (str(diagnostic.file) if diagnostic.file else "", diagnostic.line or 0)


def _examples_line(outcomes: list[str]) -> str:
    recomputed = [state for state in outcomes if state != "skipped"]
    counts = {state: recomputed.count(state) for state in set(recomputed)}
    described = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()))
    line = f"examples: {len(recomputed)} recomputed" + (f" ({described})" if recomputed else "")
    skipped = len(outcomes) - len(recomputed)
    return line + (f", {skipped} left until the errors below are fixed" if skipped else "")


def _deal_cell(deal: Deal) -> str:
    """A further deal's cell: dealt each of in play, and the revealed ones, which "0 of 5" hid."""
    return f"{deal.hand} of {deal.in_play}" + (f", {deal.revealed} revealed" if deal.revealed else "")


def _opt(value: int | None) -> str:
    return "-" if value is None else str(value)


def summary_line(result: CheckResult, strict: bool) -> str:
    report = result.report
    errors, warnings, notes = len(report.errors), len(report.warnings), len(report.notes)
    verdict = "FAILED" if report.failed(strict) else "ok"
    return (f"{result.folder.name}: {verdict} — {errors} error(s), {warnings} warning(s), {notes} note(s)"
            + (" [--strict]" if strict and warnings else ""))

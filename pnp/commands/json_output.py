"""`--format json` of list, i18n and build: one document on stdout, for a script or an editor.

Each document carries ``"schema": 1``, as check's does (pnp.commands.check_output): a key is only ever
added under one schema; a key renamed or removed, or a meaning changed, makes the next.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path

from pnp.commands.check_output import diagnostic_record, relative
from pnp.diagnostics import Diagnostic, Report
from pnp.model.game import Game
from pnp.render.cards.faces import TextIssue
from pnp.validate.translations import LanguageStatus, has_errors

SCHEMA = 1


def document(content: dict[str, object]) -> str:
    return json.dumps({"schema": SCHEMA, **content}, ensure_ascii=False, indent=1)


def game_record(game: Game, lang: str | None) -> dict[str, object]:
    """A game as `pnp list` shows it, in ``lang`` or its source language."""
    shown = lang or game.source_language
    low, high = game.players
    return {"game": game.id, "title": game.title(shown), "players": [low, high], "languages": list(game.languages),
            "source_language": game.source_language,
            "components": [{"id": c.id, "name": c.name(shown), "kind": c.kind, "count": c.count}
                           for c in game.components.values()]}


def i18n_record(game: Game, statuses: Sequence[LanguageStatus], report: Report, base: Path,
                note: str | None = None) -> dict[str, object]:
    """Where each translation of a game stands, as `pnp i18n` prints it."""
    languages = []
    for status in statuses:
        states = ("translated", "stale", "untracked", "untranslated", "missing", "extra", "id twice")
        languages.append({
            "lang": status.lang, "rule_text": relative(status.path, base), "exists": status.exists,
            "failed": has_errors(status),
            "sections": {state: status.count(state) for state in states},
            "sections_to_do": [{"id": entry.id, "state": entry.state, "diff": list(entry.diff),
                                "line": (entry.target or entry.source).line if entry.target or entry.source else None}
                               for entry in status.sections if entry.state != "translated"],
            "findings": [{"kind": f.kind, "level": f.level.name.lower(), "section": f.section, "message": f.message,
                          "file": relative(f.file, base), "line": f.line, "fix": f.fix} for f in status.findings],
            "card_texts": [{"component": c.component, "field": c.field, "translated": c.translated,
                            "missing": list(c.missing)} for c in status.cards],
            "texts_to_do": [{"group": t.item.group, "key": t.item.key, "state": t.state, "diff": list(t.diff),
                             "file": relative(t.item.file, base), "line": t.item.line}
                            for t in status.texts if t.state != "translated"],
        })
    return {"game": game.id, "source_language": game.source_language, "note": note,
            "diagnostics": [diagnostic_record(d, base) for d in dict.fromkeys(report.diagnostics)],
            "languages": languages}


def build_record(out: Path, games: Iterable[str], written: Sequence[Path], skipped: Sequence[Path],
                 not_built: dict[str, str], not_made: dict[str, list[str]], diagnostics: Iterable[Diagnostic],
                 issues: Iterable[TextIssue], failed: bool, base: Path,
                 errors: dict[str, list[Diagnostic]] | None = None, general: Report | None = None) -> str:
    """The build's summary: per game, the files written and skipped (up to date), whether it failed to
    build and why, the errors that stopped it (or part of it: ``errors``, by game, as `pnp check --format
    json` words them), the outputs it does not get and why, and the warnings its outputs were built with;
    ``general``, what is said of no game (a game name not found), as check's document has it."""
    errors = errors or {}
    out_resolved = out.resolve()

    def game_of(path: Path) -> str | None:
        try:
            return path.resolve().relative_to(out_resolved).parts[0]
        except (ValueError, IndexError):
            return None

    diagnostics = list(dict.fromkeys(diagnostics))
    records = []
    for game in games:
        records.append({
            "game": game, "built": game not in not_built, "not_built": not_built.get(game),
            "written": [relative(p, base) for p in written if game_of(p) == game],
            "skipped": [relative(p, base) for p in skipped if game_of(p) == game],
            "errors": [diagnostic_record(d, base) for d in dict.fromkeys(errors.get(game, []))],
            "not_made": not_made.get(game, []),
            "diagnostics": [diagnostic_record(d, base) for d in diagnostics
                            if d.file is not None and game in d.file.resolve().parts]})
    text_issues = [asdict(issue) for issue in dict.fromkeys(issues)]
    return document({"failed": failed, "out": relative(out, base), "written": len(written), "skipped": len(skipped),
                     "general": [diagnostic_record(d, base) for d in (general.diagnostics if general else [])],
                     "games": records, "text_issues": text_issues})

"""The `pnp i18n` listing of one language: counts first, then each problem with its file and line.

The same analysis `pnp check` reports (pnp/validate/translations.py), shown as a translator works
through it: sections, numbers, glossary, card and game.toml texts, each stale one with its diff.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pnp.diagnostics import Level, location
from pnp.load.rule_files import rule_text_path
from pnp.model.game import Game
from pnp.validate.translation_status import LanguageStatus, TextStatus


def format_language(game: Game, status: LanguageStatus, base: Path | None = None, show_diff: bool = True) -> str:
    """The `pnp i18n` text for one language: counts first, then each problem with file and line."""
    lines = [f"{game.id} — {status.lang} (source: {game.source_language})"]
    if not status.exists:
        lines.append(f"  rule text: rules/{status.lang}.md is missing")
    elif status.sections:
        total = sum(1 for s in status.sections if s.state != "extra")
        counts = ", ".join(f"{status.count(state)} {state}" for state in ("translated", "stale", "untracked",
                                                                          "missing", "extra"))
        if status.count("untranslated"):  # pnp new's starter text, its source rewritten since
            counts += f", {status.count('untranslated')} not yet translated (pnp new's starter)"
        if status.count("id twice"):  # an error of the rule text, reported by pnp check
            counts += f", {status.count('id twice')} not compared (an id used twice)"
        lines.append(f"  sections ({total} in the source): {counts}")
        for entry in status.sections:
            if entry.state == "translated":
                continue
            where = entry.target or entry.source
            file = status.path if entry.target else rule_text_path(game, game.source_language)
            state = "starter" if entry.state == "untranslated" else entry.state
            lines.append(f"    {state:<10} {entry.id:<24} {location(file, where.line if where else None, base)}")
            if entry.state == "stale" and show_diff:
                lines += [f"        {line}" for line in entry.diff]
    for kind, title in (("placeholder", "placeholders"), ("number", "numbers"), ("glossary", "glossary")):
        found = [f for f in status.findings if f.kind == kind]
        lines.append(f"  {title}: {len(found)} problem(s)" if found else f"  {title}: ok")
        lines += [f"    {location(f.file, f.line, base)}: {f.message}" for f in found]
    lines.append("  card texts:")
    for count in status.cards:
        total = count.translated + len(count.missing)
        shown = ", ".join(count.missing[:6]) + (" ..." if len(count.missing) > 6 else "")
        tail = f", missing: {shown}" if count.missing else ""
        mine = [t for t in status.texts if t.item.group == "cards"
                and t.item.key.startswith(f"{count.component}/") and t.item.key.endswith(f"/{count.field}")]
        lines.append(f"    {count.component}.{count.field}: {count.translated}/{total} translated{tail}"
                     f"{_record_counts(mine)}")
        lines += _text_lines(mine, base, show_diff)
    if status.generated_cards:
        lines.append(f"    generated from rules data: {status.generated_cards} text(s), always in step")
    game_texts = [t for t in status.texts if t.item.group == "texts"]
    if game_texts:
        lines.append(f"  game.toml texts: {len(game_texts)} translated{_record_counts(game_texts)}")
        lines += _text_lines(game_texts, base, show_diff)
    return "\n".join(lines)


def _record_counts(texts: Sequence[TextStatus]) -> str:
    """", 1 stale, 3 not yet recorded": what of a group of texts is not in step with its record."""
    said = {"stale": "stale", "untranslated": "not yet translated (pnp new's starter)",
            "unrecorded": "not yet recorded"}
    counts = Counter(t.state for t in texts)
    return "".join(f", {counts[state]} {words}" for state, words in said.items() if counts[state])


def _text_lines(texts: Sequence[TextStatus], base: Path | None, show_diff: bool) -> list[str]:
    lines = []
    for entry in texts:
        if entry.state in ("stale", "untranslated"):
            state = "starter" if entry.state == "untranslated" else entry.state
            lines.append(f"      {state:<10} {entry.item.key:<24} {location(entry.item.file, entry.item.line, base)}")
            if show_diff:
                lines += [f"          {line}" for line in entry.diff]
    return lines


def has_errors(status: LanguageStatus) -> bool:
    return (not status.exists or status.count("missing") > 0
            or any(f.level == Level.ERROR for f in status.findings))

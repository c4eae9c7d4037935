"""How `pnp check` words a translation's state: missing and stale sections, unrecorded texts, glyphs.

The analysis (pnp/validate/translations.py) says what is out of step; this module says it to the
person building, each at the file and line to fix and with the `pnp i18n --accept` that records it.
Apart from the analysis, so that `pnp i18n`, which shows the same state as a listing, need not
read how it becomes errors.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from pnp.compose.blocks import RuleText, block_texts
from pnp.diagnostics import DataError, Report
from pnp.load.game_folder import game_argument
from pnp.load.rule_files import rule_text_path
from pnp.load.text_files import read_text
from pnp.model.game import Game
from pnp.render.text.fonts import NO_GLYPH_FIX, covered_characters, no_glyph
from pnp.validate.translation_status import LanguageStatus, SectionStatus, TextStatus


def sections_at(sections: Sequence[SectionStatus], lines: set[int], side: str) -> set[str]:
    """Ids of the sections whose ``side`` ("source" or "target") holds one of ``lines``: a placeholder in
    error there (reported at its line) is not compared with the other language, where the correct one
    would be "missing" and the misspelt one "extra"."""
    found = set()
    for entry in sections:
        section = getattr(entry, side)
        if section is not None and any(section.line <= line <= section.line + section.text.count("\n")
                                       for line in lines):
            found.add(entry.id)
    return found


def raw_text(path: Path) -> str | None:
    """The file's text, None when it is missing or not text (reported where it is loaded)."""
    try:
        return read_text(path) if path.is_file() else None
    except DataError:
        return None


def check_glyphs(text: RuleText, report: Report, fonts: Mapping[str, Path] | None = None) -> None:
    """A character no font has would print as an empty box: report it at the line that uses it."""
    covered = covered_characters(fonts)
    seen: set[str] = set()
    written: list[str] | None = None
    for block in text.walk():
        for string in block_texts(block):
            missing = covered.missing(set(string) - seen - {"\n"})
            if missing:
                seen.update(missing)
                if written is None:
                    try:
                        written = read_text(text.path).splitlines()
                    except DataError:
                        written = []
                line, quoted = _written_line(written, block.line, min(missing, key=string.index), string)
                report.error(no_glyph(missing, quoted, covered), text.path, line, NO_GLYPH_FIX)


def _written_line(lines: Sequence[str], start: int | None, char: str, fallback: str) -> tuple[int | None, str]:
    """The line of the rule text, from a block's first line to its end, where ``char`` is written, and that
    line: a paragraph's error was at its first line, quoting it, when the character was on its third.
    A character a placeholder brings is not written there: the block's first line, and its text."""
    if start is None:
        return start, fallback
    for number in range(start, len(lines) + 1):
        line = lines[number - 1]
        if char in line:
            return number, line.strip()
        if number > start and not line.strip():
            break  # the block ended
    return start, fallback


def check_placements(game: Game, placed: Mapping[str, set[str]], report: Report) -> None:
    for example in game.examples:
        missing = [lang for lang, ids in placed.items() if example.id not in ids]
        if missing:
            where = example.source
            report.warning(f"example {example.id!r} is not placed in the rule text of: {', '.join(missing)}",
                           where.file if where else None, where.line if where else None,
                           f"add a block ```example {example.id} ... ``` where it belongs, in every language")


def _report_texts(game: Game, status: LanguageStatus, report: Report) -> None:
    """Stale card and game.toml texts, each where it is written; those never recorded, in one note."""
    named = game_argument(game.path)
    accept = f"pnp i18n {named} --lang {status.lang} --accept"
    for entry in status.texts_in("stale"):
        item = entry.item
        report.warning(f"{item.label} is stale: its {game.source_language} text changed after it was translated",
                       item.file, item.line, f"see the change with pnp i18n {named} --lang {status.lang}, update "
                       f"the translation, then {accept} {item.key}")
    untranslated = status.texts_in("untranslated") + [e for e in status.sections if e.state == "untranslated"]
    if untranslated:
        names = [e.item.key if isinstance(e, TextStatus) else e.id for e in untranslated]
        report.note(f"{len(names)} {status.lang} text(s) are still pnp new's starter text, not yet translated from "
                    f"the rewritten {game.source_language} source: {_listed(names)}", status.path if status.exists
                    else None, None, f"translate them, then {accept} ID (or --accept-all)")
    if status.records_unreadable:
        return
    cards, texts = status.texts_in("unrecorded", "cards"), status.texts_in("unrecorded", "texts")
    if cards or texts:
        counted = " and ".join(part for part in (f"{len(cards)} card text(s)" if cards else "",
                                                 f"{len(texts)} game.toml text(s)" if texts else "") if part)
        sections = {entry.id for entry in status.sections}
        names = [_group_name(group, found, sections) for group, found in (("cards", cards), ("texts", texts)) if found]
        report.note(f"{counted} in {status.lang} were never recorded as translated, so a change to their "
                    f"source would go unnoticed", (cards or texts)[0].item.file, (cards or texts)[0].item.line,
                    f"once checked against the source: {accept} {' --accept '.join(names)} (or --accept-all)")


def _group_name(group: str, texts: Sequence[TextStatus], sections: Collection[str]) -> str:
    """How --accept names a group of texts: ``cards`` or ``texts``, unless a section has that id (Rudy's
    {#cards}), which --accept means first; then card texts are named by component."""
    if group not in sections:
        return group
    if group == "cards":
        return " --accept ".join(dict.fromkeys(t.item.key.split("/")[0] for t in texts))
    return " --accept ".join(t.item.key for t in texts)


def _listed(names: Sequence[str], shown: int = 6) -> str:
    return ", ".join(names[:shown]) + (f" and {len(names) - shown} more" if len(names) > shown else "")


def report_language(game: Game, status: LanguageStatus, report: Report) -> None:
    _report_texts(game, status, report)
    if not status.exists:
        return  # already an error above
    accept = f"pnp i18n {game_argument(game.path)} --lang {status.lang} --accept"
    for entry in status.sections:
        if entry.state == "missing" and entry.source is not None:
            report.error(f"section {entry.id!r} ({rule_text_path(game, game.source_language).name} line "
                         f"{entry.source.line}) is missing from rules/{status.lang}.md", status.path, None,
                         f"translate it, with the heading id {{#{entry.id}}}")
        elif entry.state == "extra" and entry.target is not None:
            report.warning(f"section {entry.id!r} is not in the source rule text", status.path, entry.target.line,
                           "remove it, fix its id, or add it to the source first")
        elif entry.state == "stale" and entry.target is not None:
            report.warning(f"section {entry.id!r} is stale: its source changed after it was translated",
                           status.path, entry.target.line,
                           f"see the change with pnp i18n {game_argument(game.path)}, update the translation, then "
                           f"{accept} {entry.id}")
    untracked = [entry for entry in status.sections if entry.state == "untracked" and entry.target is not None]
    if untracked and not status.records_unreadable:  # --accept-all would throw away which ones are stale
        ids = " ".join(entry.id for entry in untracked)
        report.warning(f"{len(untracked)} section(s) were never recorded as translated, so a change to their "
                       f"source would go unnoticed: {', '.join(e.id for e in untracked)}", status.path,
                       untracked[0].target.line if untracked[0].target else None,
                       f"once checked against the source: {accept} ID (or --accept-all); ids: {ids}")
    for finding in status.findings:
        report.add(finding.level, finding.message, finding.file, finding.line, finding.fix)

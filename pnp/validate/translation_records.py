"""What translators accepted: each language's ``rules/<lang>.sources.toml`` and the sections it keys.

For every section a translator accepted (`pnp i18n --accept`), the file keeps the exact source
text they translated, so a changed source shows as a stale section with a diff. Sections are
found by the Markdown parser in the raw, unrendered text: a placeholder is compared as written.
"""


from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from markdown_it.tree import SyntaxTreeNode

from pnp.compose.markdown import make_markdown, match_heading_id
from pnp.diagnostics import DataError, Diagnostic, Level, Report
from pnp.files.atomic import atomic_write
from pnp.load.game_folder import game_argument
from pnp.load.rule_files import SOURCES_SUFFIX, rule_text_path, rules_folder
from pnp.load.text_files import read_text
from pnp.load.toml_lines import load_toml
from pnp.model.game import Game


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    level: int
    line: int  # of the heading, 1-based
    text: str  # raw Markdown from the heading up to the next heading, without trailing blank lines


def split_sections(text: str) -> list[Section]:
    """Sections by heading, found by the Markdown parser (a '#' inside a code block is no heading)."""
    lines = text.split("\n")
    tree = SyntaxTreeNode(make_markdown().parse(text))
    starts = []
    for node in tree.children:
        if node.type == "heading" and node.map:
            content = node.children[0].content if node.children else ""
            match = match_heading_id(content)
            section_id, title = (match.group("id"), match.group("title")) if match else ("", content)
            starts.append((node.map[0], section_id, title, int(node.tag[1])))
    sections = []
    for index, (start, section_id, title, level) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
        body = normalise_section("\n".join(lines[start:end]))
        sections.append(Section(section_id, title, level, start + 1, body))
    return sections


def normalise_section(text: str) -> str:
    """Whitespace a translator cannot see does not make a section stale."""
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip("\n")


# a line break inside a paragraph: the next line goes on with a letter of any script (a list item,
# heading, table row or quote starts with a mark, and stays a line of its own)
_SOFT_BREAK = re.compile(r"(?<=\S)[ \t]*\n[ \t]*(?=[^\W\d_])")
_SPACES = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")


def same_wording(recorded: str, text: str) -> bool:
    """Whether a section says what it said when translated, however its lines are wrapped: a line break
    between two Japanese characters prints as nothing and one between words as a space, and a run of
    spaces as one. Re-wrapping the Japanese source marked its translation stale (docs/rulebooks.md
    says it may be wrapped freely); comparing the printed wording also keeps older records valid."""
    return recorded == text or _printed_wording(recorded) == _printed_wording(text)


def _printed_wording(text: str) -> str:
    from pnp.model.runs import is_cjk

    def join(match: re.Match[str]) -> str:
        before, after = match.string[match.start() - 1], match.string[match.end()]
        return "" if is_cjk(before) and is_cjk(after) else " "

    return _SPACES.sub(" ", _SOFT_BREAK.sub(join, text))


def sections_of(game: Game, lang: str, report: Report) -> list[Section] | None:
    path = rule_text_path(game, lang)
    try:
        return split_sections(read_text(path))
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return None


def sources_path(game: Game, lang: str) -> Path:
    return rules_folder(game) / f"{lang}{SOURCES_SUFFIX}"


def load_translated_sources(game: Game, lang: str, report: Report) -> dict[str, str] | None:
    """Section id -> the source text it was translated from, as recorded by `pnp i18n --accept`; None when
    the records file is there but cannot be read (reported), so no section counts as never recorded."""
    path = sources_path(game, lang)
    if not path.is_file():
        return {}
    try:
        doc = load_toml(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return None
    recorded = doc.data.get("source_language", game.source_language)
    if recorded != game.source_language:
        report.error(f"{path.name} records translations from {recorded!r}, but the game's source language is "
                     f"{game.source_language!r}", path, doc.line_of("source_language"),
                     "re-accept every section: pnp i18n GAME --lang LANG --accept-all")
        return {}
    sections = doc.data.get("sections", {})
    found: dict[str, str] = {}
    for section_id, entry in sections.items() if isinstance(sections, Mapping) else ():
        source = entry.get("source") if isinstance(entry, Mapping) else None
        if not isinstance(source, str):
            report.error(f"section {section_id!r} has no source text", path, doc.line_of("sections", section_id),
                         "accept it again with pnp i18n --accept " + section_id)
            continue
        found[section_id] = normalise_section(source)
    return found


def orphan_records(game: Game, lang: str, source_ids: Collection[str]) -> list[Diagnostic]:
    """Records of sections the source does not have (renamed or deleted since, or a typo in a hand edit):
    they would sit in the file unnoticed. A file that cannot be read is reported where it is loaded."""
    path = sources_path(game, lang)
    try:
        doc = load_toml(path) if path.is_file() else None
    except DataError:
        return []
    sections = doc.data.get("sections") if doc is not None else None
    if not isinstance(sections, Mapping):
        return []
    return [Diagnostic(Level.WARNING, f"{path.name} records section {section_id!r}, which "
                       f"rules/{game.source_language}.md does not have", path, doc.line_of("sections", section_id),
                       f"delete its [sections.{section_id}] table (the next pnp i18n --accept drops it too)")
            for section_id in sections if section_id not in source_ids]


def _toml_string(text: str) -> str:
    """A TOML string a person can read in a diff: multi-line literal where TOML allows it."""
    if "'''" not in text and not text.endswith("'") and not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
        return "'''\n" + text + "'''"
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    escaped = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", escaped)
    return '"""\n' + escaped + '"""'


def write_translated_sources(game: Game, lang: str, sources: Mapping[str, str]) -> Path:
    path = sources_path(game, lang)
    lines = [
        f"# The {game.source_language} text each {lang} section was translated from, recorded by",
        f"# `pnp i18n {game.id} --lang {lang} --accept SECTION`. pnp compares it with",
        f"# rules/{game.source_language}.md: a section whose source changed since is stale,",
        "# and `pnp i18n` shows what changed. Edit through pnp rather than by hand.",
        f'source_language = "{game.source_language}"',
        "",
    ]
    for section_id in sorted(sources):
        lines += [f"[sections.{section_id}]", f"source = {_toml_string(sources[section_id] + chr(10))}", ""]
    with atomic_write(path, durable=True) as handle:  # the translator's record, not a build output
        handle.write("\n".join(lines).encode("utf-8"))
    return path


def accept_sections(game: Game, lang: str, section_ids: Sequence[str] | None, report: Report) -> list[str]:
    """Record the current source text of sections as translated (``None``: every section the translation has)."""
    source_sections = sections_of(game, game.source_language, report)
    target_sections = sections_of(game, lang, report)
    if source_sections is None or target_sections is None:
        return []
    by_id = {s.id: s for s in source_sections if s.id}
    present = {s.id for s in target_sections}
    wanted = [s for s in by_id if s in present] if section_ids is None else list(section_ids)
    path = sources_path(game, lang)
    if section_ids is not None and path.exists() and not _readable(path, report):
        # rewriting it would keep only the sections named now: every other record, lost
        report.error(f"nothing recorded: {path.name} cannot be read as it is", path, None,
                     "fix it by hand, or record every section afresh: "
                     f"pnp i18n {game_argument(game.path)} --lang {lang} --accept-all")
        return []
    # records of sections the source no longer has are dropped: the file is rewritten whole. With
    # --accept-all every section is recorded afresh, so what was wrong in the old file no longer is
    old_problems = report if section_ids is not None else Report()
    recorded = {key: text for key, text in (load_translated_sources(game, lang, old_problems) or {}).items()
                if key in by_id}
    accepted = []
    for section_id in wanted:
        if section_id not in by_id:
            report.error(f"no section {section_id!r} in rules/{game.source_language}.md",
                         rule_text_path(game, game.source_language), None,
                         f"sections: {', '.join(by_id)}")
            continue
        if section_id not in present:
            report.error(f"section {section_id!r} is not in rules/{lang}.md yet: translate it before accepting",
                         rule_text_path(game, lang))
            continue
        recorded[section_id] = by_id[section_id].text
        accepted.append(section_id)
    if accepted:
        try:
            write_translated_sources(game, lang, recorded)
        except OSError as exc:
            report.error(f"nothing recorded: cannot write {path.name}: {exc.strerror or exc}", path, None,
                         "it must be a file pnp can write (rename what is in its way)")
            return []
    return accepted


def _readable(path: Path, report: Report) -> bool:
    """Whether the records file parses as TOML (a problem inside it is reported by the loading)."""
    try:
        load_toml(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return False
    return True

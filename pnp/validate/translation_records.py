"""What translators accepted: each language's ``rules/<lang>.sources.toml`` and the texts it keys.

For every section a translator accepted (`pnp i18n --accept`), the file keeps the exact source
text they translated, so a changed source shows as a stale section with a diff. Sections are
found by the Markdown parser in the raw, unrendered text: a placeholder is compared as written.

Card texts and game.toml texts are kept the same way, in ``[cards."<component>/<card>/<field>"]``
and ``[texts."<key>"]`` tables (``title``, ``colours.red.name``, ``components.deck.name``...): a
changed source card text, 最も多い made 最も少ない, reverses a rule as surely as a changed section.
A file written before they were kept has only ``[sections.*]``: its card texts are "not yet
recorded", a note, as they were never checked against a record. A record ``starter = true`` is the
placeholder text of `pnp new`, which no translator translated: once the source is rewritten, the
translation is "not yet translated" (a note), not stale.
"""


from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pnp.compose.markdown_source import make_markdown, match_heading_id, syntax_tree
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
    tree = syntax_tree(make_markdown().parse(text))
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


TextGroup = Literal["cards", "texts"]
GROUPS: tuple[TextGroup, ...] = ("cards", "texts")


@dataclass
class Records:
    """One language's records: section id, card key or text key -> the source wording accepted."""

    sections: dict[str, str] = field(default_factory=dict)
    cards: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    #: (table, key) of records of `pnp new`'s starter text, which nobody translated
    starter: set[tuple[str, str]] = field(default_factory=set)

    def table(self, name: str) -> dict[str, str]:
        return {"sections": self.sections, "cards": self.cards, "texts": self.texts}[name]


def load_records(game: Game, lang: str, report: Report) -> Records | None:
    """Every record of ``lang``; None when the records file is there but cannot be read (reported), so
    nothing counts as never recorded."""
    path = sources_path(game, lang)
    if not path.is_file():
        return Records()
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
        return Records()
    records = Records()
    for name, what in (("sections", "section"), ("cards", "card text"), ("texts", "game.toml text")):
        table = doc.data.get(name, {})
        for key, entry in table.items() if isinstance(table, Mapping) else ():
            source = entry.get("source") if isinstance(entry, Mapping) else None
            if not isinstance(source, str):
                report.error(f"{what} {key!r} has no source text", path, doc.line_of(name, key),
                             "accept it again with pnp i18n --accept " + key)
                continue
            records.table(name)[key] = normalise_section(source) if name == "sections" else source
            if isinstance(entry, Mapping) and entry.get("starter") is True:
                records.starter.add((name, key))
    return records


def load_translated_sources(game: Game, lang: str, report: Report) -> dict[str, str] | None:
    """Section id -> the source text it was translated from, as recorded by `pnp i18n --accept`; None when
    the records file is there but cannot be read (reported), so no section counts as never recorded."""
    records = load_records(game, lang, report)
    return None if records is None else records.sections


@dataclass(frozen=True)
class TextItem:
    """A card or game.toml text that has a source wording and a translation."""

    group: TextGroup
    key: str  # "deck/red-1/text" for cards, "title" or "colours.red.name" for game.toml
    label: str  # as a person names it: "card red-1 text.ja", "game.toml title.ja"
    source: str
    target: str
    file: Path | None
    line: int | None


def text_items(game: Game, lang: str) -> list[TextItem]:
    """Every card text and game.toml text whose source wording is not empty, with its translation (empty
    when missing: a loader error, counted by the card text counts)."""
    items = []
    src = game.source_language
    for component in game.components.values():
        for card in component.cards:
            for name in card.texts:
                source = card.text(name, src)
                if source.strip():
                    where = card.source
                    items.append(TextItem("cards", f"{component.id}/{card.id}/{name}", f"card {card.id} {name}.{lang}",
                                          source, card.text(name, lang), where.file if where else None,
                                          where.line if where else None))
    for key, texts in _game_texts(game):
        source = texts.get(src, "")
        if isinstance(source, str) and source.strip():
            target = texts.get(lang, "")
            line = game.manifest.line_of(*key.split("."), lang) if game.manifest is not None else None
            items.append(TextItem("texts", key, f"game.toml {key}.{lang}", source,
                                  target if isinstance(target, str) else "", game.path / "game.toml", line))
    return items


def _game_texts(game: Game) -> Iterator[tuple[str, Mapping[str, object]]]:
    """game.toml's texts per language, by key: what a translator translates there (the translator's note
    is written in its own language, translated from nothing)."""
    yield "title", game.titles
    yield "subtitle", game.subtitles
    yield "terms", game.terms
    for role, value in game.credits.items():
        if isinstance(value, Mapping):
            yield f"credits.{role}", value
    for vocabulary, terms in (("colours", game.colours), ("suits", game.suits), ("kinds", game.kinds)):
        for term_id, term in terms.items():
            yield f"{vocabulary}.{term_id}.name", term.names
            description = term.extra.get("description")
            if isinstance(description, Mapping):
                yield f"{vocabulary}.{term_id}.description", description
    for component in game.components.values():
        yield f"components.{component.id}.name", component.names
        yield f"components.{component.id}.description", component.descriptions


def orphan_records(game: Game, lang: str, source_ids: Collection[str] | None,
                   text_keys: Mapping[str, Collection[str]] | None = None) -> list[Diagnostic]:
    """Records of sections (and, given ``text_keys`` per group, of card and game.toml texts) the source
    does not have (renamed or deleted since, or a typo in a hand edit): they would sit in the file
    unnoticed. A file that cannot be read is reported where it is loaded; ``source_ids`` None: the
    source text's sections are unknown (it has none, or is not there: reported), so none is an orphan."""
    path = sources_path(game, lang)
    try:
        doc = load_toml(path) if path.is_file() else None
    except DataError:
        return []
    if doc is None:
        return []
    found = []
    sections = doc.data.get("sections")
    if isinstance(sections, Mapping) and source_ids is not None:
        found += [Diagnostic(Level.WARNING, f"{path.name} records section {section_id!r}, which "
                             f"rules/{game.source_language}.md does not have", path,
                             doc.line_of("sections", section_id),
                             f"delete its [sections.{section_id}] table (the next pnp i18n --accept drops it too)")
                  for section_id in sections if section_id not in source_ids]
    unread = {component.id for component in game.components.values() if component.list_failed}
    for group, keys in (text_keys or {}).items():
        table = doc.data.get(group)
        if not isinstance(table, Mapping):
            continue
        what = "card text" if group == "cards" else "game.toml text"
        found += [Diagnostic(Level.WARNING, f"{path.name} records {what} {key!r}, which the game no longer has",
                             path, doc.line_of(group, key),
                             f"delete its [{group}.{_toml_key(key)}] table (the next pnp i18n --accept drops it too)")
                  for key in table if key not in keys and key.split("/")[0] not in unread]
    return found


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _basic_string(key)


def _basic_string(text: str) -> str:
    """A one-line TOML basic string (JSON's escapes are TOML's, but for DEL, which TOML wants escaped)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_string(text: str) -> str:
    """A TOML string a person can read in a diff: multi-line literal where TOML allows it."""
    if "'''" not in text and not text.endswith("'") and not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text):
        return "'''\n" + text + "'''"
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    escaped = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", escaped)
    return '"""\n' + escaped + '"""'


def write_translated_sources(game: Game, lang: str, sources: Mapping[str, str] | Records) -> Path:
    """Write the records file whole: a mapping is sections only, :class:`Records` every table."""
    records = sources if isinstance(sources, Records) else Records(sections=dict(sources))
    path = sources_path(game, lang)
    lines = [
        f"# The {game.source_language} text each {lang} section, card text and game.toml text was translated",
        f"# from, recorded by `pnp i18n {game.id} --lang {lang} --accept ID`. pnp compares it with",
        f"# the {game.source_language} text now: one that changed since is stale,",
        "# and `pnp i18n` shows what changed. Edit through pnp rather than by hand.",
        f'source_language = "{game.source_language}"',
        "",
    ]
    for section_id in sorted(records.sections):
        lines += [f"[sections.{section_id}]", f"source = {_toml_string(records.sections[section_id] + chr(10))}"]
        if ("sections", section_id) in records.starter:
            lines.append("starter = true")
        lines.append("")
    for group in GROUPS:
        table = records.table(group)
        for key in sorted(table):
            lines += [f"[{group}.{_toml_key(key)}]", f"source = {_basic_string(table[key])}"]
            if (group, key) in records.starter:
                lines.append("starter = true")
            lines.append("")
    with atomic_write(path, durable=True) as handle:  # the translator's record, not a build output
        handle.write("\n".join(lines).encode("utf-8"))
    return path


def accept_sections(game: Game, lang: str, section_ids: Sequence[str] | None, report: Report,
                    starter: bool = False) -> list[str]:
    """Record the current source text of sections as translated (``None``: every section the translation has,
    and every card and game.toml text). A name that is no section id may be ``cards`` (every card text),
    ``texts`` (every game.toml text), a card key ``deck/red-1/text`` (or ``deck/red-1``, ``deck``: every
    text of that card or component) or a game.toml text key (``title``, ``colours.red.name``). With
    ``starter``, the records say the texts are `pnp new`'s starter, translated by nobody."""
    source_sections = sections_of(game, game.source_language, report)
    target_sections = sections_of(game, lang, report)
    if source_sections is None or target_sections is None:
        return []
    by_id = {s.id: s for s in source_sections if s.id}
    present = {s.id for s in target_sections}
    items = [item for item in text_items(game, lang) if item.target.strip()]
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
    old = load_records(game, lang, old_problems) or Records()
    known = {"cards": {item.key for item in text_items(game, lang) if item.group == "cards"},
             "texts": {item.key for item in text_items(game, lang) if item.group == "texts"}}
    unread = {component.id for component in game.components.values() if component.list_failed}
    records = Records({key: text for key, text in old.sections.items() if key in by_id},
                      {key: text for key, text in old.cards.items() if key in known["cards"]
                       or key.split("/")[0] in unread},
                      {key: text for key, text in old.texts.items() if key in known["texts"]},
                      set(old.starter))
    accepted: list[str] = []

    def record(table: str, key: str, text: str) -> None:
        records.table(table)[key] = text
        if starter:
            records.starter.add((table, key))
        else:
            records.starter.discard((table, key))

    if section_ids is None:
        wanted = [s for s in by_id if s in present]
        for section_id in wanted:
            record("sections", section_id, by_id[section_id].text)
        accepted += wanted
        for item in items:
            record(item.group, item.key, item.source)
        accepted += _counted(items)
    for name in section_ids or ():
        if name in by_id:
            if name not in present:
                report.error(f"section {name!r} is not in rules/{lang}.md yet: translate it before accepting",
                             rule_text_path(game, lang))
                continue
            record("sections", name, by_id[name].text)
            accepted.append(name)
            continue
        chosen = [item for item in items if _names(name, item)]
        if not chosen:
            untranslated = [item for item in text_items(game, lang) if _names(name, item)]
            if untranslated:
                report.error(f"{untranslated[0].label} has no text yet: translate it before accepting",
                             untranslated[0].file, untranslated[0].line)
            else:
                report.error(f"no section, card text or game.toml text {name!r} in {game.id}",
                             rule_text_path(game, game.source_language), None,
                             f"sections: {', '.join(by_id)}; or cards (every card text), texts (every game.toml "
                             "text), a card text as COMPONENT/CARD/FIELD, a game.toml text as title, "
                             "colours.ID.name...")
            continue
        for item in chosen:
            record(item.group, item.key, item.source)
        accepted += [item.key for item in chosen] if len(chosen) == 1 else _counted(chosen)
    if accepted:
        try:
            write_translated_sources(game, lang, records)
        except OSError as exc:
            report.error(f"nothing recorded: cannot write {path.name}: {exc.strerror or exc}", path, None,
                         "it must be a file pnp can write (rename what is in its way)")
            return []
    return accepted


def _names(name: str, item: TextItem) -> bool:
    """Whether an --accept name means the item: its group, its key, or (cards) its card or component."""
    if name == item.group or name == item.key:
        return True
    return item.group == "cards" and item.key.startswith(name.rstrip("/") + "/")


def _counted(items: Sequence[TextItem]) -> list[str]:
    cards = sum(1 for item in items if item.group == "cards")
    texts = len(items) - cards
    return ([f"{cards} card text(s)"] if cards else []) + ([f"{texts} game.toml text(s)"] if texts else [])


def _readable(path: Path, report: Report) -> bool:
    """Whether the records file parses as TOML (a problem inside it is reported by the loading)."""
    try:
        load_toml(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return False
    return True

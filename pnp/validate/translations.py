"""Keeping translations in step with the source rule text: the analysis behind `pnp check` and `pnp i18n`.

A translated section is compared with the source section it was translated
from. Each language keeps ``rules/<lang>.sources.toml``: for every section
the translator accepted, the exact source text they translated. So when the
source changes, the section is *stale* and `pnp i18n` can show the change as
a diff instead of "something changed somewhere".

What is compared, per section (see docs/rulebooks.md for the reasons):

* presence: a section missing from a translation is an error, an extra one a warning;
* placeholders (``{{ ... }}``) and placed examples must be the same set: an error,
  since a missing placeholder is a number the translation no longer states;
* literal numbers, after NFKC normalisation (１ = 1): an error too. Numbers the
  model holds are placeholders, so what is left is prose the rules depend on
  ("adds 5", "2 points"); a number a translation states differently is a
  rules disagreement, and writing digits on both sides is the easy fix. A
  translation may repeat a number (English "second place" is "2位"), but it
  may not state one fewer times than the source, nor state one the source
  never does;
* glossary: a section whose source uses a term must use the paired term (warning); terms are
  found as words, a Japanese one not inside a longer compound (glossary_match.py says how and why).

Card texts and game.toml texts (titles, terms, vocabulary and component names) are recorded one by
one in the same file and are stale the same way; a card's numbers are compared as a section's are,
at its CSV row. A text never recorded is a note, not a warning: games kept their card texts
unrecorded before they could be recorded, and nothing about them was ever known to be in step.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pnp.compose.blocks import RuleText, block_texts
from pnp.compose.markdown_source import swallowing_line
from pnp.compose.ruletext import load_rule_text
from pnp.compose.template import compute_results
from pnp.diagnostics import DataError, Level, Report, location
from pnp.load.game_folder import game_argument
from pnp.load.rule_files import has_rule_texts, rule_text_path
from pnp.load.text_files import read_text
from pnp.model.game import Game
from pnp.render.text.fonts import NO_GLYPH_FIX, covered_characters, no_glyph
from pnp.rules import rules_or_none
from pnp.rules.base import GameRules
from pnp.validate.card_mentions import check_card_mentions
from pnp.validate.glossary import Glossary, load_glossary
from pnp.validate.player_mentions import check_player_mentions
from pnp.validate.rule_prose import StatedNumbers, number_differences, numbers, placeholders, prose, stated_numbers
from pnp.validate.translation_records import (
    Records,
    Section,
    TextItem,
    load_records,
    orphan_records,
    same_wording,
    sections_of,
    text_items,
)
from pnp.validate.word_diff import word_changes

SectionState = Literal["translated", "stale", "untracked", "untranslated", "missing", "extra", "id twice"]
#: "untranslated": recorded as `pnp new`'s starter text, and the source rewritten since
TextState = Literal["translated", "stale", "unrecorded", "untranslated"]


# ---------------------------------------------------------------------------------------------------------------
# Analysis


@dataclass(frozen=True)
class SectionStatus:
    id: str
    state: SectionState
    source: Section | None
    target: Section | None
    diff: tuple[str, ...] = ()  # for stale sections: how the source changed since it was translated


@dataclass(frozen=True)
class TextStatus:
    """A card or game.toml text that has a translation, against its record."""

    item: TextItem
    state: TextState
    diff: tuple[str, ...] = ()  # for stale texts: the source's change, word by word


@dataclass(frozen=True)
class Finding:
    """A disagreement inside a section; ``level`` is what `pnp check` reports it as."""

    kind: Literal["placeholder", "number", "glossary"]
    section: str
    message: str
    level: Level
    file: Path | None
    line: int | None
    fix: str | None = None


@dataclass(frozen=True)
class CardTextCount:
    component: str
    field: str
    translated: int
    missing: tuple[str, ...]  # card ids whose source text has no translation


@dataclass
class LanguageStatus:
    lang: str
    path: Path
    exists: bool
    sections: list[SectionStatus] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    cards: list[CardTextCount] = field(default_factory=list)
    texts: list[TextStatus] = field(default_factory=list)
    generated_cards: int = 0
    #: the records file is there but cannot be read (reported): no section is "never recorded" for that
    records_unreadable: bool = False

    def count(self, state: SectionState) -> int:
        return sum(1 for s in self.sections if s.state == state)

    def texts_in(self, state: TextState, group: str | None = None) -> list[TextStatus]:
        return [t for t in self.texts if t.state == state and (group is None or t.item.group == group)]


def _line_holding(section: Section, holds: Callable[[str], bool]) -> int:
    """The line inside a section that holds a placeholder or number, as the comparison reads them: a
    search for text found "0" in the "10点" of an earlier line, and "{{" in the paragraph's first."""
    for offset, line in enumerate(section.text.split("\n")):
        if holds(line):
            return section.line + offset
    return section.line


def compare_section(source: Section, target: Section, target_path: Path, glossary: Glossary | None,
                    source_lang: str, lang: str) -> list[Finding]:
    """Placeholders, numbers and glossary terms of one translated section against its source."""
    findings: list[Finding] = []
    want, have = placeholders(source.text), placeholders(target.text)
    for item in sorted(want - have):
        fix = (f"add the block ```{item} as the source section has it: its figure and numbers come from "
               "examples.toml" if item.startswith("example")
               else "use the same placeholders as the source, so the numbers come from the model")
        findings.append(Finding("placeholder", source.id, f"section {source.id!r} lacks {item}, which the source "
                                f"section has", Level.ERROR, target_path, target.line, fix))
    for item in sorted(have - want):
        findings.append(Finding("placeholder", source.id, f"section {source.id!r} has {item}, which the source "
                                f"section does not", Level.ERROR, target_path,
                                _line_holding(target, lambda line, item=item: item in placeholders(line)),
                                "remove it, or add it to the source section too"))
    # A translation may repeat a number ("second place" is "2位"), but may not drop one or state a new one;
    # a number word or a Japanese 1 with a counter (1枚) matches a digit but needs no match (rule_prose.py)
    fewer, new = number_differences(_stated(source.text, source_lang, glossary), _stated(target.text, lang, glossary))
    for number, wanted, found in fewer:
        told = (f"the source states {number} in {wanted} places, the translation in {found}" if found
                else f"the source states {number}, the translation does not")
        findings.append(Finding("number", source.id, f"section {source.id!r}: {told}", Level.ERROR, target_path,
                                target.line, "write the same number in digits (or use a placeholder in both "
                                "languages)"))
    for number in new:
        findings.append(Finding("number", source.id, f"section {source.id!r}: the translation states {number}, "
                                "the source does not", Level.ERROR, target_path,
                                _line_holding(target, lambda line, number=number: number in numbers(line)),
                                "check the number against the source section"))
    missing = glossary.missing_terms(prose(source.text), prose(target.text), source_lang, lang) if glossary else []
    for term in missing:
        findings.append(Finding("glossary", source.id, f"section {source.id!r}: the source uses "
                                f"{term.preferred(source_lang)!r}, but the translation lacks its glossary term "
                                f"{term.preferred(lang)!r}", Level.WARNING, target_path, target.line,
                                f"use {term.preferred(lang)!r} (glossary.toml line {term.line})"))
    return findings


def _stated(text: str, lang: str, glossary: Glossary | None) -> StatedNumbers:
    return stated_numbers(text, lang, glossary.counters if glossary else (), glossary.ignore if glossary else ())


def card_numbers(game: Game, lang: str, glossary: Glossary | None) -> list[Finding]:
    """Each card text's numbers against its source text's, as a section's are: "5 or more" in one
    language and 4以上 in the other is a warning at the card's row."""
    findings = []
    for card in game.all_cards():
        for name in card.texts:
            source, target = card.text(name, game.source_language), card.text(name, lang)
            if not source.strip() or not target.strip():
                continue
            fewer, new = number_differences(_stated(source, game.source_language, glossary),
                                            _stated(target, lang, glossary))
            if not fewer and not new:
                continue
            said = ", ".join(number if wanted == 1 else f"{number} ({wanted} times)" for number, wanted, _ in fewer)
            if fewer and new:
                told = f"the {game.source_language} text states {said}, the translation {', '.join(new)} instead"
            elif fewer:
                told = f"the {game.source_language} text states {said}, the translation " + (
                    "does not" if all(found == 0 for _, _, found in fewer) else "fewer times")
            else:
                told = f"the translation states {', '.join(new)}, the {game.source_language} text does not"
            where = card.source
            findings.append(Finding("number", f"card {card.id}", f"card {card.id} {name}.{lang}: {told}",
                                    Level.WARNING, where.file if where else None, where.line if where else None,
                                    f"state the same numbers in {name}.{game.source_language} and {name}.{lang} "
                                    "(a number word, or a Japanese 1 with its counter, may stand for a digit; "
                                    "rules/glossary.toml [numbers] lists more)"))
    return findings


def _diff(old: str, new: str, source_lang: str) -> tuple[str, ...]:
    """The line diff, then each change word by word (pnp/validate/word_diff.py)."""
    lines = tuple(difflib.unified_diff(old.split("\n"), new.split("\n"), f"{source_lang} as translated",
                                       f"{source_lang} now", lineterm="", n=1))
    return lines + tuple(f"changed: {change}" for change in word_changes(old, new))


def section_statuses(source: Sequence[Section], target: Sequence[Section], recorded: Mapping[str, str],
                     source_lang: str, starter: Collection[str] = ()) -> list[SectionStatus]:
    # a heading without an id, or an id used twice in either text, is an error of the rule text itself
    # (reported where it is parsed); comparing it too would pair sections by accident: one heading given
    # another's id made a dozen errors about examples and numbers the two sections do not share
    twice = {""} | _used_twice(source) | _used_twice(target)
    by_target = {section.id: section for section in target if section.id not in twice}
    statuses = []
    listed_twice: set[str] = {""}
    for section in source:
        if section.id in twice:
            if section.id not in listed_twice:
                listed_twice.add(section.id)
                statuses.append(SectionStatus(section.id, "id twice", section, None))  # not compared
            continue
        translated = by_target.get(section.id)
        if translated is None:
            statuses.append(SectionStatus(section.id, "missing", section, None))
        elif section.id not in recorded:
            statuses.append(SectionStatus(section.id, "untracked", section, translated))
        elif section.id in starter and not same_wording(recorded[section.id], section.text):
            statuses.append(SectionStatus(section.id, "untranslated", section, translated))  # nobody translated it
        elif not same_wording(recorded[section.id], section.text):
            statuses.append(SectionStatus(section.id, "stale", section, translated,
                                          _diff(recorded[section.id], section.text, source_lang)))
        else:
            statuses.append(SectionStatus(section.id, "translated", section, translated))
    source_ids = {s.id for s in source}
    statuses += [SectionStatus(s.id, "extra", None, s) for s in by_target.values() if s.id not in source_ids and s.id]
    return statuses


def _used_twice(sections: Sequence[Section]) -> set[str]:
    return {section_id for section_id, used in Counter(section.id for section in sections).items() if used > 1}


def card_text_counts(game: Game, lang: str) -> list[CardTextCount]:
    """Per component and text field: how many source texts have a translation."""
    counts = []
    for component in game.components.values():
        fields = sorted({name for card in component.cards for name in card.texts})
        for name in fields:
            translated, missing = 0, []
            for card in component.cards:
                if not card.text(name, game.source_language).strip():
                    continue
                if card.text(name, lang).strip():
                    translated += 1
                else:
                    missing.append(card.id)
            counts.append(CardTextCount(component.id, name, translated, tuple(missing)))
    return counts


def text_statuses(game: Game, lang: str, records: Records) -> list[TextStatus]:
    """Each card and game.toml text that has a translation: translated, stale, or never recorded."""
    statuses = []
    for item in text_items(game, lang):
        if not item.target.strip():
            continue  # no translation: counted among the missing card texts, an error where it is loaded
        recorded = records.table(item.group).get(item.key)
        if recorded is None:
            statuses.append(TextStatus(item, "unrecorded"))
        elif same_wording(recorded, item.source):
            statuses.append(TextStatus(item, "translated"))
        elif (item.group, item.key) in records.starter:
            statuses.append(TextStatus(item, "untranslated"))
        else:
            statuses.append(TextStatus(item, "stale", tuple(f"changed: {change}"
                                                            for change in word_changes(recorded, item.source))))
    return statuses


def analyse_language(game: Game, rules: GameRules | None, lang: str, glossary: Glossary | None,
                     report: Report) -> LanguageStatus:
    path = rule_text_path(game, lang)
    status = LanguageStatus(lang, path, path.is_file())
    status.cards = card_text_counts(game, lang)
    if rules is not None:
        status.generated_cards = sum(len(texts) for texts in rules.card_texts(game, lang).values())
    if lang == game.source_language:
        return status
    records = load_records(game, lang, report)
    status.records_unreadable = records is None
    status.texts = text_statuses(game, lang, records or Records())
    source = sections_of(game, game.source_language, Report())
    if source is None:
        return status
    target = sections_of(game, lang, Report()) if status.exists else []
    records = records or Records()
    starter = {key for table, key in records.starter if table == "sections"}
    status.sections = section_statuses(source, target or [], records.sections, game.source_language, starter)
    for entry in status.sections:
        if entry.source is not None and entry.target is not None:
            status.findings += compare_section(entry.source, entry.target, path, glossary, game.source_language,
                                               lang)
    status.findings += card_numbers(game, lang, glossary)
    if glossary is not None:
        status.findings += _card_glossary(game, lang, glossary)
    return status


def _card_glossary(game: Game, lang: str, glossary: Glossary) -> list[Finding]:
    findings = []
    for card in game.all_cards():
        for name in card.texts:
            source, target = card.text(name, game.source_language), card.text(name, lang)
            if not target:
                continue
            for term in glossary.missing_terms(source, target, game.source_language, lang):
                where = card.source
                findings.append(Finding(
                    "glossary", f"card {card.id}", f"card {card.id} {name}.{lang}: the source uses "
                    f"{term.preferred(game.source_language)!r}, but the translation lacks "
                    f"{term.preferred(lang)!r}", Level.WARNING, where.file if where else None,
                    where.line if where else None, f"use {term.preferred(lang)!r} in its {name}.{lang} "
                    f"(glossary.toml line {term.line})"))
    return findings


def analyse_translations(game: Game, report: Report, languages: Sequence[str] | None = None
                         ) -> list[LanguageStatus]:
    """Every translation language of the game (or those asked for), analysed."""
    rules = rules_or_none(game)
    glossary = load_glossary(game, report)
    wanted = [lang for lang in (languages or game.languages) if lang != game.source_language]
    return [analyse_language(game, rules, lang, glossary, report) for lang in wanted]


# ---------------------------------------------------------------------------------------------------------------
# pnp check


def check_translations(game: Game, report: Report, rules: GameRules | None = None,
                       results: Mapping[str, Mapping[str, Any] | None] | None = None,
                       data_in_error: bool = False) -> None:
    """Add every rule-text and translation problem to ``report`` (called by pnp check).

    Rule texts are rendered and parsed in every language, so template errors,
    refused placeholders, unknown example or table ids and headings without an
    id are reported here with file and line, before anything is built.
    """
    if not has_rule_texts(game):
        from pnp.validate import NO_RULE_TEXTS

        report.note(NO_RULE_TEXTS, game.path, fix="see docs/rulebooks.md")
        return
    rules = rules or rules_or_none(game)
    if rules is None:
        return
    results = results if results is not None else compute_results(game, rules)
    placed: dict[str, set[str]] = {}
    error_lines: dict[str, set[int]] = {}  # per language: lines of its rule text that have errors
    unreadable: set[str] = set()  # not text, or its sections lost (reported once): none can be compared
    for lang in game.languages:
        path = rule_text_path(game, lang)
        raw = _raw_text(path)
        if raw is None or swallowing_line(raw) is not None:
            unreadable.add(lang)  # or a note or code block left open over the sections after it (reported)
        if not path.is_file() and path.exists() and not path.is_dir():  # a pipe, a device: said as read
            try:
                read_text(path)
            except DataError as exc:
                report.diagnostics.append(exc.diagnostic)
            continue
        if not path.is_file() and path.is_symlink():
            report.error(f"rules/{lang}.md is a link that leads to no file (a broken link, or one to itself)", path,
                         None, "point the link at the rule text, or put the file itself in its place")
            continue
        if not path.is_file():
            source = rule_text_path(game, game.source_language)
            report.error(f"the game ships in {lang}, but rules/{lang}.md is missing", path, None,
                         f"translate {source.name} into {path.name}" if lang != game.source_language
                         else f"write the source rule text {path.name}")
            continue
        reported_before = len(report.diagnostics)
        text = load_rule_text(game, rules, lang, report, results, data_in_error)
        # errors, and the notes a placeholder in error becomes while the game's data has errors
        error_lines[lang] = {found.line for found in report.diagnostics[reported_before:]
                             if found.level in (Level.ERROR, Level.NOTE) and found.line is not None}
        if text is not None and not text.blocks:
            # only white space or comments: the rulebook would be its title page, and each section and
            # example would be "missing" from it one by one
            report.error(f"rules/{lang}.md holds no rule text, only white space or comments", path, None,
                         "write the rules, in sections headed ## Title {#id}")
            unreadable.add(lang)
        elif text is not None:
            placed[lang] = {ref.example for ref in text.examples}
            check_glyphs(text, report, game.fonts)
            check_player_mentions(game, lang, path, raw or "", report)
            check_card_mentions(game, path, raw or "", report)
    _check_placements(game, placed, report)
    for status in analyse_translations(game, report):
        if not unreadable & {status.lang, game.source_language}:  # else every section would be "missing"
            waiting = (_sections_at(status.sections, error_lines.get(game.source_language, set()), "source")
                       | _sections_at(status.sections, error_lines.get(status.lang, set()), "target"))
            status.findings = [finding for finding in status.findings
                               if not (finding.kind == "placeholder" and finding.section in waiting)]
            _report_language(game, status, report)
            source_ids = {entry.id for entry in status.sections if entry.source is not None}
            keys: dict[str, set[str]] = {"cards": set(), "texts": set()}
            for item in text_items(game, status.lang):
                keys[item.group].add(item.key)
            report.diagnostics.extend(orphan_records(game, status.lang, source_ids or None, keys))


def _sections_at(sections: Sequence[SectionStatus], lines: set[int], side: str) -> set[str]:
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


def _raw_text(path: Path) -> str | None:
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


def _check_placements(game: Game, placed: Mapping[str, set[str]], report: Report) -> None:
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


def _report_language(game: Game, status: LanguageStatus, report: Report) -> None:
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


# ---------------------------------------------------------------------------------------------------------------
# pnp i18n


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

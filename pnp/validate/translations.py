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
from pathlib import Path
from typing import Any

from pnp.compose.markdown_source import swallowing_line
from pnp.compose.rule_names import compute_results
from pnp.compose.ruletext import load_rule_text
from pnp.diagnostics import DataError, Level, Report
from pnp.load.rule_files import has_rule_texts, rule_text_path
from pnp.load.text_files import read_text
from pnp.model.game import Game
from pnp.rules import rules_or_none
from pnp.rules.base import GameRules
from pnp.validate.card_mentions import check_card_mentions
from pnp.validate.glossary import Glossary, load_glossary
from pnp.validate.i18n_listing import format_language, has_errors
from pnp.validate.player_mentions import check_player_mentions
from pnp.validate.rule_prose import StatedNumbers, number_differences, numbers, placeholders, prose, stated_numbers
from pnp.validate.translation_records import (
    Records,
    Section,
    load_records,
    orphan_records,
    same_wording,
    sections_of,
    text_items,
)
from pnp.validate.translation_report import check_glyphs, check_placements, raw_text, report_language, sections_at
from pnp.validate.translation_status import (
    CardTextCount,
    Finding,
    LanguageStatus,
    SectionStatus,
    TextStatus,
)
from pnp.validate.word_diff import word_changes

#: `pnp i18n` (pnp/commands/i18n.py) imports the listing from here, with the analysis it lists
__all__ = ["LanguageStatus", "analyse_translations", "check_translations", "format_language", "has_errors"]


# ---------------------------------------------------------------------------------------------------------------
# Analysis


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

        report.note(NO_RULE_TEXTS, game.path, fix="see pnp docs rulebooks")
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
        raw = raw_text(path)
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
    check_placements(game, placed, report)
    for status in analyse_translations(game, report):
        if not unreadable & {status.lang, game.source_language}:  # else every section would be "missing"
            waiting = (sections_at(status.sections, error_lines.get(game.source_language, set()), "source")
                       | sections_at(status.sections, error_lines.get(status.lang, set()), "target"))
            status.findings = [finding for finding in status.findings
                               if not (finding.kind == "placeholder" and finding.section in waiting)]
            report_language(game, status, report)
            source_ids = {entry.id for entry in status.sections if entry.source is not None}
            keys: dict[str, set[str]] = {"cards": set(), "texts": set()}
            for item in text_items(game, status.lang):
                keys[item.group].add(item.key)
            report.diagnostics.extend(orphan_records(game, status.lang, source_ids or None, keys))

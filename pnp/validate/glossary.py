"""A game's ``rules/glossary.toml``: the terms each language must use for the same thing.

How a term is found in a text (as a word, a Japanese one not inside a longer compound) is
:mod:`pnp.validate.glossary_match`; this module reads the file and reports its problems.
"""


from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pnp.diagnostics import DataError, Report
from pnp.load.toml_lines import TomlDoc, load_toml
from pnp.model.game import Game
from pnp.validate.glossary_match import uses_term

GLOSSARY = "glossary.toml"


@dataclass(frozen=True)
class Term:
    forms: Mapping[str, tuple[str, ...]]  # language -> accepted spellings, the preferred first
    line: int | None = None
    note: str = ""

    def preferred(self, lang: str) -> str:
        return self.forms[lang][0]


@dataclass
class Glossary:
    path: Path
    terms: list[Term] = field(default_factory=list)
    #: [numbers]: Japanese counters beyond pnp's own (コマ), and phrases read as no number at all ("1枚")
    counters: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def vocabulary(self, lang: str) -> frozenset[str]:
        """Every spelling of every term in ``lang``: the words a Japanese compound may be made of."""
        return frozenset(spelling for term in self.terms for spelling in term.forms.get(lang, ()))

    def missing_terms(self, source: str, target: str, source_lang: str, lang: str) -> list[Term]:
        """Terms ``source`` uses whose paired term ``target`` lacks (glossary_match.py has the rule)."""
        source_words, target_words = self.vocabulary(source_lang), self.vocabulary(lang)
        return [term for term in self.terms
                if source_lang in term.forms and lang in term.forms
                and uses_term(source, term.forms[source_lang], source_words)
                and not uses_term(target, term.forms[lang], target_words)]


def load_glossary(game: Game, report: Report) -> Glossary | None:
    """``glossary.toml``: [[term]] tables of language = "term" or ["term", "variant"]."""
    path = game.path / GLOSSARY
    if not path.is_file():
        return None
    try:
        doc = load_toml(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return None
    glossary = Glossary(path)
    _read_numbers(glossary, doc, report)
    entries = doc.data.get("term", [])
    if not isinstance(entries, list):
        report.error("'term' must be an array of tables: write [[term]] before each pair", path, doc.line_of("term"))
        return glossary
    for index, entry in enumerate(entries):
        line = doc.line_of("term", index)
        forms: dict[str, tuple[str, ...]] = {}
        for lang in game.languages:
            value = entry.get(lang) if isinstance(entry, Mapping) else None
            spellings = (value,) if isinstance(value, str) else tuple(value) if isinstance(value, list) else ()
            spellings = tuple(s.strip() for s in spellings if isinstance(s, str) and s.strip())
            if not spellings:
                report.warning(f"glossary term {index + 1} has no {lang} form", path, line,
                               f'add {lang} = "..." (or a list of accepted spellings)')
                continue
            forms[lang] = spellings
        known = set(game.languages) | {"note"}
        for key in entry if isinstance(entry, Mapping) else ():
            if key not in known:
                report.warning(f"glossary term {index + 1}: unknown key {key!r} (languages: "
                               f"{', '.join(game.languages)})", path, doc.line_of("term", index, key))
        if forms:
            glossary.terms.append(Term(forms, line, str(entry.get("note", ""))))
    return glossary


def _read_numbers(glossary: Glossary, doc: TomlDoc, report: Report) -> None:
    """``[numbers] counters = ["コマ"]``, ``ignore = ["1枚"]``: how the translation check reads numbers."""
    table = doc.data.get("numbers")
    if table is None:
        return
    if not isinstance(table, Mapping):
        report.error("'numbers' must be a table: [numbers] with counters = [...] and ignore = [...]",
                     glossary.path, doc.line_of("numbers"))
        return
    for key, value in table.items():
        if key not in ("counters", "ignore"):
            report.warning(f"[numbers]: unknown key {key!r} (counters, ignore)", glossary.path,
                           doc.line_of("numbers", key))
            continue
        if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
            report.error(f"[numbers] {key} must be a list of texts, e.g. {key} = [\"1枚\"]", glossary.path,
                         doc.line_of("numbers", key))
            continue
        setattr(glossary, key, tuple(item.strip() for item in value))

"""What the translation analysis finds, as data: each section's and text's state, each disagreement.

Its own module so that the analysis (pnp/validate/translations.py), the errors `pnp check` words
from it (pnp/validate/translation_report.py) and the `pnp i18n` listing
(pnp/validate/i18n_listing.py) share these types without importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pnp.diagnostics import Level
from pnp.validate.translation_records import (
    Section,
    TextItem,
)

SectionState = Literal["translated", "stale", "untracked", "untranslated", "missing", "extra", "id twice"]
#: "untranslated": recorded as `pnp new`'s starter text, and the source rewritten since
TextState = Literal["translated", "stale", "unrecorded", "untranslated"]


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

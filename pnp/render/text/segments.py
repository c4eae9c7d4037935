"""Text cut into the units the line breaker moves, and where breaks may fall between them.

An :class:`Atom` is a Latin word, one CJK character, a run of spaces or an icon; a
:class:`Segment` is atoms no break may fall inside (kinsoku, glued sums and counters, short
bracket groups), with the spaces before them. The rules themselves are in
:mod:`pnp.render.text.kinsoku`; filling lines with segments is :mod:`pnp.render.text.linebreak`'s.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from pnp.model.runs import Icon, is_cjk
from pnp.render.text.kinsoku import (
    FULL_WIDTH_SHARE,
    GROUP_BRACKETS,
    GROUP_MAX_ATOMS,
    MATH_SIGNS,
    NO_END,
    NO_START,
    SQUEEZE,
    number_and_counter,
    squeezes,
)

#: A place in a list of runs: (run index, character offset within that run's text).
Position = tuple[int, int]
#: The offsets of a text at which a phrase begins (a break may fall there): phrases.phrase_starts
PhraseStarts = Callable[[str], set[int]]


class Kind(enum.IntEnum):
    NEWLINE = 1
    SPACE = 2
    CJK = 3
    WORD = 4
    ICON = 5




@dataclass(slots=True)
class Atom:
    """The smallest unit the breaker moves: a word, one CJK character, spaces, or an icon."""

    kind: Kind
    text: str  # empty for icons
    style: str
    icon: Icon | None
    width: float
    source: Position
    squeeze: float = 0.0  # already taken off width: see kinsoku.squeezes


@dataclass(slots=True)
class Segment:
    """Atoms no break may fall inside, and the spaces that precede them."""

    lead: list[Atom]
    body: list[Atom]
    lead_width: float
    body_width: float


@dataclass(slots=True)
class SegmentedParagraph:
    segments: list[Segment]
    end: Position  # of the newline closing it, or just past the text


def words_and_cjk(text: str) -> Iterator[tuple[Kind, int, int]]:
    """(kind, start, end) of a run of non-space text: each CJK character alone, the rest as words."""
    if text.isascii():
        yield Kind.WORD, 0, len(text)
        return
    word_start = 0
    for index, char in enumerate(text):
        if is_cjk(char):
            if word_start < index:
                yield Kind.WORD, word_start, index
            yield Kind.CJK, index, index + 1
            word_start = index + 1
    if word_start < len(text):
        yield Kind.WORD, word_start, len(text)


def _in_a_sum(before: Atom, after: Atom) -> bool:
    """A sign and the number after it, or a number and the sign standing after it."""
    if not before.text or not after.text:
        return False
    return ((before.text[-1] in MATH_SIGNS and after.text[0].isdigit())
            or (before.text[-1].isdigit() and after.text in MATH_SIGNS))


def _may_break(before: Atom, after: Atom, spaced: bool, counters: bool) -> bool:
    if (before.text and before.text[-1] in NO_END) or (after.text and after.text[0] in NO_START):
        return False
    if _in_a_sum(before, after):
        return False
    if counters and number_and_counter(before.text, after.text, spaced):
        return False
    if spaced or before.kind is Kind.CJK or after.kind is Kind.CJK:
        return True
    # Two words touching (a style change inside a word) or an icon glued to a word stay together.
    return before.kind is Kind.ICON and after.kind is Kind.ICON


def _inside_short_groups(atoms: Sequence[Atom]) -> set[int]:
    """Indices of atoms that must not start a line because they sit inside a short bracket group."""
    glued: set[int] = set()
    for index, atom in enumerate(atoms):
        opening = next((char for char in reversed(atom.text) if char in GROUP_BRACKETS), None)
        if opening is None or GROUP_BRACKETS[opening] in atom.text[atom.text.rindex(opening):]:
            continue
        closing = GROUP_BRACKETS[opening]
        for end in range(index + 1, min(index + 1 + GROUP_MAX_ATOMS, len(atoms))):
            if atoms[end].kind is Kind.NEWLINE:
                break
            if closing in atoms[end].text:
                glued.update(range(index + 1, end + 1))
                break
    return glued


def segment_atoms(atoms: Sequence[Atom], counters: bool = False, phrases: PhraseStarts | None = None) -> list[Segment]:
    """Cut a paragraph's atoms into segments; ``phrases`` (see :mod:`pnp.render.text.phrases`) glues
    the characters of each Japanese phrase, so that no break falls inside one."""
    segments: list[Segment] = []
    spaces: list[Atom] = []
    previous: Atom | None = None
    glued = _inside_short_groups(atoms)
    if phrases is not None:
        glued |= _inside_phrases(atoms, phrases)
    for index, atom in enumerate(atoms):
        if atom.kind is Kind.SPACE:
            spaces.append(atom)
            continue
        space_width = sum(a.width for a in spaces) if spaces else 0.0
        if previous is None or (index not in glued and _may_break(previous, atom, bool(spaces), counters)):
            segments.append(Segment(spaces, [atom], space_width, atom.width))
        else:
            last = segments[-1]
            last.body.extend(spaces)
            last.body.append(atom)
            last.body_width += space_width + atom.width
        spaces = []
        previous = atom
    return segments  # spaces left at the end of a paragraph count for nothing


def _inside_phrases(atoms: Sequence[Atom], phrases: PhraseStarts) -> set[int]:
    """Indices of CJK atoms that do not begin a phrase of the paragraph's text."""
    text = "".join(atom.text or "\ufffc" for atom in atoms)
    starts = phrases(text)
    glued: set[int] = set()
    offset = 0
    for index, atom in enumerate(atoms):
        if atom.kind is Kind.CJK and index and atoms[index - 1].kind is Kind.CJK and offset not in starts:
            glued.add(index)
        offset += len(atom.text or "\ufffc")
    return glued


def squeeze_punctuation(atoms: list[Atom], em: float) -> None:
    """Take half an em off each full-width bracket or stop that meets another (JLReq 3.1, see kinsoku)."""
    for before, after in zip(atoms, atoms[1:], strict=False):
        if (before.kind is Kind.CJK and after.kind is Kind.CJK and squeezes(before.text, after.text)
                and before.width >= FULL_WIDTH_SHARE * em):
            before.squeeze = SQUEEZE * em
            before.width -= before.squeeze

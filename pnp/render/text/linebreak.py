"""Line breaking for mixed Japanese and English text, shared by card boxes and rulebooks.

reportlab's own ``wordWrap='CJK'`` splits Latin words and numbers anywhere and
lets opening brackets end a line, so we break lines ourselves. The rules:

* A break may fall at a space, between two CJK characters, or between a CJK
  character and a Latin word. A Latin word (any run of non-space, non-CJK
  characters, so "Surveillance", "123456", "1–7", "x/y", "(see)" alike) never
  breaks inside, even where a style change splits it into several runs.
* Kinsoku: no line starts with a character of :data:`NO_START` and no line ends
  with one of :data:`NO_END`. Unbreakable stretches move to the next line as a
  whole, so the character before a closing bracket is *pushed* down with it
  (oidashi); nothing ever hangs past the right edge.
* Only a stretch wider than a whole line (a giant word, or a line of nothing
  but forbidden characters) is broken between characters, and every line
  holding part of it is flagged ``forced`` so the caller can warn.
* Explicit newlines always break; spaces at the end of a wrapped line vanish
  and spaces at the start of a wrapped line are dropped, but spaces after an
  explicit newline are kept as indentation.

The module knows nothing of reportlab: the caller supplies ``measure``. Text
is measured and cut into unbreakable segments once (:class:`PreparedText`), so
trying many widths, as shrink-to-fit and frames of different widths do, costs
little more than one.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from pnp.model.runs import Icon, Run, Text, is_cjk

NO_START = frozenset(
    "、。，．・：；？！ー」』）］｝〕〉》】〙〗〟ゝゞヽヾ々〻‼⁇⁈⁉"
    "〜～…‥゛゜"  # wave dashes and ellipses (JIS X 4051's hyphens and inseparables), sound marks
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "),.;:!?]}%’”»｣､｡･％"
)
NO_END = frozenset("「『（［｛〔〈《【〘〖〝" "([{‘“«｢")

_WIDTH_SLACK = 1e-6  # float sums of glyph widths must not push a line that fits exactly
# Breakable spaces (not U+00A0 or U+2007, which glue, nor U+3000, which is a CJK character).
_SPACE_CLASS = " \u2002-\u2006\u2008-\u200b\u205f"
# a newline, a run of breakable spaces, or a run of anything else (split further at CJK characters)
_TOKEN = re.compile(f"(\n)|([{_SPACE_CLASS}]+)|([^\n{_SPACE_CLASS}]+)")
_OBJECT_REPLACEMENT = "\ufffc"


#: A place in a list of runs: (run index, character offset within that run's text).
Position = tuple[int, int]
#: Width of a run at the size being set (text or icon), in the caller's units.
Measure = Callable[[Run], float]


@dataclass(frozen=True)
class Piece:
    """A run placed on a line, with its measured width so drawing need not re-measure."""

    run: Run
    width: float


@dataclass(frozen=True)
class Line:
    pieces: tuple[Piece, ...]
    width: float  # trailing spaces excluded
    forced: bool = False  # a word had to be broken between characters
    ends_paragraph: bool = False  # followed by an explicit newline or the end of the text
    # Where the line begins in the runs (run index, character offset), so that a paragraph split
    # across frames can re-break its remainder at another width: see :func:`slice_runs`.
    start: Position = (0, 0)

    @property
    def text(self) -> str:
        """The line's characters, icons shown as U+FFFC; for tests and diagnostics."""
        return "".join(p.run.text if isinstance(p.run, Text) else _OBJECT_REPLACEMENT for p in self.pieces)


class _Kind(enum.IntEnum):
    NEWLINE = 1
    SPACE = 2
    CJK = 3
    WORD = 4
    ICON = 5


_KINDS = (None, _Kind.NEWLINE, _Kind.SPACE, _Kind.WORD)  # by _TOKEN group number; words hold CJK too


@dataclass(slots=True)
class _Atom:
    """The smallest unit the breaker moves: a word, one CJK character, spaces, or an icon."""

    kind: _Kind
    text: str  # empty for icons
    style: str
    icon: Icon | None
    width: float
    source: Position


@dataclass(slots=True)
class _Segment:
    """Atoms no break may fall inside, and the spaces that precede them."""

    lead: list[_Atom]
    body: list[_Atom]
    lead_width: float
    body_width: float


@dataclass(slots=True)
class _Paragraph:
    segments: list[_Segment]
    end: Position  # of the newline closing it, or just past the text


def _words_and_cjk(text: str) -> Iterator[tuple[_Kind, int, int]]:
    """(kind, start, end) of a run of non-space text: each CJK character alone, the rest as words."""
    if text.isascii():
        yield _Kind.WORD, 0, len(text)
        return
    word_start = 0
    for index, char in enumerate(text):
        if is_cjk(char):
            if word_start < index:
                yield _Kind.WORD, word_start, index
            yield _Kind.CJK, index, index + 1
            word_start = index + 1
    if word_start < len(text):
        yield _Kind.WORD, word_start, len(text)


#: signs a sum is written with: "12 + 9 + 3" stays on one line ("12 + 9 +" then "3" read as a broken
#: sentence), and Japanese "＋1" keeps its sign; so does a range, "1〜10人" (not "1〜" then "10人")
MATH_SIGNS = frozenset("+-−=×÷＋－＝〜～")


def _in_a_sum(before: _Atom, after: _Atom) -> bool:
    """A sign and the number after it, or a number and the sign standing after it."""
    if not before.text or not after.text:
        return False
    return ((before.text[-1] in MATH_SIGNS and after.text[0].isdigit())
            or (before.text[-1].isdigit() and after.text in MATH_SIGNS))


def _may_break(before: _Atom, after: _Atom, spaced: bool) -> bool:
    if (before.text and before.text[-1] in NO_END) or (after.text and after.text[0] in NO_START):
        return False
    if _in_a_sum(before, after):
        return False
    if spaced or before.kind is _Kind.CJK or after.kind is _Kind.CJK:
        return True
    # Two words touching (a style change inside a word) or an icon glued to a word stay together.
    return before.kind is _Kind.ICON and after.kind is _Kind.ICON


#: a short bracketed group such as a card notation ［4緑○］ is kept on one line, like a word
GROUP_BRACKETS = {"［": "］", "[": "]"}
GROUP_MAX_ATOMS = 12


def _inside_short_groups(atoms: Sequence[_Atom]) -> set[int]:
    """Indices of atoms that must not start a line because they sit inside a short bracket group."""
    glued: set[int] = set()
    for index, atom in enumerate(atoms):
        opening = next((char for char in reversed(atom.text) if char in GROUP_BRACKETS), None)
        if opening is None or GROUP_BRACKETS[opening] in atom.text[atom.text.rindex(opening):]:
            continue
        closing = GROUP_BRACKETS[opening]
        for end in range(index + 1, min(index + 1 + GROUP_MAX_ATOMS, len(atoms))):
            if atoms[end].kind is _Kind.NEWLINE:
                break
            if closing in atoms[end].text:
                glued.update(range(index + 1, end + 1))
                break
    return glued


def _segment(atoms: Sequence[_Atom]) -> list[_Segment]:
    segments: list[_Segment] = []
    spaces: list[_Atom] = []
    previous: _Atom | None = None
    glued = _inside_short_groups(atoms)
    for index, atom in enumerate(atoms):
        if atom.kind is _Kind.SPACE:
            spaces.append(atom)
            continue
        space_width = sum(a.width for a in spaces) if spaces else 0.0
        if previous is None or (index not in glued and _may_break(previous, atom, spaced=bool(spaces))):
            segments.append(_Segment(spaces, [atom], space_width, atom.width))
        else:
            last = segments[-1]
            last.body.extend(spaces)
            last.body.append(atom)
            last.body_width += space_width + atom.width
        spaces = []
        previous = atom
    return segments  # spaces left at the end of a paragraph count for nothing


def _make_line(atoms: list[_Atom], forced: bool, ends_paragraph: bool, start: Position) -> Line:
    while atoms and atoms[-1].kind is _Kind.SPACE:
        atoms = atoms[:-1]
    if atoms:
        start = atoms[0].source
    pieces: list[Piece] = []
    texts: list[str] = []  # of the text piece being gathered
    style, width = "", 0.0
    for atom in atoms:
        if atom.icon is None and texts and atom.style == style:
            texts.append(atom.text)
            width += atom.width
            continue
        if texts:
            pieces.append(Piece(Text("".join(texts), style), width))
            texts = []
        if atom.icon is not None:
            pieces.append(Piece(atom.icon, atom.width))
        else:
            texts, style, width = [atom.text], atom.style, atom.width
    if texts:
        pieces.append(Piece(Text("".join(texts), style), width))
    return Line(tuple(pieces), sum(p.width for p in pieces), forced, ends_paragraph, start)


class PreparedText:
    """Runs measured and cut into unbreakable segments, ready to break at any width.

    ``measure`` returns a run's width; it is called once per distinct word or
    character. Widths are linear in the font size, so a caller trying many sizes
    can measure at 1 pt once and break at ``width / size``.
    """

    def __init__(self, runs: Iterable[Run], measure: Measure) -> None:
        self.runs = normalize_whitespace(runs)
        self._measure = measure
        self._widths: dict[tuple[str, str], float] = {}
        atoms = self._atomize()
        self.paragraphs: list[_Paragraph] = []
        if not atoms:
            return
        current: list[_Atom] = []
        for atom in atoms:
            if atom.kind is _Kind.NEWLINE:
                self.paragraphs.append(_Paragraph(_segment(current), atom.source))
                current = []
            else:
                current.append(atom)
        self.paragraphs.append(_Paragraph(_segment(current), (len(self.runs), 0)))

    def _text_width(self, text: str, style: str) -> float:
        key = (text, style)
        width = self._widths.get(key)
        if width is None:
            width = self._widths[key] = self._measure(Text(text, style))
        return width

    def _atomize(self) -> list[_Atom]:
        atoms: list[_Atom] = []
        for index, run in enumerate(self.runs):
            if isinstance(run, Icon):
                atoms.append(_Atom(_Kind.ICON, "", "", run, self._measure(run), (index, 0)))
                continue
            style = run.style
            for match in _TOKEN.finditer(run.text):
                kind, text, start = _KINDS[match.lastindex], match.group(), match.start()
                if kind is not _Kind.WORD:
                    width = 0.0 if kind is _Kind.NEWLINE else self._text_width(text, style)
                    atoms.append(_Atom(kind, text, style, None, width, (index, start)))
                    continue
                for kind, first, end in _words_and_cjk(text):
                    piece = text[first:end]
                    atoms.append(_Atom(kind, piece, style, None, self._text_width(piece, style),
                                       (index, start + first)))
        return atoms

    def characters(self, atoms: Iterable[_Atom]) -> list[_Atom]:
        """Split atoms into single characters, for the last-resort break inside a word."""
        result: list[_Atom] = []
        for atom in atoms:
            if atom.icon is not None or len(atom.text) == 1:
                result.append(atom)
                continue
            run_index, offset = atom.source
            for position, char in enumerate(atom.text):
                width = self._text_width(char, atom.style)
                result.append(_Atom(atom.kind, char, atom.style, None, width, (run_index, offset + position)))
        return result

    def break_at(self, width: float, first_indent: float = 0.0) -> list[Line]:
        """Lines no wider than ``width``, the first ``first_indent`` narrower; [] for empty text."""
        filler = _LineFiller(width, width - first_indent, self)
        for paragraph in self.paragraphs:
            for index, segment in enumerate(paragraph.segments):
                filler.add(segment, starts_paragraph=index == 0)
            filler.end_paragraph(paragraph.end)
        return filler.lines


class _LineFiller:
    """Greedy filling: each segment goes on the current line if it fits, else on a new one."""

    def __init__(self, width: float, first_width: float, text: PreparedText) -> None:
        self.width = width
        self.available = first_width
        self.text = text
        self.lines: list[Line] = []
        self.atoms: list[_Atom] = []
        self.used = 0.0
        self.forced = False

    def _emit(self, ends_paragraph: bool, empty_start: Position = (0, 0)) -> None:
        self.lines.append(_make_line(self.atoms, self.forced, ends_paragraph, empty_start))
        self.atoms, self.used, self.forced = [], 0.0, False
        self.available = self.width

    def add(self, segment: _Segment, starts_paragraph: bool) -> None:
        if self.atoms:
            if self.used + segment.lead_width + segment.body_width <= self.available + _WIDTH_SLACK:
                self.atoms.extend(segment.lead)
                self.atoms.extend(segment.body)
                self.used += segment.lead_width + segment.body_width
                return
            self._emit(ends_paragraph=False)
        # Spaces before a paragraph's first word are indentation; elsewhere they vanish at a line start.
        if starts_paragraph:
            body, body_width = segment.lead + segment.body, segment.lead_width + segment.body_width
        else:
            body, body_width = segment.body, segment.body_width
        if body_width <= self.available + _WIDTH_SLACK:
            self.atoms.extend(body)
            self.used += body_width
            return
        self._force(body)

    def _force(self, atoms: list[_Atom]) -> None:
        """Break between characters; every line touched is flagged so the caller can warn."""
        for char in self.text.characters(atoms):
            if self.atoms and self.used + char.width > self.available + _WIDTH_SLACK:
                self.forced = True
                self._emit(ends_paragraph=False)
            if char.kind is _Kind.SPACE and not self.atoms:
                continue
            self.atoms.append(char)
            self.used += char.width
        self.forced = True

    def end_paragraph(self, end: Position) -> None:
        """``end`` locates the newline (or the end) closing the paragraph, for an empty last line."""
        self._emit(ends_paragraph=True, empty_start=end)


def break_lines(runs: Iterable[Run], width: float, measure: Measure, first_indent: float = 0.0) -> list[Line]:
    """Break ``runs`` into lines no wider than ``width`` (the first ``first_indent`` narrower).

    Empty input gives no lines; otherwise every explicit newline starts a new
    line, even an empty one. To break the same text at several widths, use
    :class:`PreparedText` directly.
    """
    return PreparedText(runs, measure).break_at(width, first_indent)


def normalize_whitespace(runs: Iterable[Run]) -> list[Run]:
    """Turn CR LF and CR into LF and tabs into spaces (fonts have no tab glyph).

    Positions in :attr:`Line.start` refer to the normalised runs.
    """
    result: list[Run] = []
    for run in runs:
        if isinstance(run, Text) and ("\r" in run.text or "\t" in run.text):
            text = run.text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
            run = Text(text, run.style)
        result.append(run)
    return result


def slice_runs(runs: Iterable[Run], start: Position | None, end: Position | None = None) -> list[Run]:
    """The runs between two :attr:`Line.start` positions (``None`` for either end of the text)."""
    runs = normalize_whitespace(runs)
    first_run, first_offset = start or (0, 0)
    last_run, last_offset = end or (len(runs), 0)
    result: list[Run] = []
    for index in range(first_run, min(last_run + 1, len(runs))):
        run = runs[index]
        begin = first_offset if index == first_run else 0
        if isinstance(run, Icon):
            if index < last_run and begin == 0:
                result.append(run)
            continue
        stop = last_offset if index == last_run else len(run.text)
        if stop > begin:
            result.append(Text(run.text[begin:stop], run.style))
    return result

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

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pnp.model.runs import Icon, Run, Text, is_cjk
from pnp.render.text.kinsoku import NO_END, NO_START  # noqa: F401  (re-exported: the rules' old home)
from pnp.render.text.segments import (
    Atom,
    Kind,
    PhraseStarts,
    Position,
    Segment,
    SegmentedParagraph,
    segment_atoms,
    squeeze_punctuation,
    words_and_cjk,
)

_WIDTH_SLACK = 1e-6  # float sums of glyph widths must not push a line that fits exactly
# Breakable spaces (not U+00A0 or U+2007, which glue, nor U+3000, which is a CJK character).
_SPACE_CLASS = " \u2002-\u2006\u2008-\u200b\u205f"
# a newline, a run of breakable spaces, or a run of anything else (split further at CJK characters)
_TOKEN = re.compile(f"(\n)|([{_SPACE_CLASS}]+)|([^\n{_SPACE_CLASS}]+)")
_OBJECT_REPLACEMENT = "\ufffc"
KINDS = (None, Kind.NEWLINE, Kind.SPACE, Kind.WORD)  # by _TOKEN group number; words hold CJK too


#: Width of a run at the size being set (text or icon), in the caller's units.
Measure = Callable[[Run], float]


@dataclass(frozen=True)
class Piece:
    """A run placed on a line, with its measured width so drawing need not re-measure."""

    run: Run
    width: float
    #: (index of a character in the run's text, width its advance loses): JLReq's squeezed punctuation
    squeeze: tuple[tuple[int, float], ...] = ()


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


#: a Japanese paragraph's last line holds at least this many characters ("ます。" alone reads as a stray)
SHORT_LAST_LINE = 4
#: the line above a short last line gives it words only while it stays this share of the width
SHORTENED_LINE_SHARE = 0.6


def is_short_last_line(line: Line) -> bool:
    """A Japanese line of fewer than SHORT_LAST_LINE characters, or one Latin word alone."""
    text = line.text.strip()
    if not text:
        return False
    if any(is_cjk(char) for char in text):
        return len(text) < SHORT_LAST_LINE
    return not any(char.isspace() for char in text)


def _lengthen_last_line(filler: _LineFiller, paragraph: SegmentedParagraph, first: int, available: float) -> None:
    """Re-set a paragraph ending in a short line with its second-last line capped ever narrower.

    Each try pushes at least one more unbreakable segment down, so kinsoku and glued numbers
    hold; the first try that mends the last line without adding a line or starving the one
    above wins, and if none does the greedy setting stands.
    """
    lines = filler.lines
    count = len(lines) - first
    if count < 2 or not is_short_last_line(lines[-1]) or any(line.forced for line in lines[first:]):
        return
    greedy = lines[first:]
    slot = available if count == 2 else filler.width
    limit = lines[-2].width
    while True:
        del lines[first:]
        filler.available = available
        filler.fill(paragraph, cap=(len(lines) + count - 2, limit - 1e-3 * slot))
        shortened = lines[-2] if len(lines) - first == count else None
        if shortened is None or shortened.width < SHORTENED_LINE_SHARE * slot:
            break
        if not is_short_last_line(lines[-1]):
            return
        limit = shortened.width
    del lines[first:]
    lines.extend(greedy)
    filler.available = filler.width


def _make_line(atoms: list[Atom], forced: bool, ends_paragraph: bool, start: Position) -> Line:
    while atoms and atoms[-1].kind is Kind.SPACE:
        atoms = atoms[:-1]
    if atoms:
        start = atoms[0].source
    pieces: list[Piece] = []
    texts: list[str] = []  # of the text piece being gathered
    squeezed: list[tuple[int, float]] = []  # of the text piece being gathered
    style, width, length = "", 0.0, 0
    for atom in atoms:
        if atom.icon is None and texts and atom.style == style:
            texts.append(atom.text)
        else:
            if texts:
                pieces.append(Piece(Text("".join(texts), style), width, tuple(squeezed)))
                texts, squeezed = [], []
            if atom.icon is not None:
                pieces.append(Piece(atom.icon, atom.width))
                continue
            texts, style, width, length = [atom.text], atom.style, 0.0, 0
        width += atom.width
        length += len(atom.text)
        if atom.squeeze:
            squeezed.append((length - 1, atom.squeeze))
    if texts:
        pieces.append(Piece(Text("".join(texts), style), width, tuple(squeezed)))
    return Line(tuple(pieces), sum(p.width for p in pieces), forced, ends_paragraph, start)


class PreparedText:
    """Runs measured and cut into unbreakable segments, ready to break at any width.

    ``measure`` returns a run's width; it is called once per distinct word or
    character. Widths are linear in the font size, so a caller trying many sizes
    can measure at 1 pt once and break at ``width / size``.

    ``em``, the width of a full-width character in ``measure``'s units, turns on the
    publisher's rules of :mod:`pnp.render.text.kinsoku`: punctuation meeting punctuation is
    squeezed to half width, and a number stays on the line with its counter or unit.
    ``phrases`` (:func:`pnp.render.text.phrases.phrase_starts`) keeps Japanese phrases whole.
    """

    def __init__(self, runs: Iterable[Run], measure: Measure, em: float | None = None,
                 phrases: PhraseStarts | None = None) -> None:
        self.runs = normalize_whitespace(runs)
        self._measure = measure
        self._widths: dict[tuple[str, str], float] = {}
        atoms = self._atomize()
        if em:
            squeeze_punctuation(atoms, em)
        self.paragraphs: list[SegmentedParagraph] = []
        if not atoms:
            return
        current: list[Atom] = []
        for atom in atoms:
            if atom.kind is Kind.NEWLINE:
                self.paragraphs.append(SegmentedParagraph(segment_atoms(current, bool(em), phrases), atom.source))
                current = []
            else:
                current.append(atom)
        self.paragraphs.append(SegmentedParagraph(segment_atoms(current, bool(em), phrases), (len(self.runs), 0)))

    def _text_width(self, text: str, style: str) -> float:
        key = (text, style)
        width = self._widths.get(key)
        if width is None:
            width = self._widths[key] = self._measure(Text(text, style))
        return width

    def _atomize(self) -> list[Atom]:
        atoms: list[Atom] = []
        for index, run in enumerate(self.runs):
            if isinstance(run, Icon):
                atoms.append(Atom(Kind.ICON, "", "", run, self._measure(run), (index, 0)))
                continue
            style = run.style
            for match in _TOKEN.finditer(run.text):
                kind, text, start = KINDS[match.lastindex], match.group(), match.start()
                if kind is not Kind.WORD:
                    width = 0.0 if kind is Kind.NEWLINE else self._text_width(text, style)
                    atoms.append(Atom(kind, text, style, None, width, (index, start)))
                    continue
                for kind, first, end in words_and_cjk(text):
                    piece = text[first:end]
                    atoms.append(Atom(kind, piece, style, None, self._text_width(piece, style),
                                       (index, start + first)))
        return atoms

    def characters(self, atoms: Iterable[Atom]) -> list[Atom]:
        """Split atoms into single characters, for the last-resort break inside a word."""
        result: list[Atom] = []
        for atom in atoms:
            if atom.icon is not None or len(atom.text) == 1:
                result.append(atom)
                continue
            run_index, offset = atom.source
            for position, char in enumerate(atom.text):
                width = self._text_width(char, atom.style)
                result.append(Atom(atom.kind, char, atom.style, None, width, (run_index, offset + position)))
        return result

    def break_at(self, width: float, first_indent: float = 0.0, avoid_short_last: bool = False) -> list[Line]:
        """Lines no wider than ``width``, the first ``first_indent`` narrower; [] for empty text.

        ``avoid_short_last``: a paragraph whose last line is short (see :func:`is_short_last_line`)
        takes words down from the line above, when that line stays at least
        :data:`SHORTENED_LINE_SHARE` of the width and the paragraph gains no line.
        """
        filler = _LineFiller(width, width - first_indent, self)
        for paragraph in self.paragraphs:
            first, available = len(filler.lines), filler.available
            filler.fill(paragraph)
            if avoid_short_last:
                _lengthen_last_line(filler, paragraph, first, available)
        return filler.lines


class _LineFiller:
    """Greedy filling: each segment goes on the current line if it fits, else on a new one."""

    def __init__(self, width: float, first_width: float, text: PreparedText) -> None:
        self.width = width
        self.available = first_width
        self.text = text
        self.lines: list[Line] = []
        self.atoms: list[Atom] = []
        self.used = 0.0
        self.forced = False
        self.cap: tuple[int, float] | None = None  # (line index, narrower width for that line)

    def fill(self, paragraph: SegmentedParagraph, cap: tuple[int, float] | None = None) -> None:
        """Set one paragraph, the line numbered ``cap[0]`` (if any) no wider than ``cap[1]``."""
        self.cap = cap
        if cap is not None and cap[0] == len(self.lines):
            self.available = min(self.available, cap[1])
        for index, segment in enumerate(paragraph.segments):
            self.add(segment, starts_paragraph=index == 0)
        self.end_paragraph(paragraph.end)
        self.cap = None

    def _emit(self, ends_paragraph: bool, empty_start: Position = (0, 0)) -> None:
        self.lines.append(_make_line(self.atoms, self.forced, ends_paragraph, empty_start))
        self.atoms, self.used, self.forced = [], 0.0, False
        self.available = self.width
        if self.cap is not None and self.cap[0] == len(self.lines):
            self.available = min(self.width, self.cap[1])

    def add(self, segment: Segment, starts_paragraph: bool) -> None:
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

    def _force(self, atoms: list[Atom]) -> None:
        """Break between characters; every line touched is flagged so the caller can warn."""
        for char in self.text.characters(atoms):
            if self.atoms and self.used + char.width > self.available + _WIDTH_SLACK:
                self.forced = True
                self._emit(ends_paragraph=False)
            if char.kind is Kind.SPACE and not self.atoms:
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

"""The booklet's PDF outline: the rulebook's sections, each pointing where its heading is printed on the sheets.

The booklet imposes its half-sheet pages two-up in saddle-stitch order, so a
heading on booklet page n is on the sheet side that carries n, in the half
that side gives n. The expectation comes from an independent source: the
same rulebook typeset on its own at the half-sheet size (A5 on A4, 5.5 × 8.5 in
on Letter), whose outline says the page and height of every heading. A
booklet bookmark must have the same title and level, sit on the side and in
the half :func:`saddle_stitch_order` gives that page, at the same height, and
the printed heading must be found on that side, in that half, just below
where the bookmark points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli
from pnp.compose.ruletext import require_rule_text
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.rulebook.book import write_rulebook
from pnp.render.rulebook.booklet import padded_page_count, saddle_stitch_order, write_booklet
from pnp.render.sheets.paper import PAPER_SIZES, Paper
from pnp.rules import get_rules

DATA = Path(__file__).resolve().parents[1] / "data"
GAMES = ("two-ops", "rudy")
LANGS = ("en", "ja")
PAPERS = ("a4", "letter")
CASES = [(game, lang, paper) for game in GAMES for lang in LANGS for paper in PAPERS]
HEADING_BAND = 48.0  # points below a bookmark's top: two lines of the largest heading (17 pt on 22 pt leading)


@dataclass(frozen=True)
class Entry:
    level: int
    title: str
    page: int  # 0-based, as pypdf counts
    left: float
    top: float


def outline_entries(path: Path) -> list[Entry]:
    """Every outline item in reading order, with its nesting depth and XYZ destination."""
    reader = PdfReader(path)
    entries: list[Entry] = []

    def walk(items: list, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                assert item["/Type"] == "/XYZ", item
                entries.append(Entry(level, item.title, reader.get_destination_page_number(item),
                                     float(item["/Left"]), float(item["/Top"])))

    walk(reader.outline, 0)
    return entries


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Rulebook and booklet of two shipped games, in English and Japanese, on A4 and Letter, via `pnp build`."""
    out = tmp_path_factory.mktemp("booklets")
    args = ["build", "--data", str(DATA), *GAMES, "--what", "rules", "-j", "1", "--out", str(out)]
    for lang in LANGS:
        args += ["--lang", lang]
    for paper in PAPERS:
        args += ["--paper", paper]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output + repr(result.exception)
    return out


@pytest.fixture(scope="module")
def half_sheet_rulebooks(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> dict[tuple[str, str, str], Path]:
    """The same rulebooks typeset on their own at the booklet's page size: where each heading really is."""
    out = tmp_path_factory.mktemp("half-sheet")
    made = {}
    for name in GAMES:
        game = load_game(DATA / name, Report())
        assert game is not None
        rules = get_rules(game.rules)
        for lang in LANGS:
            for paper in PAPERS:
                sheet = PAPER_SIZES[paper]  # portrait; the booklet page is half the landscape sheet
                half = Paper(f"half-{paper}", sheet.height_mm / 2, sheet.width_mm)
                path = out / f"{name}-{lang}-{paper}.pdf"
                write_rulebook(game, rules, lang, require_rule_text(game, rules, lang), half, path, cache)
                made[(name, lang, paper)] = path
    return made


def booklet_path(out: Path, game: str, lang: str, paper: str) -> Path:
    return out / game / lang / paper / "rules-booklet.pdf"


@pytest.mark.parametrize(("game", "lang", "paper"), CASES)
def test_outline_has_the_rulebooks_titles_and_nesting(built: Path, half_sheet_rulebooks: dict, game: str,
                                                      lang: str, paper: str) -> None:
    expected = [(e.level, e.title) for e in outline_entries(half_sheet_rulebooks[(game, lang, paper)])]
    full_page = [(e.level, e.title) for e in outline_entries(built / game / lang / paper / "rules.pdf")]
    got = [(e.level, e.title) for e in outline_entries(booklet_path(built, game, lang, paper))]
    assert len(expected) >= 10 and any(level > 0 for level, _ in expected)  # a real, nested outline
    assert got == expected == full_page


@pytest.mark.parametrize(("game", "lang", "paper"), CASES)
def test_bookmarks_point_at_the_side_and_half_showing_the_heading(built: Path, half_sheet_rulebooks: dict,
                                                                  game: str, lang: str, paper: str) -> None:
    half_sheet = half_sheet_rulebooks[(game, lang, paper)]
    expected = outline_entries(half_sheet)
    half_reader = PdfReader(half_sheet)
    page_width = float(half_reader.pages[0].mediabox.width)
    page_height = float(half_reader.pages[0].mediabox.height)
    path = booklet_path(built, game, lang, paper)
    reader = PdfReader(path)
    sides = [side for sheet in saddle_stitch_order(padded_page_count(len(half_reader.pages))) for side in sheet]
    assert len(reader.pages) == len(sides)  # the booklet has exactly the half-sheet rulebook's pages
    sheet_width = float(reader.pages[0].mediabox.width)
    sheet_height = float(reader.pages[0].mediabox.height)
    x_offset = (sheet_width / 2 - page_width) / 2
    y_offset = (sheet_height - page_height) / 2
    pdf = pdfium.PdfDocument(path)
    got = outline_entries(path)
    assert len(got) == len(expected) >= 10
    for mark, heading in zip(got, expected, strict=True):
        number = heading.page + 1  # booklet page numbers count from 1
        side, column = next((index, pair.index(number)) for index, pair in enumerate(sides) if number in pair)
        assert mark.page == side, (mark.title, number, sides[side])
        half_left, half_right = column * sheet_width / 2, (column + 1) * sheet_width / 2
        assert half_left <= mark.left < half_right, (mark.title, column, mark.left)
        assert mark.left == pytest.approx(heading.left + half_left + x_offset, abs=0.01)
        assert mark.top == pytest.approx(heading.top + y_offset, abs=0.01), mark.title
        # the heading is printed on that side (pypdf reads the imposed forms) ...
        assert squeeze(mark.title) in squeeze(reader.pages[side].extract_text()), (mark.title, side)
        # ... in that half, right below the bookmark
        band = pdf[side].get_textpage().get_text_bounded(half_left, mark.top - HEADING_BAND, half_right,
                                                         mark.top + 1)
        assert squeeze(mark.title) in squeeze(band), (mark.title, band)


def test_the_band_check_sees_a_wrong_half(built: Path) -> None:
    """The text checks above would catch a bookmark in the wrong half: the heading is not printed there."""
    path = booklet_path(built, "rudy", "en", "a4")
    pdf = pdfium.PdfDocument(path)
    width = pdf[0].get_size()[0]
    marks = outline_entries(path)
    assert len(marks) >= 10
    assert {mark.left < width / 2 for mark in marks} == {True, False}  # headings in both halves
    for mark in marks:
        column = 0 if mark.left < width / 2 else 1
        other = (1 - column) * width / 2
        band = pdf[mark.page].get_textpage().get_text_bounded(other, mark.top - HEADING_BAND, other + width / 2,
                                                              mark.top + 1)
        assert squeeze(mark.title) not in squeeze(band), mark.title


def test_booklet_is_reproducible_with_its_outline(tmp_path: Path, cache: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    game = load_game(DATA / "rudy", Report())
    assert game is not None
    rules = get_rules(game.rules)
    first = write_booklet(game, rules, "ja", require_rule_text(game, rules, "ja"), "a4", tmp_path / "a.pdf", cache).path
    second = write_booklet(game, rules, "ja", require_rule_text(game, rules, "ja"),
                           "a4", tmp_path / "b.pdf", cache).path
    assert first.read_bytes() == second.read_bytes()
    assert len(outline_entries(first)) >= 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "b.pdf"]

"""KinsokuParagraph: wrap heights, splitting, and long text flowing through pages and frames."""

from __future__ import annotations

import io

import pypdfium2
import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A5
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from pnp.model.runs import Icon, Text
from pnp.render.text.fonts import FontSet, prepare_fonts
from pnp.render.text.paragraph import BodyStyle, KinsokuParagraph

SENTENCE = (
    "各プレイヤーは手札を7枚ずつ受け取り、残りのカードは山札として「テーブルの中央」に置きます。"
    "Each player draws seven cards; the Surveillance card is worth 1234567 points. "
)
LONG_TEXT = SENTENCE * 40
STYLE = BodyStyle(font_size=10, leading=15)


@pytest.fixture(scope="module")
def fontset(tmp_path_factory: pytest.TempPathFactory) -> FontSet:
    return prepare_fonts([LONG_TEXT, "一二三四五六七八九十終わり。"], tmp_path_factory.mktemp("font-cache"))


def test_wrap_height_is_lines_times_leading(fontset: FontSet) -> None:
    # 30 ideographs 10 pt wide in 100 pt: three lines of ten, 15 pt each.
    paragraph = KinsokuParagraph("一二三四五六七八九十" * 3, STYLE, fontset)
    assert paragraph.wrap(100, 1000) == (100, pytest.approx(45))


def test_first_line_indent_takes_room_from_the_first_line_only(fontset: FontSet) -> None:
    style = BodyStyle(font_size=10, leading=15, first_line_indent=10)
    paragraph = KinsokuParagraph("一二三四五六七八九十" * 2, style, fontset)
    paragraph.wrap(100, 1000)
    lines = [line.text for line in paragraph.lines(100)]
    # greedy filling would leave "十" alone; the line above gives it three characters (no short last line)
    assert lines == ["一二三四五六七八九", "十一二三四五六", "七八九十"]


def test_split_keeps_whole_lines_and_rebreaks_the_rest(fontset: FontSet) -> None:
    style = BodyStyle(font_size=10, leading=15, first_line_indent=10, space_before=4, space_after=6)
    paragraph = KinsokuParagraph("一二三四五六七八九十" * 3, style, fontset)
    assert paragraph.split(100, 14) == []  # not even one 15 pt line fits
    head, tail = paragraph.split(100, 31)  # room for two lines
    assert head.wrap(100, 31) == (100, pytest.approx(30))
    assert [line.text for line in head.lines(100)] == ["一二三四五六七八九", "十一二三四五六七八九"]
    assert (head.getSpaceBefore(), head.getSpaceAfter()) == (4, 0)
    assert (tail.getSpaceBefore(), tail.getSpaceAfter()) == (0, 6)
    # The rest has no indent and is broken again for a narrower frame.
    assert [line.text for line in tail.lines(50)] == ["十一二三四", "五六七八九", "十"]


def test_split_of_a_paragraph_that_fits_returns_itself(fontset: FontSet) -> None:
    paragraph = KinsokuParagraph("一二三", STYLE, fontset)
    assert paragraph.split(100, 100) == [paragraph]


def build(flowables, frames_per_page: list[Frame]) -> bytes:
    buffer = io.BytesIO()
    fontset_name = flowables[0].fontset.regular
    document = BaseDocTemplate(buffer, pagesize=A5, invariant=1, initialFontName=fontset_name)
    document.addPageTemplates([PageTemplate("body", frames_per_page)])
    document.build(flowables)
    return buffer.getvalue()


def extracted_text(pdf: bytes) -> str:
    document = pypdfium2.PdfDocument(pdf)
    return "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))


def without_spaces(text: str) -> str:
    return "".join(text.split())


def test_long_paragraph_flows_across_pages_with_all_its_text(fontset: FontSet) -> None:
    width, height = A5
    frame = Frame(40, 40, width - 80, height - 80, id="single")
    pdf = build([KinsokuParagraph(LONG_TEXT, STYLE, fontset)], [frame])
    assert len(PdfReader(io.BytesIO(pdf)).pages) >= 3
    assert without_spaces(extracted_text(pdf)) == without_spaces(LONG_TEXT)


def test_paragraph_flows_through_frames_of_different_widths(fontset: FontSet) -> None:
    width, height = A5
    narrow = Frame(30, 40, 120, height - 80, id="narrow")
    wide = Frame(170, 40, width - 200, height - 80, id="wide")
    runs = [Text(LONG_TEXT[:900]), Text("Bold words here", "bold"), Text(LONG_TEXT[900:1800])]
    pdf = build([KinsokuParagraph(runs, STYLE, fontset)], [narrow, wide])
    expected = LONG_TEXT[:900] + "Bold words here" + LONG_TEXT[900:1800]
    assert without_spaces(extracted_text(pdf)) == without_spaces(expected)
    assert len(PdfReader(io.BytesIO(pdf)).pages) >= 2


def test_icons_in_a_paragraph_are_drawn_once_each(fontset: FontSet) -> None:
    drawn = []
    coin = Icon("coin", lambda canvas, x, y, size: drawn.append(size), aspect=1.0)
    width, height = A5
    frame = Frame(40, 40, width - 80, height - 80)
    runs = [Text(LONG_TEXT[:1500]), coin, Text(LONG_TEXT[1500:3000]), coin, Text("終わり。")]
    build([KinsokuParagraph(runs, STYLE, fontset)], [frame])
    assert drawn == [10, 10]


def test_a_break_leaves_no_line_alone_on_either_side(fontset: FontSet) -> None:
    """Take Over That Job's last answer printed its second line alone on a page of its own."""
    three = KinsokuParagraph("一二三四五六七八九十" * 3, STYLE, fontset)  # three lines of ten at 100 pt
    assert three.split(100, 31) == []  # two would fit, leaving the third alone: the whole moves on
    two = KinsokuParagraph("一二三四五六七八九十" * 2, STYLE, fontset)
    assert two.split(100, 16) == []  # its first line alone at the page's foot: no
    five = KinsokuParagraph("一二三四五六七八九十" * 5, STYLE, fontset)
    head, tail = five.split(100, 61)  # room for four: three stay, so that two go on
    assert [len(part.lines(100)) for part in (head, tail)] == [3, 2]

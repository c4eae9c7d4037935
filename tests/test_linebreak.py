"""Line breaking rules, checked with a toy measure so every expected line can be worked out by hand.

Toy widths: a CJK character is 1.0 wide, any other character 0.5, an icon 1.0 per unit of aspect.
"""

from __future__ import annotations

import pytest

from pnp.model.runs import Icon, Text
from pnp.render.text.linebreak import break_lines, slice_runs


def toy_width(run: Text | Icon) -> float:
    if isinstance(run, Icon):
        return run.aspect
    return sum(1.0 if "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" else 0.5 for ch in run.text)


def texts(source: str | list, width: float, **kwargs) -> list[str]:
    runs = [Text(source)] if isinstance(source, str) else source
    return [line.text for line in break_lines(runs, width, toy_width, **kwargs)]


def no_icon(canvas, x, y, size):  # pragma: no cover - never drawn here
    raise AssertionError("icons are not drawn while breaking lines")


MIXED_SAMPLE = (
    "ゲームの準備：各プレイヤーは手札を７枚ずつ受け取ります。「代われそのジョブ」では、"
    "プレイヤーは順番にカードを出し（時計回り）、Surveillance カードが出たときには1234567点を得ます。"
    "ちょっと待って！ショップでは『特別な』カードを買えます…… Each player draws seven cards "
    "(clockwise), scoring 1234567 points; the Surveillance card (see rules) is worth 1–7 coins. "
    "ッャュョっゃゅょー、。」』）」。【重要】カードは〔最大〕８枚まで。"
)

# Written out by hand from the kinsoku rules, not taken from the module.
MUST_NOT_START = set("、。，．・：；？！ー」』）］｝〕〉》】ゝゞヽヾ々") | set("ぁぃぅぇぉっゃゅょゎ")
MUST_NOT_START |= set("ァィゥェォッャュョヮヵヶ") | set("),.;:!?]}%")
MUST_NOT_END = set("「『（［｛〔〈《【([{")


def test_sample_really_contains_the_characters_under_test() -> None:
    for char in "。、」』）ーっャ「『（【〔(":
        assert char in MIXED_SAMPLE


@pytest.mark.parametrize("width", [4.0, 5.5, 7.0, 8.0, 9.5, 12.0, 13.0, 17.5, 23.0, 31.0])
def test_no_line_starts_or_ends_with_a_forbidden_character(width: float) -> None:
    lines = break_lines([Text(MIXED_SAMPLE)], width, toy_width)
    assert len(lines) > 5
    for line in lines:
        if line.forced:  # the all-punctuation stretch may need it at narrow widths
            continue
        assert line.text[0] not in MUST_NOT_START, line.text
        assert line.text[-1] not in MUST_NOT_END, line.text
        assert line.width <= width + 1e-9


@pytest.mark.parametrize("width", [6.0, 6.5, 7.5, 11.0, 14.5, 20.0])
def test_breaking_loses_no_character_except_spaces_at_breaks(width: float) -> None:
    joined = "".join(texts(MIXED_SAMPLE, width))
    assert joined.replace(" ", "") == MIXED_SAMPLE.replace(" ", "")


@pytest.mark.parametrize("width", [6.0, 6.5, 7.0, 8.0, 11.0, 14.5, 20.0])
def test_latin_words_and_numbers_are_never_split(width: float) -> None:
    lines = texts(MIXED_SAMPLE, width)  # "Surveillance" is 6.0 wide, so it always fits a line
    assert sum(line.count("Surveillance") for line in lines) == 2
    assert sum(line.count("1234567") for line in lines) == 2
    assert sum(line.count("1–7") for line in lines) == 1


def test_english_wraps_at_spaces_only() -> None:
    # Each letter and space is 0.5 wide, so 6.0 holds twelve characters: "card face up" fits exactly.
    assert texts("Place the Surveillance card face up", 6.0) == [
        "Place the",
        "Surveillance",
        "card face up",
    ]


def test_closing_punctuation_pushes_the_previous_character_down() -> None:
    # "あいうえ" fills the 4.0 line exactly, but "。" may not start the next one: "え" goes with it.
    assert texts("あいうえ。お", 4.0) == ["あいう", "え。お"]


def test_opening_bracket_moves_to_the_next_line() -> None:
    assert texts("あいう「えお」", 4.0) == ["あいう", "「えお」"]


def test_latin_opening_bracket_stays_with_its_word_after_japanese() -> None:
    assert texts("日本語(English)です", 7.0) == ["日本語", "(English)です"]


def test_latin_period_after_japanese_does_not_start_a_line() -> None:
    assert texts("あいうえ.", 4.0) == ["あいう", "え."]


def test_word_wider_than_the_line_is_broken_by_force_and_flagged() -> None:
    lines = break_lines([Text("to Supercalifragilistic")], 5.0, toy_width)
    assert [line.text for line in lines] == ["to", "Supercalif", "ragilistic"]
    assert [line.forced for line in lines] == [False, True, True]


def test_line_of_forbidden_characters_terminates_and_keeps_every_character() -> None:
    lines = break_lines([Text("。" * 9)], 2.5, toy_width)
    assert [line.text for line in lines] == ["。。", "。。", "。。", "。。", "。"]
    assert all(line.forced for line in lines)


def test_explicit_newlines_break_and_keep_empty_lines() -> None:
    lines = break_lines([Text("a\n\nb\r\nc")], 10.0, toy_width)
    assert [line.text for line in lines] == ["a", "", "b", "c"]
    assert [line.ends_paragraph for line in lines] == [True, True, True, True]


def test_trailing_spaces_do_not_count_toward_width() -> None:
    # "abc" is 1.5 wide; with the three spaces it would be 3.0, which would not fit 1.5.
    lines = break_lines([Text("abc   def")], 1.5, toy_width)
    assert [line.text for line in lines] == ["abc", "def"]
    assert lines[0].width == pytest.approx(1.5)
    assert not lines[0].forced


def test_spaces_after_a_newline_are_kept_as_indentation() -> None:
    assert texts("one\n  two", 10.0) == ["one", "  two"]


def test_style_change_inside_a_word_is_not_a_break() -> None:
    runs = [Text("x Sur"), Text("veil", "bold"), Text("lance")]
    lines = break_lines(runs, 6.5, toy_width)
    assert [line.text for line in lines] == ["x", "Surveillance"]
    assert [piece.run for piece in lines[1].pieces] == [Text("Sur"), Text("veil", "bold"), Text("lance")]


def test_icon_glued_to_a_word_moves_with_it() -> None:
    coin = Icon("coin", no_icon, aspect=1.0)
    # "gain 2" is 3.0 wide; "2" + icon + "." must stay together.
    lines = break_lines([Text("gain 2"), coin, Text(".")], 3.5, toy_width)
    assert [line.text for line in lines] == ["gain", "2\ufffc."]
    assert lines[1].width == pytest.approx(0.5 + 1.0 + 0.5)


def test_icons_between_japanese_characters_allow_breaks() -> None:
    coin = Icon("coin", no_icon, aspect=1.0)
    lines = break_lines([Text("あい"), coin, Text("うえ")], 3.0, toy_width)
    assert [line.text for line in lines] == ["あい\ufffc", "うえ"]


def test_first_line_indent_narrows_only_the_first_line() -> None:
    assert texts("一二三四五六七八九十", 4.0, first_indent=1.0) == ["一二三", "四五六七", "八九十"]


def test_empty_text_gives_no_lines() -> None:
    assert break_lines([], 10.0, toy_width) == []
    assert break_lines([Text("")], 10.0, toy_width) == []


def test_line_start_lets_the_rest_be_rebroken_at_another_width() -> None:
    runs = [Text("一二三 four five "), Text("six", "bold"), Text("\n七八九")]
    lines = break_lines(runs, 3.5, toy_width)  # "five six" is 4.0 wide
    assert [line.text for line in lines] == ["一二三", "four", "five", "six", "七八九"]
    rest = slice_runs(runs, lines[2].start)
    assert rest == [Text("five "), Text("six", "bold"), Text("\n七八九")]
    assert slice_runs(runs, None, lines[2].start) == [Text("一二三 four ")]
    assert texts(rest, 20.0) == ["five six", "七八九"]


def test_a_short_bracketed_card_notation_stays_on_one_line() -> None:
    """Rudy's rulebooks write cards as ［4緑○］: a break inside would split one card in two."""
    def measure(run: Text) -> float:
        return float(len(run.text))

    text = "セット売りの例：［3赤△］［4緑○］［5青△］は他色連番です。"
    lines = [line.text for line in break_lines([Text(text)], 12, measure)]
    assert "".join(lines) == text
    for line in lines:
        assert line.count("［") == line.count("］"), lines
    english = [line.text for line in break_lines([Text("play [4 red △] then")], 9, measure)]
    assert english == ["play", "[4 red △]", "then"]


@pytest.mark.parametrize(("source", "kept", "width"), [
    (source, kept, width)
    for source, kept in (("プレイ人数は1〜10人です。", "1〜10"), ("人数は2～4人のゲーム。", "2～4"),
                         ("そして……次の人へ。", "……"), ("待て‥‥そこだ。", "‥‥"))
    for width in (3, 4, 5, 6, 7)])
def test_wave_dashes_and_ellipses_never_start_a_line_and_a_range_stays_whole(source: str, kept: str,
                                                                              width: float) -> None:
    """A Japanese designer's rulebook printed "1" at a line's end and "〜10人" under it, and lines starting
    with 〜 or …: JIS X 4051 keeps wave dashes and ellipses off a line's start."""
    lines = texts(source, width)
    assert "".join(lines) == source
    assert not [line for line in lines[1:] if line[0] in "〜～…‥"], lines
    assert [line for line in lines if kept in line], lines


@pytest.mark.parametrize(("source", "width", "lines"), [
    # 12 characters fit (6.0 wide): "so 12 + 9 +" would fit, and left "3" to start the next line
    ("so 12 + 9 + 3 makes 24 opt", 6.0, ["so", "12 + 9 + 3", "makes 24 opt"]),
    ("9 + 6 + 2 = 17.", 6.0, ["9 + 6 + 2 =", "17."]),  # too long for a line: still broken, as a last resort
    # Japanese: a sign keeps its number ("＋⏎1" read as a stray plus)
    ("カードごとに＋1で＋3", 7.0, ["カードごとに", "＋1で＋3"]),
    ("below zero: −5.", 6.0, ["below zero:", "−5."]),  # a sign after a word may start a line
])
def test_a_sum_is_not_broken_at_its_signs(source: str, width: float, lines: list[str]) -> None:
    """Rulebooks printed "12 + 9 +⏎3 makes 24 opt" and "カードごとに＋⏎1で＋3"."""
    assert texts(source, width) == lines

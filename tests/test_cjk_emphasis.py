"""CJK-friendly emphasis: bold next to Japanese punctuation, and English exactly as CommonMark.

CommonMark leaves ``**大切：**全員`` as literal asterisks (a closing ``**`` after punctuation must
be followed by a space or punctuation); pnp's Markdown treats a CJK neighbour as if it were one
(pnp/compose/emphasis.py). Where no CJK character touches a delimiter run nothing changes,
which the English cases check against a plain CommonMark parser.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from pnp.compose.blocks import Paragraph
from pnp.compose.emphasis import use_cjk_friendly_emphasis
from pnp.compose.markdown import make_markdown, parse_rule_text
from pnp.diagnostics import Report
from pnp.model.runs import Text


def tokens(text: str, md: MarkdownIt | None = None) -> list[tuple[str, str]]:
    """The inline token stream of ``text`` as (type, content) pairs, without empty text tokens."""
    md = md or make_markdown()
    [inline] = md.parseInline(text)
    return [(token.type, token.content) for token in inline.children or []
            if token.type != "text" or token.content]


def commonmark() -> MarkdownIt:
    """What pnp's parser was before: plain CommonMark (with the same options)."""
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def strong(inside: str) -> list[tuple[str, str]]:
    return [("strong_open", ""), ("text", inside), ("strong_close", "")]


def em(inside: str) -> list[tuple[str, str]]:
    return [("em_open", ""), ("text", inside), ("em_close", "")]


# -- Japanese (and Chinese, Korean) that CommonMark leaves literal ---------------------------------------------

LITERAL_IN_COMMONMARK = [
    # closing ** after fullwidth punctuation, followed by a letter
    ("**大切：**全員", strong("大切：") + [("text", "全員")]),
    # opening ** after a letter, followed by a bracket
    ("全員**「注意」**を", [("text", "全員")] + strong("「注意」") + [("text", "を")]),
    # both at once, in mid-sentence
    ("手札を**「切り札」：**場に出す", [("text", "手札を")] + strong("「切り札」：") + [("text", "場に出す")]),
    # an ideographic full stop inside the bold
    ("**この文。**この", strong("この文。") + [("text", "この")]),
    # a half-width colon inside, a kanji outside
    ("**注意:**全員", strong("注意:") + [("text", "全員")]),
    # ASCII punctuation inside, CJK outside
    ("**Note:**日本", strong("Note:") + [("text", "日本")]),
    # single * (emphasis, which pnp sets bold)
    ("*注意：*次へ", em("注意：") + [("text", "次へ")]),
    # Chinese
    ("**该星号不会被识别。**这是", strong("该星号不会被识别。") + [("text", "这是")]),
    # Korean: the bold ends in code, a Hangul particle follows
    ("**`npm publish`**를", [("strong_open", ""), ("code_inline", "npm publish"), ("strong_close", ""),
                             ("text", "를")]),
]


@pytest.mark.parametrize(("text", "expected"), LITERAL_IN_COMMONMARK, ids=[t for t, _ in LITERAL_IN_COMMONMARK])
def test_cjk_emphasis_next_to_punctuation_is_parsed(text: str, expected: list[tuple[str, str]]) -> None:
    assert not [kind for kind, _ in tokens(text, commonmark()) if kind in ("strong_open", "em_open")]
    assert tokens(text) == expected


def test_rule_text_paragraph_sets_japanese_bold() -> None:
    source = "## 準備 {#setup}\n\n**大切：**全員が同じ枚数を持ちます。全員**「注意」**を読みます。\n"
    report = Report()
    blocks = parse_rule_text(source, Path("ja.md"), report, set(), set())
    assert not report.diagnostics
    assert blocks[1] == Paragraph((
        Text("大切：", "bold"),
        Text("全員が同じ枚数を持ちます。全員", "regular"),
        Text("「注意」", "bold"),
        Text("を読みます。", "regular"),
    ), 3)


def test_plugin_works_on_any_markdown_it() -> None:
    md = MarkdownIt("commonmark").enable("strikethrough").use(use_cjk_friendly_emphasis)
    assert tokens("**大切：**全員", md) == strong("大切：") + [("text", "全員")]
    assert tokens("~~削除：~~次", md) == [("s_open", ""), ("text", "削除："), ("s_close", ""), ("text", "次")]


# -- what must not change ----------------------------------------------------------------------------------------

ENGLISH = [
    ("**bold**.", strong("bold") + [("text", ".")]),
    ("2*3*4", [("text", "2")] + em("3") + [("text", "4")]),
    ("snake_case and __init__ names", [("text", "snake_case and ")] + strong("init") + [("text", " names")]),
    ("foo_bar_baz", [("text", "foo_bar_baz")]),
    ("**Note:**the rest", [("text", "**Note:**the rest")]),
    ('a**"quoted"**b', [("text", 'a**"quoted"**b')]),
    ('a*"b"* and *"b"*a', [("text", 'a*"b"* and *"b"*a')]),
    ("**Important:** read this.", strong("Important:") + [("text", " read this.")]),
    ("a * b * c", [("text", "a * b * c")]),
    ("***both***, **strong *nested* text**", [("em_open", ""), *strong("both"), ("em_close", ""), ("text", ", "),
                                              ("strong_open", ""), ("text", "strong "), *em("nested"),
                                              ("text", " text"), ("strong_close", "")]),
]


@pytest.mark.parametrize(("text", "expected"), ENGLISH, ids=[t for t, _ in ENGLISH])
def test_english_emphasis_is_commonmark(text: str, expected: list[tuple[str, str]]) -> None:
    assert tokens(text) == expected
    assert tokens(text) == tokens(text, commonmark())


@pytest.mark.parametrize("text", [
    "日本_語_です",  # `_` still never works inside a word, in any script
    "「**注意**」",  # already bold in CommonMark: punctuation on both sides
    "これは**重要**です",  # already bold: letters on both sides
    "価格は2*3*4円",
    "**😀:**x",  # emoji are not CJK
])
def test_cjk_text_commonmark_already_handles_is_unchanged(text: str) -> None:
    assert tokens(text) == tokens(text, commonmark())


def is_strong(text: str) -> bool:
    return ("strong_open", "") in tokens(text)


@pytest.mark.parametrize(("mark", "cjk"), [
    ("：", True), ("「", True), ("」", True), ("。", True), ("、", True), ("！", True), ("〜", True), ("・", True),
    (":", False), ("!", False), (")", False), ("※", False), ("⭐", False), ("😀", False),
])
def test_punctuation_before_a_closing_run(mark: str, cjk: bool) -> None:
    """Closing after punctuation, before a Latin letter: bold only if the punctuation is CJK."""
    assert is_strong(f"**a{mark}**b") == cjk


@pytest.mark.parametrize(("letter", "cjk"), [
    ("大", True), ("あ", True), ("ア", True), ("ｱ", True), ("한", True), ("a", False), ("é", False), ("9", False),
])
def test_letter_before_an_opening_run(letter: str, cjk: bool) -> None:
    """Opening after a letter, before ASCII punctuation: bold only if the letter is CJK."""
    assert is_strong(f"{letter}**(a)**") == cjk

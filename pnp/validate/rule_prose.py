"""What a reader sees of a raw rule text: prose without template code, and the numbers in it.

The translation check compares languages by these (placeholders, literal
numbers); the player check looks for names in the prose. Kept apart from the
section bookkeeping in translation_records.py and the checks in translations.py.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pnp.compose.markdown_source import ID_PATTERN
from pnp.compose.rule_source import blank, without_template_code

_PLACEHOLDER = re.compile(r"\{\{((?:(?!\{\{).)*?)\}\}", re.DOTALL)  # an unclosed {{ does not swallow the next one
_STATEMENT = re.compile(r"\{%.*?%\}", re.DOTALL)
_JINJA_COMMENT = re.compile(r"\{##.*?##\}", re.DOTALL)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HEADING_ID = re.compile(rf"\{{#{ID_PATTERN}\}}")
# [ \t], not \s, before a fence or a list marker: \s ran on over every blank line below each line start,
# and 18,000 blank lines took a minute to check
_EXAMPLE_FENCE = re.compile(r"^([ \t]*(?:`{3,}|~{3,})[ \t]*example)\s+(\S+)", re.MULTILINE)
_LIST_MARKER = re.compile(r"^[ \t]*\d+[.)]\s", re.MULTILINE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def prose(text: str) -> str:
    """The words a reader sees, without placeholders, statements, comments, ids and example ids."""
    text = _EXAMPLE_FENCE.sub(r"\1", text)
    for pattern in (_PLACEHOLDER, _STATEMENT, _JINJA_COMMENT, _HTML_COMMENT, _HEADING_ID):
        text = pattern.sub(" ", text)
    return text


def prose_in_place(text: str) -> str:
    """:func:`prose` with every removed span blanked in place, so offsets and line numbers still hold."""
    text = _EXAMPLE_FENCE.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)
    text = without_template_code(text)  # placeholders, statements and Jinja comments, as rule_template blanks them
    for pattern in (_HTML_COMMENT, _HEADING_ID):
        text = pattern.sub(blank, text)
    return text


_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}", re.DOTALL)


def placeholders(text: str) -> set[str]:
    """Placeholder expressions (spacing and quote style ignored) and the ids of placed examples. What
    ``{% raw %}`` holds prints as written, braces and all: it is text, no placeholder."""
    found = {_normalise_expression(m.group(1)) for m in _PLACEHOLDER.finditer(_RAW.sub(" ", text))}
    found |= {f"example {m.group(2)}" for m in _EXAMPLE_FENCE.finditer(text)}
    return found


def _normalise_expression(expression: str) -> str:
    return "{{ " + re.sub(r"\s+", "", expression.replace('"', "'")) + " }}"


def numbers(text: str) -> Counter[str]:
    """Literal numbers a reader sees, with how often, after NFKC (full-width １２ = 12); list markers do not count."""
    visible = _LIST_MARKER.sub(" ", prose(text))
    return Counter(_NUMBER.findall(unicodedata.normalize("NFKC", visible)))


# ---------------------------------------------------------------------------------------------------------------
# Numbers as a language states them: digits, and the numbers natural prose writes otherwise
#
# A digit is a *firm* number: the other language must state it too, and a digit the other language never
# states is a rules disagreement. A number word (English "two", Japanese 二つ, ふたり) and a Japanese 1
# with a counter (1枚, 1つ, 1文) are *loose*: they match a firm number, but need no match of their own,
# since "a point for each card" is 1枚につき1点, and "draw a card" is カードを1枚引く; so is a Japanese
# ordinal (3枚目, "the third"). So "one card" ~
# "1枚" ~ "一枚" and a natural translation passes, while 4以上 against "5 or more" (two digits) does not.
# Loose numbers only ever excuse a digit: no text has a number error it did not have when only digits
# were read.

#: Japanese counters: what a number counts (1枚, 2人, 3つ); a game adds its own in rules/glossary.toml
JAPANESE_COUNTERS = ("枚目", "人目", "回目", "つ目", "番目", "手目", "か所", "ヶ所", "箇所", "ターン", "ラウンド",
                     "マス", "セット", "ページ", "枚", "つ", "人", "個", "点", "回", "倍", "組", "種", "色", "面",
                     "本", "匹", "位", "歳", "文", "語", "字", "列", "行", "段", "周", "巡", "手", "山", "束", "票",
                     "粒", "台", "件", "章", "勝", "敗", "名", "度")
_KANJI_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
_KANJI_NUMBER = re.compile(r"[〇零一二三四五六七八九十百千]+")
#: kana numbers, which name their counter: ひとつ, ふたり
_KANA_NUMBERS = {"ひとつ": 1, "ふたつ": 2, "みっつ": 3, "よっつ": 4, "いつつ": 5, "むっつ": 6, "ななつ": 7,
                 "やっつ": 8, "ここのつ": 9, "ひとり": 1, "ふたり": 2}
_ENGLISH_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "once": 1, "twice": 2, "single": 1,
                    "both": 2, "pair": 2, "double": 2, "first": 1, "second": 2, "third": 3, "fourth": 4,
                    "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11,
                    "twelfth": 12}
_ENGLISH_WORD = re.compile(r"(?<![\w-])(" + "|".join(_ENGLISH_NUMBERS) + r")(?![\w])", re.IGNORECASE)


@dataclass(frozen=True)
class StatedNumbers:
    """The numbers a text states: firm ones (digits) and loose ones (words, a Japanese 1 with a counter)."""

    firm: Counter[str]
    loose: Counter[str]

    def __contains__(self, number: str) -> bool:
        return number in self.firm or number in self.loose

    def times(self, number: str) -> int:
        return self.firm[number] + self.loose[number]


def _kanji_value(run: str) -> int | None:
    """一 1, 十 10, 二十三 23, 三百 300; None for a run that is no numeral (一一)."""
    total, digit = 0, None
    for char in run:
        if char in _KANJI_DIGITS:
            if digit is not None:
                return None
            digit = _KANJI_DIGITS[char]
        else:
            total += (1 if digit is None else digit) * _KANJI_UNITS[char]
            digit = None
    return total + (digit or 0)


def _is_japanese(lang: str) -> bool:
    return lang.split("-")[0].lower() == "ja"


def stated_numbers(text: str, lang: str, counters: Sequence[str] = (), ignore: Sequence[str] = ()) -> StatedNumbers:
    """The numbers ``text`` (raw rule text or a card text in ``lang``) states, firm and loose.
    ``counters`` adds to the Japanese ones, and what ``ignore`` lists is read as no number at all
    (both from rules/glossary.toml's [numbers] table)."""
    visible = unicodedata.normalize("NFKC", _LIST_MARKER.sub(" ", prose(text)))
    for phrase in sorted(ignore, key=len, reverse=True):
        visible = visible.replace(unicodedata.normalize("NFKC", phrase), " ")
    firm: Counter[str] = Counter()
    loose: Counter[str] = Counter()
    japanese = _is_japanese(lang)
    after = tuple(sorted({*JAPANESE_COUNTERS, *counters}, key=len, reverse=True))
    ordinal = tuple(counter + "目" for counter in after if not counter.endswith("目"))
    for match in _NUMBER.finditer(visible):
        counted = visible.startswith(after, match.end())
        # 3枚目 is "the third": an English ordinal, which is a word
        loosely = counted and (match.group() == "1" or visible.startswith(ordinal, match.end()))
        (loose if japanese and loosely else firm)[match.group()] += 1
    if japanese:
        for match in _KANJI_NUMBER.finditer(visible):
            value = _kanji_value(match.group())
            # a numeral that counts something (二枚, 三つ), or one with a unit (十, 二十): 一番, 一緒 and
            # 同一 are no numbers
            if value is not None and (visible.startswith(after, match.end())
                                      or any(unit in match.group() for unit in _KANJI_UNITS)):
                loose[str(value)] += 1
        for word, value in _KANA_NUMBERS.items():
            loose[str(value)] += visible.count(word)
    else:
        for match in _ENGLISH_WORD.finditer(visible):
            loose[str(_ENGLISH_NUMBERS[match.group(1).lower()])] += 1
    return StatedNumbers(firm, +loose)


def number_differences(source: StatedNumbers, target: StatedNumbers
                       ) -> tuple[list[tuple[str, int, int]], list[str]]:
    """Firm numbers of the source the target states fewer times (number, in the source, in the target),
    and firm numbers of the target the source never states."""
    fewer = [(number, source.firm[number], target.times(number)) for number in sorted(source.firm, key=float)
             if source.firm[number] > target.times(number)]
    new = [number for number in sorted(target.firm, key=float) if number not in source]
    return fewer, new

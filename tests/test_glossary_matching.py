"""Glossary terms are found as words, in English and in Japanese (pnp/validate/glossary_match.py).

The unit tests pin the matching rule; the `pnp check` tests break copies of
the shipped games and expect the glossary warning with file, line and fix.
Each test holds at least one case that the old substring matcher, or the old
Gadget Trick glossary with its workaround forms, got wrong.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from translation_check import check

from pnp.diagnostics import Diagnostic, Report
from pnp.model.build import load_game
from pnp.validate.glossary import Glossary, Term, load_glossary
from pnp.validate.glossary_match import uses_term

ROOT = Path(__file__).resolve().parents[1]
GADGET_TRICK = ROOT / "data" / "gadget-trick"
TWO_OPS = ROOT / "data" / "two-ops"

# two Gadget Trick terms, as the shipped glossary pairs them
REMOVED = Term({"ja": ("脱落",), "en": ("removed", "remove")})
REMOVAL_CONDITION = Term({"ja": ("脱落条件",), "en": ("removal condition",)})


def glossary(*terms: Term) -> Glossary:
    return Glossary(Path("glossary.toml"), list(terms))


def shipped_glossary(folder: Path) -> Glossary:
    game = load_game(folder, Report())
    assert game is not None
    found = load_glossary(game, Report())
    assert found is not None
    return found


def missing(terms: Glossary, ja: str, en: str) -> list[str]:
    """The English terms a translation ``en`` of ``ja`` lacks."""
    return [term.preferred("en") for term in terms.missing_terms(ja, en, "ja", "en")]


# ----------------------------------------------------------------------------- English


def test_english_terms_match_whole_words_and_phrases() -> None:
    assert uses_term("Each trick is won by ...", ["trick"])
    assert uses_term("After 9 Tricks, the game ends.", ["trick"])  # any case, plural
    assert uses_term("the trick's winner", ["trick"])
    assert not uses_term("a tricky situation", ["trick"])
    assert not uses_term("a trickster", ["trick"])
    assert not uses_term("a trick-taking game", ["trick"])  # a hyphenated word is another word
    assert not uses_term("lead", ["lead suit"])
    # a phrase wrapped across a line of the Markdown source is still the phrase
    assert uses_term("a card of the trump\nsuit", ["trump suit"])
    assert uses_term("cards of the trump  suits", ["trump suit"])


# ----------------------------------------------------------------------------- Japanese


def test_removed_with_okurigana_is_used_but_not_inside_a_kanji_compound() -> None:
    # 脱落 followed by okurigana or a particle (hiragana), punctuation or the end is the term
    for text in ("監視カードで脱落する。", "Bが脱落した。", "脱落していないプレイヤー", "脱落の確認", "脱落を防ぐ",
                 "脱落。", "「脱落」", "脱落"):
        assert uses_term(text, ["脱落"]), text
    # kanji beside it make another word: 脱落条件 is "removal condition", a term of its own
    assert not uses_term("脱落条件を満たす", ["脱落"])
    assert not uses_term("脱落者は手札を伏せる", ["脱落"])
    assert not uses_term("未脱落のプレイヤー", ["脱落"])
    # the compound's own term, and the term used beside the compound, still match
    assert uses_term("脱落条件を満たすと脱落する", ["脱落"])
    assert uses_term("脱落条件を満たす", ["脱落条件"])


def test_japanese_katakana_words_and_script_changes() -> None:
    assert not uses_term("トリックカードを配る", ["トリック"])  # katakana + katakana: one word
    assert not uses_term("トリックテイキングのゲーム", ["トリック"])
    assert uses_term("各トリックの勝者", ["トリック"])  # kanji, then katakana: a boundary
    assert uses_term("第8トリック", ["トリック"])
    assert uses_term("目標カード", ["目標"])  # like "goal" in "goal card"
    assert uses_term("切札のスート以外のカード", ["切札のスート"])  # 以外 is "other than": the term is used
    assert uses_term("B＆W・Aカード", ["Aカード"])  # ・ is punctuation
    assert not uses_term("BAカード", ["Aカード"])  # Latin letters run together
    assert uses_term("表向きに置く", ["表向き"])  # a term ending in hiragana


def test_japanese_term_wrapped_across_lines_is_found() -> None:
    # a line break between two Japanese characters is no space (docs/rulebooks.md)
    assert uses_term("プレイヤーは脱\n落する。", ["脱落"])
    assert uses_term("- 切札の\n  スートのカード", ["切札のスート"])  # a list item's continuation line
    assert not uses_term("脱落\n条件", ["脱落"])  # still one compound


def test_compound_of_glossary_terms_uses_each_of_them() -> None:
    rudy = {"他色", "同番", "同印", "連番"}
    assert uses_term("他色同番で", ["他色"], rudy) and uses_term("他色同番で", ["同番"], rudy)
    assert uses_term("同番同印他色の例", ["同印"], rudy)
    assert not uses_term("他色同番で", ["他色"])  # without the glossary, it is one unknown compound
    assert not uses_term("他色価格", ["他色"], rudy)  # 価格 is no glossary term
    # a compound that is a term of its own is that term only, whatever it is made of
    assert not uses_term("脱落条件を満たす", ["脱落"], {"脱落", "条件", "脱落条件"})


def test_listed_compound_counts_as_the_term() -> None:
    terms = glossary(Term({"ja": ("脱落", "脱落者"), "en": ("removed",)}))
    assert missing(terms, "脱落者は手札を伏せる。", "A caught player keeps their hand.") == ["removed"]
    assert missing(terms, "脱落者は手札を伏せる。", "A removed player keeps their hand.") == []
    # unlisted, 脱落者 is another word
    assert missing(glossary(REMOVED), "脱落者は手札を伏せる。", "A caught player keeps their hand.") == []


# ----------------------------------------------------------------------------- the workaround is gone


def test_removal_condition_no_longer_needs_removal_as_a_form_of_removed() -> None:
    terms = glossary(REMOVED, REMOVAL_CONDITION)
    ja, en = "脱落条件は、獲得したカードで確かめます。", "The removal condition is checked on the won cards."
    assert missing(terms, ja, en) == []  # 脱落 is not used: only 脱落条件 is
    assert missing(terms, "脱落条件を満たすと脱落します。", en) == ["removed"]


def test_not_removed_and_not_of_the_trump_suit_need_the_terms() -> None:
    # 脱落していない uses 脱落 and 切札のスート以外 uses 切札のスート: the paraphrases "in play" and
    # "non-trump" are not the glossary terms, and the shipped glossary no longer accepts them
    terms = shipped_glossary(GADGET_TRICK)
    ja = "次のトリックのリードを脱落していない好きなプレイヤーにしてよい。"
    assert missing(terms, ja, "choose any player still in play to lead the next trick") == ["removed"]
    assert missing(terms, ja, "choose any player who is not removed to lead the next trick") == []
    ja = "そのトリックの切札のスート以外のカードを1枚箱に戻してよい。"
    assert missing(terms, ja, "return one non-trump card of that trick to the box") == ["trump suit"]
    assert missing(terms, ja, "return one card of that trick that is not of the trump suit to the box") == []


# ----------------------------------------------------------------------------- pnp check


@pytest.fixture
def gadget_trick(tmp_path: Path) -> Path:
    return Path(shutil.copytree(GADGET_TRICK, tmp_path / "gadget-trick"))


@pytest.fixture
def two_ops(tmp_path: Path) -> Path:
    return Path(shutil.copytree(TWO_OPS, tmp_path / "two-ops"))


def glossary_warnings(report: Report) -> list[Diagnostic]:
    return [d for d in report.warnings if "lacks" in d.message and "the source uses" in d.message]


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if needle in line)


def term_line(folder: Path, ja: str) -> int:
    """The [[term]] line of the glossary entry whose ja form is ``ja``."""
    lines = (folder / "glossary.toml").read_text(encoding="utf-8").split("\n")
    index = lines.index(f'ja = "{ja}"')
    return next(n for n in range(index, 0, -1) if lines[n - 1] == "[[term]]")


def test_shipped_data_is_clean_without_the_workaround_forms() -> None:
    # the Gadget Trick glossary accepts the terms themselves (and the verb), no paraphrases ...
    data = tomllib.loads((GADGET_TRICK / "glossary.toml").read_text(encoding="utf-8"))
    forms = {term["ja"]: term["en"] for term in data["term"]}
    assert forms["脱落"] == ["removed", "remove"]
    assert forms["切札のスート"] == "trump suit"
    # ... and the shipped data has no glossary warning: 脱落条件 no longer asks for "removed"
    for folder in (GADGET_TRICK, TWO_OPS, ROOT / "data" / "rudy"):
        assert glossary_warnings(check(folder)) == [], folder.name


def test_check_reports_a_card_text_missing_a_term(gadget_trick: Path) -> None:
    cards = gadget_trick / "cards" / "gadgets.csv"
    text = cards.read_text(encoding="utf-8")
    old = "choose any player who is not removed to lead"
    assert old in text
    cards.write_text(text.replace(old, "choose any player still in play to lead"), encoding="utf-8")
    [warning] = glossary_warnings(check(gadget_trick))
    assert "getaway-map" in warning.message and "'脱落'" in warning.message and "'removed'" in warning.message
    assert warning.file == cards and warning.line == line_of(cards, "getaway-map,")
    assert warning.fix and "'removed'" in warning.fix and f"line {term_line(gadget_trick, '脱落')}" in warning.fix


def test_check_reports_a_section_missing_a_term(gadget_trick: Path) -> None:
    # the section still says "removal condition", which used to pass for 脱落 ("removed")
    en = gadget_trick / "rules" / "en.md"
    text = en.read_text(encoding="utf-8")
    start, end = text.index("### Activation and removal conditions {#conditions}"), text.index("### Order of")
    section = re.sub(r"\bremov(ed|es|e)\b", lambda m: {"ed": "caught", "es": "catches", "e": "catch"}[m.group(1)],
                     text[start:end])
    assert "removal condition" in section and not re.search(r"remov(ed|es|e)\b", section)
    en.write_text(text[:start] + section + text[end:], encoding="utf-8")
    [warning] = glossary_warnings(check(gadget_trick))
    assert "'conditions'" in warning.message and "'脱落'" in warning.message and "'removed'" in warning.message
    assert warning.file == en and warning.line == line_of(en, "{#conditions}")
    assert warning.fix == f"use 'removed' (glossary.toml line {term_line(gadget_trick, '脱落')})"


def test_check_reports_a_japanese_term_found_only_inside_a_compound(two_ops: Path) -> None:
    # Two Ops is translated from English: the Japanese must use 演算子 as a word, not only inside 演算子記号
    ja = two_ops / "rules" / "ja.md"
    text = ja.read_text(encoding="utf-8")
    start = text.index("### 演算を組み立てる")
    end = text.index("\n#", start + 1)
    assert "演算子" in text[start:end]
    ja.write_text(text[:start] + text[start:end].replace("演算子", "演算子記号") + text[end:], encoding="utf-8")
    [warning] = glossary_warnings(check(two_ops))
    assert "'operator'" in warning.message and "'演算子'" in warning.message
    assert warning.file == ja and warning.line == line_of(ja, "### 演算を組み立てる")
    assert warning.fix and "'演算子'" in warning.fix

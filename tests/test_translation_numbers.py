"""Numbers in a translation as natural prose writes them: Japanese counters, numerals and English number words.

A digit must be stated in the other language too; a number word (two, 二つ, ふたり) or a Japanese 1 with a
counter (1枚, "a card") matches a digit but needs no match. A Japanese-first designer's natural English
translation got 9 errors for 1枚, 1つ and 1文, while "5 or more" against 4以上 must still be caught, in a
rule section and on a card.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from translation_check import check

from pnp.diagnostics import Level, Report
from pnp.model.build import load_game
from pnp.validate.rule_prose import number_differences, stated_numbers

ROOT = Path(__file__).resolve().parents[1]


def differ(en: str, ja: str) -> bool:
    """Whether the two texts disagree about a number, either one the source."""
    english, japanese = stated_numbers(en, "en"), stated_numbers(ja, "ja")
    return number_differences(english, japanese) != ([], []) or number_differences(japanese, english) != ([], [])


@pytest.mark.parametrize(("en", "ja"), [
    ("Draw a card.", "カードを1枚引く。"),
    ("Gain a point for each card.", "1枚につき1点を得る。"),
    ("Gain one card.", "1枚を得る。"),
    ("Gain one card.", "一枚を得る。"),
    ("Take one.", "1つ取る。"),
    ("Write a sentence.", "1文を書く。"),
    ("For two players.", "２人で遊ぶ。"),
    ("For 2 players.", "二人で遊ぶ。"),
    ("For 2 players.", "ふたりで遊ぶ。"),
    ("Take 2 cards.", "二つ取る。"),
    ("Take 3 cards.", "三枚取る。"),
    ("Score 10 points.", "十点を得る。"),
    ("Score 12 points.", "十二点を得る。"),
    ("One player alone.", "一人で遊ぶ。"),
    ("The third card.", "3枚目のカード。"),
    ("The 2nd place.", "2位。"),
    ("The best card.", "一番強いカード。"),  # 一番 is no number
])
def test_natural_translations_agree(en: str, ja: str) -> None:
    assert not differ(en, ja)


@pytest.mark.parametrize(("en", "ja"), [
    ("5 or more", "4以上"),
    ("five or more", "4以上"),  # the digit 4 is stated by one language only
    ("Draw 2 cards.", "カードを3枚引く。"),
    ("Draw 1 card.", "カードを引く。"),  # a digit must be stated: 1 as well
    ("Score 10 points.", "11点を得る。"),
])
def test_a_changed_number_still_differs(en: str, ja: str) -> None:
    assert differ(en, ja)


def test_a_game_names_its_own_counters_and_phrases_that_are_no_number(tmp_path: Path) -> None:
    glossary = tmp_path / "glossary.toml"
    glossary.write_text('[numbers]\ncounters = ["コマ"]\nignore = ["3人以上"]\n', encoding="utf-8")
    from pnp.validate.glossary import load_glossary

    game = load_game(ROOT / "data" / "gadget-trick", Report())
    assert game is not None
    game.path = tmp_path
    report = Report()
    loaded = load_glossary(game, report)
    assert loaded is not None and report.diagnostics == []
    assert loaded.counters == ("コマ",) and loaded.ignore == ("3人以上",)
    assert number_differences(stated_numbers("1コマ進む。", "ja"), stated_numbers("Move a space.", "en"))[0]
    assert number_differences(stated_numbers("1コマ進む。", "ja", loaded.counters),
                              stated_numbers("Move a space.", "en")) == ([], [])
    assert number_differences(stated_numbers("3人以上なら", "ja", ignore=loaded.ignore),
                              stated_numbers("With more players", "en")) == ([], [])


# ----------------------------------------------------------------------------- in a game


@pytest.fixture
def gadgets(tmp_path: Path) -> Path:
    target = tmp_path / "gadget-trick"
    shutil.copytree(ROOT / "data" / "gadget-trick", target)
    return target


HOOK = ("grappling-hook,1,gadget,,,,Grappling Hook,フック付きロープ,You never have to follow the lead suit: you may "
        "always play any card.,リードのスートのカードを持っていても、好きなカードを出してよい。,always,yes")


def with_texts(folder: Path, en: str, ja: str) -> Path:
    cards = folder / "cards" / "gadgets.csv"
    text = cards.read_text(encoding="utf-8")
    assert HOOK in text
    row = f'grappling-hook,1,gadget,,,,Grappling Hook,フック付きロープ,"{en}","{ja}",always,yes'
    cards.write_text(text.replace(HOOK, row), encoding="utf-8")
    return cards


def test_a_card_whose_translation_states_another_number_warns_at_its_row(gadgets: Path) -> None:
    cards = with_texts(gadgets, "If your score is 5 or more, gain a point.", "得点が4以上なら、1点を得る。")
    report = check(gadgets)
    [warning] = [d for d in report.warnings if "grappling-hook" in d.message]
    assert warning.message == "card grappling-hook text.en: the ja text states 4, the translation 5 instead"
    assert (warning.file, warning.line) == (cards, 2)


def test_a_natural_card_translation_passes(gadgets: Path) -> None:
    with_texts(gadgets, "Gain a point for each card you won; with two players, draw one more.",
               "獲得したカード1枚につき1点を得る。2人プレイなら、もう1枚引く。")
    report = check(gadgets)
    assert [d.message for d in report.diagnostics if d.level >= Level.WARNING] == []


def test_a_natural_section_translation_passes_and_a_changed_number_fails(tmp_path: Path) -> None:
    two_ops = tmp_path / "two-ops"
    shutil.copytree(ROOT / "data" / "two-ops", two_ops)
    en, ja = two_ops / "rules" / "en.md", two_ops / "rules" / "ja.md"

    def add(path: Path, heading: str, sentence: str) -> None:
        text = path.read_text(encoding="utf-8")
        start = text.index("{#scoring}")
        end = text.index("\n", start)
        path.write_text(text[:end] + "\n\n" + sentence + text[end:], encoding="utf-8")

    add(en, "{#scoring}", "Then each player draws a card, and scores a point for each card left.")
    add(ja, "{#scoring}", "その後、各プレイヤーはカードを1枚引き、残ったカード1枚につき1点を得ます。")
    assert [d.message for d in check(two_ops).errors] == []
    add(en, "{#scoring}", "With 5 or more cards left, the round ends.")
    add(ja, "{#scoring}", "残りが4枚以上なら、ラウンドは終わります。")
    errors = sorted(d.message for d in check(two_ops).errors)
    assert errors == ["section 'scoring': the source states 5, the translation does not",
                      "section 'scoring': the translation states 4, the source does not"]

"""Player aids: the one-page sheet and the card-size aid, read back from the PDFs.

Expected cell texts are the wordings in data/two-ops/rules.toml (the tables
are computed from it, never typed); the card count is by hand: 2 aid tables
make one double-sided card, one per player, and Two Ops allows 6 players.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from reportlab.platypus import Spacer

from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.render.rulebook.aid import largest_fitting, write_aid
from pnp.render.rulebook.aid_cards import pair_tables, write_aid_cards
from pnp.rules import get_rules
from pnp.rules.base import AidTable

ROOT = Path(__file__).resolve().parents[1]
TWO_OPS = ROOT / "data" / "two-ops"
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


@pytest.fixture(scope="module")
def game() -> Game:
    loaded = load_game(TWO_OPS, Report())
    assert loaded is not None
    return loaded


@pytest.fixture(scope="module")
def aids(game: Game, cache: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("aids")
    rules = get_rules(game.rules)
    return {
        "sheet-en-a4": write_aid(game, rules, "en", "a4", out / "aid-en-a4.pdf", cache),
        "sheet-ja-letter": write_aid(game, rules, "ja", "letter", out / "aid-ja-letter.pdf", cache),
        "cards-en-a4": write_aid_cards(game, rules, "en", "a4", out / "cards-en-a4.pdf", cache),
        "cards-ja-letter": write_aid_cards(game, rules, "ja", "letter", out / "cards-ja-letter.pdf", cache),
    }


def page_texts(path: Path) -> list[str]:
    return [re.sub(r"\s*\r?\n\s*", " ", page.get_textpage().get_text_range()) for page in pdfium.PdfDocument(path)]


def base_fonts(path: Path) -> set[str]:
    names = set()
    for page in PdfReader(path).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]))
    return names


def test_aid_sheet_is_one_page_with_both_tables(aids: dict) -> None:
    result = aids["sheet-en-a4"]
    reader = PdfReader(result.path)
    assert len(reader.pages) == result.pages == 1
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(A4, abs=0.1)
    [text] = page_texts(result.path)
    for cell in ("Operators", "average (half the sum) *", "the greater number + 5", "off-colour − on-colour *",
                 "remainder of off-colour ÷ on-colour", "Goal (revealed number card)",
                 "highest sum of both operations", "least difference between both operations"):
        assert cell in text
    assert result.font_size >= 10  # two small tables: set large, not in the smallest size


def test_japanese_aid_sheet_on_letter(aids: dict) -> None:
    result = aids["sheet-ja-letter"]
    page = PdfReader(result.path).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(LETTER, abs=0.1)
    [text] = page_texts(result.path)
    for cell in ("演算子", "平均（和の半分）*", "色違いの数を同色の数で割った余り", "2つの演算結果の和が最も大きい"):
        assert cell.replace(" ", "") in text.replace(" ", "")


def test_aid_cards_one_double_sided_card_per_player(aids: dict) -> None:
    result = aids["cards-en-a4"]
    assert result.cards == 6
    texts = page_texts(result.path)
    assert len(texts) == result.pages == 2  # six landscape poker cards fit one A4 sheet: front and back
    assert texts[0].count("neither matches") == 6 and "highest sum" not in texts[0]
    assert texts[1].count("highest sum of both operations") == 6 and "neither matches" not in texts[1]
    reader = PdfReader(result.path)
    assert "/TrimBox" in reader.pages[0]  # imposed like the decks, for cutting
    assert result.font_size >= 6


def test_aid_cards_on_letter_in_japanese(aids: dict) -> None:
    result = aids["cards-ja-letter"]
    texts = page_texts(result.path)
    assert texts[0].count("片方だけ同色") == 6 and "偶数" not in texts[0]
    assert texts[1].count("偶数") == 6 and "片方だけ同色" not in texts[1]


@pytest.mark.parametrize("key", ["sheet-en-a4", "sheet-ja-letter", "cards-en-a4", "cards-ja-letter"])
def test_aid_fonts_are_embedded_and_never_helvetica(aids: dict, key: str) -> None:
    fonts = base_fonts(aids[key].path)
    assert fonts and all("NotoSansCJK" in name for name in fonts), fonts


def test_pair_tables_puts_two_tables_on_a_card() -> None:
    tables = [AidTable(id=str(n), title=str(n), header=["h"], rows=[["r"]]) for n in range(3)]
    cards = pair_tables(tables)
    assert [(c.front.id, c.back.id if c.back else None) for c in cards] == [("0", "1"), ("2", None)]


def test_a_split_table_takes_both_sides_of_one_card() -> None:
    tables = [AidTable(id=str(n), title=str(n), header=["h"], rows=[["r"]]) for n in range(4)]
    # table 1 is the first half of a split: it may not go on the back of table 0's card
    cards = pair_tables(tables, first_parts=[tables[1]])
    assert [(c.front.id, c.back.id if c.back else None) for c in cards] == [("0", None), ("1", "2"), ("3", None)]


def test_a_table_too_dense_for_one_side_is_split_over_both(cache: Path, tmp_path: Path) -> None:
    """Rudy's nine turn steps set at 5.5 pt on one side of a poker card; split over the card's two
    sides they set at 7 pt or more, the first half on a front and the rest on that card's back."""
    rudy = load_game(ROOT / "data" / "rudy", Report())
    assert rudy is not None
    path = tmp_path / "rudy-ja-cards.pdf"
    result = write_aid_cards(rudy, get_rules(rudy.rules), "ja", "a4", path, cache, copies=1)
    assert result.font_size >= 7 and result.cards == 3  # five tables, the turn table split: six sides
    fronts, backs = (text.replace(" ", "") for text in page_texts(path))
    assert "手番の流れ（1/2）" in fronts and "[1]" in fronts and "[9]" not in fronts
    assert "手番の流れ（2/2）" in backs and "[9]" in backs and "[1]" not in backs


def test_largest_fitting_steps_down_until_the_content_fits() -> None:
    def build(size: float) -> list:
        return [Spacer(10, size * 10)]  # 10 pt of height per point of size

    assert largest_fitting(build, 100, 85, (10.0, 9.0, 8.0, 7.0))[0] == 8.0
    assert largest_fitting(build, 100, 30, (10.0, 9.0))[0] == 9.0  # nothing fits: the smallest size


class _HugeAid:
    """A rules module whose aid table cannot fit one page, nor one card, at any size."""

    def aid_tables(self, game: Game, lang: str) -> list[AidTable]:
        rows = [[f"row {n}", "a long cell that takes a line of its own at any size we try"] for n in range(400)]
        return [AidTable("huge", "Huge", ["what", "how"], rows)]


@pytest.mark.parametrize("writer", [write_aid, write_aid_cards])
def test_an_aid_that_does_not_fit_is_an_error_not_a_page_missing_its_table(writer, game: Game, cache: Path,
                                                                            tmp_path: Path) -> None:
    from pnp.diagnostics import DataError

    target = tmp_path / "aid.pdf"
    with pytest.raises(DataError, match="does not fit"):
        writer(game, _HugeAid(), "en", "a4", target, cache)
    assert not target.exists()


@pytest.mark.parametrize("writer", [write_aid, write_aid_cards])
def test_an_aid_that_cannot_fit_is_known_before_any_typesetting(writer, game: Game, cache: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """400 rows at one line each outgrow the page at the smallest size: said from the row count, where
    trying every size and layout took 12 s of CPU."""
    from pnp.diagnostics import DataError
    from pnp.render.rulebook import aid, aid_cards

    def typeset(*args, **kwargs):
        raise AssertionError("typeset a table that arithmetic shows cannot fit")

    monkeypatch.setattr(aid, "largest_fitting", typeset)  # the sheet's, and the aid cards' own import of it
    monkeypatch.setattr(aid_cards, "largest_fitting", typeset)
    with pytest.raises(DataError, match=r"does not fit even at [\d.]+ pt: its \d+ table rows need at least"):
        writer(game, _HugeAid(), "en", "a4", tmp_path / "aid.pdf", cache)


def _title_box(path: Path, title: str) -> tuple[float, float, float, float]:
    """(left, bottom, right, top) in points of the first occurrence of ``title`` on page 1."""
    page = pdfium.PdfDocument(path)[0]
    text = page.get_textpage()
    found = text.search(title)
    hit = found.get_next()
    assert hit is not None, f"{title!r} not on the page"
    first, count = hit
    boxes = [text.get_charbox(index) for index in range(first, first + count)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def test_a_sheet_too_small_for_one_readable_column_sets_two(cache: Path, tmp_path: Path) -> None:
    """Rudy's five tables of short rows fitted one Letter column only at 6.5 pt, half of each row empty;
    in two columns the same tables set at 10 pt or more, in order, the column break between two tables."""
    rudy = load_game(ROOT / "data" / "rudy", Report())
    assert rudy is not None
    rules = get_rules(rudy.rules)
    path = tmp_path / "rudy-ja-letter.pdf"
    result = write_aid(rudy, rules, "ja", "letter", path, cache)
    assert result.columns == 2 and result.font_size >= 10
    middle = LETTER[0] / 2
    titles = [table.title for table in rules.aid_tables(rudy, "ja")]
    boxes = [_title_box(path, title) for title in titles]
    sides = ["left" if box[2] < middle else "right" if box[0] > middle else "across" for box in boxes]
    assert "across" not in sides and sides == sorted(sides)  # left column first, then right
    assert sides[0] == "left" and sides[-1] == "right"
    for side in ("left", "right"):  # top to bottom within a column, in the tables' order
        tops = [box[3] for box, where in zip(boxes, sides, strict=True) if where == side]
        assert tops == sorted(tops, reverse=True)


def test_a_sheet_readable_in_one_column_keeps_it(game: Game, aids: dict) -> None:
    assert aids["sheet-en-a4"].columns == 1 and aids["sheet-en-a4"].font_size >= 10


def test_split_rows_keeps_order_and_puts_the_notes_under_the_last_part() -> None:
    from pnp.render.rulebook.aid_cards import split_rows

    table = AidTable(id="t", title="Steps", header=["h"], rows=[[str(n)] for n in range(7)], notes=["note"])
    parts = split_rows(table, 3, "en")
    assert [p.title for p in parts] == ["Steps (1/3)", "Steps (2/3)", "Steps (3/3)"]
    assert [[row[0] for row in p.rows] for p in parts] == [["0", "1", "2"], ["3", "4"], ["5", "6"]]
    assert [p.notes for p in parts] == [[], [], ["note"]]
    assert split_rows(table, 2, "ja")[1].title == "Steps（2/2）"


def test_a_table_too_dense_for_two_sides_takes_as_many_as_it_needs(game: Game, cache: Path) -> None:
    """Forty steps: two sides would still set them below 7 pt, so the table takes the fewest sides that
    set every part at 7 pt or more, in order, each part marked, starting on a front."""
    from reportlab.lib.units import mm

    from pnp.render.rulebook.aid_cards import (
        AID_CARD,
        CARD_INSET,
        READABLE_CARD_SIZE,
        _card_flowables,
        card_sides,
        split_rows,
    )
    from pnp.render.rulebook.style import stack_height
    from pnp.render.text.fonts import prepare_fonts

    rows = [[f"Step {n}: draw a card, then pass one to the player on your left"] for n in range(1, 41)]
    dense = AidTable(id="steps", title="Turn", header=["step"], rows=rows, notes=["Then the next player."])
    small = AidTable(id="small", title="Small", header=["a"], rows=[["x"]])
    fontset = prepare_fonts([row[0] for row in rows] + ["Turn", "step", "Small", "(1/6)"], cache)
    sides, first_parts = card_sides(game, [small, dense], "en", fontset)
    parts = sides[1:]
    assert len(parts) >= 3 and first_parts == [parts[0]]
    assert [p.title for p in parts] == [f"Turn ({n}/{len(parts)})" for n in range(1, len(parts) + 1)]
    assert [row for p in parts for row in p.rows] == rows and parts[-1].notes == ["Then the next player."]
    width, height = AID_CARD.width_mm * mm - 2 * CARD_INSET, AID_CARD.height_mm * mm - 2 * CARD_INSET

    def fits(part: AidTable) -> bool:
        return stack_height(_card_flowables(game, part, "en", fontset, width, READABLE_CARD_SIZE), width) <= height

    assert all(fits(part) for part in parts)  # each part sets at the readable size
    assert not all(fits(part) for part in split_rows(dense, len(parts) - 1, "en"))  # and one fewer would not
    cards = pair_tables(sides, first_parts)
    assert cards[0].front is small and cards[0].back is None  # the split table starts on a front
    assert cards[1].front is parts[0] and cards[1].back is parts[1]


def test_a_narrow_aid_table_in_a_rulebook_keeps_its_natural_widths(cache: Path) -> None:
    """Rudy's market table, a long heading over two columns of digits: filled to the rulebook's width its
    prices sat across the page from what they price. On an aid sheet every table still fills the width,
    so a page of tables lines up."""
    from reportlab.lib.pagesizes import A4

    from pnp.render.rulebook.style import RULEBOOK_FILL_FROM, RulebookStyles, column_widths, regular
    from pnp.render.text.fonts import prepare_fonts

    texts = ["Cards of that number in the market", "Sell", "Buy", "0", "1", "4", "6"]
    fontset = prepare_fonts(texts, cache)
    style = RulebookStyles.for_page(A4[0], "en").table
    rows = [[regular(text) for text in texts[:3]], [regular("1"), regular("4"), regular("6")]]
    width = 480.0
    natural = column_widths(rows, style, fontset, width, fill=False)
    assert sum(natural) < RULEBOOK_FILL_FROM * width
    assert column_widths(rows, style, fontset, width, fill=True, fill_from=RULEBOOK_FILL_FROM) == natural
    filled = column_widths(rows, style, fontset, width, fill=True)
    assert abs(sum(filled) - width) < 1e-6 and filled[1:] == natural[1:]


def test_aid_cards_fit_each_table_once_however_many_copies(game: Game, cache: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A card is drawn once per player, front and back: the fit of its tables is found once, not per copy."""
    import pnp.render.rulebook.aid as aid

    fits: list[int] = []

    def counted(*args, **kwargs):
        fits.append(1)
        return largest_fitting(*args, **kwargs)
    monkeypatch.setattr(aid, "largest_fitting", counted)
    rules = get_rules(game.rules)
    one = write_aid_cards(game, rules, "en", "a4", tmp_path / "one.pdf", cache, copies=1)
    once = len(fits)
    six = write_aid_cards(game, rules, "en", "a4", tmp_path / "six.pdf", cache, copies=6)
    assert len(fits) - once == once  # six copies: no more fitting than one
    assert six.font_size == one.font_size and six.cards == 6 * one.cards
    assert page_texts(six.path)[0].count("neither matches") == 6

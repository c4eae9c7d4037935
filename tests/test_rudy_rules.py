"""Rudy's rules module: price table, dice, museum, set sales, deck facts.

The deck is built here from the reconstruction described in game.toml (so
these tests do not depend on the card list's file); prices and set values are
the seed's or worked out by hand in comments, never read back from the code.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from pnp.diagnostics import Report
from pnp.load.toml_lines import TomlDoc, load_toml
from pnp.model.game import Card, Component, Deal, Example, Game, SetupRow, Source, Term
from pnp.rules.base import ExampleError
from pnp.rules.rudy import RULES, read_tables
from pnp.validate import check_folder
from pnp.validate.examples import check_examples

DATA = Path(__file__).resolve().parents[1] / "data" / "rudy"
DECK_FILE = Path("cards/deck.csv")
NUMBER_COLOURS = ("red", "blue", "green")
MARKS = ("drop", "diamond", "circle")
# Each number lacks one colour/mark pair, so a market holds at most 8 of a
# number; the pairs left out are those of data/rudy/cards/deck.csv, none of
# which a seed example uses.
MISSING = {1: ("green", "drop"), 2: ("red", "drop"), 3: ("blue", "circle"),
           4: ("green", "drop"), 5: ("red", "diamond"), 6: ("blue", "circle")}


# ----------------------------------------------------------------- building games


def reconstructed_deck() -> list[Card]:
    specs: list[tuple[str, str, str | None, str, int | None]] = []  # id, kind, mark, colour, number
    for number in range(1, 7):
        for colour in NUMBER_COLOURS:
            for mark in MARKS:
                if (colour, mark) != MISSING[number]:
                    specs.append((f"{number}-{colour}-{mark}", "number", mark, colour, number))
    for colour in ("black", "white"):
        specs += [(f"{number}-{colour}", colour, None, colour, number) for number in range(1, 7)]
    specs += [(f"A-{colour}", "ace", None, colour, None) for colour in NUMBER_COLOURS]
    specs.append(("A-grey", "grey-ace", None, "grey", None))
    return [Card(id=card_id, component="deck", count=1, kind=kind, suit=mark, colour=colour, rank=number,
                 source=Source(DECK_FILE, line)) for line, (card_id, kind, mark, colour, number)
            in enumerate(specs, start=2)]


def make_game(deck: list[Card] | None = None, rules: TomlDoc | None = None,
              examples: tuple[Example, ...] | None = None) -> Game:
    cards = tuple(reconstructed_deck() if deck is None else deck)
    names = {"number": "number card", "black": "black card", "white": "white card", "ace": "A card",
             "grey-ace": "grey A card", "coin": "coin"}
    # declared as the list holds it, as a designer adding a card would: a count at odds with game.toml
    # is one error of the generic check, and the rules' market counts wait for it (Game.as_declared)
    component = Component(id="deck", kind="cards", names={"en": "Rudy cards"},
                          count=sum(card.count for card in cards), size=(63.5, 88.9),
                          provisional="reconstructed", cards=cards, source=Source(Path("game.toml"), 102))
    setup = {players: SetupRow(players, Deal(pool="deck", in_play=64, hand=5, revealed=8)) for players in (2, 3, 4)}
    return Game(
        id="rudy", path=DATA, titles={"ja": "Rudy", "en": "Rudy"}, source_language="ja", languages=("ja", "en"),
        players=(2, 4), credits={"author": "OPT"}, terms={},
        colours={c: Term(c, {"en": c}) for c in ("red", "blue", "green", "black", "white", "grey")},
        suits={m: Term(m, {"en": m}) for m in MARKS},
        kinds={kind: Term(kind, {"en": name}) for kind, name in names.items()},
        components={"deck": component}, setup=setup, rules="rudy",
        rules_data=rules or load_toml(DATA / "rules.toml"),
        examples=load_examples(DATA / "examples.toml") if examples is None else examples,
    )


def load_examples(path: Path) -> tuple[Example, ...]:
    doc = load_toml(path)
    return tuple(Example(id=e["id"], kind=e["kind"], inputs=e.get("inputs", {}), expect=e["expect"],
                         deviation=e.get("deviation"), source=Source(path, doc.line_of("example", i)),
                         expect_line=doc.line_of("example", i, "expect"), corrected=e.get("corrected", {}))
                 for i, e in enumerate(doc.data["example"]))


def edited_rules(tmp_path: Path, old: str, new: str) -> TomlDoc:
    """A copy of rules.toml with one edit, as a designer would make it."""
    path = tmp_path / "rules.toml"
    text = (DATA / "rules.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_toml(path)


def line_of_text(path: Path, pattern: str, after: str | None = None) -> int:
    """1-based line of the first line matching ``pattern`` (after the line matching ``after``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = 0
    if after is not None:
        start = next(i for i, line in enumerate(lines) if re.search(after, line))
    return next(i for i, line in enumerate(lines) if i >= start and re.search(pattern, line)) + 1


def checked(game: Game) -> Report:
    report = Report()
    RULES.check(game, report)
    return report


def run(kind: str, **inputs: object) -> dict:
    return dict(RULES.run_example(make_game(), Example(id="x", kind=kind, inputs=inputs, expect={})))


# ----------------------------------------------------------------- the seed's examples


def test_every_example_agrees_and_the_seed_17_is_a_reported_deviation() -> None:
    game = make_game()
    report = Report()
    outcome = check_examples(game, RULES, report)
    assert report.errors == [], [d.message for d in report.errors]
    assert outcome.pop("seed-set-17") == "deviation"
    assert set(outcome.values()) == {"ok"}
    seed_ids = {"seed-single-six", "seed-single-four", "seed-single-three-die", "seed-museum-black-three",
                "seed-multi-two-threes", "seed-step1-two", "seed-dice-single-two", "seed-set-same-colour-run",
                "seed-dice-set-wild", "seed-dice-set-same-number", "seed-set-16", "seed-set-12", "seed-set-25"}
    assert seed_ids <= set(outcome)
    assert sum(1 for example_id in outcome if example_id.startswith("own-")) >= 3
    deviation = [n for n in report.notes if "seed-set-17" in n.message]
    assert len(deviation) == 1 and "price is stated as 17 but the rules give 0" in deviation[0].message


def test_price_table_reading() -> None:
    tables = read_tables(make_game(), Report())
    assert tables is not None
    # NOTES reading: 0 cannot sell; 1 -> 4; 2-3 -> 3; 4-6 -> 2; 7-8 -> 1; buying costs 6
    assert [tables.sell_price(count) for count in range(9)] == [None, 4, 3, 3, 2, 2, 2, 1, 1]
    assert {row.buy for row in tables.prices if row.first > 0} == {6}


def test_single_and_multi_sales() -> None:
    assert run("single-sale", card="6-red-drop", market={"6": 1}, dice=[1, 2, 3])["price"] == 4
    # a 3 with four in the market (2) and one die on 3 (+1)
    assert run("single-sale", card="3-red-drop", market={"3": 4}, dice=[3, 1, 6])["price"] == 3
    # two 3s while one 3 is in the market: both at 4
    assert run("multi-sale", cards=["3-red-diamond", "3-green-circle"], market={"3": 1}, dice=[1, 2, 6])["price"] == 8
    closed = run("single-sale", card="6-green-drop", market={}, dice=[6, 6, 6])
    assert (closed["sellable"], closed["price"]) == (False, 0)


def test_museum_pays_flat_and_only_for_unmarked_cards() -> None:
    assert run("museum", card="3-black", dice=[3, 3, 3])["price"] == 4
    assert run("museum", card="A-grey", dice=[1, 1, 1])["price"] == 4
    with pytest.raises(ExampleError, match="museum buys only"):
        run("museum", card="3-red-drop", dice=[1, 2, 3])


def test_step1_reward() -> None:
    assert run("step1-reward", card="2-blue-drop", market={"3": 2}) == {"allowed": True, "reward": 2}
    assert run("step1-reward", card="6-red-drop", market={}) == {"allowed": True, "reward": 6}
    assert run("step1-reward", card="4-red-drop", market={"4": 2}) == {"allowed": False, "reward": 0}


def test_set_sales_search_the_wild_cards() -> None:
    # The seed's 16: the grey A must be a 5 to make the run; 2 x 3 + 9 + 1 die on 5
    sixteen = run("set-sale", cards=["4-black", "A-grey", "6-green-drop"], market={"4": 5, "5": 4, "6": 6},
                  dice=[5, 1, 2])
    assert (sixteen["price"], sixteen["numbers"]) == (16, [4, 5, 6])
    # The corrected 17: three colours, a run, no mark element: 3 x 3 + 6 + 2
    corrected = run("set-sale", cards=["3-red-drop", "4-green-circle", "5-blue-drop"],
                    market={"3": 4, "4": 5, "5": 2}, dice=[3, 4, 1])
    assert (corrected["price"], corrected["elements"]) == (17, ["other-colours", "run"])
    # The seed's version: blue repeats, only the run holds, which is no set
    seed = run("set-sale", cards=["3-red-drop", "4-blue-circle", "5-blue-drop"], market={"3": 4, "4": 5, "5": 2},
               dice=[3, 4, 1])
    assert (seed["valid"], seed["elements"], seed["price"]) == (False, ["run"], 0)


def test_black_counts_as_a_colour_of_its_own() -> None:
    # black, grey A as blue, green: three colours; marks all drop; run 4-5-6:
    # one of each number in the market, 4 x 3 + 9 = 21
    result = run("set-sale", cards=["4-black", "A-grey", "6-green-drop"], market={"4": 1, "5": 1, "6": 1},
                 dice=[1, 1, 1])
    assert result["elements"] == ["other-colours", "run", "same-mark"] and result["price"] == 21


def test_wild_numbers_must_be_in_the_market() -> None:
    # no 4 in the market: the red A cannot complete 4-5-6 (which would be 9 + 9 = 18 with all circle);
    # as a 5 or 6 with a diamond: same colour + other marks, 3 x 3 + 6 = 15
    result = run("set-sale", cards=["A-red", "5-red-drop", "6-red-circle"], market={"5": 3, "6": 2}, dice=[1, 1, 2])
    assert (result["price"], result["elements"]) == (15, ["same-colour", "other-marks"])
    # a printed number missing from the market blocks the whole set
    blocked = run("set-sale", cards=["4-red-circle", "5-red-drop", "6-red-circle"], market={"5": 3, "6": 2},
                  dice=[1, 1, 2])
    assert (blocked["valid"], blocked["price"]) == (False, 0)


def test_pinned_choices_are_checked() -> None:
    pinned = run("set-sale", cards=["2-white", "A-blue", "4-blue-drop"], market={"2": 1, "3": 1, "4": 1},
                 dice=[5, 5, 6], assign={"2-white": {"colour": "blue", "mark": "diamond"},
                                         "A-blue": {"number": 3, "mark": "drop"}})
    assert (pinned["elements"], pinned["price"]) == (["same-colour", "run"], 18)
    with pytest.raises(ExampleError, match="cannot choose its mark"):
        run("set-sale", cards=["2-white", "A-blue", "4-blue-drop"], market={"2": 1, "3": 1, "4": 1},
            dice=[5, 5, 6], assign={"4-blue-drop": {"mark": "circle"}})


@pytest.mark.parametrize(("kind", "inputs", "message"), [
    ("single-sale", {"card": "7-red-drop", "market": {}, "dice": [1, 2, 3]}, "unknown card '7-red-drop'"),
    ("single-sale", {"card": "3-black", "market": {"3": 1}, "dice": [1, 2, 3]}, "sold to the museum"),
    ("single-sale", {"card": "3-red-drop", "market": {"3": 1}, "dice": [1, 2]}, "dice must list 3"),
    ("single-sale", {"card": "3-red-drop", "market": {"3": 1}, "dice": [1, 2, 7]}, "dice must list 3"),
    ("single-sale", {"card": "3-red-drop", "market": {"3": 9}, "dice": [1, 2, 3]}, "holds 0-8"),
    ("set-sale", {"cards": ["3-red-drop", "4-red-drop"], "market": {}, "dice": [1, 2, 3]}, "a set has 3 cards"),
    ("set-sale", {"cards": ["3-red-drop", "3-red-drop", "4-red-drop"], "market": {}, "dice": [1, 2, 3]},
     "used 2 times"),
])
def test_bad_example_inputs_raise_example_error(kind: str, inputs: dict, message: str) -> None:
    with pytest.raises(ExampleError, match=message):
        RULES.run_example(make_game(), Example(id="x", kind=kind, inputs=inputs, expect={}))


# ----------------------------------------------------------------- check: rules.toml


def test_the_reconstructed_deck_and_tables_pass() -> None:
    report = checked(make_game())
    assert report.errors == [] and report.warnings == [], [d.message for d in report.diagnostics]
    assert any("provisional" in n.message and "up to 8 cards" in n.message for n in report.notes)


def test_a_wrong_price_in_a_copy_fails_the_seed_example(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, "count = [1, 1]\nsell = 4", "count = [1, 1]\nsell = 5")
    examples_file = DATA / "examples.toml"
    game = make_game(rules=doc, examples=load_examples(examples_file))
    report = Report()
    outcome = check_examples(game, RULES, report)
    assert outcome["seed-single-six"] == "mismatch"
    error = next(d for d in report.errors if "seed-single-six" in d.message)
    assert "price is stated as 4 but the rules give 5" in error.message
    assert (error.file, error.line) == (examples_file,
                                        line_of_text(examples_file, r"^\[example\.expect\]", 'id = "seed-single-six"'))


def test_a_gap_in_the_price_table_fails_at_rules_toml(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, "count = [4, 6]", "count = [4, 5]")
    report = checked(make_game(rules=doc))
    gap = [d for d in report.errors if "does not cover market counts 6" in d.message]
    assert len(gap) == 1
    assert (gap[0].file, gap[0].line) == (doc.path, line_of_text(doc.path, r"^\[\[market\.price\]\]"))


def test_an_overlap_fails_at_the_later_row(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, "count = [2, 3]", "count = [2, 4]")
    report = checked(make_game(rules=doc))
    overlap = [d for d in report.errors if "market count 4 is priced twice" in d.message]
    assert len(overlap) == 1
    # the row's [[market.price]] header is the line above its count
    assert overlap[0].line == line_of_text(doc.path, r"^count = \[4, 6\]") - 1


def test_selling_an_absent_number_is_refused(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, 'count = [0, 0]\nsell = "no"', "count = [0, 0]\nsell = 1")
    report = checked(make_game(rules=doc))
    assert [d.line for d in report.errors if "absent from the market" in d.message] == \
        [line_of_text(doc.path, r"^sell = 1$")]


def test_a_price_that_rises_with_supply_is_a_warning(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, "count = [7, 8]\nsell = 1", "count = [7, 8]\nsell = 3")
    report = checked(make_game(rules=doc))
    assert [w.message for w in report.warnings if "rises from 2 to 3" in w.message]


def test_rows_past_the_deck_are_never_used(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, "count = [7, 8]", "count = [7, 9]")
    report = checked(make_game(rules=doc))
    assert report.errors == []
    assert [w.message.split(",")[0] for w in report.warnings] == ["price row 7-9: counts above 8 never occur"]


def test_unknown_kinds_in_rules_toml(tmp_path: Path) -> None:
    doc = edited_rules(tmp_path, '[wild.grey-ace]', '[wild.gray-ace]')
    report = checked(make_game(rules=doc))
    assert [d.line for d in report.errors if "'gray-ace'" in d.message] == [doc.line_of("wild")]


# ----------------------------------------------------------------- check: deck facts


def deck_without(card_id: str) -> list[Card]:
    return [card for card in reconstructed_deck() if card.id != card_id]


def test_every_number_must_reach_a_full_market() -> None:
    report = checked(make_game(deck=deck_without("3-red-drop")))
    assert [d.message for d in report.errors] == [
        "only 7 cards numbered 3 can reach the market; the seed's price table runs to 8"]


def test_a_ninth_card_of_a_number_overflows_market_and_table() -> None:
    extra = Card(id="4-green-drop", component="deck", count=1, kind="number", suit="drop", colour="green", rank=4,
                 source=Source(DECK_FILE, 99))
    report = checked(make_game(deck=[*reconstructed_deck(), extra]))
    found = sorted(d.message for d in report.errors)
    assert found == ["9 cards numbered 4 can reach the market, more than its limit of 8",
                     "the price table does not cover market counts 9 (this deck lets up to 9 cards of one number "
                     "reach the market)"]


def test_numbers_must_be_die_faces() -> None:
    seven = Card(id="7-black", component="deck", count=1, kind="black", colour="black", rank=7,
                 source=Source(DECK_FILE, 70))
    report = checked(make_game(deck=[*reconstructed_deck(), seven]))
    assert [(d.message, d.line) for d in report.errors] == [
        ("card '7-black': number 7 is not a face of a 6-sided die", 70)]


def test_one_a_per_colour_and_one_grey_a() -> None:
    deck = [dataclasses.replace(card, count=2) if card.id == "A-red" else card for card in deck_without("A-grey")]
    report = checked(make_game(deck=deck))
    assert sorted(d.message for d in report.errors) == ["expected exactly one grey A card, found 0",
                                                        "expected exactly one red A card, found 2"]


def test_the_erratum_needs_its_deviation() -> None:
    examples = tuple(dataclasses.replace(e, deviation=None) if e.id == "seed-set-17" else e
                     for e in load_examples(DATA / "examples.toml"))
    report = checked(make_game(examples=examples))
    assert [d.message for d in report.errors] == [
        "erratum 'set-17': example 'seed-set-17' must carry deviation = \"...\""]


# ----------------------------------------------------------------- aids and context


def test_aid_tables() -> None:
    tables = {table.id: table for table in RULES.aid_tables(make_game(), "en")}
    assert list(tables) == ["market", "sets", "elements", "wild", "turn"]
    assert tables["market"].rows == [["0", "—", "—"], ["1", "4", "6"], ["2–3", "3", "6"], ["4–6", "2", "6"],
                                     ["7–8", "1", "6"]]
    assert tables["market"].notes[1] == "The museum buys black, white and A cards for 4 opt (no dice bonus)."
    assert tables["sets"].rows == [["2 set elements", "highest market price × 3 + 6"],
                                   ["3 set elements", "highest market price × 3 + 9"],
                                   ["black-and-white run (grey A allowed)", "25 flat"]]
    assert tables["wild"].rows == [["black card", "any mark; keeps its number and colour"],
                                   ["white card", "any colour and mark; keeps its number"],
                                   ["A card", "any number and mark; keeps its colour"],
                                   ["grey A card", "any number, colour and mark"]]
    assert [row[0] for row in tables["turn"].rows] == [f"[{n}]" for n in range(1, 10)]
    assert "back to 5 cards" in tables["turn"].rows[3][1]
    japanese = {table.id: table for table in RULES.aid_tables(make_game(), "ja")}
    assert [row[0] for row in japanese["elements"].rows] == ["同色", "他色", "連番", "同番", "同印", "他印"]
    assert japanese["market"].header == ["市場にある同じ数字のカード", "売値", "買値"]


def test_context() -> None:
    context = RULES.context(make_game(), "ja")
    assert (context["museum_price"], context["buy_price"], context["black_white_run_price"]) == (4, 6, 25)
    assert context["set_bonus"] == {2: 6, 3: 9}
    assert context["glossary"]["excavation-site"] == "発掘場"
    assert context["errata"]["set-17"].startswith("編注")
    assert "［3赤△］［4緑○］［5青△］" in context["errata"]["set-17"]


# ----------------------------------------------------------------- the real game folder


def test_the_real_game_folder_checks_clean() -> None:
    """game.toml and cards/deck.csv are the lead's; this proves our files work with them."""
    result = check_folder(DATA)
    assert result.game is not None
    ours = {(DATA / name).resolve() for name in ("rules.toml", "examples.toml")}
    problems = result.report.errors + result.report.warnings
    assert [d for d in problems if d.file is not None and d.file.resolve() in ours] == []
    assert result.examples.pop("seed-set-17") == "deviation"
    assert set(result.examples.values()) == {"ok"}



def test_a_value_of_the_wrong_kind_in_rules_toml_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """seed_example = [] was looked up in a dict ('unhashable type'), and an aid header of true was
    iterated; each is now an error at its line."""
    doc = edited_rules(tmp_path, 'seed_example = "seed-set-17"', "seed_example = []")
    report = checked(make_game(rules=doc))
    assert any("erratum 'set-17' names examples that examples.toml lacks" in d.message for d in report.errors)
    text = doc.path.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("header = { en = [\"Set\""))
    doc.path.write_text(text.replace(header, "header = true"), encoding="utf-8")
    report = checked(make_game(rules=load_toml(doc.path)))
    problem = [d for d in report.errors if "header: expected a list of texts per language, found True" in d.message]
    assert len(problem) == 1 and problem[0].line == line_of_text(doc.path, "^header = true")

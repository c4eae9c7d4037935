"""Two Ops rules: operator table, footnote marks, goal table, solver, aids.

Every expected value below was worked out by hand from the rulebook (the
arithmetic is in the comments), never copied from the solver's output.
"""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from pnp.diagnostics import Report
from pnp.load.toml_lines import load_toml
from pnp.model.game import Card, Component, Example, Game, Term
from pnp.rules.base import ExampleError
from pnp.rules.two_ops import RULES, CardError, apply_operator, evaluate_exhaustively, parse_card, solve

GAME_DIR = Path(__file__).resolve().parents[1] / "data" / "two-ops"
RULES_TOML = GAME_DIR / "rules.toml"
EXAMPLES_TOML = GAME_DIR / "examples.toml"

# ---------------------------------------------------------------------------
# Building games by hand (independent of the CSV loader)

RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = {"S": ("spades", "black"), "H": ("hearts", "red"), "D": ("diamonds", "red"), "C": ("clubs", "black")}


def make_deck(changes: dict[str, dict[str, object]] | None = None) -> tuple[Card, ...]:
    cards = []
    for letter, (suit, colour) in SUITS.items():
        for rank, name in enumerate(RANK_NAMES, start=1):
            fields: dict[str, object] = {"id": f"{name}{letter}", "component": "deck", "count": 1,
                                         "kind": "pip" if rank <= 10 else "court", "suit": suit,
                                         "colour": colour, "rank": rank}
            fields.update((changes or {}).get(f"{name}{letter}", {}))
            cards.append(Card(**fields))  # type: ignore[arg-type]
    return tuple(cards)


def make_game(rules_path: Path = RULES_TOML, players: tuple[int, int] = (2, 6),
              deck: tuple[Card, ...] | None = None) -> Game:
    cards = deck if deck is not None else make_deck()
    component = Component(id="deck", kind="cards", names={"en": "Deck"}, count=len(cards), size=None,
                          cards=cards)
    colours = {"red": Term("red", {"en": "red", "ja": "赤"}), "black": Term("black", {"en": "black", "ja": "黒"})}
    # the vocabularies game.toml declares: a card naming a term outside them is not counted (reported)
    suits = {suit: Term(suit, {"en": suit}) for suit, _ in SUITS.values()}
    kinds = {kind: Term(kind, {"en": kind}) for kind in ("pip", "court")}
    return Game(id="two-ops", path=GAME_DIR, titles={"en": "Two Ops"}, source_language="en",
                languages=("en", "ja"), players=players, credits={}, terms={}, colours=colours, suits=suits,
                kinds=kinds, components={"deck": component}, setup={}, rules="two_ops",
                rules_data=load_toml(rules_path))


def checked(game: Game) -> Report:
    report = Report()
    RULES.check(game, report)
    return report


def messages(report: Report, level: str = "errors") -> list[str]:
    return [d.message for d in getattr(report, level)]


@pytest.fixture(scope="module")
def game() -> Game:
    return make_game()


@pytest.fixture(scope="module")
def tables(game: Game):  # noqa: ANN201 - fixture
    found = RULES.tables(game)
    assert found is not None
    return found


# ---------------------------------------------------------------------------
# Editing a copy of rules.toml, one [[operator]] block at a time

OPERATOR_HEADER = "\n[[operator]]\n"


def _operator_blocks(text: str) -> tuple[str, list[str]]:
    head, *blocks = text.split(OPERATOR_HEADER)
    return head, blocks


def _is_entry(block: str, rank: str, relation: str) -> bool:
    return f'rank = "{rank}"\n' in block and f'relation = "{relation}"\n' in block


def edit_operator(text: str, rank: str, relation: str, key: str, value: str) -> str:
    head, blocks = _operator_blocks(text)
    for i, block in enumerate(blocks):
        if _is_entry(block, rank, relation):
            blocks[i], count = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", block, count=1)
            assert count == 1, f"{key} not in {rank}/{relation}"
            return OPERATOR_HEADER.join([head, *blocks])
    raise AssertionError(f"no block {rank}/{relation}")


def drop_operator(text: str, rank: str, relation: str) -> str:
    head, blocks = _operator_blocks(text)
    kept = [b for b in blocks if not _is_entry(b, rank, relation)]
    assert len(kept) == len(blocks) - 1
    # the last block also carries the rest of the file; keep that tail
    if _is_entry(blocks[-1], rank, relation):
        tail = blocks[-1][blocks[-1].index("\n# Printed under"):]
        kept[-1] += tail
    return OPERATOR_HEADER.join([head, *kept])


def game_with(tmp_path: Path, text: str, **kwargs: object) -> Game:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return make_game(path, **kwargs)  # type: ignore[arg-type]


def line_containing(path: Path, fragment: str, after: str = "") -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i, line in enumerate(lines) if i >= start and fragment in line) + 1


ORIGINAL = RULES_TOML.read_text(encoding="utf-8")

# ---------------------------------------------------------------------------
# Cards


@pytest.mark.parametrize(
    ("text", "card_id", "rank", "colour"),
    [
        ("7H", "7H", 7, "red"),
        ("10h", "10H", 10, "red"),
        ("AS", "AS", 1, "black"),
        ("KD", "KD", 13, "red"),
        (" qc ", "QC", 12, "black"),
        ("jS", "JS", 11, "black"),
    ],
)
def test_parse_card(text: str, card_id: str, rank: int, colour: str) -> None:
    card = parse_card(text)
    assert (card.id, card.rank, card.colour) == (card_id, rank, colour)


@pytest.mark.parametrize("text", ["11H", "1S", "7X", "H7", "", "10", "K"])
def test_parse_card_rejects_with_a_hint(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)
    assert "'7H'" in str(caught.value)  # the message shows a valid id


# ---------------------------------------------------------------------------
# The shipped tables


def test_shipped_rules_pass_cleanly(game: Game) -> None:
    report = checked(game)
    assert report.errors == []
    assert report.warnings == []
    assert report.notes == []  # the seed's footnote marks agree with evaluation: no erratum


# Each rule as the rulebook words it, worked by hand.
@pytest.mark.parametrize(
    ("operator", "numbers", "relation", "value"),
    [
        # operator colour matches neither number
        ("KH", ("3S", "4C"), "neither", Fraction(7, 2)),  # average: (3 + 4) / 2
        ("KS", ("10H", "9D"), "neither", Fraction(19, 2)),  # (10 + 9) / 2
        ("QS", ("3H", "8D"), "neither", 8),  # maximum
        ("JC", ("3H", "8D"), "neither", 3),  # minimum
        # matches both
        ("KH", ("3H", "4D"), "both", 7),  # full sum
        ("QS", ("3S", "8C"), "both", 13),  # max + 5 = 8 + 5
        ("JC", ("3S", "8C"), "both", -2),  # min - 5 = 3 - 5
        ("JD", ("AH", "AD"), "both", -4),  # 1 - 5
        # matches one: on-colour has the operator's colour
        ("KH", ("3H", "8S"), "one", 5),  # off - on = 8 - 3
        ("KS", ("4H", "9S"), "one", -5),  # off - on = 4 - 9
        ("QS", ("3S", "8H"), "one", 2),  # 8 mod 3
        ("QD", ("9D", "4C"), "one", 4),  # 4 mod 9
        ("QH", ("2H", "10S"), "one", 0),  # 10 mod 2
        ("JC", ("3S", "8H"), "one", 3),  # off-colour 8 ignored: on-colour 3
        ("JC", ("8H", "3S"), "one", 3),  # same cards the other way round
    ],
)
def test_operator_rules_match_the_rulebook(tables, operator: str, numbers: tuple[str, str],  # noqa: ANN001
                                           relation: str, value: Fraction | int) -> None:
    operation = apply_operator(tables, parse_card(operator), *map(parse_card, numbers))
    assert operation.relation == relation
    assert operation.value == value


@pytest.mark.parametrize(
    ("entry", "odd_value", "low", "high"),
    [
        # (a + b) / 2: first non-whole at a=1, b=2 -> 3/2; range 1 .. 10
        (("K", "neither"), Fraction(3, 2), 1, 10),
        (("Q", "neither"), None, 1, 10),
        (("J", "neither"), None, 1, 10),
        (("K", "both"), None, 2, 20),
        (("Q", "both"), None, 6, 15),
        # min - 5: first negative at a=1, b=1 -> -4; range -4 .. 5
        (("J", "both"), Fraction(-4), -4, 5),
        # off - on: first negative at a=1,b=2 with on=2, off=1 -> -1; range -9 .. 9
        (("K", "one"), Fraction(-1), -9, 9),
        # off % on: 0 (e.g. 2 % 1) .. 9 (9 % 10), never fractional or negative
        (("Q", "one"), None, 0, 9),
        (("J", "one"), None, 1, 10),
    ],
)
def test_exhaustive_evaluation(tables, entry: tuple[str, str], odd_value: Fraction | None,  # noqa: ANN001
                               low: int, high: int) -> None:
    found = evaluate_exhaustively(tables.operators[entry], tables.number_values)
    assert found.zero_division is None
    assert (found.odd_case[0] if found.odd_case else None) == odd_value
    assert (found.low, found.high) == (low, high)
    assert tables.operators[entry].marked is (odd_value is not None)


# ---------------------------------------------------------------------------
# Broken copies of the table


def test_missing_entry_is_named(tmp_path: Path) -> None:
    report = checked(game_with(tmp_path, drop_operator(ORIGINAL, "Q", "one")))
    assert "the operator table has no entry for Q/one" in messages(report)


def test_missing_last_entry_is_named(tmp_path: Path) -> None:
    report = checked(game_with(tmp_path, drop_operator(ORIGINAL, "J", "one")))
    assert "the operator table has no entry for J/one" in messages(report)


def test_duplicate_entry_is_named(tmp_path: Path) -> None:
    text = edit_operator(ORIGINAL, "Q", "neither", "rank", '"K"')  # now two K/neither, no Q/neither
    report = checked(game_with(tmp_path, text))
    assert "operator K/neither is defined twice (entries 1 and 2)" in messages(report)
    assert "the operator table has no entry for Q/neither" in messages(report)
    second = report.errors[messages(report).index("operator K/neither is defined twice (entries 1 and 2)")]
    # the error points at the second [[operator]] header
    lines = (tmp_path / "rules.toml").read_text(encoding="utf-8").splitlines()
    headers = [i + 1 for i, line in enumerate(lines) if line == "[[operator]]"]
    assert second.line == headers[1]


def test_unknown_rank_and_relation(tmp_path: Path) -> None:
    text = edit_operator(ORIGINAL, "Q", "neither", "rank", '"X"')
    text = edit_operator(text, "J", "one", "relation", '"some"')
    errors = messages(checked(game_with(tmp_path, text)))
    assert any("entry 2 (X/neither) has unknown rank 'X'" in m for m in errors)
    assert any("entry 9 (J/some) has unknown relation 'some'" in m for m in errors)


def test_a_list_or_table_where_a_name_belongs_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """rank = [], relation = {} or aim = [] used to stop pnp check with 'unhashable type'."""
    text = edit_operator(ORIGINAL, "Q", "neither", "rank", "[]")
    text = edit_operator(text, "J", "one", "relation", "{}")
    text = text.replace('aim = "lowest-sum"', "aim = [1, 2]", 1)
    assert text.count("aim = [1, 2]") == 1
    errors = messages(checked(game_with(tmp_path, text)))
    assert any("entry 2 ([]/neither) has unknown rank []" in m for m in errors), errors
    assert any("entry 9 (J/{}) has unknown relation {}" in m for m in errors), errors
    assert any("aim [1, 2] is not one of" in m for m in errors), errors


def test_unknown_name_is_named_with_its_line(tmp_path: Path) -> None:
    game = game_with(tmp_path, edit_operator(ORIGINAL, "K", "both", "expression", '"a + c"'))
    report = checked(game)
    [error] = [d for d in report.errors if "K/both" in d.message]
    assert "unknown name 'c'" in error.message
    assert error.line == line_containing(tmp_path / "rules.toml", 'expression = "a + c"')


def test_on_off_only_in_relation_one(tmp_path: Path) -> None:
    report = checked(game_with(tmp_path, edit_operator(ORIGINAL, "Q", "neither", "expression", '"max(on, off)"')))
    [error] = [d for d in report.errors if "Q/neither" in d.message]
    assert "unknown name 'on'" in error.message
    assert error.fix and "relation 'one'" in error.fix


def test_disallowed_syntax_is_named(tmp_path: Path) -> None:
    report = checked(game_with(tmp_path, edit_operator(ORIGINAL, "K", "both", "expression", '"a ** b"')))
    assert any("K/both" in m and "'**'" in m for m in messages(report))


def test_division_by_zero_names_entry_and_values(tmp_path: Path) -> None:
    game = game_with(tmp_path, edit_operator(ORIGINAL, "K", "neither", "expression", '"a / (a - b)"'))
    report = checked(game)
    [error] = [d for d in report.errors if "K/neither" in d.message]
    # first pair tried is a=1, b=1, where a - b = 0
    assert error.message.startswith("operator K/neither divides by zero for a=1, b=1")
    assert "'a - b' is 0" in error.message
    assert error.line == line_containing(tmp_path / "rules.toml", 'expression = "a / (a - b)"')


def test_modulo_by_zero_in_relation_one(tmp_path: Path) -> None:
    game = game_with(tmp_path, edit_operator(ORIGINAL, "Q", "one", "expression", '"off % (on - off)"'))
    errors = messages(checked(game))
    # a=1, b=1: on=1, off=1 -> on - off = 0
    assert any(m.startswith("operator Q/one divides by zero for on=1, off=1") and "modulo" in m for m in errors)


def test_missing_footnote_mark_is_explained(tmp_path: Path) -> None:
    game = game_with(tmp_path, edit_operator(ORIGINAL, "K", "neither", "may_be_fractional_or_negative", "false"))
    report = checked(game)
    [error] = [d for d in report.errors if "K/neither" in d.message]
    assert error.message == "K/neither can give 3/2 (a=1, b=2) but is not marked"
    assert error.line == line_containing(tmp_path / "rules.toml", "may_be_fractional_or_negative = false",
                                         after='expression = "(a + b) / 2"')


def test_negative_value_without_mark(tmp_path: Path) -> None:
    game = game_with(tmp_path, edit_operator(ORIGINAL, "K", "one", "may_be_fractional_or_negative", "false"))
    # on=2, off=1 (a=1, b=2, b on-colour): 1 - 2 = -1
    assert "K/one can give -1 (on=2, off=1) but is not marked" in messages(checked(game))


def test_needless_footnote_mark_is_explained(tmp_path: Path) -> None:
    game = game_with(tmp_path, edit_operator(ORIGINAL, "Q", "one", "may_be_fractional_or_negative", "true"))
    errors = [m for m in messages(checked(game)) if "Q/one" in m]
    assert errors == ["Q/one is marked may_be_fractional_or_negative, but for every pair of numbers 1-10 it "
                      "gives whole numbers from 0 to 9"]


def test_seed_mark_disagreement_is_a_note(tmp_path: Path) -> None:
    report = checked(game_with(tmp_path, edit_operator(ORIGINAL, "Q", "one", "seed_mark", "true")))
    assert report.errors == []
    assert any("seed erratum" in m and "Q/one" in m for m in messages(report, "notes"))


def test_missing_wording_is_named(tmp_path: Path) -> None:
    text = edit_operator(ORIGINAL, "J", "both", "text.ja", '""')
    assert "operator J/both has no ja wording (text.ja)" in messages(checked(game_with(tmp_path, text)))


def test_goal_table_must_be_complete(tmp_path: Path) -> None:
    text = ORIGINAL.replace('parity = "odd"\ncolour = "black"', 'parity = "odd"\ncolour = "red"')
    errors = messages(checked(game_with(tmp_path, text)))
    assert "goal odd/red is defined twice (entries 3 and 4)" in errors
    assert "the goal table has no entry for odd/black" in errors


def test_goal_aim_must_be_known(tmp_path: Path) -> None:
    text = ORIGINAL.replace('aim = "highest-sum"', 'aim = "biggest"')
    assert any("aim 'biggest'" in m for m in messages(checked(game_with(tmp_path, text))))


# ---------------------------------------------------------------------------
# Deck, goal pool and player count


def test_too_many_players_in_manifest() -> None:
    report = checked(make_game(players=(2, 7)))
    [error] = report.errors
    # (40 - 1) // 6 = 6 and 12 // 2 = 6
    assert "up to 7 players" in error.message and "at most 6" in error.message


def test_fewer_players_than_possible_is_a_warning() -> None:
    report = checked(make_game(players=(2, 5)))
    assert report.errors == []
    assert any("serves 6" in m for m in messages(report, "warnings"))


def test_more_numbers_dealt_lowers_the_limit(tmp_path: Path) -> None:
    text = ORIGINAL.replace("numbers_dealt = 6", "numbers_dealt = 7")
    # (40 - 1) // 7 = 5 < 6 players in the manifest
    errors = messages(checked(game_with(tmp_path, text)))
    assert any("up to 6 players" in m and "at most 5" in m for m in errors)


def test_goal_pool_must_not_hold_courts() -> None:
    deck = make_deck({"KH": {"kind": "pip"}})
    errors = messages(checked(make_game(deck=deck)))
    assert any("goal pool" in m and "KH" in m for m in errors)
    assert any("card 'KH': number card with rank 13 (numbers run 1-10)" in m for m in errors)


def test_goal_must_be_drawn_from_numbers(tmp_path: Path) -> None:
    text = ORIGINAL.replace('goal_kind = "pip"', 'goal_kind = "court"')
    assert any("goal must be a number card" in m for m in messages(checked(game_with(tmp_path, text))))


# ---------------------------------------------------------------------------
# Solver: hands solved by hand


def solved(tables, numbers: str, operators: str, goal: str):  # noqa: ANN001, ANN201
    return solve(tables, [parse_card(c) for c in numbers.split()], [parse_card(c) for c in operators.split()],
                 parse_card(goal))


def test_highest_sum_with_two_discards(tables) -> None:  # noqa: ANN001
    # Goal 6C: even black -> highest sum. KS(10S,9C) = 19 (both black: sum);
    # QC then has one black at most: QC(8S,3D) = 3 % 8 = 3 or QC(2H,3D) = max 3.
    # 19 + 3 = 22. Q taking two blacks gives <= 15 + 5/2.
    solution = solved(tables, "10S 9C 8S 2H 3D", "KS QC", "6C")
    assert solution.aim == "highest-sum"
    assert solution.value == 22
    assert sorted(a.discard[0].id for a in solution.ties) == ["2H", "8S"]
    king = next(op for op in solution.operations if op.operator.id == "KS")
    assert {king.left.id, king.right.id} == {"10S", "9C"} and king.value == 19


def test_lowest_sum(tables) -> None:  # noqa: ANN001
    # Goal 6H: even red -> lowest sum. KD one-colour: black - red.
    # KD(AS,10H) = 1 - 10 = -9, JH(2S,4C) = min 2 -> -7
    # KD(2S,10H) = 2 - 10 = -8, JH(AS,4C) = min 1 -> -7
    solution = solved(tables, "AS 2S 10H 9D 4C", "JH KD", "6H")
    assert solution.value == -7
    assert len(solution.ties) == 2
    assert {a.discard[0].id for a in solution.ties} == {"9D"}


def test_most_difference_is_fractional(tables) -> None:  # noqa: ANN001
    # Goal 5C: odd black -> most |difference|. KC(10D,9H) neither: 19/2;
    # JS(AS,3C) both black: 1 - 5 = -4. 19/2 + 4 = 27/2, set aside 6H.
    solution = solved(tables, "10D 9H AS 3C 6H", "KC JS", "5C")
    assert solution.value == Fraction(27, 2)
    assert len(solution.ties) == 1
    assert solution.discard[0].id == "6H"
    values = sorted(op.value for op in solution.operations)
    assert values == [-4, Fraction(19, 2)]


def test_least_difference_reaches_zero(tables) -> None:  # noqa: ANN001
    # Goal 9H: odd red -> least |difference|. KS(4H,2D) = (4+2)/2 = 3; JD(3H,6S) = on-colour 3.
    solution = solved(tables, "4H 6S 9C 2D 3H", "KS JD", "9H")
    assert solution.value == 0
    assert all(a.operations[0].value == a.operations[1].value for a in solution.ties)


def test_least_difference_all_neither(tables) -> None:  # noqa: ANN001
    # Goal AH: odd (Ace = 1) red -> least |difference|.
    # Numbers all black: 2S 4S 6C 8C 10S; operators KH, QH (both red) -> always "neither".
    # KH(2S,10S) = (2 + 10) / 2 = 6 and QH(4S,6C) = max 6 -> |6 - 6| = 0.
    solution = solved(tables, "2S 4S 6C 8C 10S", "KH QH", "AH")
    assert solution.aim == "least-abs-difference"
    assert solution.value == 0


def test_least_difference_cannot_reach_zero(tables) -> None:  # noqa: ANN001
    # Goal 3D: odd red -> least |difference|. Numbers all black: AS 2S 4C 8C 10S;
    # KH and JH red -> always "neither": KH averages, JH takes the minimum.
    # KH pairs: (1,2)=3/2 (1,4)=5/2 (1,8)=9/2 (1,10)=11/2 (2,4)=3 (2,8)=5 (2,10)=6
    #           (4,8)=6 (4,10)=7 (8,10)=9
    # JH from the other three: with the Ace left it gives 1, else the smaller number.
    # Whole KH values 3, 5, 6, 6, 7, 9 never meet a JH value (1, 2 or 4 there): no 0.
    # Best 1/2: KH(AS,4C)=5/2 with JH(2S,8C)=2 (set aside 10S) or JH(2S,10S)=2 (set aside 8C);
    #           KH(AS,8C)=9/2 with JH(4C,10S)=4 (set aside 2S).
    solution = solved(tables, "AS 2S 4C 8C 10S", "KH JH", "3D")
    assert solution.value == Fraction(1, 2)
    assert sorted(a.discard[0].id for a in solution.ties) == ["10S", "2S", "8C"]


def test_solver_rejects_bad_hands(tables) -> None:  # noqa: ANN001
    with pytest.raises(CardError, match="appears twice"):
        solved(tables, "7H 7H 2S 3S 4S", "KH QS", "6C")
    with pytest.raises(CardError, match="court card"):
        solved(tables, "KH 2S 3S 4S 5S", "JH QS", "6C")
    with pytest.raises(CardError, match="exactly 2 operator"):
        solved(tables, "2S 3S 4S 5S 6S", "KH", "6C")
    with pytest.raises(CardError, match="goal card"):
        solved(tables, "2S 3S 4S 5S 6S", "KH QS", "JC")


# ---------------------------------------------------------------------------
# Examples file


def _same(stated: object, computed: object) -> bool:
    if isinstance(stated, str) and isinstance(computed, Fraction):
        return Fraction(stated) == computed
    return stated == computed


def load_examples() -> list[Example]:
    data = tomllib.loads(EXAMPLES_TOML.read_text(encoding="utf-8"))
    return [Example(id=e["id"], kind=e["kind"], inputs=e["inputs"], expect=e["expect"]) for e in data["example"]]


@pytest.mark.parametrize("example", load_examples(), ids=lambda e: e.id)
def test_examples_recompute(game: Game, example: Example) -> None:
    computed = RULES.run_example(game, example)
    for key, stated in example.expect.items():
        assert _same(stated, computed[key]), f"{key}: stated {stated!r}, computed {computed[key]!r}"


def test_examples_cover_every_operator_rule() -> None:
    operations = [e for e in load_examples() if e.kind == "operation"]
    assert {(e.inputs["operator"][0], e.expect["relation"]) for e in operations} == {
        (rank, relation) for rank in "KQJ" for relation in ("neither", "both", "one")}
    assert len([e for e in load_examples() if e.kind == "solve"]) >= 3


@pytest.mark.parametrize(
    ("inputs", "problem"),
    [
        ({"operator": "KH", "numbers": ["11H", "2S"]}, "'11H' is not a card id"),
        ({"operator": "2H", "numbers": ["3H", "2S"]}, "one court card"),
        ({"operator": "KH", "numbers": ["3H"]}, "two number cards"),
    ],
)
def test_bad_example_inputs(game: Game, inputs: dict[str, object], problem: str) -> None:
    with pytest.raises(ExampleError, match=re.escape(problem)):
        RULES.run_example(game, Example(id="x", kind="operation", inputs=inputs, expect={}))


def test_example_card_must_be_in_the_deck() -> None:
    deck = tuple(card for card in make_deck() if card.id != "7H")
    game = make_game(deck=deck)
    with pytest.raises(ExampleError, match="'7H' is not a card"):
        RULES.run_example(game, Example(id="x", kind="operation", inputs={"operator": "KS", "numbers": ["7H", "2S"]},
                                        expect={}))


def test_examples_and_the_solver_refuse_a_rules_file_with_errors(tmp_path: Path) -> None:
    """A king whose rank is not a number is dropped from the operator table when read; an example
    or a solve must say the file is unusable, not answer from the table that is left."""
    broken = game_with(tmp_path, RULES_TOML.read_text(encoding="utf-8").replace("value = 13", 'value = "K"', 1))
    example = Example(id="x", kind="operation", inputs={"operator": "QH", "numbers": ["7H", "2S"]}, expect={})
    assert RULES.run_example(make_game(), example)  # the same example runs on the shipped table
    with pytest.raises(ExampleError, match="rules.toml is unusable: rank K needs a whole-number value"):
        RULES.run_example(broken, example)
    with pytest.raises(ExampleError, match="rules.toml is unusable"):
        RULES.solve(broken, ["7H", "3S", "10D", "AS", "5C", "QD", "QS", "--goal", "4H"], "en")


# ---------------------------------------------------------------------------
# Aids, card texts, context


def test_operator_aid_in_english(game: Game) -> None:
    operators, goals = RULES.aid_tables(game, "en")
    assert [row[0] for row in operators.rows] == ["K", "Q", "J"]
    assert operators.header[1:] == ["neither matches", "both match", "one matches"]
    marked = {(row[0], col) for row in operators.rows for col, cell in zip(("neither", "both", "one"), row[1:],
                                                                         strict=True) if cell.endswith(" *")}
    assert marked == {("K", "neither"), ("J", "both"), ("K", "one")}
    assert operators.rows[0][1] == "average (half the sum) *"
    assert operators.notes[0].startswith("* ")
    assert goals.header[1:] == ["red", "black"]
    assert goals.rows[0] == ["even", "lowest sum of both operations", "highest sum of both operations"]


def test_aids_in_japanese(game: Game) -> None:
    operators, goals = RULES.aid_tables(game, "ja")
    assert operators.rows[0][1] == "平均（和の半分）*"
    assert goals.header[1:] == ["赤", "黒"]
    assert goals.rows[1][0] == "奇数"


def test_court_cards_print_three_functions(game: Game) -> None:
    texts = RULES.card_texts(game, "en")
    assert len(texts) == 12 and "7H" not in texts
    assert {k: v for k, v in texts["QD"].items() if not k.endswith("_label")} == {
        "neither": "the greater number", "both": "the greater number + 5",
        "one": "remainder of off-colour ÷ on-colour"}
    # the labels are the operator table's column headers, so cards and aid agree
    assert texts["QD"]["neither_label"] == "neither matches"
    assert texts["QD"]["one_label"] == "one matches"
    assert RULES.card_texts(game, "ja")["JS"]["one"] == "同色の数（色違いは無視）"


def test_context_numbers(game: Game) -> None:
    context = RULES.context(game, "en")
    expected = {"pips": 40, "dealt": 6, "kept": 5, "discarded": 1, "used": 4, "operators": 12,
                "operators_each": 2, "max_players": 6, "goal_cards": 1}
    assert {key: context[key] for key in expected} == expected


def test_missing_rules_file_is_reported(game: Game, tmp_path: Path) -> None:
    bare = Game(**{**game.__dict__, "rules_data": None, "path": tmp_path})  # a folder with no rules.toml
    report = checked(bare)
    assert any("rules.toml" in m for m in messages(report))


def test_shipped_game_folder_checks_clean() -> None:
    """End to end through the project's loader and example comparison."""
    validate = pytest.importorskip("pnp.validate")
    result = validate.check_folder(GAME_DIR)
    assert [d.format() for d in result.report.errors] == []
    assert result.examples and set(result.examples.values()) == {"ok"}

"""Take Over That Job rules: strength, the defensive stance, bonuses, checks, aids.

Expected results come from the seed's examples or from hand play-through
(noted in comments), never from the module's own output.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from pnp.diagnostics import Report
from pnp.load.toml_lines import load_toml
from pnp.model.game import Card, Component, Example, Game, Term
from pnp.rules.base import ExampleError
from pnp.rules.take_over import (
    RULES,
    SEED_LADDERS,
    BonusError,
    BonusState,
    Ladder,
    Ladders,
    NumberCard,
    StanceError,
    StrengthContext,
    apply_bonus,
    compare,
    legal_plays,
    parse_number_card,
    play_trick,
    stance_gaps,
    stronger,
)

GAME_DIR = Path(__file__).resolve().parents[1] / "data" / "take-over-that-job"
RULES_TOML = GAME_DIR / "rules.toml"
ORIGINAL = RULES_TOML.read_text(encoding="utf-8")
COLOURS = ("green", "blue", "purple", "red")
ANIMALS = ("cat", "dog", "rabbit", "bear")

# ---------------------------------------------------------------------------
# Building games by hand


def number_cards(skip: str | None = None, extra: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    cards = tuple(Card(id=f"{c}-{n}", component="numbers", count=1, kind="number", colour=c, rank=n)
                  for c in COLOURS for n in range(1, 15) if f"{c}-{n}" != skip)
    return cards + extra


def goal_cards(skip: str | None = None) -> tuple[Card, ...]:
    return tuple(Card(id=f"goal-{a}-{n}", component="goals", count=1, kind="goal", rank=n, fields={"animal": a})
                 for a in ANIMALS for n in range(2, 6) if f"goal-{a}-{n}" != skip)


def marker_cards(colours: tuple[str, ...] = COLOURS) -> tuple[Card, ...]:
    return tuple(Card(id=f"marker-{c}", component="markers", count=1, kind="marker", colour=c) for c in colours)


def make_game(rules_path: Path = RULES_TOML, players: tuple[int, int] = (4, 4),
              numbers: tuple[Card, ...] | None = None, goals: tuple[Card, ...] | None = None,
              markers: tuple[Card, ...] | None = None) -> Game:
    parts = {"numbers": numbers if numbers is not None else number_cards(),
             "goals": goals if goals is not None else goal_cards(),
             "markers": markers if markers is not None else marker_cards()}
    components = {cid: Component(id=cid, kind="cards", names={"en": cid}, count=len(cards), size=None, cards=cards)
                  for cid, cards in parts.items()}
    # the vocabularies the cards name, declared as game.toml declares them (a card naming an undeclared
    # colour is the vocabulary check's error, and the rules' checks leave its component alone)
    colours = {colour: Term(colour, {"en": colour}) for colour in COLOURS}
    kinds = {kind: Term(kind, {"en": kind}) for kind in ("number", "goal", "marker")}
    return Game(id="take-over-that-job", path=GAME_DIR, titles={"ja": "代われそのジョブ"}, source_language="ja",
                languages=("ja", "en"), players=players, credits={}, terms={}, colours=colours, suits={}, kinds=kinds,
                components=components, setup={}, rules="take_over", rules_data=load_toml(rules_path))


def game_with(tmp_path: Path, text: str, **kwargs: object) -> Game:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return make_game(path, **kwargs)  # type: ignore[arg-type]


def checked(game: Game) -> Report:
    report = Report()
    RULES.check(game, report)
    return report


def errors_of(game: Game) -> list[str]:
    return [d.message for d in checked(game).errors]


def card(text: str) -> NumberCard:
    return parse_number_card(text, COLOURS)


def cards(*texts: str) -> list[NumberCard]:
    return [card(t) for t in texts]


@pytest.fixture(scope="module")
def game() -> Game:
    return make_game()


# ---------------------------------------------------------------------------
# Strength


def test_parse_number_card() -> None:
    assert card("Green-5") == NumberCard("green-5", "green", 5)
    with pytest.raises(ValueError, match="'orange-3' is not a number card id"):
        card("orange-3")
    with pytest.raises(ValueError, match="green-x"):
        card("green-x")


def test_lead_colour_beats_higher_off_colour() -> None:
    context = StrengthContext(lead="green")
    assert stronger(card("green-1"), card("blue-14"), context)
    assert not stronger(card("blue-14"), card("green-1"), context)
    assert stronger(card("green-5"), card("green-2"), context)
    assert not stronger(card("green-4"), card("green-5"), context)


def test_trump_beats_lead_colour() -> None:
    context = StrengthContext(lead="blue", trump="purple")
    assert stronger(card("purple-1"), card("blue-14"), context)
    assert not stronger(card("blue-14"), card("purple-1"), context)
    assert stronger(card("purple-6"), card("purple-1"), context)


def test_disadvantaged_lead_puts_normal_colours_on_top() -> None:
    context = StrengthContext(lead="blue", trump="green", disadvantaged="blue")
    # seed example 2: purple 5 beats blue 9, red 8 beats purple 5, blue 14 loses to red 8
    assert stronger(card("purple-5"), card("blue-9"), context)
    assert stronger(card("red-8"), card("purple-5"), context)
    assert not stronger(card("blue-14"), card("red-8"), context)
    # trump still beats every normal colour
    assert stronger(card("green-1"), card("red-14"), context)


def test_equal_normal_numbers_go_to_the_later_card() -> None:
    context = StrengthContext(lead="blue", trump="green", disadvantaged="blue")
    assert compare(card("red-5"), card("purple-5"), context) == 1  # red played later
    assert compare(card("purple-5"), card("red-5"), context) == 1  # purple played later
    assert compare(card("red-4"), card("purple-5"), context) == -1  # number first


def test_disadvantaged_colour_not_led_is_just_another_colour() -> None:
    # lead red (normal), disadvantaged blue: blue is "other", like any non-lead colour
    context = StrengthContext(lead="red", disadvantaged="blue")
    assert stronger(card("red-1"), card("blue-14"), context)
    assert compare(card("purple-14"), card("blue-2"), context) == 0  # neither can win


def test_legal_plays_follow_the_lead() -> None:
    hand = cards("green-3", "blue-7", "green-9")
    assert legal_plays(hand, "green") == tuple(cards("green-3", "green-9"))
    assert legal_plays(hand, "red") == tuple(hand)  # void in red: anything
    assert legal_plays(hand, None) == tuple(hand)  # the leader plays freely


# ---------------------------------------------------------------------------
# The defensive stance


def test_seed_example_1_step_by_step() -> None:
    result = play_trick(cards("green-2", "green-5", "blue-8", "green-4"))
    steps = result.steps
    assert [s.played_face_up for s in steps] == [True, True, False, False]
    assert steps[1].turned_down == card("green-2")  # Alice turns her 2 down
    assert [s.face_up.id for s in steps] == ["green-2", "green-5", "green-5", "green-5"]
    assert [c.id for c in steps[3].face_down] == ["green-2", "blue-8", "green-4"]
    assert result.winner == 1  # Bob


def test_seed_example_2() -> None:
    result = play_trick(cards("blue-9", "purple-5", "red-8", "blue-14"), trump="green", disadvantaged="blue")
    assert [s.turned_down.id if s.turned_down else None for s in result.steps] == [
        None, "blue-9", "purple-5", None]
    assert result.winner == 2  # Carrie


def test_seed_red_5_variant_goes_to_carrie() -> None:
    # purple 5 (Bob) then red 5 (Carrie): equal normal numbers, later card stronger
    result = play_trick(cards("blue-9", "purple-5", "red-5", "blue-14"), trump="green", disadvantaged="blue")
    assert result.steps[2].played_face_up and result.steps[2].turned_down == card("purple-5")
    assert result.winner == 2


def test_the_stance_invariant_holds_on_random_tricks() -> None:
    rng = random.Random(20240601)
    deck = [NumberCard(f"{c}-{n}", c, n) for c in COLOURS for n in range(1, 15)]
    roles = [None, *COLOURS]
    for _ in range(3000):
        trump, disadvantaged = rng.choice(roles), rng.choice(roles)
        if trump is not None and trump == disadvantaged:
            continue
        plays = rng.sample(deck, 4)
        result = play_trick(plays, trump, disadvantaged)
        # the winner must be the strongest: nobody after them beat them, and they beat the one before
        winner = plays[result.winner]
        context = StrengthContext(plays[0].colour, trump, disadvantaged)
        assert all(compare(later, winner, context) < 0 for later in plays[result.winner + 1:])
        assert all(len(s.face_down) == s.seat for s in result.steps)


def test_missing_tie_rule_breaks_the_stance() -> None:
    # Without "later wins on equal", purple 5 and red 5 would both stay face up.
    no_tie_rule = Ladders(SEED_LADDERS.lead_normal, Ladder(("trump", "normal", "disadvantaged")))
    with pytest.raises(StanceError, match="purple-5, red-5"):
        play_trick(cards("blue-9", "purple-5", "red-5"), "green", "blue", no_tie_rule)


def test_stance_gaps() -> None:
    assert stance_gaps(SEED_LADDERS, COLOURS) == []
    no_tie_rule = Ladders(SEED_LADDERS.lead_normal, Ladder(("trump", "normal", "disadvantaged")))
    gaps = stance_gaps(no_tie_rule, COLOURS)
    assert gaps and "tier 'normal'" in gaps[0]


def test_trump_and_disadvantaged_must_differ() -> None:
    with pytest.raises(ValueError, match="both trump and disadvantaged"):
        play_trick(cards("red-1", "red-2"), trump="red", disadvantaged="red")


# ---------------------------------------------------------------------------
# Bonuses


@pytest.fixture(scope="module")
def bonuses(game: Game):  # noqa: ANN201 - fixture
    tables = RULES.tables(game)
    assert tables is not None
    return tables.bonuses


def take(bonuses, *choices: tuple[str, str | None]) -> BonusState:  # noqa: ANN001
    state = BonusState()
    for bonus_id, colour in choices:
        state = apply_bonus(state, bonuses[bonus_id], colour, COLOURS, 3)
    return state


def test_bonus_sequence(bonuses) -> None:  # noqa: ANN001
    state = take(bonuses, ("A", "green"), ("C", None), ("B", "blue"))
    assert (state.trump, state.disadvantaged, state.taken) == ("green", "blue", ("A", "C", "B"))


@pytest.mark.parametrize(
    ("choices", "problem"),
    [
        ((("B", "red"), ("A", "red")), "red is already disadvantaged"),
        ((("A", "red"), ("B", "red")), "red is already trump"),
        ((("C", None), ("C", None)), "already taken"),
        ((("A", None),), "needs a colour"),
        ((("A", "orange"),), "needs a colour"),
        ((("C", "green"),), "takes no colour"),
    ],
)
def test_illegal_bonus_choices(bonuses, choices: tuple[tuple[str, str | None], ...], problem: str) -> None:  # noqa: ANN001
    with pytest.raises(BonusError, match=problem):
        take(bonuses, *choices)


def test_no_fourth_bonus(bonuses) -> None:  # noqa: ANN001
    state = take(bonuses, ("A", "green"), ("B", "blue"), ("C", None))
    with pytest.raises(BonusError, match="only 3 bonuses"):
        apply_bonus(state, bonuses["A"], "red", COLOURS, 3)


# ---------------------------------------------------------------------------
# Checks on the shipped and broken data


def test_shipped_rules_pass_with_provisional_notes(game: Game) -> None:
    report = checked(game)
    assert report.errors == [] and report.warnings == []
    notes = " ".join(d.message for d in report.notes)
    assert "two-sided colour markers" in notes and "provisional" in notes
    assert "Japanese terms" in notes


def test_missing_number_card() -> None:
    errors = errors_of(make_game(numbers=number_cards(skip="purple-7")))
    assert "55 number cards, but 4 colours x numbers 1-14 make 56" in errors
    assert "number card purple 7 appears 0 times; every colour and number exactly once" in errors


def test_a_card_list_cut_short_is_one_error_for_its_missing_cards() -> None:
    """Every missing number card was an error of its own: 56 for an empty list."""
    kept = tuple(c for c in number_cards() if c.colour == "green")
    errors = errors_of(make_game(numbers=kept))
    missing = [e for e in errors if "every colour and number exactly once" in e]
    assert len(missing) == 1, errors
    assert missing[0].startswith("number card blue 1, blue 2, blue 3") and "and 34 more appear 0 times" in missing[0]


def test_number_card_outside_the_grid() -> None:
    extra = (Card(id="red-15", component="numbers", count=1, kind="number", colour="red", rank=15),)
    errors = errors_of(make_game(numbers=number_cards(skip="red-14", extra=extra)))
    assert any("red 15 is outside" in m for m in errors)


def test_players_must_be_exactly_four() -> None:
    assert any("exactly 4" in m for m in errors_of(make_game(players=(3, 4))))


def test_hand_size_must_deal_every_card(tmp_path: Path) -> None:
    text = ORIGINAL.replace("hand_size = 14", "hand_size = 13")
    errors = errors_of(game_with(tmp_path, text))
    assert any("4 players x 13 cards = 52, but there are 56" in m for m in errors)
    assert any("14 tricks per round, but a hand of 13 cards" in m for m in errors)


def test_rounds_follow_goal_numbers(tmp_path: Path) -> None:
    text = ORIGINAL.replace("rounds = 4", "rounds = 5")
    errors = errors_of(game_with(tmp_path, text))
    assert any("5 rounds, but each hand aims once at each of 4 goal numbers" in m for m in errors)
    # 5 rounds would mean 4 bonus phases for 3 bonuses
    assert any("3 bonuses, but 4 bonus phases" in m for m in errors)


def test_goal_cards_complete() -> None:
    errors = errors_of(make_game(goals=goal_cards(skip="goal-bear-4")))
    assert any("15 goal cards, but 4 players x goals 2, 3, 4, 5 make 16" in m for m in errors)
    assert any("goal cards of bear carry [2, 3, 5]" in m for m in errors)


def test_each_bonus_effect_once(tmp_path: Path) -> None:
    text = ORIGINAL.replace('effect = "exchange"', 'effect = "trump"')
    errors = errors_of(game_with(tmp_path, text))
    assert "2 bonuses with effect 'trump'; expected exactly 1" in errors
    assert "0 bonuses with effect 'exchange'; expected exactly 1" in errors


def test_markers_one_per_colour() -> None:
    errors = errors_of(make_game(markers=marker_cards(("green", "blue", "red"))))
    assert any("marker cards cover colours" in m for m in errors)


def test_ladder_without_tie_rule_is_refused(tmp_path: Path) -> None:
    text = ORIGINAL.replace('later_wins_on_equal = ["normal"]', "later_wins_on_equal = []")
    report = checked(game_with(tmp_path, text))
    [error] = [d for d in report.errors if "face up" in d.message]
    assert "tier 'normal' holds" in error.message


def test_unknown_tier_is_named(tmp_path: Path) -> None:
    text = ORIGINAL.replace('tiers = ["trump", "lead", "other"]', 'tiers = ["trump", "leader", "other"]')
    assert any("ladder lead_normal: unknown leader" in m for m in errors_of(game_with(tmp_path, text)))


def test_missing_wording(tmp_path: Path) -> None:
    text = ORIGINAL.replace('text.ja = "手札を交換したい。"\n', "")
    assert "phrase want-exchange has no ja wording (text.ja)" in errors_of(game_with(tmp_path, text))


# ---------------------------------------------------------------------------
# Examples


def load_examples() -> list[Example]:
    data = tomllib.loads((GAME_DIR / "examples.toml").read_text(encoding="utf-8"))
    return [Example(id=e["id"], kind=e["kind"], inputs=e["inputs"], expect=e["expect"]) for e in data["example"]]


@pytest.mark.parametrize("example", load_examples(), ids=lambda e: e.id)
def test_examples_recompute(game: Game, example: Example) -> None:
    computed = RULES.run_example(game, example)
    for key, stated in example.expect.items():
        assert computed[key] == stated, f"{key}: stated {stated!r}, computed {computed[key]!r}"


def test_seed_examples_are_present() -> None:
    winners = {e.id: e.expect["winner"] for e in load_examples() if e.kind == "trick"}
    assert winners["seed-example-1"] == "Bob"
    assert winners["seed-example-2"] == "Carrie"
    assert winners["seed-example-2-red-5"] == "Carrie"
    assert len(winners) >= 5


def run(game: Game, kind: str, inputs: dict[str, object]) -> dict[str, object]:
    return dict(RULES.run_example(game, Example(id="x", kind=kind, inputs=inputs, expect={})))


def test_trick_example_checks_follow_suit(game: Game) -> None:
    inputs = {"players": ["A", "B", "C", "D"], "plays": ["red-3", "green-9", "red-5", "red-7"],
              "hands": [["red-3"], ["green-9", "red-1"], ["red-5"], ["red-7"]]}
    with pytest.raises(ExampleError, match="B must follow red: green-9"):
        run(game, "trick", inputs)


def test_trick_example_rejects_unknown_cards(game: Game) -> None:
    with pytest.raises(ExampleError, match="not a number card id"):
        run(game, "trick", {"players": ["A"], "plays": ["pink-3"]})
    with pytest.raises(ExampleError, match="'red-15' is not a card"):
        run(game, "trick", {"players": ["A"], "plays": ["red-15"]})
    with pytest.raises(ExampleError, match="same length"):
        run(game, "trick", {"players": ["A", "B"], "plays": ["red-1"]})


def test_bonus_example_reports_the_rejected_step(game: Game) -> None:
    result = run(game, "bonus", {"sequence": [{"bonus": "A", "colour": "blue"}, {"bonus": "B", "colour": "blue"}]})
    assert (result["valid"], result["rejected_step"], result["trump"]) == (False, 2, "blue")


# ---------------------------------------------------------------------------
# Aids and context


def test_aids_in_japanese(game: Game) -> None:
    normal, disadvantaged, bonuses, phrases = RULES.aid_tables(game, "ja")
    assert [row[1] for row in normal.rows] == ["切札 14 → 1", "リード色 14 → 1", "それ以外のカード（勝てない）"]
    assert disadvantaged.rows[2][1] == "不利色 14 → 1"
    assert disadvantaged.notes == ["通常色どうしで数が同じなら、後から出したカードの方が強い。"]
    assert [row[0] for row in bonuses.rows] == ["A", "B", "C"]
    assert bonuses.rows[0][1] == "切札決め"
    assert len(phrases.rows) == 6


def test_aids_in_english(game: Game) -> None:
    _, _, bonuses, phrases = RULES.aid_tables(game, "en")
    assert bonuses.rows[2][1] == "Exchange hands"
    assert phrases.rows[0] == ["I want to decide trump."]


def test_context_numbers(game: Game) -> None:
    context = RULES.context(game, "en")
    expected = {"players": 4, "rounds": 4, "tricks_per_round": 14, "hand_size": 14, "number_cards": 56,
                "goal_cards": 16, "goal_min": 2, "goal_max": 5, "bonuses": 3, "bonus_phases": 3}
    assert {key: context[key] for key in expected} == expected


def test_shipped_game_folder_checks_clean() -> None:
    """End to end through the project's loader and example comparison."""
    validate = pytest.importorskip("pnp.validate")
    result = validate.check_folder(GAME_DIR)
    assert [d.format() for d in result.report.errors] == []
    assert result.examples and set(result.examples.values()) == {"ok"}


def test_number_bounds_of_the_wrong_kind_are_errors_not_a_traceback(tmp_path: Path) -> None:
    """numbers.min = "x" used to stop pnp check with int()'s ValueError."""
    text = ORIGINAL.replace("min = 1\n", 'min = "x"\n', 1).replace("max = 14\n", "max = [14]\n", 1)
    errors = errors_of(game_with(tmp_path, text))
    assert "numbers.min must be a whole number, got 'x'" in errors
    assert "numbers.max must be a whole number, got [14]" in errors


def test_an_aid_header_that_is_no_list_is_an_error_at_its_line(tmp_path: Path) -> None:
    """header.en = true used to fail while the aid was built ('bool' object is not iterable)."""
    text = ORIGINAL.replace('header.en = ["phrase"]', "header.en = true", 1)
    assert text != ORIGINAL
    game = game_with(tmp_path, text)
    assert "aid.phrases.header: expected a list of texts per language, found True" in errors_of(game)
    assert [table.id for table in RULES.aid_tables(game, "en")]  # built all the same

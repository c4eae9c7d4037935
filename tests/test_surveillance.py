"""The surveillance condition language: parsing, meaning, feasibility and texts.

Expected trees, truth values and bounds are worked out by hand from the
grammar in pnp/rules/surveillance/ (its docstring) and the seed's rules, never read back
from the code.
"""

from __future__ import annotations

import pytest

from pnp.rules import surveillance
from pnp.rules.surveillance import (
    Activation,
    AllOf,
    AnyOf,
    Compare,
    ConditionError,
    PlayedCard,
    PlayerView,
    Selector,
    Table,
    TrickContains,
    TrickTotal,
    WinnerPlayed,
    Won,
    WonCount,
    WonSum,
    can_fire,
    colours_named,
    describe_activation,
    describe_removal,
    holds,
    parse_activation,
    parse_removal,
    tokenize,
)

COLOURS = ("yellow", "blue", "red", "green", "purple", "black")
JA_COLOURS = {"yellow": "黄", "blue": "青", "red": "赤", "green": "緑", "purple": "紫", "black": "黒"}


def cards(*specs: str) -> list[PlayedCard]:
    """"red-3" -> PlayedCard("red", 3)."""
    result = []
    for spec in specs:
        colour, number = spec.rsplit("-", 1)
        result.append(PlayedCard(colour, int(number)))
    return result


def deck(colours: tuple[str, ...]) -> list[PlayedCard]:
    return [PlayedCard(colour, number) for colour in colours for number in range(1, 11)]


# ----------------------------------------------------------------- parsing


@pytest.mark.parametrize(("text", "tree"), [
    ("won(red) >= 3", Compare(Won(Selector("colour", "red")), ">=", 3)),
    ("won(trump) >= 2", Compare(Won(Selector("trump")), ">=", 2)),
    ("won(number=7) >= 2", Compare(Won(Selector("number", 7)), ">=", 2)),
    ("won( number = 7 )>=2", Compare(Won(Selector("number", 7)), ">=", 2)),
    ("sum(won) >= 40", Compare(WonSum(), ">=", 40)),
    ("count(won) < 12", Compare(WonCount(), "<", 12)),
    ("trick.total == 30", Compare(TrickTotal(), "==", 30)),
    ("trick.contains(1)", TrickContains(1)),
    ("winner.played(trump)", WinnerPlayed(Selector("trump"))),
    ("winner.played(blue)", WinnerPlayed(Selector("colour", "blue"))),
])
def test_each_term_parses_to_its_tree(text: str, tree: object) -> None:
    assert parse_removal(text, COLOURS) == tree


def test_and_binds_tighter_than_or() -> None:
    red = Compare(Won(Selector("colour", "red")), ">=", 5)
    blue = Compare(Won(Selector("colour", "blue")), ">=", 5)
    one = TrickContains(1)
    assert parse_removal("won(red) >= 5 or won(blue) >= 5 and trick.contains(1)", COLOURS) == \
        AnyOf((red, AllOf((blue, one))))
    assert parse_removal("(won(red) >= 5 or won(blue) >= 5) and trick.contains(1)", COLOURS) == \
        AllOf((AnyOf((red, blue)), one))


@pytest.mark.parametrize(("text", "activation"), [
    ("every trick", Activation("every", 1, None)),
    ("trick 8", Activation("trick", 8, 8)),
    ("tricks 1-7", Activation("range", 1, 7)),
    ("tricks 1–7", Activation("range", 1, 7)),  # an en dash, as rulebooks print it
    ("from trick 5", Activation("from", 5, None)),
])
def test_activation_forms(text: str, activation: Activation) -> None:
    assert parse_activation(text) == activation


@pytest.mark.parametrize(("text", "message", "column"), [
    ("won(pink) >= 3", "unknown colour 'pink'", 5),
    ("won(red) >= ", "expected a number", 13),
    ("won(red) => 3", "expected a comparison", 10),
    ("glow(red) >= 3", "unknown term 'glow'", 1),
    ("won(red) >= 3 and", "ends too early", 18),
    ("won(red) >= 3 won(blue) >= 1", "unexpected 'won'", 15),
    ("(won(red) >= 3", "expected ')'", 15),
    ("won(red) >= 3; drop table", "unexpected character ';'", 14),
])
def test_removal_errors_name_the_problem_and_column(text: str, message: str, column: int) -> None:
    with pytest.raises(ConditionError) as caught:
        parse_removal(text, COLOURS)
    assert message in str(caught.value)
    assert caught.value.column == column


def test_python_is_not_evaluated() -> None:
    with pytest.raises(ConditionError):
        parse_removal("__import__('os').system('true')", COLOURS)
    with pytest.raises(ConditionError):
        parse_removal("", COLOURS)


@pytest.mark.parametrize(("text", "message"), [
    ("tricks 5-3", "empty"),
    ("trick 0", "start at 1"),
    ("every", "expected 'trick'"),
    ("sometimes", "unknown activation"),
    ("trick eight", "expected a number"),
])
def test_activation_errors(text: str, message: str) -> None:
    with pytest.raises(ConditionError, match=message):
        parse_activation(text)


def test_hyphenated_colour_ids_are_one_word() -> None:
    tokens = tokenize("won(dark-blue) >= 1")
    assert [t.text for t in tokens] == ["won", "(", "dark-blue", ")", ">=", "1", "end of text"]
    assert parse_removal("won(dark-blue) >= 1", ["dark-blue"]) == Compare(Won(Selector("colour", "dark-blue")), ">=", 1)


# ----------------------------------------------------------------- meaning


def test_counts_on_the_won_pile() -> None:
    pile = cards("red-3", "red-7", "blue-7", "yellow-10")
    view = PlayerView(won=pile, trump="blue")
    assert holds(parse_removal("won(red) >= 2", COLOURS), view)
    assert not holds(parse_removal("won(red) >= 3", COLOURS), view)
    assert holds(parse_removal("won(trump) == 1", COLOURS), view)  # one blue card
    assert holds(parse_removal("won(number=7) >= 2", COLOURS), view)
    assert holds(parse_removal("count(won) >= 4", COLOURS), view)
    assert holds(parse_removal("sum(won) == 27", COLOURS), view)  # 3 + 7 + 7 + 10
    assert not holds(parse_removal("sum(won) > 27", COLOURS), view)


def test_trick_terms_concern_only_the_winner() -> None:
    trick = cards("blue-1", "blue-10", "red-4")
    winner = PlayerView(won=trick, trump="yellow", took=trick, own_card=trick[1])
    bystander = PlayerView(won=[], trump="yellow", took=None, own_card=trick[0])
    for text in ("trick.contains(1)", "trick.total >= 15", "trick.total <= 15", "winner.played(blue)"):
        condition = parse_removal(text, COLOURS)
        assert holds(condition, winner), text
        assert not holds(condition, bystander), text  # even "<= 15" does not catch a bystander
    assert not holds(parse_removal("trick.total >= 16", COLOURS), winner)  # 1 + 10 + 4 = 15
    assert not holds(parse_removal("winner.played(trump)", COLOURS), winner)


def test_and_or_combine() -> None:
    pile = cards("red-1", "red-2", "red-3", "blue-4")
    view = PlayerView(won=pile, trump="red")
    assert holds(parse_removal("won(blue) >= 2 or won(red) >= 3", COLOURS), view)
    assert not holds(parse_removal("won(blue) >= 2 and won(red) >= 3", COLOURS), view)


def test_activation_window() -> None:
    tricks_1_7 = parse_activation("tricks 1-7")
    assert [n for n in range(1, 10) if tricks_1_7.active(n)] == [1, 2, 3, 4, 5, 6, 7]
    assert [n for n in range(1, 10) if parse_activation("from trick 5").active(n)] == [5, 6, 7, 8, 9]
    assert [n for n in range(1, 10) if parse_activation("trick 8").active(n)] == [8]


# ----------------------------------------------------------------- the 6-player shift


@pytest.mark.parametrize(("text", "shifted"), [
    ("trick 8", Activation("trick", 7, 7)),        # the seed: "Trick 8" becomes "Trick 7"
    ("tricks 1-7", Activation("range", 1, 6)),     # the seed: "Tricks 1-7" becomes "Tricks 1-6"
    ("trick 1", Activation("trick", 1, 1)),        # N >= 2 only
    ("from trick 5", Activation("from", 4, None)),
    ("every trick", Activation("every", 1, None)),
])
def test_six_player_shift(text: str, shifted: Activation) -> None:
    assert parse_activation(text).shifted(1, 2) == shifted


# ----------------------------------------------------------------- feasibility


def test_colour_count_is_bounded_by_the_cards_of_that_colour() -> None:
    table = Table(players=3, in_play=deck(COLOURS[:4]), tricks_played=9)
    assert can_fire(parse_removal("won(red) >= 10", COLOURS), table)
    assert not can_fire(parse_removal("won(red) >= 11", COLOURS), table)  # only 10 red cards exist
    assert not can_fire(parse_removal("won(black) >= 1", COLOURS), table)  # black not in play with 3
    assert not can_fire(parse_removal("won(trump) >= 11", COLOURS), table)
    assert not can_fire(parse_removal("won(number=7) >= 5", COLOURS), table)  # four 7s in 4 colours


def test_cards_won_are_bounded_by_the_tricks_played() -> None:
    by_trick_2 = Table(players=6, in_play=deck(COLOURS), tricks_played=2)
    assert can_fire(parse_removal("count(won) >= 12", COLOURS), by_trick_2)  # 2 tricks x 6 cards
    assert not can_fire(parse_removal("count(won) >= 13", COLOURS), by_trick_2)
    assert not can_fire(parse_removal("won(red) >= 3", COLOURS), Table(3, deck(COLOURS[:4]), 0))


def test_sums_are_bounded_by_the_highest_cards() -> None:
    three = Table(players=3, in_play=deck(COLOURS[:4]), tricks_played=1)
    # one trick of 3 players: at best three 10s = 30
    assert can_fire(parse_removal("trick.total >= 30", COLOURS), three)
    assert not can_fire(parse_removal("trick.total >= 31", COLOURS), three)
    assert can_fire(parse_removal("sum(won) >= 30", COLOURS), three)
    assert not can_fire(parse_removal("sum(won) >= 31", COLOURS), three)


def test_and_needs_every_part_or_needs_one() -> None:
    table = Table(players=3, in_play=deck(COLOURS[:4]), tricks_played=9)
    assert not can_fire(parse_removal("won(red) >= 11 and trick.contains(1)", COLOURS), table)
    assert can_fire(parse_removal("won(red) >= 11 or trick.contains(1)", COLOURS), table)
    assert not can_fire(parse_removal("trick.contains(11)", COLOURS), table)
    assert can_fire(parse_removal("count(won) < 1", COLOURS), table)
    assert not can_fire(parse_removal("count(won) < 0", COLOURS), table)


# The winner played one card: every winner.played term of one conjunction
# describes it, so two colours or two numbers there can never hold together.
# Each pair: a condition that can fire, and its twin that asks the one card
# for two colours or two numbers (worked out by hand from the grammar).
ONE_CARD = [
    # the same colour or number twice is redundant, not contradictory
    ("winner.played(red) and winner.played(red)", "winner.played(red) and winner.played(blue)"),
    ("winner.played(number=7) and winner.played(number=7)", "winner.played(number=7) and winner.played(number=3)"),
    # a colour and a number, or the trump suit and a colour, describe one card (a red 7; red is trump)
    ("winner.played(red) and winner.played(number=7)",
     "winner.played(red) and winner.played(number=7) and winner.played(blue)"),
    ("winner.played(trump) and winner.played(red)",
     "winner.played(trump) and winner.played(red) and winner.played(yellow)"),
    # other terms in between change nothing: the card is still one card
    ("winner.played(red) and trick.total >= 25 or winner.played(blue)",
     "winner.played(red) and trick.total >= 25 and winner.played(blue)"),
    # brackets: a live alternative keeps the condition alive; none does not
    ("winner.played(red) and (winner.played(blue) or winner.played(number=7))",
     "winner.played(red) and (winner.played(blue) or winner.played(green))"),
    ("(winner.played(red) or trick.contains(1)) and winner.played(blue)",
     "(winner.played(red) or won(red) >= 11) and winner.played(blue)"),  # 10 red cards at most
    ("(winner.played(red) and won(red) >= 2) and winner.played(number=1)",
     "(winner.played(red) and won(red) >= 2) and winner.played(number=1) and winner.played(number=10)"),
]


@pytest.mark.parametrize(("fires", "never"), ONE_CARD)
def test_the_card_the_winner_played_is_one_card(fires: str, never: str) -> None:
    table = Table(players=3, in_play=deck(COLOURS[:4]), tricks_played=9)
    assert can_fire(parse_removal(fires, COLOURS), table)
    assert not can_fire(parse_removal(never, COLOURS), table)


def clash_texts(text: str) -> list[tuple[str, str]]:
    return [(clash.terms(), clash.reason()) for clash in surveillance.clashes(parse_removal(text, COLOURS))]


def test_clashes_name_the_terms_that_cannot_hold_together() -> None:
    # a conjunction whose every alternative asks the card for two colours or two numbers
    assert clash_texts("winner.played(red) and winner.played(blue)") == [
        ("winner.played(red) and winner.played(blue)", "it can't be both red and blue")]
    assert clash_texts("trick.contains(1) and winner.played(number=3) and winner.played(number=7)") == [
        ("winner.played(number=3) and winner.played(number=7)", "it can't be numbered both 3 and 7")]
    assert clash_texts("winner.played(red) and winner.played(blue) and winner.played(green)") == [
        ("winner.played(red), winner.played(blue) and winner.played(green)", "it can't be red, blue and green at once")]
    assert clash_texts("winner.played(red) and winner.played(number=1) and winner.played(blue) "
                       "and winner.played(number=2)") == [
        ("winner.played(red), winner.played(number=1), winner.played(blue) and winner.played(number=2)",
         "it can't be both red and blue, nor numbered both 1 and 2")]
    assert clash_texts("winner.played(red) and (winner.played(blue) or winner.played(green))") == [
        ("winner.played(red) and winner.played(blue)", "it can't be both red and blue"),
        ("winner.played(red) and winner.played(green)", "it can't be both red and green")]
    # a dead conjunction is reported though another alternative can fire: its text is nonsense
    assert clash_texts("winner.played(red) and winner.played(blue) or won(red) >= 5") == [
        ("winner.played(red) and winner.played(blue)", "it can't be both red and blue")]
    # reported once, however deep the brackets
    assert len(clash_texts("won(red) >= 1 and (winner.played(red) and (winner.played(blue)))")) == 1


@pytest.mark.parametrize("text", [
    "winner.played(red) and winner.played(red)",  # redundant: accepted
    "winner.played(trump) and winner.played(trump)",
    "winner.played(trump) and winner.played(red) and winner.played(number=7)",
    "winner.played(red) or winner.played(blue)",
    "winner.played(red) and (winner.played(blue) or winner.played(number=7))",  # red 7
    "(winner.played(red) or trick.contains(1)) and (winner.played(blue) or trick.total >= 20)",
    "trick.contains(1) and trick.contains(10)",  # the trick holds several cards
    "won(red) >= 1 and won(blue) >= 1",  # the won pile too
])
def test_terms_one_card_can_meet_do_not_clash(text: str) -> None:
    assert clash_texts(text) == []
    contradictory = text + " and winner.played(number=2) and winner.played(number=9)"
    assert clash_texts(contradictory) != []


def test_colours_named() -> None:
    condition = parse_removal("won(red) >= 1 or (winner.played(black) and won(trump) >= 2)", COLOURS)
    assert colours_named(condition) == {"red", "black"}


# ----------------------------------------------------------------- texts
#
# Every sentence below is written by hand from the phrasing rules in
# pnp/rules/surveillance/wording.py (one subject; shared words said once; en "and" /
# "or", ja 「…し、かつ…」 / 「…か、…」; the subject repeated when and/or nest).


def english(text: str) -> str:
    return describe_removal(parse_removal(text, COLOURS), "en", str)


def japanese(text: str) -> str:
    return describe_removal(parse_removal(text, COLOURS), "ja", JA_COLOURS.__getitem__)


SINGLE_TERMS = [
    # counts by colour, trump suit and number, through every comparison
    ("won(red) >= 3",
     "A player who has won 3 or more red cards is removed.",
     "赤のカードを3枚以上獲得しているプレイヤーは脱落する。"),
    ("won(trump) > 3",
     "A player who has won 4 or more cards of the trump suit is removed.",
     "切札のスートのカードを4枚以上獲得しているプレイヤーは脱落する。"),
    ("won(number=7) < 3",
     "A player who has won 2 or fewer cards numbered 7 is removed.",
     "7のカードを2枚以下獲得しているプレイヤーは脱落する。"),
    ("count(won) <= 2",
     "A player who has won 2 or fewer cards is removed.",
     "カードを2枚以下獲得しているプレイヤーは脱落する。"),
    ("won(blue) == 1",
     "A player who has won exactly 1 blue card is removed.",
     "青のカードをちょうど1枚獲得しているプレイヤーは脱落する。"),
    # at most none: said as none, not "0 or fewer"
    ("won(red) == 0",
     "A player who has won no red cards is removed.",
     "赤のカードを1枚も獲得していないプレイヤーは脱落する。"),
    ("count(won) < 1",
     "A player who has won no cards is removed.",
     "カードを1枚も獲得していないプレイヤーは脱落する。"),
    # totals of the won pile
    ("sum(won) >= 60",
     "A player who has won cards whose numbers total 60 or more is removed.",
     "獲得したカードの数字の合計が60以上のプレイヤーは脱落する。"),
    ("sum(won) < 10",
     "A player who has won cards whose numbers total 9 or less is removed.",
     "獲得したカードの数字の合計が9以下のプレイヤーは脱落する。"),
    ("sum(won) == 27",
     "A player who has won cards whose numbers total exactly 27 is removed.",
     "獲得したカードの数字の合計がちょうど27のプレイヤーは脱落する。"),
    # the trick just played
    ("trick.total > 29",
     "A player who won this trick with a total of 30 or more is removed.",
     "数字の合計が30以上のこのトリックに勝ったプレイヤーは脱落する。"),
    ("trick.total <= 15",
     "A player who won this trick with a total of 15 or less is removed.",
     "数字の合計が15以下のこのトリックに勝ったプレイヤーは脱落する。"),
    ("trick.contains(1)",
     "A player who took a card numbered 1 in this trick is removed.",
     "このトリックで1のカードを獲得したプレイヤーは脱落する。"),
    ("winner.played(trump)",
     "A player who won this trick with a card of the trump suit is removed.",
     "切札のスートのカードを出してこのトリックに勝ったプレイヤーは脱落する。"),
    ("winner.played(number=7)",
     "A player who won this trick with a card numbered 7 is removed.",
     "7のカードを出してこのトリックに勝ったプレイヤーは脱落する。"),
]

SHARED_WORDS = [
    # counts share "has won" / 獲得している
    ("won(yellow) >= 4 and won(trump) >= 2",
     "A player who has won 4 or more yellow cards and 2 or more cards of the trump suit is removed.",
     "黄のカードを4枚以上、かつ切札のスートのカードを2枚以上獲得しているプレイヤーは脱落する。"),
    ("won(red) >= 5 or won(blue) >= 5",
     "A player who has won 5 or more red cards or 5 or more blue cards is removed.",
     "赤のカードを5枚以上か、青のカードを5枚以上獲得しているプレイヤーは脱落する。"),
    ("won(red) >= 1 and won(blue) >= 1 and won(green) >= 1",
     "A player who has won 1 or more red cards, 1 or more blue cards and 1 or more green cards is removed.",
     "赤のカードを1枚以上、青のカードを1枚以上、かつ緑のカードを1枚以上獲得しているプレイヤーは脱落する。"),
    ("won(red) >= 5 or won(blue) >= 5 or won(green) >= 5",
     "A player who has won 5 or more red cards, 5 or more blue cards or 5 or more green cards is removed.",
     "赤のカードを5枚以上か、青のカードを5枚以上か、緑のカードを5枚以上獲得しているプレイヤーは脱落する。"),
    # brackets that change nothing are dropped
    ("won(red) >= 1 and (won(blue) >= 1 and won(green) >= 1)",
     "A player who has won 1 or more red cards, 1 or more blue cards and 1 or more green cards is removed.",
     "赤のカードを1枚以上、青のカードを1枚以上、かつ緑のカードを1枚以上獲得しているプレイヤーは脱落する。"),
    # English lists a total under "has won"; Japanese has a clause for it. "60 or more, or" takes a comma
    ("sum(won) >= 60 and count(won) >= 12",
     "A player who has won cards whose numbers total 60 or more and 12 or more cards is removed.",
     "獲得したカードの数字の合計が60以上で、かつカードを12枚以上獲得しているプレイヤーは脱落する。"),
    ("sum(won) >= 60 or count(won) >= 12",
     "A player who has won cards whose numbers total 60 or more, or 12 or more cards is removed.",
     "獲得したカードの数字の合計が60以上か、カードを12枚以上獲得しているプレイヤーは脱落する。"),
    ("won(red) == 0 and count(won) >= 10",
     "A player who has won no red cards and 10 or more cards is removed.",
     "赤のカードを1枚も獲得しておらず、かつカードを10枚以上獲得しているプレイヤーは脱落する。"),
    # "this trick" said once
    ("trick.contains(1) and trick.contains(10)",
     "A player who took cards numbered 1 and 10 in this trick is removed.",
     "このトリックで1と10のカードを両方獲得したプレイヤーは脱落する。"),
    ("trick.contains(1) or trick.contains(10)",
     "A player who took a card numbered 1 or 10 in this trick is removed.",
     "このトリックで1か10のカードを獲得したプレイヤーは脱落する。"),
    ("trick.contains(1) and trick.contains(5) and trick.contains(10)",
     "A player who took cards numbered 1, 5 and 10 in this trick is removed.",
     "このトリックで1と5と10のカードをすべて獲得したプレイヤーは脱落する。"),
    ("winner.played(trump) and trick.total >= 25",
     "A player who won this trick with a card of the trump suit and a total of 25 or more is removed.",
     "切札のスートのカードを出して、数字の合計が25以上のこのトリックに勝ったプレイヤーは脱落する。"),
    ("trick.total >= 25 or winner.played(trump)",
     "A player who won this trick with a total of 25 or more, or a card of the trump suit is removed.",
     "数字の合計が25以上か、切札のスートのカードを出してこのトリックに勝ったプレイヤーは脱落する。"),
    ("trick.total >= 20 and trick.total <= 25",
     "A player who won this trick with a total of 20 or more and 25 or less is removed.",
     "数字の合計が20以上、かつ25以下のこのトリックに勝ったプレイヤーは脱落する。"),
    ("winner.played(trump) and trick.contains(1)",
     "A player who won this trick with a card of the trump suit and took a card numbered 1 in it is removed.",
     "切札のスートのカードを出して、1のカードを含むこのトリックに勝ったプレイヤーは脱落する。"),
    ("trick.contains(1) or trick.total >= 25",
     "A player who won this trick with a total of 25 or more, or took a card numbered 1 in it is removed.",
     "1のカードを含むか、数字の合計が25以上のこのトリックに勝ったプレイヤーは脱落する。"),
    # one card played: `and` describes it once, `or` lists the cards
    ("winner.played(red) and winner.played(number=7)",
     "A player who won this trick with a red card numbered 7 is removed.",
     "赤の7のカードを出してこのトリックに勝ったプレイヤーは脱落する。"),
    ("winner.played(blue) or winner.played(number=7)",
     "A player who won this trick with a blue card or a card numbered 7 is removed.",
     "青のカードか、7のカードを出してこのトリックに勝ったプレイヤーは脱落する。"),
]

DIFFERENT_CLAUSES = [
    ("won(red) >= 3 and trick.contains(1)",
     "A player who has won 3 or more red cards and took a card numbered 1 in this trick is removed.",
     "赤のカードを3枚以上獲得しており、かつこのトリックで1のカードを獲得したプレイヤーは脱落する。"),
    ("count(won) >= 12 or winner.played(trump)",
     "A player who has won 12 or more cards or won this trick with a card of the trump suit is removed.",
     "カードを12枚以上獲得しているか、切札のスートのカードを出してこのトリックに勝ったプレイヤーは脱落する。"),
    ("won(red) >= 5 or won(blue) >= 5 or trick.contains(1)",
     "A player who has won 5 or more red cards or 5 or more blue cards, or took a card numbered 1 in this trick "
     "is removed.",
     "赤のカードを5枚以上か、青のカードを5枚以上獲得しているか、このトリックで1のカードを獲得したプレイヤーは"
     "脱落する。"),
]

NESTED = [
    # an `or` inside an `and`: the subject is repeated (en "and who", ja のうち)
    ("(won(red) >= 5 or won(blue) >= 5) and trick.contains(1)",
     "A player who has won 5 or more red cards or 5 or more blue cards, and who took a card numbered 1 in this "
     "trick, is removed.",
     "赤のカードを5枚以上か、青のカードを5枚以上獲得しているプレイヤーのうち、このトリックで1のカードを獲得した"
     "プレイヤーは脱落する。"),
    ("(count(won) >= 12 or trick.contains(1)) and sum(won) >= 60",
     "A player who has won 12 or more cards or took a card numbered 1 in this trick, and who has won cards whose "
     "numbers total 60 or more, is removed.",
     "カードを12枚以上獲得しているか、このトリックで1のカードを獲得したプレイヤーのうち、獲得したカードの数字の"
     "合計が60以上のプレイヤーは脱落する。"),
    # an `and` inside an `or` (and binds tighter): en "or who", ja …プレイヤーも、…プレイヤーも
    ("won(red) >= 5 or won(blue) >= 5 and trick.contains(1)",
     "A player who has won 5 or more red cards, or who has won 5 or more blue cards and took a card numbered 1 in "
     "this trick, is removed.",
     "赤のカードを5枚以上獲得しているプレイヤーも、青のカードを5枚以上獲得しており、かつこのトリックで1のカードを"
     "獲得したプレイヤーも脱落する。"),
    # the single terms beside a group are gathered into one part
    ("(won(red) >= 1 or won(blue) >= 1) and won(green) >= 1 and won(yellow) >= 1",
     "A player who has won 1 or more red cards or 1 or more blue cards, and who has won 1 or more green cards and "
     "1 or more yellow cards, is removed.",
     "赤のカードを1枚以上か、青のカードを1枚以上獲得しているプレイヤーのうち、緑のカードを1枚以上、かつ黄のカードを"
     "1枚以上獲得しているプレイヤーは脱落する。"),
    # a third level is bracketed
    ("(won(red) >= 5 or trick.contains(1)) and sum(won) >= 60 or count(won) >= 20",
     "A player who (has won 5 or more red cards or took a card numbered 1 in this trick) and has won cards whose "
     "numbers total 60 or more, or who has won 20 or more cards, is removed.",
     "（赤のカードを5枚以上獲得しているか、このトリックで1のカードを獲得した）、かつ獲得したカードの数字の合計が"
     "60以上のプレイヤーも、カードを20枚以上獲得しているプレイヤーも脱落する。"),
]


@pytest.mark.parametrize(("text", "en", "ja"), SINGLE_TERMS + SHARED_WORDS + DIFFERENT_CLAUSES + NESTED)
def test_removal_texts(text: str, en: str, ja: str) -> None:
    assert english(text) == en
    assert japanese(text) == ja


@pytest.mark.parametrize("text", [case[0] for case in SINGLE_TERMS + SHARED_WORDS + DIFFERENT_CLAUSES + NESTED])
def test_texts_name_the_subject_and_the_removal_once(text: str) -> None:
    # one sentence: shared words said once, never the old "…, and has won …" run-ons
    en, ja = english(text), japanese(text)
    assert en.startswith("A player ") and en.endswith(" is removed.") and en.count("A player") == 1
    assert en.count("removed") == 1 and ja.count("脱落する。") == 1 and ja.count("脱落") == 1
    assert en.count("this trick") <= 1 and ja.count("このトリック") <= 1
    # and joins the continuative form (「…しており、かつ」), never the plain one (「…している、かつ」)
    assert not any(f"{plain}、かつ" in ja for plain in ("している", "した", "勝った"))


def test_glossary_terms_are_kept() -> None:
    assert "trump suit" in english("won(trump) >= 4") and "切札のスート" in japanese("won(trump) >= 4")
    assert "trump suit" in english("winner.played(trump)") and "切札のスート" in japanese("winner.played(trump)")


def test_english_texts() -> None:
    assert english("won(red) >= 5 or won(blue) >= 5") == \
        "A player who has won 5 or more red cards or 5 or more blue cards is removed."
    assert describe_activation(parse_activation("trick 8"), "en", (6, Activation("trick", 7, 7))) == \
        "Trick 8 only (6 players: trick 7 only)"
    assert describe_activation(parse_activation("every trick"), "en", (6, Activation("every"))) == "Every trick"


def test_japanese_texts_use_the_glossary_terms() -> None:
    assert japanese("won(trump) >= 4") == "切札のスートのカードを4枚以上獲得しているプレイヤーは脱落する。"
    assert japanese("won(red) >= 5 or count(won) <= 2") == \
        "赤のカードを5枚以上か、カードを2枚以下獲得しているプレイヤーは脱落する。"
    assert describe_activation(parse_activation("tricks 1-7"), "ja", (6, Activation("range", 1, 6))) == \
        "第1～7トリック（6人プレイでは第1～6トリック）"


def test_both_languages_come_from_one_tree() -> None:
    # the same tree, however it was written, gives the same sentence
    assert english("won(red)>=5 or won(blue)>=5") == english("(won(red) >= 5) or (won(blue) >= 5)")
    assert japanese("won(red) > 4") == japanese("won(red) >= 5")


def test_unknown_language_falls_back_to_english() -> None:
    assert describe_removal(parse_removal("count(won) >= 12", COLOURS), "fr", str) == \
        "A player who has won 12 or more cards is removed."

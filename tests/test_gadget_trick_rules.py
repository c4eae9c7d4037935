"""Gadget Trick's rules module: setup arithmetic, winners, surveillance, the end.

Games are built here directly from the seed's facts (60 trick cards, the
setup by player count) so these tests do not depend on game.toml; the last
tests load the real folder to prove the data files agree.
Expected values come from the seed or are worked out by hand in comments.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.diagnostics import Report
from pnp.load.toml_lines import TomlDoc, load_toml
from pnp.model.game import Card, Component, Deal, Example, Game, SetupRow, Source, Term
from pnp.rules.base import ExampleError
from pnp.rules.gadget_trick import RULES, end_of_trick, legal_plays, next_leader, trick_winner
from pnp.rules.surveillance import PlayedCard
from pnp.validate import check_folder
from pnp.validate.examples import check_examples

DATA = Path(__file__).resolve().parents[1] / "data" / "gadget-trick"
COLOURS = {"yellow": "黄", "blue": "青", "red": "赤", "green": "緑", "purple": "紫", "black": "黒"}
MANIFEST = Path("game.toml")

# The seed: colours = players + 1 (all 6 with 6 players); hand 10, 9 tricks;
# with 6 players hand 9, 8 tricks; one trump card revealed; 1 card left.
SEED_SETUP = {3: (4, 40, 10, 9), 4: (5, 50, 10, 9), 5: (6, 60, 10, 9), 6: (6, 60, 9, 8)}


# ----------------------------------------------------------------- building games


def trick_cards() -> tuple[Card, ...]:
    cards = []
    for index, (colour, number) in enumerate((c, n) for c in COLOURS for n in range(1, 11)):
        cards.append(Card(id=f"{colour}-{number}", component="trick", count=1, kind="trick", suit=colour,
                          colour=colour, rank=number, source=Source(Path("cards/trick.csv"), index + 2)))
    return tuple(cards)


def cards_from_csv(path: Path, component: str, fields: tuple[str, ...]) -> tuple[Card, ...]:
    """A stand-in for the loader: one Card per row, with its file and line."""
    cards = []
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            texts = {base: {lang: row.get(f"{base}.{lang}", "") for lang in ("en", "ja")} for base in ("name", "text")}
            cards.append(Card(id=row["id"], component=component, count=int(row["count"]), kind=row["kind"],
                              texts=texts, fields={name: row[name] for name in fields},
                              provisional=row.get("provisional") == "yes", source=Source(path, reader.line_num)))
    return tuple(cards)


def seed_setup(**changes: dict[str, int]) -> dict[int, SetupRow]:
    rows = {}
    for players, (colours, in_play, hand, tricks) in SEED_SETUP.items():
        values = {"colours": colours, "in_play": in_play, "hand": hand, "tricks": tricks, "left": 1, "revealed": 1}
        values.update(changes.get(str(players), {}))
        main = Deal(pool="trick", in_play=values["in_play"], hand=values["hand"], revealed=values["revealed"],
                    left=values["left"])
        watch = Deal(pool="surveillance", in_play=8, hand=0, revealed=3)
        rows[players] = SetupRow(players=players, main=main, also={"surveillance": watch},
                                 tricks=values["tricks"], colours=values["colours"],
                                 source=Source(MANIFEST, 100 + players))
    return rows


def make_game(surveillance: Path = DATA / "cards" / "surveillance.csv",
              gadgets: Path = DATA / "cards" / "gadgets.csv",
              setup: dict[int, SetupRow] | None = None,
              rules: TomlDoc | None = None,
              examples: tuple[Example, ...] = ()) -> Game:
    def component(cid: str, cards: tuple[Card, ...], fields: tuple[str, ...] = ()) -> Component:
        return Component(id=cid, kind="cards", names={"en": cid}, count=len(cards), size=(63.5, 88.9),
                         fields=fields, cards=cards)

    return Game(
        id="gadget-trick", path=DATA, titles={"en": "Gadget Trick", "ja": "ガジェットトリック"},
        source_language="ja", languages=("ja", "en"), players=(3, 6), credits={"author": "?"}, terms={},
        colours={c: Term(c, {"en": c, "ja": ja}) for c, ja in COLOURS.items()},
        suits={c: Term(c, {"en": c}) for c in COLOURS},
        kinds={k: Term(k, {"en": k}) for k in ("trick", "surveillance", "gadget")},
        components={
            "trick": component("trick", trick_cards()),
            "surveillance": component("surveillance", cards_from_csv(surveillance, "surveillance",
                                                                     ("activation", "removal")),
                                      ("activation", "removal")),
            "gadget": component("gadget", cards_from_csv(gadgets, "gadget", ("timing",)), ("timing",)),
        },
        setup=seed_setup() if setup is None else setup,
        rules="gadget_trick",
        rules_data=rules or load_toml(DATA / "rules.toml"),
        examples=examples,
    )


def load_examples(path: Path) -> tuple[Example, ...]:
    doc = load_toml(path)
    return tuple(Example(id=e["id"], kind=e["kind"], inputs=e.get("inputs", {}), expect=e["expect"],
                         deviation=e.get("deviation"), source=Source(path, doc.line_of("example", i)),
                         expect_line=doc.line_of("example", i, "expect"), corrected=e.get("corrected", {}))
                 for i, e in enumerate(doc.data["example"]))


def surveillance_csv(tmp_path: Path, *rows: tuple[str, str, str]) -> Path:
    """A surveillance card list with the given (id, activation, removal) rows; row k is on line k + 1."""
    path = tmp_path / "surveillance.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "count", "kind", "suit", "colour", "rank", "name.en", "name.ja", "text.en",
                         "text.ja", "activation", "removal", "provisional"])
        for card_id, activation, removal in rows:
            writer.writerow([card_id, 1, "surveillance", "", "", "", card_id, card_id, "", "", activation, removal,
                             "yes"])
    return path


def checked(game: Game) -> Report:
    report = Report()
    RULES.check(game, report)
    return report


def messages(diagnostics: list) -> list[str]:
    return [d.message for d in diagnostics]


# ----------------------------------------------------------------- trick winner


def played(*ids: str) -> list[PlayedCard]:
    return [PlayedCard(i.rsplit("-", 1)[0], int(i.rsplit("-", 1)[1])) for i in ids]


def test_seed_trick_examples() -> None:
    # lead blue 5, trump red: no red played, so the blue 7 wins (yellow 9 is off suit)
    assert trick_winner(played("blue-5", "blue-7", "yellow-9", "blue-2"), "red") == 1
    # the red 3 is trump, so it wins
    assert trick_winner(played("blue-5", "blue-7", "red-3", "blue-2"), "red") == 2


def test_highest_trump_and_ties() -> None:
    assert trick_winner(played("blue-5", "red-3", "red-8", "blue-9"), "red") == 2
    assert trick_winner(played("blue-5", "blue-10", "blue-10"), "red") == 1  # tie: the earlier card
    assert trick_winner(played("red-2", "blue-10", "red-9"), "red") == 2
    assert trick_winner(played("green-2", "green-5", "blue-8", "green-4"), "yellow") == 1


def test_follow_suit() -> None:
    colours = {"blue-1": "blue", "blue-5": "blue", "red-7": "red", "yellow-3": "yellow"}
    assert legal_plays(["blue-1", "yellow-3", "blue-5", "red-7"], colours, "blue") == ["blue-1", "blue-5"]
    assert legal_plays(["yellow-3", "red-7"], colours, "blue") == ["yellow-3", "red-7"]


# ----------------------------------------------------------------- end of the game


def test_end_conditions() -> None:
    counts, trumps = [12, 8, 12, 4], [3, 0, 5, 1]
    assert end_of_trick(4, set(), 9, 9, 2, counts, trumps).winners == (2,)
    # the last winner was removed: most won cards among the rest
    assert end_of_trick(4, {2}, 9, 9, 2, counts, trumps).winners == (0,)
    # seats 0 and 2 tie on 12 cards; fewer trumps (3 < 5) decides
    assert end_of_trick(4, {1}, 9, 9, 1, counts, trumps).winners == (0,)
    # still tied: everyone tied wins
    assert end_of_trick(3, {2}, 9, 9, 2, [10, 10, 1], [2, 2, 0]).winners == (0, 1)
    # a sole survivor wins after any trick; everyone removed is a draw
    assert end_of_trick(3, {0, 1}, 4, 9, 0, [0] * 3, [0] * 3).winners == (2,)
    draw = end_of_trick(3, {0, 1, 2}, 4, 9, 0, [0] * 3, [0] * 3)
    assert draw.over and draw.draw and draw.winners == ()
    assert not end_of_trick(4, {1}, 5, 9, 3, [0] * 4, [0] * 4).over


def test_next_leader() -> None:
    assert next_leader(4, 2, set()) == 2
    assert next_leader(4, 3, {3}) == 0
    assert next_leader(4, 3, {3, 0}) == 1
    assert next_leader(3, 1, {0, 1, 2}) is None


# ----------------------------------------------------------------- check: setup


def test_the_seed_setup_passes_and_notes_the_five_colour_remark() -> None:
    report = checked(make_game())
    assert report.errors == []
    assert report.warnings == []
    assert any("(5 colours)" in n.message and "6 colours" in n.message for n in report.notes)


@pytest.mark.parametrize(("players", "change", "message"), [
    (6, {"colours": 5, "in_play": 50}, "6 players: colours is 5 but the rules give 6"),
    (6, {"hand": 10, "left": 2}, "6 players: hand is 10 but the rules give 9"),
    (3, {"tricks": 8, "left": 2}, "3 players: tricks is 8 but the rules give 9"),
    (4, {"in_play": 40}, "4 players: in_play is 40 but the rules give 50"),
    (5, {"revealed": 0}, "5 players: revealed is 0 but the rules give 1"),
    (3, {"left": 0}, "3 players: left is 0 but the rules give 1"),
])
def test_a_wrong_setup_row_is_reported_at_its_line(players: int, change: dict[str, int], message: str) -> None:
    report = checked(make_game(setup=seed_setup(**{str(players): change})))
    errors = [d for d in report.errors if d.message.startswith(message)]
    assert errors, messages(report.errors)
    assert errors[0].file == MANIFEST and errors[0].line == 100 + players


# ----------------------------------------------------------------- check: surveillance cards


def test_the_project_surveillance_cards_all_pass() -> None:
    report = checked(make_game())
    assert not [d for d in report.diagnostics if "surveillance card" in d.message]


@pytest.mark.parametrize(("activation", "removal", "message"), [
    ("every trick", "won(pink) >= 3", "unknown colour 'pink'"),
    ("every trick", "won(red) >= ", "expected a number"),
    ("every trick", "won red >= 3", "expected '('"),
    ("every trick", "loot(red) >= 3", "unknown term 'loot'"),
    ("trick 10", "won(red) >= 3", "trick 10 (as played with 3 players) is outside the 9 tricks"),
    ("trick 9", "won(red) >= 3", None),  # 9 is the last trick, and 8 with 6 players: fine
    ("tricks 1-10", "won(red) >= 3", "outside the 9 tricks"),
    ("tricks 7-3", "won(red) >= 3", "is empty"),
    ("whenever", "won(red) >= 3", "unknown activation"),
    ("every trick", "won(red) >= 11", "can never be met"),  # only 10 red cards
    ("trick 2", "count(won) >= 13", "can never be met"),  # 2 tricks x 6 players = 12 at most
    ("every trick", "trick.contains(0)", "can never be met"),
    ("every trick", "", "the removal column is empty"),
])
def test_a_bad_surveillance_card_fails_with_file_and_line(tmp_path: Path, activation: str, removal: str,
                                                          message: str | None) -> None:
    path = surveillance_csv(tmp_path, ("good", "every trick", "won(trump) >= 4"), ("bad", activation, removal))
    report = checked(make_game(surveillance=path))
    about_bad = [d for d in report.errors if "'bad'" in d.message]
    if message is None:
        assert about_bad == []
        return
    assert len(about_bad) == 1, messages(report.errors)
    assert message in about_bad[0].message
    assert about_bad[0].file == path and about_bad[0].line == 3  # header, good, bad
    assert not [d for d in report.errors if "'good'" in d.message]


def test_a_condition_dead_at_some_player_counts_is_a_warning(tmp_path: Path) -> None:
    # by trick 2: 3 players have played 6 cards, 4 players 8, 5 players 10, 6 players 12
    path = surveillance_csv(tmp_path, ("early", "trick 2", "count(won) >= 9"),
                            ("black", "every trick", "won(black) >= 3"),
                            ("mixed", "every trick", "won(black) >= 3 or won(red) >= 5"))
    report = checked(make_game(surveillance=path))
    assert report.errors == []
    early = [w for w in report.warnings if "'early'" in w.message]
    assert len(early) == 1 and "3 players" in early[0].message and "4 players" in early[0].message
    assert "5 players" not in early[0].message and early[0].line == 2
    # black joins the game only with 5 players (colour order: yellow, blue, red, green, purple, black)
    black = [w for w in report.warnings if "'black'" in w.message]
    assert len(black) == 1 and "3 players" in black[0].message and "5 players" not in black[0].message
    mixed = [n for n in report.notes if "'mixed'" in n.message]
    assert [("3 players" in n.message, "4 players" in n.message) for n in mixed] == [(True, False), (False, True)]


def test_a_card_the_winner_cannot_have_played_is_an_error(tmp_path: Path) -> None:
    # winner.played terms joined by `and` describe the one card the winner played
    path = surveillance_csv(tmp_path,
                            ("twice", "every trick", "winner.played(red) and winner.played(red)"),  # redundant
                            ("red-seven", "every trick", "winner.played(trump) and winner.played(red) and "
                                                         "winner.played(number=7)"),
                            ("two-colours", "every trick", "winner.played(red) and winner.played(blue)"),
                            ("two-numbers", "trick 20", "winner.played(number=3) and winner.played(number=7)"),
                            ("nested", "every trick", "winner.played(red) and (winner.played(blue) or "
                                                      "winner.played(green)) or count(won) >= 5"))
    report = checked(make_game(surveillance=path))
    about = {card: [d for d in report.diagnostics if f"'{card}'" in d.message]
             for card in ("twice", "red-seven", "two-colours", "two-numbers", "nested")}
    # the same colour twice is redundant, not wrong: accepted, and printed once ("a red card")
    assert about["twice"] == [] and about["red-seven"] == []
    assert report.warnings == []
    colours = about["two-colours"]
    assert [(d.level.name, d.file, d.line) for d in colours] == [("ERROR", path, 4)], messages(colours)
    assert "winner.played(red) and winner.played(blue)" in colours[0].message
    assert "can't be both red and blue" in colours[0].message
    assert "can never be met" not in colours[0].message  # one error, with the fix that applies
    assert colours[0].fix and "'or'" in colours[0].fix
    # the clash, and (apart) the trick beyond the game: both in one run
    numbers = sorted(about["two-numbers"], key=lambda d: d.message)
    assert [(d.level.name, d.line) for d in numbers] == [("ERROR", 5), ("ERROR", 5)], messages(numbers)
    assert "can't be numbered both 3 and 7" in numbers[1].message and "trick 20" in numbers[0].message
    nested = about["nested"]
    assert [(d.level.name, d.line) for d in nested] == [("ERROR", 6)], messages(nested)
    assert "both red and blue" in nested[0].message and "both red and green" in nested[0].message


def test_pnp_check_reports_a_contradictory_card_with_file_line_and_fix(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "data" / "gadget-trick"
    shutil.copytree(DATA, folder)
    csv_path = folder / "cards" / "surveillance.csv"
    text = csv_path.read_text(encoding="utf-8")
    # the Night Patrol (tricks 3-5) is in no example that its removal could change
    old = "tricks 3-5,won(yellow) >= 4 and won(trump) >= 2,"
    assert old in text
    csv_path.write_text(text.replace(old, "tricks 3-5,winner.played(red) and winner.played(blue),"),
                        encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row.startswith("night-patrol,"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "gadget-trick"])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    assert (f"data/gadget-trick/cards/surveillance.csv:{line}: error: surveillance card 'night-patrol': "
            "winner.played(red) and winner.played(blue) can never both hold") in result.output
    after = result.output.split(f"surveillance.csv:{line}: error:", 1)[1].splitlines()
    assert after[1].strip().startswith("fix: ") and "'or'" in after[1], result.output
    assert "FAILED — 1 error(s), 0 warning(s)" in result.output


def test_generated_text_in_the_csv_is_flagged(tmp_path: Path) -> None:
    path = tmp_path / "surveillance.csv"
    path.write_text("id,count,kind,suit,colour,rank,name.en,name.ja,text.en,text.ja,activation,removal\n"
                    "x,1,surveillance,,,,X,X,Hand-written,,every trick,won(red) >= 4\n", encoding="utf-8")
    report = checked(make_game(surveillance=path))
    assert any("text.en is generated" in w.message and w.line == 2 for w in report.warnings)


def test_a_gadget_with_an_unknown_timing_fails_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "gadgets.csv"
    shutil.copy(DATA / "cards" / "gadgets.csv", path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4].replace(",on-surveillance,", ",sometimes,")  # the decoy doll, line 5
    assert "sometimes" in lines[4]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = checked(make_game(gadgets=path))
    assert [(d.file, d.line) for d in report.errors] == [(path, 5)]
    assert "timing 'sometimes'" in report.errors[0].message


def test_project_gadgets_have_known_timings_and_both_languages() -> None:
    game = make_game()
    gadgets = game.cards("gadget")
    assert len(gadgets) == 12 and all(card.provisional for card in gadgets)
    assert {card.fields["timing"] for card in gadgets} <= {"setup", "always", "on-play", "on-win", "on-surveillance"}
    assert all(card.text("text", "en") and card.text("text", "ja") for card in gadgets)
    assert len(game.cards("surveillance")) == 8


# ----------------------------------------------------------------- texts and aids


def test_card_texts_are_generated_in_both_languages() -> None:
    game = make_game()
    english, japanese = RULES.card_texts(game, "en"), RULES.card_texts(game, "ja")
    surveillance_ids = {card.id for card in game.cards("surveillance")}
    gadget_ids = {card.id for card in game.cards("gadget")}
    assert set(english) == set(japanese) == surveillance_ids | gadget_ids
    # gadgets get their timing tag's wording from rules.toml
    assert all(set(english[g]) == {"timing"} for g in gadget_ids)
    assert english["vault-camera"] == {
        "activation": "Trick 8 only (6 players: trick 7 only)",
        "removal": "A player who has won cards whose numbers total 60 or more is removed.",
        "text": "Activation: Trick 8 only (6 players: trick 7 only)\n"
                "Removal: A player who has won cards whose numbers total 60 or more is removed.",
        "activation_label": "Activation",
        "removal_label": "Removal",
    }
    assert japanese["pressure-floor"]["text"] == (
        "作動条件：第1～7トリック（6人プレイでは第1～6トリック）\n"
        "脱落条件：カードを12枚以上獲得しているプレイヤーは脱落する。")
    # the removal texts of the 8 cards in cards/surveillance.csv, written out by hand
    assert {card: english[card]["removal"] for card in surveillance_ids} == {
        "laser-grid": "A player who has won 4 or more cards of the trump suit is removed.",
        "pressure-floor": "A player who has won 12 or more cards is removed.",
        "vault-camera": "A player who has won cards whose numbers total 60 or more is removed.",
        "guard-dog": "A player who has won 3 or more cards numbered 10 is removed.",
        "motion-sensor": "A player who took cards numbered 1 and 10 in this trick is removed.",
        "alarm-bell": "A player who won this trick with a card of the trump suit and a total of 25 or more is removed.",
        "colour-scanner": "A player who has won 5 or more red cards or 5 or more blue cards is removed.",
        "night-patrol": "A player who has won 4 or more yellow cards and 2 or more cards of the trump suit is removed.",
    }
    assert {card: japanese[card]["removal"] for card in surveillance_ids} == {
        "laser-grid": "切札のスートのカードを4枚以上獲得しているプレイヤーは脱落する。",
        "pressure-floor": "カードを12枚以上獲得しているプレイヤーは脱落する。",
        "vault-camera": "獲得したカードの数字の合計が60以上のプレイヤーは脱落する。",
        "guard-dog": "10のカードを3枚以上獲得しているプレイヤーは脱落する。",
        "motion-sensor": "このトリックで1と10のカードを両方獲得したプレイヤーは脱落する。",
        "alarm-bell": "切札のスートのカードを出して、数字の合計が25以上のこのトリックに勝ったプレイヤーは脱落する。",
        "colour-scanner": "赤のカードを5枚以上か、青のカードを5枚以上獲得しているプレイヤーは脱落する。",
        "night-patrol": "黄のカードを4枚以上、かつ切札のスートのカードを2枚以上獲得しているプレイヤーは脱落する。",
    }


def test_aid_tables() -> None:
    tables = {table.id: table for table in RULES.aid_tables(make_game(), "en")}
    assert list(tables) == ["trick-order", "winner", "end", "setup"]
    assert tables["setup"].rows == [
        ["3", "4", "40", "10", "9", "1"],
        ["4", "5", "50", "10", "9", "1"],
        ["5", "6", "60", "10", "9", "1"],
        ["6", "6", "60", "9", "8", "1"],
    ]
    assert any("trick 8 becomes trick 7" in note for note in tables["setup"].notes)
    assert [row[0] for row in tables["trick-order"].rows] == ["1. Play", "2. Winner", "3. Surveillance", "Next"]
    assert len(tables["end"].rows) == 4
    japanese = {table.id: table for table in RULES.aid_tables(make_game(), "ja")}
    assert japanese["winner"].title == "トリックの勝者"
    assert any("第8トリック → 第7トリック" in note for note in japanese["setup"].notes)


def test_context() -> None:
    context = RULES.context(make_game(), "ja")
    assert context["deal"][6] == {"colours": 6, "hand": 9, "tricks": 8, "left": 1}
    assert context["colour_order"][:3] == ["黄", "青", "赤"]
    assert context["surveillance_in_play"] == 3


# ----------------------------------------------------------------- examples


def test_every_example_in_examples_toml_agrees() -> None:
    game = make_game(examples=load_examples(DATA / "examples.toml"))
    report = Report()
    outcome = check_examples(game, RULES, report)
    assert report.errors == [], messages(report.errors)
    assert len(outcome) >= 20 and set(outcome.values()) == {"ok"}


def test_a_wrong_stated_winner_is_a_mismatch_at_the_expect_line() -> None:
    example = Example(id="x", kind="trick", inputs={"plays": ["blue-5", "blue-7"], "trump": "red"},
                      expect={"winner": 0}, source=Source(Path("examples.toml"), 1), expect_line=7)
    report = Report()
    assert check_examples(make_game(examples=(example,)), RULES, report) == {"x": "mismatch"}
    assert report.errors[0].line == 7


@pytest.mark.parametrize(("kind", "inputs", "message"), [
    ("trick", {"plays": ["blue-5", "blue-11"], "trump": "red"}, "unknown trick card 'blue-11'"),
    ("trick", {"plays": ["blue-5", "blue-5"], "trump": "red"}, "appears twice"),
    ("trick", {"plays": ["blue-5"], "trump": "pink"}, "unknown colour 'pink'"),
    ("surveillance", {"players": 3, "trick": 1, "trump": "red", "leader": 0, "plays": ["red-1"],
                      "cards": ["laser-grid"]}, "3 players in play but 1 cards played"),
    ("surveillance", {"players": 3, "trick": 1, "trump": "red", "leader": 0,
                      "plays": ["red-1", "red-2", "red-3"], "cards": ["no-such-card"]}, "unknown surveillance"),
    ("game-end", {"players": 3, "trick": 9, "last_winner": 0, "won_count": [1]}, "one number per seat"),
    # no list where a list belongs: these were TypeErrors ('bool' object is not iterable), not example errors
    ("game-end", {"players": 3, "trick": 4, "last_winner": 0, "removed": True},
     "removed: expected a list of seats, found True"),
    ("game-end", {"players": 3, "trick": 9, "last_winner": 0, "won_trump": 3},
     "won_trump: expected a list of whole numbers, found 3"),
    ("next-leader", {"players": 3, "winner": 0, "removed": -3}, "removed: expected a list of seats"),
])
def test_bad_example_inputs_raise_example_error(kind: str, inputs: dict, message: str) -> None:
    example = Example(id="x", kind=kind, inputs=inputs, expect={})
    with pytest.raises(ExampleError, match=message):
        RULES.run_example(make_game(), example)


# ----------------------------------------------------------------- rules.toml itself


def test_an_unusable_rules_toml_is_reported_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    text = (DATA / "rules.toml").read_text(encoding="utf-8")
    path.write_text(text.replace("hand = 10\n", "hand = \"ten\"\n", 1), encoding="utf-8")
    doc = load_toml(path)
    report = checked(make_game(rules=doc))
    assert [(d.file, d.line) for d in report.errors] == [(path, doc.line_of("deal", "hand"))]
    with pytest.raises(ExampleError, match="rules.toml is unusable"):
        RULES.run_example(make_game(rules=doc), Example(id="x", kind="next-leader", inputs={}, expect={}))


def test_colour_order_must_match_the_deck(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    text = (DATA / "rules.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('"purple", "black"]', '"purple", "pink"]'), encoding="utf-8")
    doc = load_toml(path)
    report = checked(make_game(rules=doc))
    found = sorted(d.message.split(":")[0] for d in report.errors if d.line == doc.line_of("deck", "colour_order"))
    assert found == ["colour_order names colours with no trick cards", "deck colours missing from colour_order"]


# ----------------------------------------------------------------- the real game folder


def test_the_real_game_folder_checks_clean() -> None:
    """game.toml is the lead's; this proves our CSVs, rules and examples load with it."""
    if not (DATA / "game.toml").exists():
        pytest.skip("data/gadget-trick/game.toml is not written yet")
    result = check_folder(DATA)
    ours = {(DATA / name).resolve() for name in ("rules.toml", "examples.toml", "cards/surveillance.csv",
                                                  "cards/gadgets.csv")}
    problems = result.report.errors + result.report.warnings
    assert [d for d in problems if d.file is not None and d.file.resolve() in ours] == []
    assert set(result.examples.values()) == {"ok"}
    report = checked(result.game)
    assert report.errors == [] and report.warnings == [], messages(report.errors + report.warnings)
    texts = RULES.card_texts(result.game, "ja")
    surveillance_ids = {card.id for card in result.game.cards("surveillance")}
    assert surveillance_ids == {card_id for card_id, fields in texts.items() if "activation" in fields}


def test_trick_cards_without_colours_are_one_error_not_a_cascade(tmp_path: Path) -> None:
    """A card list saved without its colour column: one error naming the cards, instead of a traceback
    (it used to join None into the colour-order message) and a dozen errors about setup and sensors."""
    import csv
    import io
    import shutil

    from click.testing import CliRunner

    from pnp.cli import cli

    folder = tmp_path / "data" / "gadget-trick"
    shutil.copytree(DATA, folder)
    path = folder / "cards" / "trick.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    column = rows[0].index("colour")
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([row[:column] + row[column + 1:] for row in rows])
    path.write_text(text.getvalue(), encoding="utf-8")
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path / "data"), "gadget-trick"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback
    errors = [line for line in result.output.splitlines() if ": error: " in line]
    assert [line.split("data/gadget-trick/", 1)[1] for line in errors] == [
        "cards/trick.csv:2: error: trick card(s) yellow-1, yellow-2, yellow-3, yellow-4 and 56 more have no colour, "
        "which the rules read"], result.output


def test_aid_tables_of_the_wrong_kind_are_errors_at_their_lines(tmp_path: Path) -> None:
    """A header of true, a row of numbers or a shift_note list used to fail while the aid was built
    ('bool' object is not iterable); the check now names each at its line, and the aid still builds."""
    path = tmp_path / "rules.toml"
    text = (DATA / "rules.toml").read_text(encoding="utf-8")
    for old, new in (('header = { en = ["Step", "What happens"], ja = ["手順", "内容"] }', "header = true"),
                     ('en = ["2. Winner"', 'en = 2\nen_was = ["2. Winner"'),
                     ("shift_note = { en = ", "shift_note = []\nshift_note_was = { en = ")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    game = make_game(rules=load_toml(path))
    found = {(d.line, d.message) for d in checked(game).errors if d.message.startswith("aid.")}
    lines = text.splitlines()
    row_header = [n for n, line in enumerate(lines, 1) if line == "[[aid.trick-order.row]]"][1]
    assert found == {
        (lines.index("header = true") + 1, "aid.trick-order.header: expected a list of texts per language, found True"),
        (row_header, "aid.trick-order.row.1: expected a list of texts per language, found 2"),
        (lines.index("shift_note = []") + 1, "aid.setup.shift_note: expected a text per language, found []"),
    }
    assert [table.id for table in RULES.aid_tables(game, "en")]  # built all the same, for the rest of the check

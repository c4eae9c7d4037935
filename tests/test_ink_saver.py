"""The low-ink variant leaves heavy fills out, so light ink drawn for them must print dark."""

from __future__ import annotations

from pathlib import Path

from pnp.compose.bind import Resolved
from pnp.diagnostics import Report
from pnp.model.build import load_game
from pnp.render.cards.ink_saver import DARK_INK, on_white_paper
from pnp.rules import get_rules
from pnp.validate.card_layouts import bind_game

DATA = Path(__file__).resolve().parent.parent / "data"
SIZE = (63.5, 88.9)


def rect(**values) -> Resolved:
    return Resolved("rect", values, None)


def text(colour: str, **values) -> Resolved:
    return Resolved("text", {"text": "5", "colour": colour, **values}, None)


def test_white_text_on_a_dropped_background_prints_dark():
    drawn = on_white_paper([rect(fill="#1b1b1b", bleed=True), text("#ffffff")], SIZE)
    assert drawn[1].values["colour"] == DARK_INK
    assert drawn[0].values["fill"] == "#1b1b1b"  # the painter leaves the fill out itself


def test_white_text_on_a_kept_badge_stays_white():
    badge = rect(x=5, y=10, w=50, h=8, fill="#263238")  # no bleed: the low-ink variant prints it
    drawn = on_white_paper([rect(fill="#1b1b1b", bleed=True), badge, text("#ffffff", x=6, y=11, w=40, h=6)], SIZE)
    assert drawn[2].values["colour"] == "#ffffff"


def test_text_beside_the_badge_is_judged_by_what_is_under_it():
    badge = rect(x=5, y=10, w=50, h=8, fill="#263238")
    drawn = on_white_paper([rect(fill="#1b1b1b", bleed=True), badge, text("#ffffff", x=6, y=60, w=40, h=6)], SIZE)
    assert drawn[2].values["colour"] == DARK_INK


def test_dark_and_mid_colours_are_left_alone():
    for colour in ("#c62828", "#ffca28", "#1a1a1a", "#777777"):
        assert on_white_paper([text(colour)], SIZE)[0].values["colour"] == colour


def test_light_rings_and_frames_print_dark_on_paper():
    drawn = on_white_paper([rect(fill="#6a1b9a", bleed=True), rect(x=1.5, y=1.5, w=22, h=22, stroke="#ffffff"),
                            Resolved("frame", {"stroke": "#f5f5f5"}, None)], (25, 25))
    assert drawn[1].values["stroke"] == DARK_INK and drawn[2].values["stroke"] == DARK_INK


def test_rudy_coins_print_their_value_in_the_low_ink_variant():
    """The 5 and 20 coins are white on black and purple: without the fills they printed blank."""
    game = load_game(DATA / "rudy", Report())
    rules = get_rules(game.rules)
    for ink_saver, expected in ((False, "#ffffff"), (True, DARK_INK)):
        coins = bind_game(game, rules, "en", Report(), ink_saver=ink_saver, components=("coins",))["coins"]
        dark_coins = [c for c in coins.cards if c.card.fields.get("value") in ("5", "20")]
        assert dark_coins
        for coin in dark_coins:
            texts = [e for e in coin.face if e.type == "text" and e.values.get("text") in ("5", "20")]
            assert texts and all(e.values["colour"] == expected for e in texts)


def test_a_faint_pattern_on_a_light_ground_stays_faint_in_the_low_ink_variant() -> None:
    """Its lines all turned #b0b0b0: a #eeeeee texture on white printed darker in the variant meant to
    save ink. Lines on a dark ground the variant leaves out still turn grey, or they would vanish."""
    from pnp.render.cards.ink_saver import PATTERN_GREY, low_ink_pattern_lines

    assert low_ink_pattern_lines("#eeeeee", None) == "#eeeeee"
    assert low_ink_pattern_lines("#eeeeee", "#fafafa") == "#eeeeee"
    assert low_ink_pattern_lines("#ffffff", "#1d2b53") == PATTERN_GREY  # white lines on navy: not white on white
    assert low_ink_pattern_lines("#222222", None) == PATTERN_GREY  # dark lines get lighter, as before
    assert low_ink_pattern_lines(None, None) == PATTERN_GREY

"""Example figures show what the example is about: who won a trick, which cards may be played."""

from __future__ import annotations

from pathlib import Path

from pnp.render.rulebook.figure_specs import CardSlot, Label, example_figure
from pnp.validate import check_folder

DATA = Path(__file__).resolve().parent.parent / "data"


def figure_for(game_id: str, example_id: str):
    result = check_folder(DATA / game_id)
    example = next(e for e in result.game.examples if e.id == example_id)
    return example_figure(result.game, example, result.rules.run_example(result.game, example))


def test_trick_figure_frames_the_winner_and_fades_the_face_down_cards() -> None:
    # The seed's Example 1: green 2, green 5, blue 8, green 4 — Bob's green 5 wins, the rest end face down.
    figure = figure_for("take-over-that-job", "seed-example-1")
    (row,) = figure.rows
    plays = [group for group in row if any(isinstance(item, CardSlot) for item in group)]
    assert [(g[0].text, g[1].card) for g in plays] == [("Alice", "green-2"), ("Bob", "green-5"),
                                                       ("Carrie", "blue-8"), ("Dave", "green-4")]
    assert [(g[1].highlight, g[1].dim) for g in plays] == [(False, True), (True, False), (False, True),
                                                           (False, True)]
    assert row[-1] == (Label("\u2192 Bob", bold=True),)


def test_trick_figure_shows_the_trump_marker() -> None:
    # Example 2: trump green, so the green marker lies beside the trick
    figure = figure_for("take-over-that-job", "seed-example-2")
    assert figure.rows[0][0] == (CardSlot("marker-green"),)


def test_follow_figure_frames_the_cards_that_may_be_played() -> None:
    # The seed: blue led, the hand holds blue 1 and blue 5, so only those may be played.
    figure = figure_for("gadget-trick", "seed-follow-blue")
    lead, arrow, hand = figure.rows[0]
    assert lead == (CardSlot("blue-8"),)
    assert {slot.card for slot in hand if slot.highlight} == {"blue-1", "blue-5"}
    assert {slot.card for slot in hand if slot.dim} == {"yellow-3", "red-7", "green-10"}


def test_a_trick_row_keeps_its_winner_beside_cards_at_every_width(cache: Path) -> None:
    """Wide: the whole trick and '→ Bob' on one line. Narrower: cards shrink (to 80 %) first. Narrower
    still: the row wraps between players, and the caption never starts a line alone."""
    from reportlab.lib.units import mm

    from pnp.render.rulebook.card_art import ChipArt
    from pnp.render.rulebook.figures import FigureFlowable
    from pnp.render.text.fonts import prepare_fonts

    result = check_folder(DATA / "take-over-that-job")
    figure = figure_for("take-over-that-job", "seed-example-1")
    fontset = prepare_fonts([*ChipArt(result.game).texts(), "Alice Bob Carrie Dave \u2192"], cache)
    art = ChipArt(result.game, fontset)

    def lines_at(width_mm: float) -> tuple[float, list[list[object]]]:
        flowable = FigureFlowable(figure, art, fontset)
        flowable.wrap(width_mm * mm, 1000)
        return flowable._card / mm, [[placed.item for placed in line.items] for line in flowable._lines]

    card, lines = lines_at(150)
    assert card == 15 and len(lines) == 1
    card, lines = lines_at(120)
    assert 12 <= card < 15 and len(lines) == 1  # shrunk, not wrapped
    card, lines = lines_at(100)
    assert len(lines) == 2 and lines[-1][-1] == Label("\u2192 Bob", bold=True)
    assert any(isinstance(item, CardSlot) for item in lines[-1])  # Dave's card goes down with the caption
    for _, lines in (lines_at(w) for w in range(60, 180, 5)):
        assert all(any(isinstance(item, CardSlot) for item in line) for line in lines)

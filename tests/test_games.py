"""The four shipped games check clean, and their tables say what the seeds say.

Expected numbers come from the seeds in ../shared/seeds (quoted in comments),
not from pnp's output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.validate import check_folder

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture(scope="module")
def results():
    return {game: check_folder(DATA / game) for game in ("two-ops", "take-over-that-job", "rudy", "gadget-trick")}


@pytest.mark.parametrize("game", ["two-ops", "take-over-that-job", "rudy", "gadget-trick"])
def test_game_checks_clean(results, game: str) -> None:
    report = results[game].report
    assert [d.format() for d in report.errors] == []
    assert [d.format() for d in report.warnings] == []
    assert results[game].examples, "every game has worked examples"
    assert set(results[game].examples.values()) <= {"ok", "deviation"}


def counts(result) -> dict[str, tuple[int, int]]:
    return {c.id: (c.count, c.found) for c in result.game.components.values() if c.cards_file}


def test_two_ops_components_and_setup(results) -> None:
    result = results["two-ops"]
    # "a standard French-suited card deck (52 cards, no Jokers)"
    assert counts(result) == {"deck": (52, 52)}
    # "Deal 6 to each player" from the 40 pips; the goal card is revealed; 2 operators each of 12
    assert sorted(result.game.setup) == [2, 3, 4, 5, 6]
    row = result.game.setup[6]
    assert (row.in_play, row.hand, row.revealed) == (40, 6, 1)
    assert (row.also["operators"].in_play, row.also["operators"].hand) == (12, 2)


def test_take_over_components_and_setup(results) -> None:
    result = results["take-over-that-job"]
    # "Number cards: 56 (4 colors, 1-14) / Trump cards: 4 / Goal cards: 16 (4 kinds, 2-5)"
    assert counts(result) == {"numbers": (56, 56), "markers": (4, 4), "goals": (16, 16)}
    # "4 players only"; "deal 14 to each player"
    assert list(result.game.setup) == [4]
    assert (result.game.setup[4].hand, result.game.setup[4].tricks) == (14, 14)


def test_rudy_components_are_provisional(results) -> None:
    result = results["rudy"]
    # "サイコロを3つと、4種類のコインを各20枚"
    assert counts(result)["coins"] == (80, 80)
    assert result.game.components["dice"].count == 3
    assert result.game.components["deck"].provisional
    notes = " ".join(d.message for d in result.report.notes)
    assert "provisional reconstruction" in notes
    # the seed's 17-opt set is a reported deviation, not a silent pass
    assert result.examples["seed-set-17"] == "deviation"
    # "人数：2～4人", "手札を5枚配る", "8枚、発掘場に"
    assert sorted(result.game.setup) == [2, 3, 4]
    assert (result.game.setup[3].hand, result.game.setup[3].revealed) == (5, 8)


def test_gadget_trick_setup_follows_the_seed(results) -> None:
    result = results["gadget-trick"]
    # "Trick cards: 60 (10 each in 6 colours)", "Surveillance cards: 8", "Gadget cards: 12"
    assert counts(result) == {"trick": (60, 60), "surveillance": (8, 8), "gadget": (12, 12)}
    setup = result.game.setup
    # (players + 1) colours × 10; deal 10 (9 with 6); 9 tricks (8 with 6)
    assert [(p, setup[p].colours, setup[p].in_play, setup[p].hand, setup[p].tricks) for p in sorted(setup)] == [
        (3, 4, 40, 10, 9), (4, 5, 50, 10, 9), (5, 6, 60, 10, 9), (6, 6, 60, 9, 8)]
    notes = " ".join(d.message for d in result.report.notes)
    assert "5 colours" in notes, "pnp check says how the data reads the seed's '(5 colours)'"


def test_check_report_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA.parent)
    result = CliRunner().invoke(cli, ["check", "gadget-trick"])
    assert result.exit_code == 0, result.output
    assert re.search(r"trick\s+cards\s+60\s+60\s+ok", result.output)
    assert re.search(r"surveillance\s+cards\s+8\s+8\s+ok \(provisional\)", result.output)
    assert re.search(r"^6\s+60\s+9 each\s+1\s+8\s+1\s+6", result.output, re.MULTILINE)
    assert "gadget-trick: ok — 0 error(s), 0 warning(s)" in result.output


def test_list_shows_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DATA.parent)
    result = CliRunner().invoke(cli, ["list", "--lang", "ja"])
    assert result.exit_code == 0
    assert "代われそのジョブ" in result.output
    assert re.search(r"gadget-trick\s+ガジェットトリック\s+3-6", result.output)
    assert re.search(r"two-ops\s+ツー・オプス\s+2-6", result.output)


def test_list_titles_each_game_in_its_source_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --lang a Japanese-first game is listed by its Japanese title, an English-first one by its
    English title; --lang en still lists every game in English."""
    monkeypatch.chdir(DATA.parent)
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0
    assert re.search(r"gadget-trick\s+ガジェットトリック\s+3-6\s+トリックカード ×60", result.output)
    assert re.search(r"two-ops\s+Two Ops\s+2-6\s+Standard deck ×52", result.output)
    assert "warning" not in result.output
    english = CliRunner().invoke(cli, ["list", "--lang", "en"])
    assert re.search(r"gadget-trick\s+Gadget Trick\s+3-6", english.output)


def test_every_command_has_help() -> None:
    for command in cli.commands:
        result = CliRunner().invoke(cli, [command, "--help"])
        assert result.exit_code == 0, command
        assert "Usage:" in result.output
    assert CliRunner().invoke(cli, ["--version"]).output.startswith("pnp, version ")


@pytest.mark.parametrize("game", ["two-ops", "take-over-that-job", "rudy", "gadget-trick"])
def test_every_card_text_fits_its_box_as_designed(results, game: str, cache: Path) -> None:
    """No shipped card face or back shrinks or overflows a text, in any language, so a newcomer's first
    `pnp build` is quiet: it used to say "3 text(s) shrunk to fit" of the built-in back's two-line
    titles (Take Over That Job, 代われそのジョブ) and of the marker back's "Disadvantaged". Every text
    element of every card is measured with the painter the build uses, without drawing a page."""
    from reportlab.lib.units import mm

    from pnp.diagnostics import Report
    from pnp.render.cards.deck import make_painter
    from pnp.render.text.fonts import prepare_fonts
    from pnp.validate.card_layouts import bind_game

    checked = results[game]
    assert checked.game is not None and checked.rules is not None
    measured, issues = 0, []
    for lang in checked.game.languages:
        report = Report()
        bound = bind_game(checked.game, checked.rules, lang, report)
        assert not report.errors, [d.format() for d in report.errors]
        texts = [text for component in bound.values() for text in component.texts()]
        painter = make_painter(prepare_fonts(texts, cache, overrides=checked.game.fonts), checked.game,
                               ink_saver=False)
        for component in bound.values():
            width, height = component.component.size
            trim = (0.0, 0.0, width * mm, height * mm)
            for card in component.cards:
                for layout, elements in ((component.face_layout, card.face), (component.back_layout, card.back)):
                    for element in elements:
                        painter.report(element, trim, card.card.id, layout)
                        measured += element.type == "text"
        issues += [(lang, i.problem, i.layout, i.line, i.text, i.size, i.max_size) for i in painter.issues]
    assert measured > 0
    assert sorted(set(issues)) == []

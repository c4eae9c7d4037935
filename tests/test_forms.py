"""Repeated card content drawn once as a PDF form: shared where it repeats, never where a card differs.

Two small games made here: "big" has one 150 × 220 mm card per A4 page, so every card lands in the
same slot and a form's reuse is easy to count; "poker" has the usual 3 × 3 sheet. Both have identical
backs, a background and frame common to every face, a rank shared by half the deck, a name of each
card's own, and a rule text too long for its box (so it shrinks and is reported for every card).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops
from pypdf import PdfReader

from pnp.diagnostics import Report
from pnp.render.cards.card_pdf import PrintOptions, write_component_pdf
from pnp.render.cards.deck import DeckRenderer, expand_copies, make_painter
from pnp.render.cards.forms import SharingPlan
from pnp.render.sheets.draw import SheetOptions, write_card_sheets
from pnp.render.sheets.imposition import plan_sheet
from pnp.render.sheets.paper import PAPER_SIZES, CardSize
from pnp.render.text.fonts import prepare_fonts
from pnp.validate import check_folder
from pnp.validate.card_layouts import bind_game

GAME_TOML = """\
id = "{id}"
source_language = "en"
languages = ["en"]
players = 2
[title]
en = "Form Test"
[credits]
author = "pnp tests"
[terms]
en = "Test data."
[components.deck]
kind = "cards"
name = {{ en = "Deck" }}
count = {count}
size = {size}
cards = "cards/deck.csv"
face = "test-face"
back = "test-back"
[[setup]]
players = 2
pool = "deck"
in_play = {count}
hand = 1
"""

FACE = """\
[[element]]
type = "rect"
fill = "#fff3e0"
bleed = true
[[element]]
type = "text"
x = 8
y = 6
w = 40
h = 30
text = "{{ card.rank_label }}"
size = 60
font = "bold"
colour = "#b71c1c"
[[element]]
type = "text"
x = 8
y = 40
w = 50
h = 10
text = "{{ card.name }}"
size = 12
[[element]]
type = "text"
x = 8
y = 52
w = 40
h = 8
text = "This rule text is far too long to fit in its little box at the size the layout asks for."
size = 12
min_size = 4
[[element]]
type = "frame"
inset = 3
stroke = "#1a1a1a"
"""

BACK = """\
[[element]]
type = "rect"
fill = "#263238"
bleed = true
[[element]]
type = "text"
x = 6
y = 20
w = 40
h = 12
text = "{{ game.title }}"
size = 16
font = "bold"
colour = "#ffffff"
"""

RULE_TEXT = "This rule text is far too long"


def make_game(root: Path, game_id: str, count: int, size: str) -> Path:
    folder = root / game_id
    (folder / "cards").mkdir(parents=True)
    (folder / "layouts").mkdir()
    (folder / "game.toml").write_text(GAME_TOML.format(id=game_id, count=count, size=size), encoding="utf-8")
    (folder / "layouts" / "test-face.toml").write_text(FACE, encoding="utf-8")
    (folder / "layouts" / "test-back.toml").write_text(BACK, encoding="utf-8")
    rows = [f"c{index:02d},1,{index % 2 + 1},Card {index}" for index in range(count)]
    (folder / "cards" / "deck.csv").write_text("id,count,rank,name.en\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return folder


def bind(folder: Path, cache: Path):
    checked = check_folder(folder)
    assert checked.game is not None and checked.rules is not None, [d.message for d in checked.report.errors]
    report = Report()
    bound = bind_game(checked.game, checked.rules, "en", report)
    assert not report.errors, [d.message for d in report.errors]
    deck = bound["deck"]
    fontset = prepare_fonts([*deck.texts(), "0123456789 A4 Form Test Deck sheet of backs Print at 100% / actual size"],
                            cache)
    return checked.game, deck, fontset


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory):
    """12 cards, one per page: ranks 1 and 2 alternate, so each rank is in 6 cards of the one slot."""
    root = tmp_path_factory.mktemp("forms")
    return bind(make_game(root, "big", 12, "[150, 220]"), root / "cache")


@pytest.fixture(scope="module")
def poker(tmp_path_factory: pytest.TempPathFactory):
    """54 poker cards: six 3 × 3 sheets."""
    root = tmp_path_factory.mktemp("forms")
    return bind(make_game(root, "poker", 54, '"poker"'), root / "cache")


def write(bound_game, path: Path, share_forms: bool = True) -> DeckRenderer:
    """write_component_pdf's job, with the renderer in the test's hands."""
    game, deck, fontset = bound_game
    width, height = deck.component.size
    plan = plan_sheet(PAPER_SIZES["a4"], CardSize(width, height), bleed_mm=3.0)
    renderer = DeckRenderer(deck, make_painter(fontset, game, ink_saver=False), share_forms=share_forms)
    write_card_sheets(path, expand_copies(deck), renderer.draw_face, renderer.draw_back, plan,
                      SheetOptions(label_font=fontset.regular, title="Form Test"))
    return renderer


def form_uses(path: Path) -> list[Counter]:
    """Per page: how often each Form XObject is drawn (``/name Do`` in the page's content)."""
    reader = PdfReader(path)
    pages = []
    for page in reader.pages:
        forms = {name for name, ref in (page["/Resources"].get("/XObject") or {}).items()
                 if ref.get_object()["/Subtype"] == "/Form" and not _is_ruler(name)}
        content = page.get_contents().get_data().decode("latin-1")
        pages.append(Counter(name for name in re.findall(r"(/[^\s/]+) Do", content) if name in forms))
    return pages


def all_forms(path: Path) -> set[int]:
    """Object numbers of every Form XObject any page uses."""
    reader = PdfReader(path)
    return {ref.idnum for page in reader.pages for name, ref in (page["/Resources"].get("/XObject") or {}).items()
            if ref.get_object()["/Subtype"] == "/Form" and not _is_ruler(name)}


def _is_ruler(name: str) -> bool:
    """The sheet's ruler is a form of its own (pnp/render/sheets/draw.py); these tests are about card forms."""
    return "pnpRuler" in name


def render(path: Path) -> list:
    document = pdfium.PdfDocument(path)
    try:
        return [page.render(scale=100 / 72).to_pil().convert("RGB") for page in document]
    finally:
        document.close()


def test_identical_backs_are_one_form_placed_on_every_later_sheet(big, tmp_path: Path) -> None:
    path = tmp_path / "big.pdf"
    write(big, path)
    backs = form_uses(path)[1::2]
    assert len(backs) == 12
    assert not backs[0], "the first sheet is drawn in place: how often a slot repeats is not known yet"
    assert all(sum(uses.values()) == 1 for uses in backs[1:]), backs
    assert len(set().union(*backs[1:])) == 1, "one form for all the backs"
    assert sum(sum(uses.values()) for uses in backs) == 11


def test_on_a_three_by_three_sheet_each_slot_has_its_back_form(poker, tmp_path: Path) -> None:
    """Forms are drawn in page coordinates (a reader finds a card's paths where the card is), so each
    of the 9 slots has its own back form, placed on each of the 5 sheets after the first."""
    path = tmp_path / "poker.pdf"
    write(poker, path)
    backs = form_uses(path)[1::2]
    assert not backs[0]
    per_form = sum(backs[1:], Counter())
    assert len(per_form) == 9 and set(per_form.values()) == {5}, per_form


def test_a_card_dependent_element_is_not_frozen_into_a_shared_form(big, tmp_path: Path) -> None:
    path = tmp_path / "big.pdf"
    write(big, path)
    faces = form_uses(path)[0::2]
    # cards 2 and 3 (rank 1 and rank 2) are both drawn from forms, and not from the same ones
    assert faces[2] and faces[3] and set(faces[2]) != set(faces[3])
    assert set(faces[2]) == set(faces[4]), "rank 1 again: the same forms"
    pages = render(path)
    assert ImageChops.difference(pages[4], pages[6]).getbbox() is not None, "rank 1 and rank 2 look alike"
    assert ImageChops.difference(pages[4], pages[8]).getbbox() is not None, "the names are the cards' own"


@pytest.mark.parametrize("deck", ["big", "poker"])
def test_forms_change_no_pixel(deck: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    bound_game = request.getfixturevalue(deck)
    write(bound_game, tmp_path / "shared.pdf")
    write(bound_game, tmp_path / "plain.pdf", share_forms=False)
    assert all_forms(tmp_path / "shared.pdf") and not all_forms(tmp_path / "plain.pdf")
    for shared, plain in zip(render(tmp_path / "shared.pdf"), render(tmp_path / "plain.pdf"), strict=True):
        assert ImageChops.difference(shared, plain).getbbox() is None


def test_text_issues_are_still_reported_once_per_card(big, tmp_path: Path) -> None:
    shared = write(big, tmp_path / "shared.pdf").issues
    plain = write(big, tmp_path / "plain.pdf", share_forms=False).issues
    rule = [issue for issue in shared if issue.text.startswith(RULE_TEXT)]
    assert [issue.card for issue in rule] == [f"c{index:02d}" for index in range(12)]
    assert all(issue.problem == "shrunk" and issue.layout == "test-face" for issue in rule)
    assert shared == plain


def test_rebuilding_gives_the_same_bytes(poker, tmp_path: Path) -> None:
    game, deck, fontset = poker
    for name in ("one.pdf", "two.pdf"):
        write_component_pdf(game, deck, fontset, PAPER_SIZES["a4"], "en", "duplex", PrintOptions(), tmp_path / name)
    data = (tmp_path / "one.pdf").read_bytes()
    assert data == (tmp_path / "two.pdf").read_bytes()
    assert all_forms(tmp_path / "one.pdf")
    assert b"/Helvetica" not in data, "forms use the embedded fonts"


def test_builds_in_processes_with_different_string_hashing_give_the_same_bytes(poker, tmp_path: Path) -> None:
    """Forms are found by hashing what they draw; their names and order must not depend on it."""
    game = poker[0]
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / f"out-{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed, "PNP_CACHE_DIR": str(tmp_path / "cache")}
        subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "build", "--data",
                        str(game.path.parent), game.id, "--lang", "en", "--paper", "a4", "--what", "cards",
                        "--out", str(out), "--jobs", "1", "--force"], env=env, check=True, capture_output=True)
        outputs.append((out / game.id / "en" / "a4" / "cards-deck.pdf").read_bytes())
    assert outputs[0] == outputs[1]


def test_sharing_plan_keeps_a_cards_own_elements_in_the_page() -> None:
    # element numbers: 0 background (every card), 1/2 a rank shared by two cards, 10+ names, 3 frame
    cards = [((0, 1, 10, 3), 1), ((0, 1, 11, 3), 1), ((0, 2, 12, 3), 1), ((0, 2, 13, 3), 2)]
    plan = SharingPlan.count(cards)
    pieces = plan.pieces((0, 1, 10, 3), [True, False, False, False])
    assert [(p.start, p.stop, p.run is not None, p.bleed) for p in pieces] == [
        (0, 2, True, True), (2, 3, False, False), (3, 4, True, False)]
    assert plan.uses[pieces[0].run] == 2 and plan.uses[pieces[2].run] == 5
    # a shared run that as a whole is one card's only (0 then 5, seen once together) is cut element by element
    plan = SharingPlan.count([((0, 5), 1), ((0, 6), 1), ((7, 5), 1)])
    assert [(p.start, p.stop) for p in plan.pieces((0, 5), [False, False])] == [(0, 1), (1, 2)]
    assert plan.worth_a_form(plan.pieces((0, 5), [False, False])[0].run, slots=1) is False  # 2 uses < 5

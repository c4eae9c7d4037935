"""A designer's own game with no rules module: what it gets from its data alone.

A Japanese-first set-collection game (60 mini cards, 12 tarot festival cards, 20 round coins) whose
rule text reads card data by id, whose aids are declared in game.toml, and whose setup arithmetic
is checked exactly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

MANIFEST = '''\
id = "harvest"
source_language = "ja"
languages = ["ja"]
players = [2, 4]

[title]
ja = "収穫祭"

[credits]
author = "Designer"
year = 2026

[terms]
ja = "個人での使用に限ります。"

[colours.red]
name = { ja = "赤" }
rgb = "#c62828"
symbol = "●"
[colours.blue]
name = { ja = "青" }
rgb = "#1565c0"
symbol = "▲"
[colours.green]
name = { ja = "緑" }
rgb = "#2e7d32"
symbol = "■"

[kinds.crop]
name = { ja = "作物" }
[kinds.festival]
name = { ja = "祭り" }
[kinds.coin]
name = { ja = "コイン" }

[components.crops]
kind = "cards"
name = { ja = "作物カード" }
count = 60
size = "mini"
cards = "cards/crops.csv"

[components.festivals]
kind = "cards"
name = { ja = "祭りカード" }
count = 12
size = "tarot"
cards = "cards/festivals.csv"
fields = ["points"]

[components.coins]
kind = "tokens"
name = { ja = "コイン" }
count = 20
size = [20, 20]
cards = "cards/coins.csv"

[[setup]]
players = [2, 4]
pool = "crops"
in_play = 60
hand = 5
revealed = 4
also.festivals = { pool = "festivals", in_play = 12, hand = 0, revealed = 5 }
also.coins = { pool = "coins", in_play = 20, hand = 3 }
'''

FESTIVALS = [("harvest", "収穫祭", 5), ("moon", "月見", 3), ("lantern", "灯籠流し", 2)]


def crops_csv() -> str:
    rows = ["id,count,kind,suit,colour,rank,name.ja"]
    for colour, word in (("red", "赤"), ("blue", "青"), ("green", "緑")):
        rows += [f"{colour}-{rank},2,crop,,{colour},{rank},{word}{rank}" for rank in range(1, 11)]
    return "\n".join(rows) + "\n"


def festivals_csv(festivals: list[tuple[str, str, int]] = FESTIVALS) -> str:
    counts = [6, 4, 2]
    rows = ["id,count,kind,suit,colour,rank,name.ja,points"]
    rows += [f"{fid},{count},festival,,,,{name},{points}" for (fid, name, points), count in zip(festivals, counts,
                                                                                                   strict=True)]
    return "\n".join(rows) + "\n"


RULES = '''\
## 概要 {#overview}

「{{ game.title }}」は{{ players.min }}〜{{ players.max }}人で遊びます。

## 得点 {#scoring}

{{ card("harvest") }}は{{ card("harvest").points }}点です（{{ card("harvest").count }}枚）。

{% for c in components.festivals.cards %}
- {{ c.name }}：{{ c.points }}点
{% endfor %}
'''


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data" / "harvest"
    (folder / "cards").mkdir(parents=True)
    (folder / "rules").mkdir()
    (folder / "game.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "cards" / "crops.csv").write_text(crops_csv(), encoding="utf-8")
    (folder / "cards" / "festivals.csv").write_text(festivals_csv(), encoding="utf-8")
    (folder / "cards" / "coins.csv").write_text("id,count,kind,name.ja\ncoin,20,coin,コイン\n", encoding="utf-8")
    (folder / "rules" / "ja.md").write_text(RULES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_the_game_as_written_passes_its_check(game: Path) -> None:
    status, output = run("check", "harvest")
    assert status == 0, output
    assert "0 error(s), 0 warning(s)" in output


def test_card_fields_in_a_rule_text_print_the_card_lists_numbers(game: Path) -> None:
    status, output = run("build", "harvest", "--what", "rules", "--paper", "a4")
    assert status == 0, output
    text = pdf_text(Path("output/harvest/ja/a4/rules.pdf"))
    assert "収穫祭は5点です（6枚）" in text
    assert re.search(r"収穫祭：5点\s*•?\s*月見：3点\s*•?\s*灯籠流し：2点", text), text
    # the rulebook follows the card list: a new number there is the new number in print
    (game / "cards" / "festivals.csv").write_text(
        festivals_csv([("harvest", "収穫祭", 8), ("moon", "月見", 3), ("lantern", "灯籠流し", 2)]), encoding="utf-8")
    status, output = run("build", "harvest", "--what", "rules", "--paper", "a4")
    assert status == 0, output
    text = pdf_text(Path("output/harvest/ja/a4/rules.pdf"))
    assert "収穫祭は8点です（6枚）" in text and "収穫祭：8点" in text


@pytest.mark.parametrize(("placeholder", "message"), [
    ('{{ card("harvest").pionts }}', "card(\"harvest\") has no field 'pionts' (did you mean 'points'?)"),
    ("{% for c in components.festivals.cards %}{{ c.nmae }}{% endfor %}",
     "a card of components.festivals.cards has no field 'nmae' (did you mean 'name'?)"),
    ("{% for c in components.festivls.cards %}{{ c }}{% endfor %}",
     "components has no field 'festivls' (did you mean 'festivals'?)"),
])
def test_a_misspelt_card_field_or_component_says_what_was_meant(game: Path, placeholder: str, message: str) -> None:
    with (game / "rules" / "ja.md").open("a", encoding="utf-8") as rules:
        rules.write(f"\n{placeholder}\n")
    status, output = run("check", "harvest")
    assert status == 1
    line = RULES.count("\n") + 2
    assert f"rules/ja.md:{line}: error: unknown name in a placeholder: {message}" in output


def line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if text in line)


def test_cards_in_play_must_be_exactly_what_the_setup_leaves(game: Path) -> None:
    manifest = game / "game.toml"
    edit(manifest, "in_play = 60", "in_play = 59")
    status, output = run("check", "harvest")
    assert status == 1
    assert (f"game.toml:{line_of(manifest, 'in_play = 59')}: error: 2-4 players: 59 cards in play, but 'crops' "
            "holds 60") in output
    assert "set in_play = 60" in output


def test_a_count_of_colours_the_game_does_not_have_is_an_error(game: Path) -> None:
    manifest = game / "game.toml"
    edit(manifest, "in_play = 60\n", "in_play = 60\ncolours = 4\n")
    status, output = run("check", "harvest")
    assert status == 1
    assert (f"game.toml:{line_of(manifest, 'colours = 4')}: error: 2-4 players: colours = 4, but 'crops' come in 3 "
            "colours") in output


def test_fewer_colours_in_play_leave_that_many_colours_cards(game: Path) -> None:
    manifest = game / "game.toml"
    edit(manifest, "in_play = 60\n", "in_play = 60\ncolours = 2\n")
    status, output = run("check", "harvest")
    assert status == 1
    assert "error: 2-4 players: 60 cards in play, but 2 of the 3 colours of 'crops' hold 40" in output
    edit(manifest, "in_play = 60\n", "in_play = 40\n")
    status, output = run("check", "harvest")
    assert status == 0, output


def test_the_setup_table_shows_revealed_pieces_of_every_deal(game: Path) -> None:
    status, output = run("check", "harvest")
    assert status == 0
    assert re.search(r"^4\s+60\s+5 each\s+4\s+-\s+-\s+-\s+3 of 20\s+0 of 12, 5 revealed$", output, re.MULTILINE), output


def test_tokens_are_not_called_cards(game: Path) -> None:
    manifest = game / "game.toml"
    edit(manifest, 'pool = "coins", in_play = 20, hand = 3', 'pool = "coins", in_play = 21, hand = 6')
    status, output = run("check", "harvest")
    assert status == 1
    assert "2-4 players (coins): 21 tokens in play, but 'coins' holds 20" in output
    assert "4 players (coins): 4 × 6 dealt + 0 revealed = 24 > 21 tokens in play" in output
    assert "cards in play" not in output


AIDS = '''
[[aid]]
id = "festival-points"
title = { ja = "祭りの得点" }
source = "cards"
component = "festivals"
columns = ["name", "points", "count"]
sort = "-points"
header = { ja = ["祭り", "得点", "枚数"] }

[[aid]]
id = "setup"
title = { ja = "準備" }
source = "setup"

[[aid]]
id = "contents"
title = { ja = "内容物" }
source = "components"
'''


def test_a_game_of_data_alone_says_in_the_summary_that_it_has_no_aid(game: Path) -> None:
    status, output = run("build", "harvest", "--paper", "a4")
    assert status == 0, output
    assert output.count("harvest: no aid: declare [[aid]] tables in game.toml or give the game a rules module") == 1
    assert "warning" not in output
    assert not Path("output/harvest/ja/a4/aid.pdf").exists()


def test_aids_declared_in_data_build_from_the_card_lists(game: Path) -> None:
    with (game / "game.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(AIDS)
    with (game / "rules" / "ja.md").open("a", encoding="utf-8") as rules:
        rules.write('\n{{ table("festival-points") }}\n')
    status, output = run("build", "harvest", "--paper", "a4")
    assert status == 0, output
    assert "no aid" not in output
    aid = pdf_text(Path("output/harvest/ja/a4/aid.pdf"))
    assert re.search(r"収穫祭\s*5\s*6\s*月見\s*3\s*4\s*灯籠流し\s*2\s*2", aid), aid
    assert re.search(r"人数.*使用枚数.*手札.*公開", aid) and "作物カード" in aid and "20 × 20 mm" in aid
    assert "収穫祭" in pdf_text(Path("output/harvest/ja/a4/aid-cards.pdf"))
    assert re.search(r"祭り\s*得点\s*枚数\s*収穫祭\s*5", pdf_text(Path("output/harvest/ja/a4/rules.pdf")))
    # sorted high to low by points: the moon festival now comes first
    (game / "cards" / "festivals.csv").write_text(
        festivals_csv([("harvest", "収穫祭", 5), ("moon", "月見", 9), ("lantern", "灯籠流し", 2)]), encoding="utf-8")
    status, output = run("build", "harvest", "--paper", "a4", "--what", "aid")
    assert status == 0, output
    assert re.search(r"月見\s*9\s*4\s*収穫祭\s*5\s*6", pdf_text(Path("output/harvest/ja/a4/aid.pdf")))


@pytest.mark.parametrize(("old", "new", "message", "fix"), [
    ('component = "festivals"', 'component = "festival"', "aid[1].component: unknown component 'festival'",
     "did you mean 'festivals'?"),
    ('columns = ["name", "points", "count"]', 'columns = ["name", "pionts", "count"]',
     "aid[1].columns: unknown column 'pionts' of the cards of 'festivals'", "did you mean 'points'?"),
    ('source = "setup"', 'source = "setpu"', "aid[2].source: unknown aid source 'setpu'", "did you mean 'setup'?"),
    ('sort = "-points"', 'sotr = "-points"', "aid[1].sotr: unknown key (ignored)", "did you mean 'sort'?"),
])
def test_a_bad_aid_key_is_reported_at_its_line(game: Path, old: str, new: str, message: str, fix: str) -> None:
    manifest = game / "game.toml"
    with manifest.open("a", encoding="utf-8") as file:
        file.write(AIDS.replace(old, new))
    status, output = run("check", "harvest", "--strict")
    assert status == 1
    assert f"game.toml:{line_of(manifest, new)}: " in output and message in output, output
    assert f"fix: {fix}" in output

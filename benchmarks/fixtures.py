"""Benchmark inputs, generated on first use and kept: card art PNGs and two game folders.

The art is what issue 9 measured with: poker cards at 300 dpi with 3 mm of bleed (69.5 x 94.9 mm,
821 x 1121 pixels), RGB, saved at zlib level 1. Each card is distinct (its own shapes, number and
grain), so no tool can share one image between cards.
"""

from __future__ import annotations

import functools
import os
import random
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

ART_SIZE = (821, 1121)
GRAIN_MARGIN = 64
GRAIN = 1.5  # sigma of the per-pixel noise: makes a PNG of about 0.8 MB at level 1, as in the issue
SUITS = {"spades": ("black", "♠"), "hearts": ("red", "♥"), "diamonds": ("red", "♦"), "clubs": ("black", "♣")}

MANIFEST = """\
id = "{id}"
source_language = "en"
languages = ["en"]
players = 2
[title]
en = "Benchmark"
[credits]
author = "pnp benchmarks"
[terms]
en = "Generated for benchmarks/run.py."
[colours.red]
name = {{ en = "red" }}
rgb = "#c62828"
[colours.black]
name = {{ en = "black" }}
rgb = "#1b1b1b"
{suits}
[components.deck]
kind = "cards"
name = {{ en = "Deck" }}
count = {count}
size = "poker"
cards = "cards/deck.csv"
face = "{face}"
back = "bench-back"
fields = [{fields}]
[[setup]]
players = 2
pool = "deck"
in_play = {count}
hand = 1
"""

BACK_LAYOUT = """\
description = "A plain coloured back with the title: the same as the baselines draw."
[[element]]
type = "rect"
fill = "#334d66"
bleed = true
[[element]]
type = "text"
x = 6
y = 38
w = "width - 12"
h = 12
text = "{{ game.title }}"
size = 16
font = "bold"
align = "center"
valign = "middle"
colour = "#ffffff"
"""

# drawn the same way, primitive for primitive, by benchmarks/reportlab_vector.py
FACE_LAYOUT = """\
description = "Colour stripe, corner index, big rank, name, one rule text and a frame."
[[element]]
type = "rect"
fill = "#ffffff"
bleed = true
[[element]]
type = "rect"
w = 6.5
fill = "{{ colour.rgb }}"
bleed = true
[[element]]
type = "text"
x = 8
y = 3.5
w = 15
h = 11
text = "{{ card.rank_label }}"
size = 24
font = "bold"
colour = "{{ colour.rgb }}"
[[element]]
type = "text"
x = 10
y = 24
w = 47
h = 30
text = "{{ card.rank_label }}"
size = 64
font = "bold"
align = "center"
valign = "middle"
colour = "{{ colour.rgb }}"
[[element]]
type = "text"
x = 10
y = 56
w = 48.5
h = 8
text = "{{ card.name }}"
size = 10
align = "center"
valign = "middle"
colour = "#444444"
[[element]]
type = "text"
x = 10
y = 66.5
w = 48.5
h = 18
text = "{{ card.text }}"
size = 9
[[element]]
type = "frame"
inset = 3
radius = 2.5
stroke = "#1a1a1a"
stroke_width = 0.4
"""

RULE_TEXT = "Play on a card of the same suit, or one rank higher or lower."


def card_art(index: int) -> Image.Image:
    rnd = random.Random(index)
    width, height = ART_SIZE
    ramp = Image.linear_gradient("L").resize(ART_SIZE)
    image = Image.merge("RGB", (ramp, ramp.transpose(Image.Transpose.ROTATE_90).resize(ART_SIZE),
                                ImageChops.invert(ramp)))
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y, size = rnd.randrange(width), rnd.randrange(height), rnd.randrange(40, 300)
        draw.ellipse((x, y, x + size, y + size), fill=tuple(rnd.randrange(256) for _ in range(3)))
    draw.text((80, 80), f"card {index}", fill=(0, 0, 0), font_size=90)
    offset = (rnd.randrange(GRAIN_MARGIN), rnd.randrange(GRAIN_MARGIN))
    grain = _grain().crop((*offset, offset[0] + width, offset[1] + height))
    return ImageChops.add(image, grain, scale=1.0, offset=-128)


@functools.cache
def _grain() -> Image.Image:
    """One noise field, cropped at a different place for each card: noise is the slow part to make."""
    return Image.effect_noise((ART_SIZE[0] + GRAIN_MARGIN, ART_SIZE[1] + GRAIN_MARGIN), GRAIN).convert("RGB")


def ensure_art(folder: Path, count: int) -> list[Path]:
    """card-0000.png ... as needed; existing files are kept, so the second run starts at once."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"card-{index:04d}.png" for index in range(count)]
    missing = [(index, path) for index, path in enumerate(paths) if not path.exists()]
    if missing:
        print(f"making {len(missing)} card images (once; they are kept in {folder})", flush=True)
        with ProcessPoolExecutor(os.cpu_count() or 1) as pool:
            list(pool.map(_save_art, missing, chunksize=16))
    return paths


def _save_art(job: tuple[int, Path]) -> None:
    index, path = job
    temporary = path.with_suffix(".tmp")
    card_art(index).save(temporary, "PNG", compress_level=1)
    temporary.replace(path)


def suits_toml() -> str:
    return "\n".join(f'[suits.{suit}]\nname = {{ en = "{suit}" }}\ncolour = "{colour}"\nsymbol = "{symbol}"'
                     for suit, (colour, symbol) in SUITS.items())


def write_game(game: Path, count: int, face: str, fields: str, header: str, rows: list[str]) -> Path:
    (game / "cards").mkdir(parents=True, exist_ok=True)
    (game / "layouts").mkdir(exist_ok=True)
    (game / "layouts" / "bench-back.toml").write_text(BACK_LAYOUT, encoding="utf-8")
    (game / "layouts" / "bench-face.toml").write_text(FACE_LAYOUT, encoding="utf-8")
    manifest = MANIFEST.format(id=game.name, count=count, face=face, fields=fields, suits=suits_toml())
    (game / "game.toml").write_text(manifest, encoding="utf-8")
    (game / "cards" / "deck.csv").write_text(header + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return game


def image_game(data: Path, art: Path, count: int) -> Path:
    """A full-bleed image deck of ``count`` distinct cards, in a folder of its own.

    pnp reads every file of a game folder to decide whether a build is up to date, so the 90-card
    deck gets a folder holding 90 pictures; they are hard links into ``art``, not copies.
    """
    game = data / f"bench-art-{count}"
    (game / "art").mkdir(parents=True, exist_ok=True)
    for source in ensure_art(art, count):
        linked = game / "art" / source.name
        if not linked.exists():
            try:
                os.link(source, linked)
            except OSError:
                shutil.copyfile(source, linked)
    rows = [f"card-{index:04d},1,art/card-{index:04d}.png" for index in range(count)]
    return write_game(game, count, "full-bleed-image", '"image"', "id,count,image", rows)


def vector_cards(count: int) -> list[dict[str, str]]:
    """Distinct cards: suit and rank cycle, every name differs."""
    suits = list(SUITS)
    return [{"id": f"v{index:05d}", "suit": suits[index % 4], "rank": str(index // 4 % 10 + 1),
             "name.en": f"Card {index}", "text.en": RULE_TEXT} for index in range(count)]


def vector_game(data: Path, count: int) -> Path:
    cards = vector_cards(count)
    rows = [f'{c["id"]},1,{c["suit"]},{c["rank"]},{c["name.en"]},"{c["text.en"]}"' for c in cards]
    return write_game(data / "bench-vector", count, "bench-face", "", "id,count,suit,rank,name.en,text.en", rows)

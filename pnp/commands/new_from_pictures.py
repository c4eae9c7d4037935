"""`pnp new GAME --images DIR`: a game made from a folder of card pictures, ready to build.

For the designer who draws cards elsewhere and wants only the sheets: every picture becomes a card
(its file copied into the game's images/ folder and named in the card list's image column), a
picture called back.png (or .jpg, .svg) becomes the back, and the card size is read off the
pictures' proportions. The game checks clean and builds as made; its card list, counts and
names are there to edit.
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pnp.load.game_folder import editor_litter
from pnp.model.sizes import CARD_PRESETS

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
BACK_NAMES = ("back", "card-back", "cardback", "back-side")
BLEED_MM = 3.0
#: how far a picture's proportions may be from a preset's (with or without bleed) and still be it
SIZE_TOLERANCE = 0.02


class PictureFolderError(Exception):
    """The folder cannot make a game: the message says why and what to do."""


@dataclass(frozen=True)
class PictureDeck:
    source: Path  # the folder the pictures are in
    cards: tuple[tuple[str, str], ...]  # (card id, file name) in the folder's natural order
    back: str | None  # the back picture's file name
    size: str  # a preset name, or "WxH" for landscape cards
    size_note: str  # how the size was chosen, for the message


def natural_key(name: str) -> tuple[list[object], str]:
    """card-2 before card-10, and élan beside Elan, not after Zebra, as a file manager lists them;
    names that differ only in case or accents keep their code-point order, so the deck's order is fixed."""
    folded = "".join(char for char in unicodedata.normalize("NFKD", name) if not unicodedata.combining(char))
    parts = [int(part) if part.isdecimal() else part.casefold() for part in re.split(r"(\d+)", folded)]
    return parts, name


def card_id(stem: str, taken: set[str]) -> str:
    """A card id from a file name: lower case, words joined by '-', unique in the deck."""
    plain = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode("ascii")  # Élan -> Elan
    base = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "card"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    taken.add(candidate)
    return candidate


def read_picture_folder(folder: Path) -> PictureDeck:
    if not folder.is_dir():
        raise PictureFolderError(f"--images {folder}: no such folder")
    pictures = sorted((path for path in folder.iterdir()
                       if path.is_file() and path.suffix.lower() in PICTURE_SUFFIXES and not editor_litter(path.name)),
                      key=lambda path: natural_key(path.name))
    backs = [path for path in pictures if path.stem.lower() in BACK_NAMES]
    if len(backs) > 1:  # one was the back and the others cards, with nothing said
        raise PictureFolderError(f"--images {folder}: {len(backs)} pictures are named as the back: "
                                 f"{', '.join(path.name for path in backs)}\nfix: keep one back picture (rename "
                                 "the others, if they are cards); nothing was created")
    back = backs[0] if backs else None
    faces = [path for path in pictures if path is not back]
    if not faces:
        raise PictureFolderError(f"--images {folder}: no PNG, JPEG or SVG card pictures in it")
    unusable = [problem for path in pictures if (problem := picture_problem(path, folder)) is not None]
    if unusable:
        # the game would fail its own check at once; its maker can fix or remove the files first
        listed_problems = "\n  ".join(unusable)
        raise PictureFolderError(f"--images {folder}: {len(unusable)} picture(s) pnp cannot print as they are:\n  "
                                 f"{listed_problems}\nfix: save them again (PNG or JPEG, or SVG without text), or "
                                 "remove them; nothing was created")
    taken: set[str] = set()
    cards = tuple((card_id(path.stem, taken), path.name) for path in faces)
    sizes = _shown_sizes([path for path in faces if path.suffix.lower() != ".svg"])
    size, note = card_size(sizes)
    others = _other_shapes(sizes)
    if others:  # the deck's size is the most common shape: these are cut to it
        note += (f"; {len(others)} picture(s) of other proportions are cropped to fill the card: "
                 f"{', '.join(others[:4])}{' and more' if len(others) > 4 else ''}")
    return PictureDeck(folder, cards, back.name if back else None, size, note)


def _shown_sizes(pictures: list[Path]) -> dict[str, tuple[int, int]]:
    """Each picture's size as shown, by file name; one that cannot be read is left out (pnp check says why,
    at its card)."""
    from pnp.render.cards.images import ImageFormatError, inspect_image

    sizes = {}
    for path in pictures:
        try:
            sizes[path.name] = inspect_image(path).shown_size
        except (ImageFormatError, OSError):
            continue
    return sizes


def _other_shapes(sizes: dict[str, tuple[int, int]]) -> list[str]:
    """The pictures whose proportions (or way up) differ from the most common ones, with their size."""
    if not sizes:
        return []
    common, _ = Counter(sizes.values()).most_common(1)[0]
    ratio = common[0] / common[1]
    return [f"{name} ({width} × {height} px)" for name, (width, height) in sizes.items()
            if abs(width / height / ratio - 1) > SIZE_TOLERANCE]


def picture_problem(path: Path, folder: Path | None = None) -> str | None:
    """Why a picture could not be printed as it is, said as `pnp check` would say it; None if it can.
    The pictures are copied into the new game, so a link out of their ``folder`` is refused, as a game
    folder's would be (pnp.load.guarded)."""
    from pnp.diagnostics import DataError
    from pnp.load.guarded import check_input
    from pnp.render.cards.art import too_many_pixels
    from pnp.render.cards.images import ImageFormatError, inspect_image

    try:
        check_input(path, "art", within=folder)
    except DataError as exc:
        return _named(path, exc.diagnostic.message)
    if path.suffix.lower() == ".svg":
        from pnp.render.cards.vector_art import load_svg

        try:
            load_svg(path)
        except DataError as exc:
            return _named(path, exc.diagnostic.message)
        return None
    try:
        width, height = inspect_image(path).shown_size
    except DataError as exc:
        return _named(path, exc.diagnostic.message)
    except (ImageFormatError, OSError) as exc:
        return _named(path, str(exc))
    too_many = too_many_pixels(width, height)
    return f"{path.name}: {too_many}" if too_many else None


def _named(path: Path, message: str) -> str:
    return message if path.name in message else f"{path.name}: {message}"


def card_size(sizes: dict[str, tuple[int, int]]) -> tuple[str, str]:
    """The preset whose proportions the pictures have (with their 3 mm bleed, or without), turned
    landscape when they are wider than tall; poker when they match none."""
    shapes = Counter(sizes.values())
    if not shapes:
        return "poker", "poker, the default: no picture to measure"
    (width, height), _ = shapes.most_common(1)[0]
    landscape = width > height
    long, short = max(width, height), min(width, height)
    ratio = short / long
    best = None
    for name, (w, h) in CARD_PRESETS.items():
        for bleed in (BLEED_MM, 0.0):
            preset = min(w, h) + 2 * bleed, max(w, h) + 2 * bleed
            error = abs(ratio - preset[0] / preset[1]) / (preset[0] / preset[1])
            if best is None or error < best[0]:
                best = (error, name, w, h)
    assert best is not None
    error, name, w, h = best
    if error > SIZE_TOLERANCE:
        return "poker", (f"poker: the pictures ({width} × {height} px) match no preset's proportions; "
                         "set size in game.toml")
    if landscape and w != h:
        return f"{max(w, h):g}x{min(w, h):g}", f"{name}, landscape, from the pictures' {width} × {height} px"
    return name, f"{name}, from the pictures' {width} × {height} px"


def write_picture_game(staging: Path, deck: PictureDeck) -> None:
    """Copy the pictures in and write the card list and, for a back picture, its layout."""
    source = deck.source
    images = staging / "images"
    images.mkdir()
    for _, name in deck.cards:
        shutil.copy2(source / name, images / name)
    if deck.back:
        shutil.copy2(source / deck.back, images / deck.back)
        (staging / "layouts").mkdir()
        (staging / "layouts" / "picture-back.toml").write_text(
            "# The back of every card: the picture, over the bleed.\n"
            f'[[element]]\ntype = "image"\nsrc = "images/{deck.back}"\nbleed = true\n', encoding="utf-8")
    (staging / "cards").mkdir()
    lines = ["id,count,image"] + [f"{card},1,{_csv_field('images/' + name)}" for card, name in deck.cards]
    (staging / "cards" / "deck.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _csv_field(value: str) -> str:
    return '"' + value.replace('"', '""') + '"' if any(c in value for c in ',"\n') else value

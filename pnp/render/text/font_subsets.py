"""TrueType subsets of CFF fonts: made with fontTools, kept in the user cache, cut from bases.

reportlab embeds only TrueType outlines, and pnp's default fonts (Noto Sans CJK JP) are CFF, so every
set of characters a build draws becomes a subset converted to TrueType (:mod:`pnp.render.text.fonts`
chooses the sets). A build of the shipped games asks for about 25 sets per font. Subsetting the 16 MB
font costs about 0.4 s of reading tables of 65,000 glyphs, whatever the set, before its glyphs are
converted; so a build converts the characters its games are likely to draw once per font, into a
*base*, and cuts each set from the base in a twentieth of that time.

A subset cut from a base is byte for byte the subset made from the font itself: the glyphs keep their
order and outlines, and every table the subsetter computes (cmap, metrics, bounding boxes, maxp)
depends only on the glyphs kept. That holds for fonts whose glyphs are whole outlines, as the CID-keyed
CFF of the default fonts are; a game's own CFF font may build accents from other glyphs (``seac``),
which a base would have drawn into one outline, so bases are made for the default fonts only.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.diagnostics import DataError
from pnp.load.user_cache import file_matches_seal, write_file_and_seal
from pnp.render.text.sfnt import SfntError, table_directory

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont as FtFont

# Bumped whenever the conversion changes, so stale cache files are never reused.
_CONVERTER_VERSION = "pnp-otf2ttf-1"
# Any fixed date works; it only has to stay the same between builds (2020-01-01).
_FIXED_HEAD_TIME = 3660249600
_CU2QU_MAX_ERR = 1.0  # font units; invisible at print sizes
#: tables reportlab has no use for: it does not shape text (layout tables) and sets horizontally
_DROPPED_TABLES = ("VORG", "vhea", "vmtx", "BASE", "DSIG", "GSUB", "GPOS", "GDEF")


def subset_key(file_hash: str, charset: Iterable[str]) -> str:
    """The cache key of a font's subset for ``charset``: the converter, the font's bytes, the characters."""
    return hashlib.sha256(
        "\n".join([_CONVERTER_VERSION, file_hash, "".join(sorted(charset))]).encode("utf-8", "surrogatepass")
    ).hexdigest()


def subset_file(cache_dir: Path, font: Path, key: str) -> Path:
    return cache_dir / f"{font.stem}-{key[:32]}.ttf"


@dataclass(frozen=True)
class Base:
    """A converted subset of a font for every character a build is likely to draw, to cut subsets from."""

    font: Path  # the CFF font file, resolved
    chars: frozenset[str]
    path: Path  # its TrueType subset in the cache (a subset like any other, named by its characters)

    def covers(self, font: Path, charset: frozenset[str]) -> bool:
        return font == self.font and charset <= self.chars


_bases: list[Base] = []


def use_bases(bases: Sequence[Base]) -> None:
    """Cut this process's subsets from ``bases`` where they cover them (a worker hears of the build's)."""
    _bases[:] = bases


def make_base(base: Base) -> Path:
    """Convert a base's characters, unless its file is in the cache already; what a build does first.
    A cache that cannot be written leaves the base unmade, and each subset is made from the font."""
    if not _is_whole(base.path):
        with contextlib.suppress(OSError):
            write_file_and_seal(base.path, truetype_subset_bytes(base.font, base.chars))
    return base.path


def cached_truetype_subset(path: Path, charset: frozenset[str], cache_dir: Path, key: str) -> Path:
    """The TrueType subset of ``path`` for ``charset`` in the cache, made (from a base if one covers it)
    when it is not there yet."""
    target = subset_file(cache_dir, path, key)
    if _is_whole(target):
        return target
    font = path.resolve()
    base = next((b for b in _bases if b.covers(font, charset) and _is_whole(b.path)), None)
    subset = cut_from_base(base.path, charset) if base else truetype_subset_bytes(path, charset)
    try:
        write_file_and_seal(target, subset)
    except OSError:
        # a cache folder that cannot be written costs speed, not the build: the subset goes into a
        # folder of this process's own, deleted when it ends (every build failed with "cannot write")
        target = _private_folder() / target.name
        target.write_bytes(subset)
    return target


_private: list[Path] = []


def _private_folder() -> Path:
    if not _private:
        import atexit
        import shutil
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="pnp-fonts-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _private.append(folder)
    return _private[0]


def _is_whole(path: Path) -> bool:
    """A cached subset or base that is this pnp's, matches its seal and reads as TrueType: a flipped byte
    made reportlab fail, or changed the PDF's bytes without a word."""
    return file_matches_seal(path) and _is_readable_truetype(path)


def _is_readable_truetype(path: Path) -> bool:
    try:
        return "glyf" in table_directory(path)
    except (OSError, SfntError):
        return False


def open_font(path: Path, lazy: bool = True) -> FtFont:
    # fontTools is imported only when a font must be read: a build whose subsets are all cached never needs it
    from fontTools.ttLib import TTFont as FtFont
    from fontTools.ttLib import TTLibError

    try:
        return FtFont(path, lazy=lazy)
    except TTLibError as exc:
        raise DataError(
            f"{path} is not a usable font: {exc}",
            file=path,
            fix="use a single-font .ttf or .otf file (collections .ttc/.otc are not supported)",
        ) from exc
    except OSError as exc:
        raise DataError(f"cannot read font file {path}: {exc.strerror}", file=path) from exc


def truetype_subset_bytes(path: Path, charset: Iterable[str]) -> bytes:
    """Subset a CFF OpenType font to ``charset`` and return it with TrueType outlines.

    Follows fontTools' snippets/otf2ttf.py. Layout tables are dropped because
    reportlab does not shape text; vertical metrics because we set horizontally.
    """
    font = open_font(path)
    for tag in _DROPPED_TABLES:
        # the subsetter would drop them too, but only after reading GSUB and GPOS whole: a third of its time
        if tag in font:
            del font[tag]
    _subset(font, charset)
    _cff_to_glyf(font)
    font["head"].created = _FIXED_HEAD_TIME
    font["head"].modified = _FIXED_HEAD_TIME
    return _saved(font)


def cut_from_base(base: Path, charset: Iterable[str]) -> bytes:
    """The subset of a base (already TrueType, dates fixed) for ``charset``: what
    :func:`truetype_subset_bytes` makes of the base's font, without reading that font again."""
    font = open_font(base)
    _subset(font, charset)
    return _saved(font)


def _subset(font: FtFont, charset: Iterable[str]) -> None:
    from fontTools import subset as ft_subset

    options = ft_subset.Options()
    options.layout_features = []
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True
    options.drop_tables += list(_DROPPED_TABLES)
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in charset))
    subsetter.subset(font)


def _saved(font: FtFont) -> bytes:
    font.recalcTimestamp = False
    buffer = BytesIO()
    font.save(buffer)
    return buffer.getvalue()


def _cff_to_glyf(font: FtFont) -> None:
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    glyph_order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = {}
    for name in glyph_order:
        pen = TTGlyphPen(None)
        glyph_set[name].draw(Cu2QuPen(pen, _CU2QU_MAX_ERR, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)

    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)

    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.maxZones = 1
    for attr in (
        "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
        "maxStackElements", "maxSizeOfInstructions", "maxComponentElements",
    ):
        setattr(maxp, attr, 0)
    font["maxp"] = maxp
    maxp.compile(font)

    post = font["post"]
    post.formatType = 3.0  # glyph names are useless to reportlab and CID names would only add bytes
    post.extraNames = []
    post.mapping = {}
    font.sfntVersion = "\000\001\000\000"



"""Fonts by role, checked for coverage and made embeddable by reportlab.

reportlab embeds only TrueType (glyf) outlines and has no font fallback: a
character the font lacks prints as an empty box. Our default fonts (Noto Sans
CJK JP) are CFF OpenType, so we subset them to the characters a build uses and
convert the subset to TrueType outlines, and we refuse to build when any
character is not covered, naming each one.

Subset files are cached by a hash of the font's bytes and the character set,
written atomically so parallel builds never read half a file, and written
deterministically so that ``invariant=1`` PDFs are byte-identical.
"""

from __future__ import annotations

import bisect
import hashlib
import threading
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont as RlFont

from pnp.diagnostics import DataError
from pnp.load.digests import digest_of
from pnp.load.guarded import check_input
from pnp.load.user_cache import read_sealed, user_cache_dir, write_sealed
from pnp.render.text.font_subsets import (
    Base,
    cached_truetype_subset,
    open_font,
    subset_file,
    subset_key,
)
from pnp.render.text.sfnt import SfntError, table_directory, typographic_metrics


class EmbeddedFont(RlFont):
    """A TrueType font whose embedded subsets are named by what they hold.

    reportlab names a document's subset "AAAAAA+<font>" whatever glyphs it holds, so every pnp PDF
    used one name for different subsets (103 glyphs in Two Ops' deck, 100 in Rudy's). Legal within a
    file, but a print shop that gangs several files onto a sheet, or a RIP that caches fonts by name,
    can then print one file's text with another's glyphs. The name gains a digest of the subsets'
    characters: equal names mean equal subsets, and the same inputs still give the same bytes.
    """

    def addObjects(self, doc: object) -> None:
        state = self.state.get(doc)
        if state is None:
            super().addObjects(doc)
            return
        named = self.face.name
        held = hashlib.sha256(repr(state.subsets).encode("utf-8", "surrogatepass")).hexdigest()[:8]
        self.face.name = named + b"-" + held.encode("ascii")
        try:
            super().addObjects(doc)
        finally:
            self.face.name = named


# Characters every build may draw without listing them (page numbers, counts,
# suit marks, Japanese brackets). Kept in the subset when the font has them so
# that small text edits rarely change the subset and its cache file.
BASELINE_CHARS = frozenset(
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "\u00a0©®°±²³·×÷‐‑–—‘’‚“”„†‡•…‰′″‹›€™−∞≤≥→←↑↓"
    + "♠♥♦♣♤♡♢♧△▲▽▼◇◆○●□■☆★※"
    + "、。，．・：；？！ー〜～「」『』（）［］｛｝〔〕〈〉《》【】〒〃々〆\u3000"
    + "０１２３４５６７８９"
)


class MissingGlyphError(DataError):
    """Raised when text uses characters a font cannot draw.

    ``missing`` maps each role to ``{char: sample}`` so callers and tests can
    see exactly which characters failed and where they came from.
    """

    def __init__(self, missing: Mapping[str, Mapping[str, str]], fonts: Mapping[str, Path]) -> None:
        self.missing = {role: dict(chars) for role, chars in missing.items()}
        lines = []
        for role, chars in self.missing.items():
            lines.append(f"the {role} font ({fonts[role].name}) has no glyph for {len(chars)} character(s):")
            for char, sample in chars.items():
                lines.append(f"  {describe_char(char)} in {sample!r}")
        super().__init__(
            "\n".join(lines),
            fix="replace or remove these characters, or set a font that covers them for that role",
        )


class UnpreparedTextError(ValueError):
    """Text reached drawing with characters that were never passed to :func:`prepare_fonts`.

    A bug in the caller rather than in the user's data (the data was checked),
    but still an error: the alternative is an empty box on paper.
    """


@dataclass(frozen=True)
class FontSet:
    """The reportlab font names to draw with, one per role.

    ``charset`` is exactly what every role's prepared font can draw; drawing
    anything else would print an empty box.
    """

    fonts: Mapping[str, str]
    charset: frozenset[str] = field(repr=False)
    paths: Mapping[str, Path] = field(default_factory=dict)
    ascent: float = 0.88  # of the em, from the regular font's OS/2 typo metrics
    descent: float = 0.12  # positive, below the baseline

    @property
    def regular(self) -> str:
        return self.fonts["regular"]

    @property
    def bold(self) -> str:
        return self.fonts["bold"]

    def covers(self, char: str) -> bool:
        return char in self.charset

    def require(self, text: str) -> None:
        """Raise :class:`UnpreparedTextError` unless every character of ``text`` can be drawn."""
        missing = set(text) - self.charset - {"\n"}
        if missing:
            listed = ", ".join(describe_char(c) for c in sorted(missing))
            raise UnpreparedTextError(f"{text!r} uses characters not passed to prepare_fonts: {listed}")

    def font_for(self, role: str) -> str:
        try:
            return self.fonts[role]
        except KeyError:
            known = ", ".join(sorted(self.fonts))
            raise KeyError(f"no font for role {role!r}; prepared roles: {known}") from None


def font_cache_dir() -> Path:
    """Where converted font subsets are kept between builds and projects.

    The files are keyed by the font's content and the exact character set, so
    sharing them across output folders is safe, and deleting them only costs
    time: ``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``.
    """
    return user_cache_dir() / "fonts"


def default_font_paths() -> dict[str, Path]:
    """The pinned pip font packages, so every machine builds the same bytes."""
    import noto_cjk_sans_jp_bold
    import noto_cjk_sans_jp_regular

    return {
        "regular": Path(str(noto_cjk_sans_jp_regular.FONT_PATH)),
        "bold": Path(str(noto_cjk_sans_jp_bold.FONT_PATH)),
    }


class Coverage:
    """The characters every one of some fonts can draw, kept as code point ranges.

    A CJK font covers about 45,000 characters; a set of them costs more to build on every run
    than a build of a small deck spends drawing. Ranges answer "is this character covered?" by
    bisection, and are what the disk cache holds.
    """

    def __init__(self, fonts: Sequence[Sequence[tuple[int, int]]],
                 roles: Mapping[str, tuple[str, Coverage]] | None = None) -> None:
        self._fonts = [([start for start, _ in ranges], [end for _, end in ranges]) for ranges in fonts]
        #: role -> (font file name, its own coverage), where known: which font lacks a character
        self.roles = dict(roles or {})

    def __contains__(self, char: object) -> bool:
        if not isinstance(char, str) or len(char) != 1:
            return False
        code = ord(char)
        for starts, ends in self._fonts:
            index = bisect.bisect_right(starts, code) - 1
            if index < 0 or code > ends[index]:
                return False
        return True

    def missing(self, chars: Iterable[str]) -> set[str]:
        """The characters of ``chars`` some font lacks."""
        return {char for char in chars if char not in self}


def covered_characters(overrides: Mapping[str, Path] | None = None) -> Coverage:
    """Characters every role's font can draw: what `pnp check` may let through to a build."""
    paths = default_font_paths()
    paths.update({role: Path(p) for role, p in (overrides or {}).items()})
    return Coverage([_cmap_ranges(path) for path in paths.values()],
                    {role: (path.name, Coverage([_cmap_ranges(path)])) for role, path in paths.items()})


def prepare_fonts(
    texts: Iterable[str],
    cache_dir: Path,
    overrides: Mapping[str, Path] | None = None,
) -> FontSet:
    """Check that every role's font covers ``texts`` and register embeddable fonts.

    Pass every string the build will draw. Roles other than regular and bold
    may be added through ``overrides``; each role must cover all the texts,
    because we cannot know which text a caller will set in which role.
    """
    paths = default_font_paths()
    paths.update({role: Path(p) for role, p in (overrides or {}).items()})
    samples = _first_sample_of_each_char(texts)
    wanted = frozenset(samples)

    cmaps = {role: Coverage([_cmap_ranges(path)]) for role, path in paths.items()}
    missing = {
        role: {ch: samples[ch] for ch in sorted(covered.missing(wanted))}
        for role, covered in cmaps.items()
        if covered.missing(wanted)
    }
    if missing:
        raise MissingGlyphError(missing, paths)

    everywhere = Coverage([_cmap_ranges(path) for path in paths.values()])
    charset = wanted | frozenset(char for char in BASELINE_CHARS if char in everywhere)
    fonts: dict[str, str] = {}
    prepared: dict[str, Path] = {}
    for role, path in paths.items():
        fonts[role], prepared[role] = _register(role, path, charset, Path(cache_dir))
    _register_family(fonts["regular"], fonts["bold"])
    ascent, descent = _vertical_metrics(prepared["regular"])
    return FontSet(fonts=fonts, charset=charset, paths=prepared, ascent=ascent, descent=descent)


def plan_bases(likely: Iterable[str], cache_dir: Path) -> list[Base]:
    """A base for each default CFF font: every character of ``likely`` and the baseline, converted once
    so that each text's subset is cut from it (pnp.render.text.font_subsets). Characters outside
    ``likely`` still print: a subset they are part of is made from the font itself, to the same bytes."""
    chars = frozenset(char for char in likely if unicodedata.category(char) != "Cc") | BASELINE_CHARS
    bases = []
    for path in default_font_paths().values():
        if "CFF " in _tables(path):
            key = subset_key(_font_file_hash(path), chars)
            bases.append(Base(path.resolve(), chars, subset_file(Path(cache_dir), path, key)))
    return bases


# --- coverage -----------------------------------------------------------------------------------------


def _first_sample_of_each_char(texts: Iterable[str]) -> dict[str, str]:
    """Map each drawable character to a short excerpt of the first text using it."""
    samples: dict[str, str] = {}
    for text in texts:
        for index, char in enumerate(text):
            if char in samples or unicodedata.category(char) == "Cc":
                continue
            samples[char] = _excerpt(text, index)
    return samples


def _excerpt(text: str, index: int, radius: int = 15) -> str:
    start, end = max(0, index - radius), min(len(text), index + radius + 1)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


NO_GLYPH_FIX = ("replace the character, or give the game a font that has it: fonts = { regular = \"fonts/My.ttf\", "
                "bold = \"fonts/My-Bold.ttf\" } in game.toml")


def no_glyph(chars: Iterable[str], text: str, coverage: Coverage | None = None) -> str:
    """The report of the characters of a text that some configured font lacks: one problem per text, however
    many such characters it holds."""
    return f"{missing_glyphs(chars, coverage)}, used in {text[:40]!r}"


def missing_glyphs(chars: Iterable[str], coverage: Coverage | None = None) -> str:
    """"no font has U+4E00 '一' (...)", or "the bold font (X.ttf) has no ..." when the others have every one
    of ``chars``. Every role's font must have them (a text may be set in any); "no font has 一" was untrue
    of a game whose bold font alone lacked it."""
    chars = set(chars)
    described = ", ".join(describe_char(char) for char in sorted(chars))
    roles = coverage.roles if coverage is not None else {}
    short = [(role, name) for role, (name, own) in roles.items() if own.missing(chars)]
    if not short or len(short) == len(roles):
        return f"no font has {described}"
    fonts = " and ".join(f"the {role} font ({name})" for role, name in short)
    return f"{fonts} {'has' if len(short) == 1 else 'have'} no {described}"


def describe_char(char: str) -> str:
    """U+4E00 '一' (CJK UNIFIED IDEOGRAPH-4E00): how every report names a character."""
    name = unicodedata.name(char, "unnamed character")
    return f"U+{ord(char):04X} {char!r} ({name})"


_lock = threading.Lock()
_file_hashes: dict[Path, str] = {}
_cmaps: dict[Path, list[tuple[int, int]]] = {}
_prepared: dict[tuple[str, str, frozenset[str], Path], tuple[str, Path]] = {}


def _font_file_hash(path: Path) -> str:
    """Hash of the font's bytes (remembered across builds by the file's stat, see pnp.load.digests)."""
    key = path.resolve()
    with _lock:
        if key not in _file_hashes:
            try:
                check_input(path, "font")  # a regular file in its game folder, within its cap: then read
                _file_hashes[key] = digest_of(key)
            except OSError as exc:
                raise DataError(f"cannot read font file {path}: {exc.strerror}", file=path) from exc
        return _file_hashes[key]


def _tables(path: Path) -> dict[str, tuple[int, int]]:
    """The font's table directory, with fontTools' words for a file that is not a usable font."""
    try:
        return table_directory(path)
    except SfntError as exc:
        open_font(path)  # raises the DataError in fontTools' words, for a file that is no font at all
        # a font cut short (a download or copy that stopped) opens, and failed at its first table read
        raise DataError(f"{path} is not a usable font: {exc}", file=path,
                        fix="the file is damaged or cut short: copy or download it again") from exc
    except OSError as exc:
        raise DataError(f"cannot read font file {path}: {exc.strerror}", file=path) from exc


def _cmap_ranges(path: Path) -> list[tuple[int, int]]:
    """The code point ranges (inclusive) a font covers; kept on disk by the font's hash, since
    reading the cmap of a 16 MB CJK font costs a noticeable part of every small build."""
    key = path.resolve()
    with _lock:
        if key in _cmaps:
            return _cmaps[key]
    stored = font_cache_dir() / f"cmap-ranges-{_font_file_hash(key)[:32]}.txt"
    cached = read_sealed(stored)  # None: absent, damaged or another pnp's
    try:
        if cached is None:
            raise ValueError("not cached")
        ranges = _parse_ranges(cached.decode("ascii"))
    except ValueError:
        _tables(key)  # a file cut short is refused here, before fontTools meets its end in a table
        font = open_font(key)
        ranges = _as_ranges(sorted(font.getBestCmap() or {}))
        write_sealed(stored, " ".join(f"{start:x}-{end:x}" for start, end in ranges).encode("ascii"))
    with _lock:
        _cmaps[key] = ranges
    return ranges


def _parse_ranges(text: str) -> list[tuple[int, int]]:
    """``"20-7e a0-17f ..."`` as [(0x20, 0x7e), ...]; a CJK font has thousands of ranges, read every build."""
    items = text.split()
    numbers = [int(number, 16) for number in text.replace("-", " ").split()]
    if len(numbers) != 2 * len(items):
        raise ValueError("damaged range list")
    return list(zip(numbers[0::2], numbers[1::2], strict=True))


def _as_ranges(codes: Sequence[int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


# --- subset, convert, cache, register -------------------------------------------------------------------


def _register(role: str, path: Path, charset: frozenset[str], cache_dir: Path) -> tuple[str, Path]:
    file_hash = _font_file_hash(path)
    memo_key = (role, file_hash, charset, cache_dir.resolve())
    with _lock:
        if memo_key in _prepared:
            return _prepared[memo_key]
    is_cff = "CFF " in _tables(path)
    key = subset_key(file_hash, charset)
    # TrueType fonts are used as they are: reportlab subsets glyf outlines itself.
    ttf_path = cached_truetype_subset(path, charset, cache_dir, key) if is_cff else path.resolve()
    name = f"Pnp{_camel(role)}-{key[:8]}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            font = EmbeddedFont(name, str(ttf_path))
        except Exception as exc:  # reportlab raises TTFError and plain errors alike
            raise DataError(f"reportlab cannot use font {path}: {exc}", file=path) from exc
        # registerFont silently hands back an earlier font with the same PostScript name, so a second
        # subset of the same font would draw with the first subset's glyphs. One name per subset.
        font.face.name = font.face.name + b"-" + key[:8].encode("ascii")
        pdfmetrics.registerFont(font)
        if pdfmetrics.getFont(name) is not font:
            raise RuntimeError(f"reportlab registered another font under {name}")
    with _lock:
        _prepared[memo_key] = (name, ttf_path)
    return name, ttf_path


def _camel(role: str) -> str:
    return "".join(part.capitalize() for part in role.replace("_", "-").split("-") if part)


def _register_family(regular: str, bold: str) -> None:
    """So that ``<b>`` in reportlab markup and ``Paragraph`` bold map to our bold font."""
    pdfmetrics.registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)


def _vertical_metrics(path: Path) -> tuple[float, float]:
    """Typographic ascent and descent as fractions of the em, for placing baselines."""
    return typographic_metrics(path)

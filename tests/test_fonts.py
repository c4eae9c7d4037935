"""Fonts: coverage errors, embedding, text extraction and reproducible bytes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pypdfium2
import pytest
from fontTools.ttLib import TTFont as FtFont
from pypdf import PdfReader
from reportlab.lib.fonts import tt2ps
from reportlab.lib.pagesizes import A6
from reportlab.pdfgen.canvas import Canvas

from pnp.diagnostics import DataError
from pnp.render.text.font_subsets import truetype_subset_bytes
from pnp.render.text.fonts import (
    FontSet,
    MissingGlyphError,
    default_font_paths,
    prepare_fonts,
)

JAPANESE = "相手の手札を1枚見る。「監視」カード"
LATIN = "Surveillance 1234567"
TEXTS = [JAPANESE, LATIN, "太字のテキスト Bold text"]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("font-cache")


@pytest.fixture(scope="module")
def fontset(cache_dir: Path) -> FontSet:
    return prepare_fonts(TEXTS, cache_dir)


def draw_sample_pdf(fontset: FontSet) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A6, invariant=1, initialFontName=fontset.regular)
    canvas.setFont(fontset.regular, 12)
    canvas.drawString(20, 300, JAPANESE)
    canvas.drawString(20, 280, LATIN)
    canvas.setFont(fontset.bold, 12)
    canvas.drawString(20, 260, "太字のテキスト Bold text")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_emoji_and_old_cyrillic_are_really_absent_from_noto_cjk() -> None:
    for path in default_font_paths().values():
        cmap = FtFont(path, lazy=True).getBestCmap()
        assert 0x1F600 not in cmap  # 😀
        assert 0xA66E not in cmap  # ꙮ
        assert ord("監") in cmap


def test_missing_glyph_names_every_character_and_where_it_came_from(tmp_path: Path) -> None:
    with pytest.raises(MissingGlyphError) as caught:
        prepare_fonts(["Gain 2 😀 now", "普通の文", "the ꙮ eye"], tmp_path)
    error = caught.value
    assert isinstance(error, DataError)
    message = str(error)
    assert "U+1F600" in message and "Gain 2 😀 now" in message
    assert "U+A66E" in message and "the ꙮ eye" in message
    assert set(error.missing) == {"regular", "bold"}
    assert set(error.missing["regular"]) == {"😀", "ꙮ"}
    assert list(tmp_path.iterdir()) == []  # nothing converted for a build that cannot go ahead


def test_fontset_knows_what_it_covers(fontset: FontSet) -> None:
    assert fontset.covers("監") and fontset.covers("♠") and fontset.covers("「")
    assert not fontset.covers("😀")
    assert not fontset.covers("鬱")  # a real glyph in the font, but not used, so not in the subset
    assert fontset.font_for("regular") == fontset.regular
    assert fontset.font_for("bold") == fontset.bold != fontset.regular
    assert fontset.regular.startswith("PnpRegular-") and fontset.bold.startswith("PnpBold-")
    with pytest.raises(KeyError, match="title"):
        fontset.font_for("title")


def test_bold_is_registered_as_the_family_bold(fontset: FontSet) -> None:
    assert tt2ps(fontset.regular, 1, 0) == fontset.bold
    assert tt2ps(fontset.regular, 0, 0) == fontset.regular


def test_every_font_is_embedded_and_helvetica_never_appears(fontset: FontSet) -> None:
    data = draw_sample_pdf(fontset)
    assert b"Helvetica" not in data
    reader = PdfReader(io.BytesIO(data))
    base_fonts = []
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor
            base_fonts.append(str(font["/BaseFont"]))
    assert len(base_fonts) == 2
    assert base_fonts[0] != base_fonts[1]
    for base_font in base_fonts:  # reportlab's subset tag, the font's own name, our subset key, what it holds
        assert re.fullmatch(r"/AAAAAA\+NotoSansCJKjp-(Regular|Bold)-[0-9a-f]{8}-[0-9a-f]{8}", base_font), base_font


def embedded_names(text: str, fontset: FontSet) -> tuple[str, str]:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A6, invariant=1, initialFontName=fontset.regular)
    canvas.setFont(fontset.regular, 12)
    canvas.drawString(20, 300, text)
    canvas.showPage()
    canvas.save()
    [font] = PdfReader(buffer).pages[0]["/Resources"]["/Font"].values()
    font = font.get_object()
    return str(font["/BaseFont"]), str(font["/FontDescriptor"]["/FontName"])


def test_files_embedding_different_glyphs_name_their_subsets_apart(fontset: FontSet) -> None:
    """reportlab named every file's subset "AAAAAA+<font>": a print shop ganging two decks, or a RIP
    caching fonts by name, could print one file's text with the other's glyphs."""
    first, first_descriptor = embedded_names("相手の手札", fontset)
    other, _ = embedded_names("Bold text", fontset)
    again, _ = embedded_names("相手の手札", fontset)
    assert first != other
    assert first == again == first_descriptor  # the same glyphs, the same name: builds stay reproducible


def test_two_subsets_of_one_font_in_one_process_keep_their_own_glyphs(tmp_path: Path) -> None:
    # reportlab reuses an already registered font with the same PostScript name; the second
    # subset must not fall back on the first one, which lacks "得".
    small = prepare_fonts(["相手の手札"], tmp_path / "small")
    large = prepare_fonts(["相手の手札を2枚得る"], tmp_path / "large")
    assert small.regular != large.regular
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A6, initialFontName=large.regular)
    canvas.setFont(large.regular, 12)
    canvas.drawString(20, 300, "手札を2枚得る")
    canvas.save()
    text = pypdfium2.PdfDocument(buffer.getvalue())[0].get_textpage().get_text_range()
    assert text.strip() == "手札を2枚得る"


def test_japanese_and_latin_text_extract_as_written(fontset: FontSet) -> None:
    document = pypdfium2.PdfDocument(draw_sample_pdf(fontset))
    text = document[0].get_textpage().get_text_range()
    lines = [line.strip() for line in text.splitlines()]
    assert lines == [JAPANESE, LATIN, "太字のテキスト Bold text"]


def test_pdf_bytes_are_identical_between_builds(fontset: FontSet, tmp_path: Path) -> None:
    first = draw_sample_pdf(fontset)
    again = draw_sample_pdf(prepare_fonts(TEXTS, tmp_path))  # a fresh cache directory, same fonts
    assert first == again


def test_cache_files_are_deterministic_and_no_temp_file_is_left(fontset: FontSet, cache_dir: Path,
                                                                tmp_path: Path) -> None:
    other = prepare_fonts(TEXTS, tmp_path)
    assert other.paths["regular"] != fontset.paths["regular"]
    assert other.paths["regular"].read_bytes() == fontset.paths["regular"].read_bytes()
    subsets = sorted(p.name for p in cache_dir.iterdir() if p.suffix == ".ttf")
    assert len(subsets) == 2
    assert sorted(p.name for p in cache_dir.iterdir()) == sorted([*subsets, *(name + ".seal" for name in subsets)])
    converted = FtFont(fontset.paths["regular"])
    assert "glyf" in converted and "CFF " not in converted
    assert converted["head"].created == converted["head"].modified == 3660249600


def test_truetype_font_is_used_as_it_is_and_extra_roles_work(fontset: FontSet, tmp_path: Path) -> None:
    truetype = fontset.paths["regular"]  # our converted subset is itself a TrueType font
    prepared = prepare_fonts([LATIN], tmp_path, overrides={"title": truetype})
    assert prepared.paths["title"] == truetype.resolve()
    assert prepared.font_for("title").startswith("PnpTitle-")
    converted = {prepared.paths["regular"].name, prepared.paths["bold"].name}
    assert {p.name for p in tmp_path.iterdir()} == converted | {name + ".seal" for name in converted}


def test_truetype_override_missing_a_character_is_refused(fontset: FontSet, tmp_path: Path) -> None:
    with pytest.raises(MissingGlyphError, match=r"U\+9B31"):
        prepare_fonts(["鬱"], tmp_path, overrides={"bold": fontset.paths["bold"]})


def test_unreadable_font_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="missing.otf"):
        prepare_fonts(["x"], tmp_path, overrides={"regular": tmp_path / "missing.otf"})


def test_a_subset_of_400_characters_holds_every_one() -> None:
    """How fast it is belongs to the benchmarks, not here: a timed test fails on a busy machine."""
    chars = {chr(c) for c in range(0x4E00, 0x4E00 + 300)} | {chr(c) for c in range(0x3041, 0x3097)}
    chars |= {chr(c) for c in range(0x21, 0x7F)}
    assert len(chars) > 400
    data = truetype_subset_bytes(default_font_paths()["regular"], chars)
    font = FtFont(io.BytesIO(data))
    assert set(font.getBestCmap()) >= {ord(c) for c in chars}


def test_remembered_coverage_ranges_read_back_exactly_and_refuse_damage() -> None:
    from pnp.render.text.fonts import _as_ranges, _parse_ranges

    ranges = _as_ranges([0x20, 0x21, 0x22, 0x41, 0x3042, 0x3043, 0x20000])
    assert ranges == [(0x20, 0x22), (0x41, 0x41), (0x3042, 0x3043), (0x20000, 0x20000)]
    assert _parse_ranges("20-22 41-41 3042-3043 20000-20000") == ranges
    for damaged in ("20", "20-22-24", "2g-30", "20-22 41"):
        with pytest.raises(ValueError):
            _parse_ranges(damaged)


def test_a_font_cache_that_cannot_be_written_costs_speed_not_the_build(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Every build failed with "cannot write .../fonts/...ttf" when the cache's fonts folder could not be
    written (a root-owned ~/.cache/pnp/fonts): the subset now goes to a folder of the process's own."""
    import pnp.render.text.font_subsets as subsets_module

    def refuse(path: Path, data: bytes) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(subsets_module, "write_file_and_seal", refuse)
    fontset = prepare_fonts(["読めないキャッシュ"], tmp_path / "unwritable")
    assert fontset.paths["regular"].is_file()
    assert not fontset.paths["regular"].is_relative_to(tmp_path)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A6, initialFontName=fontset.regular)
    canvas.setFont(fontset.regular, 12)
    canvas.drawString(20, 300, "読めないキャッシュ")
    canvas.save()
    assert pypdfium2.PdfDocument(buffer.getvalue())[0].get_textpage().get_text_range().strip() == "読めないキャッシュ"

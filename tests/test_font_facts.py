"""What a build reads from fonts without fontTools must agree with fontTools."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from pnp.render.text import font_subsets, fonts
from pnp.render.text.fonts import Coverage, covered_characters, default_font_paths
from pnp.render.text.sfnt import SfntError, table_directory, typographic_metrics
from pnp.write.stamps import _PINNED, installed_versions


def pinned_and_cached_fonts(cache: Path) -> list[Path]:
    cached = sorted(cache.glob("*.ttf"))[:2]
    return [*default_font_paths().values(), *cached]


def test_table_directory_and_metrics_match_fonttools(cache):
    for path in pinned_and_cached_fonts(cache):
        font = TTFont(path, lazy=True)
        assert set(table_directory(path)) == set(font.keys()) - {"GlyphOrder"}
        units = font["head"].unitsPerEm
        os2 = font["OS/2"]
        assert typographic_metrics(path) == (os2.sTypoAscender / units, -os2.sTypoDescender / units)


def test_a_truncated_font_is_refused(tmp_path):
    source = default_font_paths()["regular"]
    cut = tmp_path / "cut.otf"
    cut.write_bytes(source.read_bytes()[:100_000])
    with pytest.raises(SfntError):
        table_directory(cut)
    assert font_subsets._is_readable_truetype(cut) is False
    not_a_font = tmp_path / "notes.otf"
    not_a_font.write_text("hello")
    with pytest.raises(SfntError):
        table_directory(not_a_font)


def test_coverage_agrees_with_the_cmap():
    regular = default_font_paths()["regular"]
    cmap = TTFont(regular, lazy=True).getBestCmap()
    coverage = Coverage([fonts._cmap_ranges(regular)])
    probes = [*range(0x20, 0x250), *range(0x3000, 0x3100), *range(0x4E00, 0x4F00), 0x1F600, 0xE000, 0xFFFD, 0x10FFFF]
    for code in probes:
        assert (chr(code) in coverage) == (code in cmap), hex(code)
    assert "ab" not in coverage and 5 not in coverage


def test_covered_means_every_font_has_it(tmp_path):
    both = covered_characters()
    assert "漢" in both and "A" in both
    assert both.missing("A漢\U0001F600") == {"\U0001F600"}


def test_installed_versions_agree_with_importlib_metadata():
    from importlib import metadata

    found = installed_versions(_PINNED)
    for name in _PINNED:
        try:
            expected = metadata.version(name)
        except metadata.PackageNotFoundError:
            assert name not in found
        else:
            assert found[name] == expected

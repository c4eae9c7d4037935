"""Font bases: subsets cut from one converted font per build are the subsets made from the font itself."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from pnp.render.text import font_subsets
from pnp.render.text.font_subsets import cut_from_base, make_base, truetype_subset_bytes, use_bases
from pnp.render.text.fonts import BASELINE_CHARS, default_font_paths, plan_bases, prepare_fonts
from pnp.write.font_bases import likely_characters

CARD = "相手の手札を1枚見る。「監視」カード"
RULES = "山札から1枚引く。得点は数字の合計 ⇒ 勝利"


@pytest.fixture(autouse=True)
def no_bases_left_behind():
    yield
    use_bases([])


def test_a_subset_cut_from_a_base_is_the_subset_made_from_the_font(tmp_path: Path) -> None:
    font = default_font_paths()["regular"]
    wanted = set(BASELINE_CHARS) | set(CARD)
    base = tmp_path / "base.ttf"
    base.write_bytes(truetype_subset_bytes(font, wanted | set(RULES) | set("折貼")))
    cut = cut_from_base(base, wanted)
    assert cut == truetype_subset_bytes(font, wanted)
    held = TTFont(base).getBestCmap()
    kept = TTFont(io.BytesIO(cut)).getBestCmap()
    assert ord("折") in held and ord("折") not in kept and ord("監") in kept  # a smaller font, not the base


def test_prepare_fonts_cuts_from_the_build_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bases = plan_bases(CARD + RULES, tmp_path / "bases")
    assert {base.font.name for base in bases} == {p.resolve().name for p in default_font_paths().values()}
    for base in bases:
        make_base(base)
        assert base.path.is_file() and {"glyf", "cmap"} <= set(TTFont(base.path).keys())
    use_bases(bases)
    made_from_font = []
    direct = font_subsets.truetype_subset_bytes

    def counted(path: Path, charset: object) -> bytes:
        made_from_font.append(path)
        return direct(path, charset)
    monkeypatch.setattr(font_subsets, "truetype_subset_bytes", counted)
    fontset = prepare_fonts([CARD], tmp_path / "cache")
    assert made_from_font == []  # both roles cut from their bases
    for role, path in fontset.paths.items():
        assert path.read_bytes() == direct(default_font_paths()[role], fontset.charset)

    # a character no base holds: that subset is made from the font, as without bases
    prepare_fonts([CARD + "鬱"], tmp_path / "cache")
    assert sorted(p.name for p in made_from_font) == sorted(p.name for p in default_font_paths().values())


def test_the_likely_characters_of_a_game_cover_its_files_and_sheet_words(tmp_path: Path) -> None:
    from pnp.diagnostics import Report
    from pnp.model.build import load_game

    game = load_game(Path(__file__).resolve().parents[1] / "data" / "two-ops", Report())
    assert game is not None
    likely = likely_characters([game])
    rules_ja = (game.path / "rules" / "ja.md").read_text(encoding="utf-8")
    assert set(rules_ja) <= likely
    assert {"折", "貼", "⇒", "▶"} <= likely  # pnp's own words: fold-sheet labels, figure arrows

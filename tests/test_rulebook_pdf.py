"""Rulebook PDFs read back as a printer would: text, kinsoku per line, fonts, page sizes and order, golden image.

Golden image tests/golden/rulebook/ja_a4_page2.png: page 2 of the Japanese A4
rulebook, rasterised at 72 dpi in grayscale. Generated with
PNP_UPDATE_GOLDEN=1, then viewed: the sections 概要, 用意するもの (two bullet
items), ラウンドの準備 (numbered 1-3), ラウンドの進め方 with its subsections, the
goal table (数 / 赤 / 黒 header on grey, 偶数 and 奇数 rows, whole words in each
cell) and its note, headings dark (navy in colour), body text justified to the right
margin but for each paragraph's last line, no line starting with 、 or 。, the second
bullet item ending in "ります。" (not "す。" alone), and the footer "ツー・オプス" left and
"2" right above a thin rule. Regenerate only after checking a changed page by eye the same way.

Expected sizes are by hand: A4 is 210 × 297 mm = 595.3 × 841.9 pt, Letter
8.5 × 11 in = 612 × 792 pt; a booklet sheet is the landscape sheet with two
pages of half its width.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.compose.ruletext import require_rule_text
from pnp.diagnostics import DataError, Report
from pnp.model.build import load_game
from pnp.model.game import Game
from pnp.render.rulebook.book import write_rulebook
from pnp.render.rulebook.booklet import saddle_stitch_order, write_booklet
from pnp.render.text.fonts import prepare_fonts
from pnp.rules import get_rules

ROOT = Path(__file__).resolve().parents[1]
TWO_OPS = ROOT / "data" / "two-ops"
GOLDEN = Path(__file__).parent / "golden" / "rulebook" / "ja_a4_page2.png"
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
NO_LINE_START = set("、。」）ー") | set("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
NO_LINE_END = set("「（")


@pytest.fixture(scope="module")
def game() -> Game:
    report = Report()
    loaded = load_game(TWO_OPS, report)
    assert loaded is not None
    return loaded


@pytest.fixture(scope="module")
def built(game: Game, cache: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    out = tmp_path_factory.mktemp("rulebooks")
    rules = get_rules(game.rules)
    results: dict[str, object] = {}
    for lang in ("en", "ja"):
        for paper in ("a4", "letter"):
            results[f"{lang}-{paper}"] = write_rulebook(game, rules, lang, require_rule_text(game, rules, lang),
                                                        paper, out / f"{lang}-{paper}.pdf", cache)
    results["booklet-ja-a4"] = write_booklet(game, rules, "ja", require_rule_text(game, rules, "ja"),
                                             "a4", out / "booklet-ja-a4.pdf", cache)
    results["booklet-en-letter"] = write_booklet(game, rules, "en", require_rule_text(game, rules, "en"),
                                                 "letter", out / "booklet-en-letter.pdf", cache)
    return results


def text_of(path: Path) -> str:
    pdf = pdfium.PdfDocument(path)
    return "\n".join(page.get_textpage().get_text_range() for page in pdf)


def flat(text: str, joiner: str) -> str:
    return re.sub(r"\s*\r?\n\s*", joiner, text)


def printed_lines(page: pdfium.PdfPage) -> list[str]:
    """The lines as printed: characters on one baseline with no gap wider than a space-less join.

    pdfium's own text joins table cells of a row into one line; splitting at
    horizontal gaps keeps each cell's lines apart, so each line's first and
    last character are really at a line start and end.
    """
    textpage = page.get_textpage()
    lines: list[str] = []
    current: list[str] = []
    previous: tuple[float, float] | None = None  # baseline y, right edge
    for index in range(textpage.count_chars()):
        if pdfium_raw.FPDFText_IsGenerated(textpage.raw, index):
            continue
        char = textpage.get_text_range(index, 1)
        if char in ("", "\r", "\n"):
            continue
        left, _, right, _ = textpage.get_charbox(index, loose=True)
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium_raw.FPDFText_GetCharOrigin(textpage.raw, index, x, y)
        if previous is None or abs(y.value - previous[0]) > 0.5 or left - previous[1] > 2.5:
            if current:
                lines.append("".join(current).strip())
            current = []
        current.append(char)
        previous = (y.value, right)
    if current:
        lines.append("".join(current).strip())
    return [line for line in lines if line]


def kinsoku_violations(path: Path) -> list[str]:
    bad = []
    for page in pdfium.PdfDocument(path):
        for line in printed_lines(page):
            if line[0] in NO_LINE_START or line[-1] in NO_LINE_END:
                bad.append(line)
    return bad


def fonts_used(path: Path) -> list[tuple[str, bool]]:
    """(base font, has an embedded font file) for every font of every page and form XObject."""
    found = []

    def walk(resources) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            descriptor_owner = descendants[0].get_object() if descendants else font
            descriptor = descriptor_owner.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.append((str(font.get("/BaseFont")), embedded))
        for xobject in (resources.get("/XObject") or {}).values():
            walk(xobject.get_object().get("/Resources"))

    for page in PdfReader(path).pages:
        walk(page.get("/Resources"))
    return found


# ----------------------------------------------------------------------------- text


def test_english_text_extracts(built: dict) -> None:
    text = flat(text_of(built["en-a4"].path), " ")
    assert "Deal 6 number cards face down to every player." in text  # seed: deal 6 to each player
    assert "Take the 12 court cards out of the deck" in text
    assert "Bill de Veas (2020)" in text and "Game design" in text  # title page credits
    assert "This print-and-play edition is for personal use" in text  # terms, from game.toml
    assert "average (half the sum)" in text  # operator table, from rules.toml via aid_tables
    assert "= 27/2" in text  # hand-most-difference: 19/2 - (-4), recomputed


def test_japanese_text_extracts(built: dict) -> None:
    text = flat(text_of(built["ja-a4"].path), "")
    assert "各プレイヤーに数字カードを6枚ずつ、裏向きで配ります。" in text
    assert "山札から12枚の絵札を抜き出し" in text
    assert "平均（和の半分）" in text and "色違いの数を同色の数で割った余り" in text
    assert "ゲームデザイン" in text and "Bill de Veas" in text
    assert "『ツー・オプス』の著作権は作者 Bill de Veas に帰属します。" in text


@pytest.mark.parametrize(("keys", "lang"), [(("en-a4", "en-letter", "booklet-en-letter"), "en"),
                                            (("ja-a4", "ja-letter", "booklet-ja-a4"), "ja")])
def test_latin_words_never_split(built: dict, keys: tuple[str, ...], lang: str) -> None:
    """A Latin word in a Japanese line (a designer's name) must not break either, as kinsoku breaks."""
    for key in keys:
        lines = [line for page in pdfium.PdfDocument(built[key].path) for line in printed_lines(page)]
        words = set(re.findall(r"[A-Za-z]+", " ".join(lines)))
        # every printed fragment of a word must be a word of the source text, not half of one
        source = set(re.findall(r"[A-Za-z]+", (TWO_OPS / "rules" / f"{lang}.md").read_text(encoding="utf-8")))
        source |= set(re.findall(r"[A-Za-z]+", (TWO_OPS / "game.toml").read_text(encoding="utf-8")))
        source |= set(re.findall(r"[A-Za-z]+", (TWO_OPS / "rules.toml").read_text(encoding="utf-8")))
        assert {"Bill", "Veas"} <= words  # the check saw the Latin words it guards, the designer's name at least
        assert words <= source | {"A", "J", "Q", "K"}, sorted(words - source)[:10]


@pytest.mark.parametrize("key", ["ja-a4", "ja-letter", "booklet-ja-a4"])
def test_no_japanese_line_starts_or_ends_with_a_forbidden_character(built: dict, key: str) -> None:
    path = built[key].path
    lines = [line for page in pdfium.PdfDocument(path) for line in printed_lines(page)]
    assert len(lines) > 200  # the check saw the body text, not an empty page
    assert kinsoku_violations(path) == []


def test_the_kinsoku_check_catches_a_bad_line(tmp_path: Path, cache: Path) -> None:
    """The line reader must see a forbidden line start, or the test above proves nothing."""
    fontset = prepare_fonts(["これは文。次の行「です"], cache)
    path = tmp_path / "bad.pdf"
    canvas = Canvas(str(path), initialFontName=fontset.regular)
    canvas.setFont(fontset.regular, 10)
    canvas.drawString(72, 700, "これは文")
    canvas.drawString(72, 685, "。次の行「")
    canvas.drawString(72, 670, "です")
    canvas.save()
    assert kinsoku_violations(path) == ["。次の行「"]


# ----------------------------------------------------------------------------- fonts, sizes, pages


@pytest.mark.parametrize("key", ["en-a4", "ja-a4", "booklet-ja-a4"])
def test_all_fonts_embedded_and_no_helvetica(built: dict, key: str) -> None:
    fonts = fonts_used(built[key].path)
    assert fonts
    assert all(embedded for _, embedded in fonts), fonts
    assert not any("Helvetica" in name for name, _ in fonts)


@pytest.mark.parametrize(("key", "size"), [("en-a4", A4), ("ja-a4", A4), ("en-letter", LETTER),
                                           ("ja-letter", LETTER)])
def test_page_size_and_count(built: dict, key: str, size: tuple[float, float]) -> None:
    result = built[key]
    reader = PdfReader(result.path)
    assert len(reader.pages) == result.pages
    assert 4 <= result.pages <= 10  # title page + about five pages of rules
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(size[0], abs=0.1)
        assert float(page.mediabox.height) == pytest.approx(size[1], abs=0.1)


def test_booklet_sheets_are_landscape_with_half_sheet_pages(built: dict) -> None:
    for key, sheet in (("booklet-ja-a4", A4), ("booklet-en-letter", LETTER)):
        result = built[key]
        reader = PdfReader(result.path)
        assert result.padded_pages % 4 == 0 and 0 <= result.padded_pages - result.pages < 4
        assert len(reader.pages) == 2 * result.sheets == result.padded_pages // 2
        for page in reader.pages:
            assert float(page.mediabox.width) == pytest.approx(sheet[1], abs=0.1)  # landscape
            assert float(page.mediabox.height) == pytest.approx(sheet[0], abs=0.1)
            for xobject in page["/Resources"]["/XObject"].values():
                x0, y0, x1, y1 = (float(v) for v in xobject.get_object()["/BBox"])
                assert x1 - x0 == pytest.approx(sheet[1] / 2, abs=0.1)  # A5 = 148.5 mm on A4
                assert y1 - y0 == pytest.approx(sheet[0], abs=0.1)


def test_saddle_stitch_order_by_hand() -> None:
    # 8 pages: sheet 1 carries 8|1 and 2|7, sheet 2 carries 6|3 and 4|5
    assert saddle_stitch_order(8) == [((8, 1), (2, 7)), ((6, 3), (4, 5))]
    with pytest.raises(ValueError):
        saddle_stitch_order(6)


def test_booklet_pages_sit_in_saddle_stitch_order(built: dict) -> None:
    """The footer page numbers on each half of each sheet side follow the saddle-stitch order."""
    result = built["booklet-ja-a4"]
    pdf = pdfium.PdfDocument(result.path)
    order = [side for sheet in saddle_stitch_order(result.padded_pages) for side in sheet]
    width, height = pdf[0].get_size()
    for page, (left, right) in zip(pdf, order, strict=True):
        textpage = page.get_textpage()
        for half, number in ((0, left), (1, right)):
            footer = textpage.get_text_bounded(half * width / 2, 0, (half + 1) * width / 2, 30)
            shown = re.findall(r"\d+", footer)
            if number == 1 or number > result.pages:
                assert shown == []  # the title page has no number; padding pages are blank
            else:
                assert shown == [str(number)]


def test_outline_lists_the_sections(built: dict) -> None:
    titles = []

    def walk(items) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                titles.append(item.title)

    walk(PdfReader(built["en-a4"].path).outline)
    assert titles[:3] == ["At a glance", "What you need", "Setting up a round"]
    assert "Neither number matches" in titles


def test_reproducible_and_honours_source_date_epoch(game: Game, cache: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    rules = get_rules(game.rules)
    first = write_rulebook(game, rules, "en", require_rule_text(game, rules, "en"),
                           "letter", tmp_path / "a.pdf", cache).path
    second = write_rulebook(game, rules, "en", require_rule_text(game, rules, "en"),
                            "letter", tmp_path / "b.pdf", cache).path
    assert first.read_bytes() == second.read_bytes()
    assert PdfReader(first).metadata.creation_date.year == 2023
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdf", "b.pdf"]  # no temporary files left


def test_a_character_no_font_has_is_an_error_naming_it(tmp_path: Path, cache: Path) -> None:
    copy = tmp_path / "two-ops"
    shutil.copytree(TWO_OPS, copy)
    path = copy / "rules" / "ja.md"
    source = path.read_text(encoding="utf-8")
    path.write_text(source.replace("カードゲームです。", "カードゲームです\U0001F600。"), encoding="utf-8")
    game = load_game(copy, Report())
    with pytest.raises(DataError) as caught:
        write_rulebook(game, get_rules(game.rules), "ja", require_rule_text(game, get_rules(game.rules),
                       "ja"), "a4", tmp_path / "x.pdf", cache)
    diagnostic = caught.value.diagnostic
    assert "U+1F600" in diagnostic.message and "カードゲームです" in diagnostic.message
    assert diagnostic.file == path and diagnostic.line == 10
    assert not (tmp_path / "x.pdf").exists()


def test_a_character_no_font_has_is_reported_at_the_line_it_is_on(tmp_path: Path) -> None:
    """On the second line of a paragraph it was reported at the first, quoting a line without it."""
    from pnp.validate import check_folder

    copy = tmp_path / "two-ops"
    shutil.copytree(TWO_OPS, copy)
    path = copy / "rules" / "en.md"
    source = path.read_text(encoding="utf-8")
    cut = source.index("\n## ", source.index("## ") + 3)
    path.write_text(source[:cut] + "\n\nA first line of this paragraph\nand a second with a \U0001F3B2 die.\n"
                    + source[cut:], encoding="utf-8")
    second = source[:cut].count("\n") + 4
    [error] = [d for d in check_folder(copy).report.errors if "U+1F3B2" in d.message]
    assert error.line == second
    assert error.message.endswith("used in 'and a second with a \U0001F3B2 die.'")


# ----------------------------------------------------------------------------- golden image


def rasterise(path: Path, page: int) -> Image.Image:
    return pdfium.PdfDocument(path)[page].render(scale=1.0).to_pil().convert("L")


def test_page_matches_golden_image(built: dict) -> None:
    image = rasterise(built["ja-a4"].path, 1)
    if os.environ.get("PNP_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        image.save(GOLDEN)
    golden = Image.open(GOLDEN).convert("L")
    assert image.size == golden.size
    difference = ImageChops.difference(image, golden)
    histogram = difference.histogram()
    total = image.size[0] * image.size[1]
    mean = sum(value * count for value, count in enumerate(histogram)) / total
    strong = sum(histogram[64:]) / total
    assert mean < 1.0 and strong < 0.002, (mean, strong)


def test_a_lead_in_ending_in_a_colon_stays_with_what_it_introduces() -> None:
    """"There are 6 set elements:" ended a page, and its table began the next."""
    from pnp.compose.blocks import ListBlock, Paragraph, TableBlock
    from pnp.model.runs import Text
    from pnp.render.rulebook.story import _leads_in

    table = TableBlock(((Text("Set"),),), (((Text("run"),),),), ("left",), 5)
    items = ListBlock(False, 1, ((Paragraph((Text("one"),), 7),),), 7)
    assert _leads_in(Paragraph((Text("There are 6 set elements:"),), 3), table)
    assert _leads_in(Paragraph((Text("次の"), Text("三つです：", "bold")), 3), items)
    assert not _leads_in(Paragraph((Text("A sentence."),), 3), table)
    assert not _leads_in(Paragraph((Text("Ends in a colon:"),), 3), Paragraph((Text("a paragraph"),), 5))
    assert not _leads_in(Paragraph((Text("Last words:"),), 3), None)

"""Sheet geometry, checked against numbers worked out by hand from the mm sizes.

Conventions: mm, origin bottom-left of the page; row 0 is the top row. Default bleed 3 mm, trims at
least 5 mm from the paper edge, marks and label at least 4 mm from it.
"""

from dataclasses import replace

import pytest

from pnp.render.sheets.geometry import LABEL_BAND_MIN_MM, PRINTER_MARGIN_MM, ImpositionError, Rect, Segment, SheetPlan
from pnp.render.sheets.imposition import (
    duplex_back_slots,
    duplex_flip_axis,
    mirror_margin_item,
    plan_fold_sheet,
    plan_sheet,
)
from pnp.render.sheets.paper import CARD_SIZES, PAPER_SIZES, CardSize, SizeError, parse_card_size, parse_paper

A4 = PAPER_SIZES["a4"]
LETTER = PAPER_SIZES["letter"]
POKER = CARD_SIZES["poker"]
TOL = 1e-6


def approx_rect(rect: Rect, x: float, y: float, w: float, h: float, tol: float = TOL) -> bool:
    return all(
        abs(a - b) <= tol
        for a, b in zip((rect.x, rect.y, rect.width, rect.height), (x, y, w, h), strict=True)
    )


# ----------------------------------------------------------------------------- sizes


def test_presets_and_custom_sizes() -> None:
    assert (POKER.width_mm, POKER.height_mm) == (63.5, 88.9)
    assert parse_card_size("Bridge") == CardSize(57.15, 88.9, "bridge")  # 2.25 × 3.5 in
    assert parse_card_size("63 x 88 mm") == CardSize(63.0, 88.0)
    assert parse_card_size([70, 120]) == CardSize(70.0, 120.0)
    assert parse_card_size("poker", orientation="landscape") == CardSize(88.9, 63.5, "poker")
    assert parse_paper("letter", orientation="landscape") == replace(LETTER, width_mm=279.4, height_mm=215.9)
    assert parse_paper("200x300").width_mm == 200.0


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("0x88", "width must be a positive"),
        ("63.5x-2", "height must be a positive"),
        ([63.5, 0], "height must be a positive"),
        ("jumbo", "not one of poker"),
        ([1, "a"], "two numbers"),
        ("300x300", "larger than the paper A4"),
    ],
)
def test_bad_card_sizes_say_why(value: object, fragment: str) -> None:
    with pytest.raises(SizeError, match=fragment):
        parse_card_size(value, paper=A4)  # type: ignore[arg-type]
    assert issubclass(SizeError, ValueError)


def test_card_too_big_for_margins_is_an_imposition_error() -> None:
    # 205 mm wide fits the 210 mm paper but not inside 2 × 5 mm margins, in either orientation.
    with pytest.raises(ImpositionError, match="does not fit"):
        plan_sheet(A4, CardSize(205.0, 290.0))
    with pytest.raises(ImpositionError, match="bleed"):
        plan_sheet(A4, POKER, bleed_mm=-1)


# ----------------------------------------------------------------------------- counts and modes


def test_poker_on_a4_is_3x3_abutting() -> None:
    # Width: 3 × 63.5 = 190.5 ≤ 210 − 10; with 6 mm gaps 202.5 > 200, so columns cannot separate.
    # Rows could (3 × 88.9 + 12 = 278.7 ≤ 287) but then the widest margin leaves only
    # (297 − 278.7)/2 − 3 − 4 = 2.15 mm for the label, less than the 4.5 mm the ruler needs;
    # all-abutting leaves (297 − 266.7)/2 − 3 − 4 = 8.15 mm.
    plan = plan_sheet(A4, POKER)
    assert (plan.cols, plan.rows, plan.capacity) == (3, 3, 9)
    assert plan.paper.orientation == "portrait"
    assert plan.bleed_mode == "abutting"
    assert approx_rect(plan.trim_box, 9.75, 15.15, 190.5, 266.7)
    assert approx_rect(plan.bleed_box, 6.75, 12.15, 196.5, 272.7)


def test_poker_on_letter_is_3x3_abutting() -> None:
    # 3 × 88.9 = 266.7 ≤ 279.4 − 10 = 269.4, but with separate bleeds 278.7 > 269.4.
    plan = plan_sheet(LETTER, POKER)
    assert (plan.cols, plan.rows) == (3, 3)
    assert plan.bleed_mode == "abutting"
    assert approx_rect(plan.trim_box, 12.7, 6.35, 190.5, 266.7)


def test_a4_poker_columns_need_6_mm_more_to_separate() -> None:
    # With 2 mm margins, 202.5 mm of separated columns fits (≤ 206). Separated rows would fit too, but
    # then no margin is wide enough for the label ((297 − 278.7)/2 − 3 − 4 = 2.15 mm), so rows abut.
    thin = plan_sheet(A4, POKER, min_margin_mm=2.0)
    assert (thin.bleed_mode, thin.gap_x_mm, thin.gap_y_mm) == ("mixed", 6.0, 0.0)
    assert any("less than the 4 mm" in w for w in thin.warnings)
    tarot = plan_sheet(A4, CARD_SIZES["tarot"])
    # 2 × 70 + 6 = 146 ≤ 200 and 2 × 120 + 6 = 246 ≤ 287; three would need 216 > 200 / 372 > 287.
    assert (tarot.cols, tarot.rows, tarot.bleed_mode) == (2, 2, "separate")
    assert (tarot.gap_x_mm, tarot.gap_y_mm) == (6.0, 6.0)
    assert approx_rect(tarot.trim_box, 32.0, 25.5, 146.0, 246.0)


def test_mini_on_a4_turns_the_page_for_18_cards() -> None:
    # Portrait: 4 × 44.45 (+ 3 × 6) = 195.8 ≤ 200 and 4 × 63.5 (+ 18) = 272 ≤ 287: 16 cards, 5 columns
    # would need 222.25.  Landscape (297 × 210): 6 × 44.45 = 266.7 ≤ 287 and 3 × 63.5 = 190.5 ≤ 200:
    # 18 cards, abutting (6 separated columns need 297 > 287; 3 separated rows need 202.5 > 200).
    plan = plan_sheet(A4, CARD_SIZES["mini"])
    assert (plan.paper.orientation, plan.cols, plan.rows) == ("landscape", 6, 3)
    assert plan.bleed_mode == "abutting"
    portrait = plan_sheet(A4, CARD_SIZES["mini"], orientation="portrait")
    assert (portrait.cols, portrait.rows, portrait.bleed_mode) == (4, 4, "separate")


def test_bridge_and_square_on_a4() -> None:
    # Bridge, landscape: 5 × 57.15 = 285.75 ≤ 287 (abutting), rows 2 × 88.9 + 6 = 183.8 ≤ 200 (separate).
    # Portrait only holds 3 × 3 = 9.
    bridge = plan_sheet(A4, CARD_SIZES["bridge"])
    assert (bridge.paper.orientation, bridge.cols, bridge.rows) == ("landscape", 5, 2)
    assert (bridge.bleed_mode, bridge.gap_x_mm, bridge.gap_y_mm) == ("mixed", 0.0, 6.0)
    # Square 70: portrait 2 columns (146 with gap ≤ 200), 4 rows abutting (280 ≤ 287; 298 with gaps).
    square = plan_sheet(A4, CARD_SIZES["square"])
    assert (square.paper.orientation, square.cols, square.rows) == ("portrait", 2, 4)
    assert (square.gap_x_mm, square.gap_y_mm) == (6.0, 0.0)


def test_custom_landscape_card() -> None:
    # 88.9 × 63.5 on A4: portrait 2 × 4 = 8; landscape 3 × 3 = 9 (266.7 ≤ 287, 190.5 ≤ 200).
    plan = plan_sheet(A4, parse_card_size("88.9x63.5"))
    assert (plan.paper.width_mm, plan.cols, plan.rows) == (297.0, 3, 3)
    assert approx_rect(plan.slots[0].trim, 15.15, 210 - 9.75 - 63.5, 88.9, 63.5)


def test_no_layout_holds_fewer_cards_than_a_simple_count() -> None:
    for paper in PAPER_SIZES.values():  # home papers and print-shop sheets
        for card in CARD_SIZES.values():
            plan = plan_sheet(paper, card)
            best = 0
            for page in (paper.oriented("portrait"), paper.oriented("landscape")):
                cols = int((page.width_mm - 10) // card.width_mm)
                rows = int((page.height_mm - 10) // card.height_mm)
                best = max(best, cols * rows)
            assert plan.capacity == best, (paper.name, card.name)


# ----------------------------------------------------------------------------- slots and bleed


def test_slots_are_in_reading_order_and_abutting_bleed_is_zero_inside() -> None:
    plan = plan_sheet(A4, POKER)
    first, centre, last = plan.slots[0], plan.slots[4], plan.slots[8]
    assert (first.row, first.col, last.row, last.col) == (0, 0, 2, 2)
    assert approx_rect(first.trim, 9.75, 15.15 + 2 * 88.9, 63.5, 88.9)
    # Top-left card: bleed on its outer left and top edges only.
    assert approx_rect(first.bleed, 6.75, 15.15 + 2 * 88.9, 66.5, 91.9)
    assert centre.bleed == centre.trim
    assert approx_rect(last.bleed, 9.75 + 2 * 63.5, 12.15, 66.5, 91.9)


def test_separate_mode_bleeds_all_round() -> None:
    plan = plan_sheet(A4, CARD_SIZES["tarot"])
    for slot in plan.slots:
        assert approx_rect(slot.bleed, slot.trim.x - 3, slot.trim.y - 3, 76.0, 126.0)
    assert approx_rect(plan.slots[1].trim, 32.0 + 76.0, 25.5 + 126.0, 70.0, 120.0)


# ----------------------------------------------------------------------------- cutting cues


def _inside_printable(segment: Segment, plan: SheetPlan) -> bool:
    """Both ends at least 4 mm from every paper edge."""
    low, right, top = PRINTER_MARGIN_MM, plan.paper.width_mm - PRINTER_MARGIN_MM, plan.paper.height_mm - 4
    return all(low - TOL <= x <= right + TOL for x in (segment.x0, segment.x1)) and all(
        low - TOL <= y <= top + TOL for y in (segment.y0, segment.y1)
    )


def test_a4_crop_marks_one_per_cut_line_end_outside_bleed() -> None:
    plan = plan_sheet(A4, POKER)
    assert set(plan.cut_cues.values()) == {"crop_marks"}
    x_cuts = [9.75, 73.25, 136.75, 200.25]
    y_cuts = [15.15, 104.05, 192.95, 281.85]
    assert len(plan.crop_marks) == 2 * 4 + 2 * 4  # shared cut lines are marked once per end
    top = sorted((s for s in plan.crop_marks if s.x0 == s.x1 and s.y0 > 280), key=lambda s: s.x0)
    assert [s.x0 for s in top] == pytest.approx(x_cuts)
    # Top marks start at the bleed edge (281.85 + 3) and run the full 5 mm (ending 7.15 mm from the edge).
    assert all(s.y0 == pytest.approx(284.85) and s.y1 == pytest.approx(289.85) for s in top)
    # Bottom margin also holds the label: of its 15.15 − 3 − 4 = 8.15 mm of room, the label band takes
    # 4.5 mm and a 0.5 mm gap, leaving 3.15 mm marks.
    bottom = [s for s in plan.crop_marks if s.x0 == s.x1 and s.y1 < 13]
    assert len(bottom) == 4
    assert all(s.y0 == pytest.approx(9.0) and s.y1 == pytest.approx(12.15) for s in bottom)
    left = sorted((s for s in plan.crop_marks if s.x1 < 7), key=lambda s: s.y0)
    assert [s.y0 for s in left] == pytest.approx(y_cuts)
    # Left margin: trim at 9.75, bleed 3 → mark from 6.75 out to the 4 mm limit (2.75 mm long).
    assert all(s.x0 == pytest.approx(4.0) and s.x1 == pytest.approx(6.75) for s in left)
    assert all(_inside_printable(s, plan) for s in plan.crop_marks)
    assert all(s.length >= 2.0 for s in plan.crop_marks)


def test_letter_falls_back_to_ticks_in_the_bleed_top_and_bottom() -> None:
    # Letter: trims 6.35 mm from top and bottom; minus 3 mm bleed leaves 3.35 mm < 4 mm: no marks fit.
    plan = plan_sheet(LETTER, POKER)
    assert plan.cut_cues == {
        "bottom": "bleed_ticks",
        "top": "bleed_ticks",
        "left": "crop_marks",
        "right": "crop_marks",
    }
    top_ticks = sorted((s for s in plan.bleed_ticks if s.y0 > 200), key=lambda s: s.x0)
    assert plan.bleed_ticks and all(s.x0 == s.x1 for s in plan.bleed_ticks)
    assert [s.x0 for s in top_ticks] == pytest.approx([12.7, 76.2, 139.7, 203.2])
    # From the trim line (279.4 − 6.35) up to the printable limit (279.4 − 4).
    assert all(s.y0 == pytest.approx(273.05) and s.y1 == pytest.approx(275.4) for s in top_ticks)
    assert all(_inside_printable(s, plan) for s in plan.crop_marks + plan.bleed_ticks)


#: the one pairing where the most cards leave no margin the label fits in: 2 × 5 tarot cards on JIS B4
#: (landscape) leave 7 mm of paper left and right and 5.5 mm above and below, room for bleed ticks
#: only; the sheet is printed without label and ruler, and says so
NO_ROOM_FOR_LABEL = {("JIS B4", "tarot")}


def test_label_and_ruler_sit_in_the_widest_margin_clear_of_cards_and_marks() -> None:
    for paper in PAPER_SIZES.values():
        for card in CARD_SIZES.values():
            for planner in (plan_sheet, plan_fold_sheet):
                plan = planner(paper, card)
                assert all(_inside_printable(s, plan) for s in plan.crop_marks + plan.bleed_ticks)
                if (paper.name, card.name) in NO_ROOM_FOR_LABEL:
                    assert plan.label is None
                    assert "no margin is wide enough for the sheet label and the 50 mm ruler" in plan.warnings
                    continue
                assert plan.label is not None and plan.ruler is not None
                assert plan.ruler.length >= 54.0 - TOL
                for item in (plan.label, plan.ruler):
                    area = item.area
                    assert area.left >= PRINTER_MARGIN_MM - TOL and area.bottom >= PRINTER_MARGIN_MM - TOL
                    assert area.right <= plan.paper.width_mm - PRINTER_MARGIN_MM + TOL
                    assert area.top <= plan.paper.height_mm - PRINTER_MARGIN_MM + TOL
                    for slot in plan.slots + plan.fold_backs:
                        assert area.clipped(slot.bleed).width * area.clipped(slot.bleed).height < TOL
                    for mark in plan.crop_marks + plan.bleed_ticks:
                        assert not _segment_hits(mark, area), (paper.name, card.name, mark, area)
                # a full label band, or (where the most cards leave less) a warning that says so
                squeezed = [w for w in plan.warnings if w.startswith("the sheet label and ruler get only")]
                assert (plan.label.depth >= LABEL_BAND_MIN_MM - TOL) != bool(squeezed), (paper.name, card.name)
                assert set(plan.warnings) <= set(squeezed), plan.warnings


def _segment_hits(segment: Segment, rect: Rect) -> bool:
    lo_x, hi_x = sorted((segment.x0, segment.x1))
    lo_y, hi_y = sorted((segment.y0, segment.y1))
    return (
        lo_x < rect.right - TOL
        and hi_x > rect.left + TOL
        and lo_y < rect.top - TOL
        and hi_y > rect.bottom + TOL
    )


@pytest.mark.parametrize("paper, cols, rows, mode", [
    ("a3", 6, 3, "mixed"), ("sra3", 6, 3, "separate"), ("tabloid", 6, 3, "abutting"), ("12x18", 7, 3, "mixed")])
def test_print_shop_sheets_hold_twice_a_home_sheet_of_poker_cards(paper: str, cols: int, rows: int,
                                                                 mode: str) -> None:
    """Landscape, poker: A3 420 mm wide takes 6 columns of 63.5 (+ 5 mm margins), 297 mm 3 rows of 88.9;
    SRA3's extra 30 mm lets the columns separate (6 × 69.5 = 417 ≤ 450 − 10 − ...)."""
    plan = plan_sheet(PAPER_SIZES[paper], POKER)
    assert (plan.paper.orientation, plan.cols, plan.rows, plan.bleed_mode) == ("landscape", cols, rows, mode)


def test_a4_poker_label_goes_under_the_grid() -> None:
    plan = plan_sheet(A4, POKER)
    assert plan.label is not None and plan.ruler is not None
    assert plan.label.outer_side == "bottom" and not plan.label.vertical
    # Band: from the end of the 3.15 mm marks (12.15 − 3.15 − 0.5 = 8.5) down to the 4 mm limit.
    assert approx_rect(plan.ruler.area, 4.0, 4.0, 54.0, 4.5)
    assert approx_rect(plan.label.area, 58.0, 4.0, 206.0 - 58.0, 4.5)


def test_a_set_that_fits_on_one_sheet_gets_only_the_rows_it_fills() -> None:
    """Rudy's 80 coins of 25 mm on A4: 200 mm take 8 columns and 287 mm 11 rows (88 places), but 80
    fill 10 rows. The grid of 250 mm is centred, 23.5 mm above the paper's edge: the label gets its full
    8 mm band, where under an empty row of crop marks it got 4 mm and a warning that it prints small."""
    coin = CardSize(25, 25, "custom")
    whole = plan_sheet(A4, coin)
    assert (whole.cols, whole.rows) == (8, 11)
    plan = plan_sheet(A4, coin, count=80)
    assert (plan.cols, plan.rows, plan.capacity) == (8, 10, 80)
    assert approx_rect(plan.trim_box, 5.0, 23.5, 200.0, 250.0)
    assert plan.label is not None and whole.label is not None
    assert (plan.label.depth, whole.label.depth) == (8.0, 4.0)
    assert plan.warnings == () and "print small" in whole.warnings[0]


@pytest.mark.parametrize("count", range(1, 10))
def test_fewer_cards_than_a_sheet_holds_leave_no_empty_row(count: int) -> None:
    plan = plan_sheet(A4, POKER, count=count)
    assert plan.capacity >= count
    assert plan.rows == -(-count // plan.cols)  # the last row holds at least one card
    assert plan.rows > 1 or plan.cols == count


def test_more_cards_than_a_sheet_holds_keep_the_full_grid() -> None:
    """Every sheet of a deck has the same grid, so its backs and its marks line up sheet after sheet."""
    assert plan_sheet(A4, POKER, count=10) == plan_sheet(A4, POKER)
    assert plan_sheet(A4, POKER, count=9) == plan_sheet(A4, POKER)


def test_ticks_beside_the_label_stop_short_of_its_band() -> None:
    """Rudy's 25 mm coins on a Letter fold sheet: the bottom margin holds only the label band, so its cuts
    are cued by ticks in the bleed. Run through the whole 3 mm bleed they touched the ruler's digits
    (0.3 mm apart on paper); they stop 0.5 mm short of the band."""
    plan = plan_fold_sheet(LETTER, CardSize(25, 25, "custom"))
    assert plan.ruler is not None and plan.ruler.outer_side == "bottom"
    band_top = plan.ruler.area.top
    bottom_ticks = [tick for tick in plan.bleed_ticks
                    if tick.x0 == tick.x1 and max(tick.y0, tick.y1) <= plan.trim_box.bottom + TOL]
    assert bottom_ticks
    for tick in bottom_ticks:
        assert min(tick.y0, tick.y1) >= band_top + 0.5 - TOL
        assert abs(tick.y0 - tick.y1) >= 1.0


# ----------------------------------------------------------------------------- duplex backs


def test_long_edge_backs_mirror_columns_about_the_page_centre() -> None:
    plan = plan_sheet(A4, POKER)
    backs = duplex_back_slots(plan, "long")
    for front, back in zip(plan.slots, backs, strict=True):
        assert back.index == front.index
        assert (back.row, back.col) == (front.row, 2 - front.col)
        assert back.trim.x == pytest.approx(210.0 - front.trim.x - 63.5, abs=0.1)
        assert back.trim.y == pytest.approx(front.trim.y, abs=0.1)
    # Card 0 (top-left front) is backed at the top-right.
    assert approx_rect(backs[0].trim, 136.75, 15.15 + 2 * 88.9, 63.5, 88.9)


def test_short_edge_backs_mirror_rows() -> None:
    plan = plan_sheet(A4, POKER)
    for front, back in zip(plan.slots, duplex_back_slots(plan, "short"), strict=True):
        assert (back.row, back.col) == (2 - front.row, front.col)
        assert back.trim.x == pytest.approx(front.trim.x, abs=0.1)
        assert back.trim.y == pytest.approx(297.0 - front.trim.y - 88.9, abs=0.1)


def test_landscape_pages_flip_the_other_way() -> None:
    # A landscape page's long edge is horizontal: a long-edge flip turns it top-to-bottom.
    plan = plan_sheet(A4, CARD_SIZES["mini"])
    assert plan.paper.orientation == "landscape"
    assert duplex_flip_axis(plan.paper, "long") == "y" and duplex_flip_axis(plan.paper, "short") == "x"
    back = duplex_back_slots(plan, "long")[0]
    assert (back.row, back.col) == (2, 0)


def test_back_offset_shifts_exactly_and_off_centre_grids_still_register() -> None:
    plan = plan_sheet(A4, POKER)
    moved = [replace(s, trim=s.trim.shifted(-2.0, 1.0), bleed=s.bleed.shifted(-2.0, 1.0)) for s in plan.slots]
    off_centre = replace(plan, slots=tuple(moved))
    for front, back in zip(off_centre.slots, duplex_back_slots(off_centre, "long", (1.5, -0.5)), strict=True):
        assert back.trim.x == pytest.approx(210.0 - (front.trim.x + 63.5) + 1.5, abs=1e-9)
        assert back.trim.y == pytest.approx(front.trim.y - 0.5, abs=1e-9)
        assert back.bleed.x == pytest.approx(210.0 - front.bleed.right + 1.5, abs=1e-9)


def test_label_band_mirrors_for_backs() -> None:
    plan = plan_sheet(LETTER, POKER)
    assert plan.label is not None and plan.label.outer_side == "left"
    back_label = mirror_margin_item(plan.label, plan.paper, "long")
    assert back_label is not None and back_label.outer_side == "right"
    assert back_label.area.right == pytest.approx(215.9 - plan.label.area.left)


# ----------------------------------------------------------------------------- gutter fold


def test_fold_poker_a4_is_landscape_2x2_mirrored_across_the_fold() -> None:
    # Landscape half page: 148.5 − 3 (to the fold) − 5 (margin) = 140.5 wide → 2 columns even with
    # a 6 mm gap (133); 210 − 10 = 200 high → 2 rows (183.8 with a gap). Portrait holds 3.
    plan = plan_fold_sheet(A4, POKER)
    assert plan.layout == "fold" and plan.fold_direction == "vertical"
    assert (plan.paper.orientation, plan.cols, plan.rows, plan.bleed_mode) == ("landscape", 2, 2, "separate")
    assert plan.fold_line == Segment(148.5, 4.0, 148.5, 206.0)
    for front, back in zip(plan.slots, plan.fold_backs, strict=True):
        assert front.trim.right <= 148.5 - 3.0 + TOL and back.trim.left >= 148.5 + 3.0 - TOL
        assert back.trim.x == pytest.approx(297.0 - front.trim.right, abs=1e-9)
        assert back.trim.y == pytest.approx(front.trim.y, abs=1e-9)
    # Front grid hugs the fold: its right trim is 3 mm (one bleed) left of it.
    assert approx_rect(plan.slots[1].trim, 148.5 - 3 - 63.5, 105 + 3, 63.5, 88.9)
    assert approx_rect(plan.trim_box, 12.5, 13.1, 297 - 25.0, 183.8)

"""`pnp check` says how many sheets each component takes, on the papers a build makes: what to buy."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"


def check(game: str) -> str:
    result = CliRunner().invoke(cli, ["check", "--data", str(DATA), game])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_sheets_are_those_the_build_writes(tmp_path: Path) -> None:
    """Rudy: 64 poker cards, 9 a sheet: 8 sheets; 80 coins of 25 mm, abutting 8 × 11 on A4 (200 × 287 mm
    inside the 5 mm margins) and 8 × 10 on Letter (205.9 × 269.4 mm): one sheet each."""
    output = check("rudy")
    assert "printing  cards  size            A4 sheets       Letter sheets" in output
    assert "deck      64     63.5 × 88.9 mm  8 (9 a sheet)   8 (9 a sheet)" in output
    assert "coins     80     25 × 25 mm      1 (88 a sheet)  1 (80 a sheet)" in output
    assert "total     144                    9               9" in output
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "rudy", "--what", "cards", "--lang", "en",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for paper in ("a4", "letter"):
        pages = {name: len(PdfReader(tmp_path / "rudy" / "en" / paper / f"cards-{name}.pdf").pages)
                 for name in ("deck", "coins")}
        assert pages == {"deck": 16, "coins": 2}  # each sheet a front and its back


def test_one_component_has_no_total() -> None:
    output = check("two-ops")
    assert "deck      52     63.5 × 88.9 mm  6 (9 a sheet)  6 (9 a sheet)" in output
    assert "\ntotal" not in output


def test_the_json_report_carries_the_sheets_too() -> None:
    """A script that orders paper reads the same counts (Rudy's, worked out by hand above)."""
    import json

    result = CliRunner().invoke(cli, ["check", "--data", str(DATA), "rudy", "--format", "json"])
    assert result.exit_code == 0, result.output
    printing = {entry["component"]: entry for entry in json.loads(result.output)["games"][0]["printing"]}
    assert printing["deck"]["cards"] == 64 and printing["deck"]["size_mm"] == [63.5, 88.9]
    assert printing["deck"]["papers"]["a4"] == {"sheets": 8, "cards_a_sheet": 9}
    assert printing["coins"]["papers"] == {"a4": {"sheets": 1, "cards_a_sheet": 88},
                                           "letter": {"sheets": 1, "cards_a_sheet": 80}}
    assert printing["coins"]["duplex"] is True and printing["coins"]["bleed_mm"] == 3.0

"""Ids name output files, so an id cannot lead out of the output folder.

A card id "../../../../evil" made `pnp build --what png` write output/evil.png, and a component
[components."../../../../evil2"] wrote output/rudy/evil2.pdf; with more "../" either could write
anywhere the user may. Both are now errors at their line, and nothing is written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parents[1] / "data"


def rudy_with(tmp_path: Path, file: str, old: str, new: str) -> Path:
    shutil.copytree(DATA / "rudy", tmp_path / "data" / "rudy")
    path = tmp_path / "data" / "rudy" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path / "data"


@pytest.mark.parametrize("file, old, new, said", [
    ("cards/coins.csv", "\ncoin-1,", "\n../../../../evil,", "coins.csv:2: error: card id '../../../../evil' must be"),
    ("cards/coins.csv", "\ncoin-1,", "\ncoin 1,", "coins.csv:2: error: card id 'coin 1' must be"),
    ("game.toml", "[components.coins]", '[components."../../../../evil"]', "component id '../../../../evil' must be"),
])
def test_an_id_that_would_name_a_file_outside_is_an_error(tmp_path: Path, file: str, old: str, new: str,
                                                          said: str) -> None:
    data = rudy_with(tmp_path, file, old, new)
    out = tmp_path / "deep" / "er" / "still" / "output"
    check = CliRunner().invoke(cli, ["check", "--data", str(data), "rudy"])
    assert check.exit_code == 1 and said in check.output, check.output
    build = CliRunner().invoke(cli, ["build", "--data", str(data), "rudy", "--what", "png", "--what", "cards",
                                     "--lang", "en", "--paper", "a4", "--out", str(out)])
    assert build.exit_code == 1, build.output
    assert not list(tmp_path.rglob("*evil*")), "a file was written outside the output folder"
    assert not list(tmp_path.rglob("*.pdf")) and not list(tmp_path.rglob("*.png"))


def test_ids_of_any_script_are_still_ids(tmp_path: Path) -> None:
    """Guard: a designer may name cards in Japanese (赤-1) or with a suit sign's letter (7H, 10+)."""
    data = rudy_with(tmp_path, "cards/coins.csv", "\ncoin-1,", "\n硬貨-1,")
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "rudy"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("code", ["../x", "EN", "en us"])
def test_pnp_new_refuses_a_language_code_that_is_no_code(tmp_path: Path, code: str) -> None:
    """`pnp new g --lang ../x` wrote a manifest that did not parse; 'EN' one that failed its own check."""
    result = CliRunner().invoke(cli, ["new", "--data", str(tmp_path / "data"), "g", "--lang", code])
    assert result.exit_code == 2
    assert f"--lang {code!r} is not a language code" in result.output
    assert not (tmp_path / "data" / "g").exists()

"""Odd command-line values are usage errors with a message, never a traceback, a stray file or a hang.

Each case is one a fuzz of every command's options found (30 November 2026): what it did before is
said at the test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parent.parent / "data"


def invoke(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("lang", ["/../../escaped", "../two-ops", "fr", "", "JA",
                                  pytest.param("x" * 10_000, id="long")])
def test_calibrate_takes_only_a_language_its_sheet_is_written_in(tmp_path: Path, lang: str) -> None:
    """--lang named the file: '/../../escaped' wrote escaped.pdf outside --out, and 'fr' wrote an
    English sheet called ...-fr.pdf."""
    out = tmp_path / "a" / "b" / "out"
    result = invoke("calibrate", "--lang", lang, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert "the calibration sheet is written in en, ja only" in result.output
    assert list(tmp_path.rglob("*.pdf")) == []


def test_calibrate_in_japanese_is_written(tmp_path: Path) -> None:
    result = invoke("calibrate", "--lang", "ja", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "calibration-a4-long-ja.pdf").is_file()


def test_a_bleed_that_is_not_a_number_is_a_usage_error(tmp_path: Path) -> None:
    """click's range let NaN through: a traceback in the workers, or 53 blank PNGs and exit 0."""
    result = invoke("build", "--data", str(DATA), "two-ops", "--bleed", "nan", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert "Invalid value for '--bleed': nan is not a number of mm" in result.output
    assert not list(tmp_path.rglob("*.*"))


@pytest.mark.parametrize("paper", ["100000x100000", "5081x300"])
def test_a_paper_larger_than_a_pdf_page_is_a_usage_error(tmp_path: Path, paper: str) -> None:
    """A 100 m sheet took minutes per output, and calibrate wrote one with exit 0."""
    for args in (["build", "--data", str(DATA), "two-ops"], ["calibrate"]):
        result = invoke(*args, "--paper", paper, "--out", str(tmp_path))
        assert result.exit_code == 2, result.output
        assert "is larger than a PDF page can be (5080 mm, 200 in, a side)" in result.output


def test_a_game_name_too_long_for_the_file_system_is_no_game(tmp_path: Path) -> None:
    """It stopped with OSError 'File name too long' and its traceback."""
    name = "x" * 10_000
    for command in ("check", "build", "i18n"):
        result = invoke(command, "--data", str(DATA), name)
        assert result.exit_code == 1, result.output
        assert f"no game '{'x' * 57}...': File name too long" in result.output
        assert name not in result.output


def test_a_game_id_too_long_is_refused_by_new(tmp_path: Path) -> None:
    result = invoke("new", "--data", str(tmp_path), "x" * 300)
    assert result.exit_code == 2
    assert "is 300 characters; keep it to 64" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_game_language_or_paper_named_twice_is_built_once(tmp_path: Path) -> None:
    """Each was built again: 'wrote 4 file(s)' for one file, two jobs writing the same path."""
    result = invoke("build", "--data", str(DATA), "two-ops", "two-ops", "--what", "cards", "--what", "cards",
                    "--lang", "en", "--lang", "en", "--paper", "a4", "--paper", "A4", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "wrote 1 file(s) in 1 folder(s)" in result.output
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.pdf")] == [
        "two-ops/en/a4/cards-deck.pdf"]


@pytest.mark.parametrize("epoch", ["abc", "1e20", "99999999999999999999", "-5"])
def test_a_source_date_epoch_that_is_no_time_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         epoch: str) -> None:
    """reportlab's int() stopped the build with its traceback."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    for args in (["build", "--data", str(DATA), "two-ops", "--what", "cards"], ["calibrate"]):
        result = invoke(*args, "--out", str(tmp_path))
        assert result.exit_code == 1, result.output
        assert f"error: SOURCE_DATE_EPOCH='{epoch}' is not a time pnp can date a PDF by" in result.output
        assert "fix: set it to whole seconds since 1970" in result.output
    assert not list(tmp_path.rglob("*.pdf"))


def test_a_cache_folder_that_cannot_be_made_is_an_error_naming_pnp_cache_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdir's traceback, or 'cannot write .../fonts' with a fix that blamed --out."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("PNP_CACHE_DIR", str(blocker / "cache"))
    for args in (["build", "--data", str(DATA), "two-ops", "--what", "cards"], ["calibrate"]):
        result = invoke(*args, "--out", str(tmp_path / "out"))
        assert result.exit_code == 1, result.output
        assert f"error: PNP_CACHE_DIR {blocker / 'cache'}: Not a directory" in result.output
        assert "fix: set PNP_CACHE_DIR to a folder you can write to" in result.output
    assert not (tmp_path / "out").exists()


def test_a_new_game_folder_opens_for_everyone_the_umask_lets(tmp_path: Path) -> None:
    """It was made with mkdtemp's 0700 and renamed into place: a folder only its maker could open."""
    import os

    mask = os.umask(0o022)
    try:
        assert invoke("new", "--data", str(tmp_path), "shared").exit_code == 0
    finally:
        os.umask(mask)
    assert (tmp_path / "shared").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "shared" / "cards").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize("out", ["data", "data/two-ops", "data/two-ops/cards"])
def test_outputs_among_a_games_files_are_refused(tmp_path: Path, out: str) -> None:
    """They were read as the game's files: each build changed the next one's inputs (pnp watch rebuilt
    itself), and --out data/two-ops/cards hid the card lists from the up-to-date check."""
    import shutil

    shutil.copytree(DATA / "two-ops", tmp_path / "data" / "two-ops")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = invoke("build", "--data", str(tmp_path / "data"), "two-ops", "--what", "cards", "--out",
                    str(tmp_path / out))
    assert result.exit_code == 1, result.output
    assert "puts the outputs among the files of the game folder" in result.output
    assert "fix: build into a folder outside the game folders" in result.output
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_folder_of_its_own_inside_a_game_takes_outputs(tmp_path: Path) -> None:
    """Guard: the output/ folder of a game folder on its own is where its outputs go by default."""
    import shutil

    shutil.copytree(DATA / "two-ops", tmp_path / "data" / "two-ops")
    args = ("build", "--data", str(tmp_path / "data"), "two-ops", "--what", "cards", "--paper", "a4", "--lang", "en",
            "--out", str(tmp_path / "data" / "two-ops" / "output"))
    assert "wrote 1 file(s)" in invoke(*args).output
    assert "1 up to date" in invoke(*args).output


def test_accept_and_accept_all_together_is_a_usage_error(tmp_path: Path) -> None:
    """--accept-all --accept nosuch recorded everything and ignored the misspelt id without a word."""
    import shutil

    shutil.copytree(DATA / "two-ops", tmp_path / "two-ops")
    before = (tmp_path / "two-ops" / "rules" / "ja.sources.toml").read_bytes()
    result = invoke("i18n", "--data", str(tmp_path), "two-ops", "--lang", "ja", "--accept-all", "--accept", "nosuch")
    assert result.exit_code == 2
    assert "--accept and --accept-all: give one" in result.output
    assert (tmp_path / "two-ops" / "rules" / "ja.sources.toml").read_bytes() == before


def test_a_paper_that_is_no_size_gets_a_paper_for_an_example() -> None:
    """It offered '63.5x88.9', a card, which the next run refused as smaller than A5."""
    result = invoke("build", "--data", str(DATA), "two-ops", "--paper", "foo")
    assert result.exit_code == 2
    assert "(e.g. '330x483')" in result.output and "63.5x88.9" not in result.output


def test_python_dash_m_pnp_runs_the_same_command() -> None:
    """Without a __main__, `python -m pnp` said "No module named pnp.__main__"."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", "pnp", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: pnp [OPTIONS] COMMAND")


def test_a_custom_paper_is_one_sheet_whichever_way_round_and_a_named_one_keeps_its_name() -> None:
    """483x330 and 330x483 built two folders of the same PDFs, and 210x297 one beside a4/."""
    from pnp.cli import PaperParam

    convert = PaperParam().convert
    assert convert("483x330", None, None) == convert("330x483", None, None) == "330x483"
    assert convert("210x297", None, None) == convert("297x210", None, None) == "a4"
    assert convert("215.9x279.4", None, None) == "letter"


def test_a_paper_in_inches_written_as_millimetres_gets_the_millimetres() -> None:
    result = CliRunner().invoke(cli, ["build", "--paper", "13x19"])
    assert result.exit_code == 2
    assert "if you meant 13 × 19 in, write --paper 330x483" in result.output


def test_new_elsewhere_names_the_game_so_the_next_command_finds_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`pnp new hanabatake --data games` said "then run 'pnp check hanabatake'", which answered "no game
    'hanabatake' in ./data"; its game.toml said the same."""
    monkeypatch.chdir(tmp_path)
    made = CliRunner().invoke(cli, ["new", "hanabatake", "--data", "games"])
    assert made.exit_code == 0, made.output
    said = re.search(r"then run 'pnp check ([^']+)'", made.output)
    assert said is not None and said.group(1) == "games/hanabatake"
    assert f"`pnp check {said.group(1)}`" in (tmp_path / "games" / "hanabatake" / "game.toml").read_text("utf-8")
    assert CliRunner().invoke(cli, ["check", said.group(1)]).exit_code == 0


def test_new_refuses_a_country_code_for_a_language_and_says_why_no_rule_text_was_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--lang jp was taken: its game had no rule text and English colour names; with fr beside en and ja no
    rule text was written either, and nothing said why."""
    monkeypatch.chdir(tmp_path)
    refused = CliRunner().invoke(cli, ["new", "g1", "--lang", "jp"])
    assert refused.exit_code == 2 and "--lang jp is a country code; the language is ja" in refused.output
    assert not (tmp_path / "data" / "g1").exists()
    assert CliRunner().invoke(cli, ["new", "g2", "--lang", "br"]).exit_code == 0  # Breton is a language
    made = CliRunner().invoke(cli, ["new", "g3", "--lang", "en", "--lang", "ja", "--lang", "fr"])
    assert made.exit_code == 0
    assert "no rule texts: pnp writes starters in en and ja only, and not for fr" in made.output

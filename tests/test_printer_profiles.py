"""A printer profile carries the measured back offset, so users don't retype it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

DATA = str(Path(__file__).resolve().parent.parent / "data")
PT_PER_MM = 72 / 25.4


def back_trim_left_mm(out: Path) -> float:
    pdf = out / "take-over-that-job" / "en" / "a4" / "cards-markers.pdf"
    return float(PdfReader(pdf).pages[1].trimbox.left) / PT_PER_MM


def build(out: Path, *extra: str) -> str:
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "take-over-that-job", "--lang", "en", "--paper", "a4",
                                      "--what", "cards", "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_profile_offset_moves_the_backs_and_a_flag_overrides_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printers.toml").write_text('[office]\nduplex_edge = "long"\nback_offset = [1.5, -0.5]\n',
                                            encoding="utf-8")
    build(tmp_path / "plain")
    build(tmp_path / "profile", "--printer", "office")
    build(tmp_path / "flag", "--printer", "office", "--back-offset", "0,0")
    plain = back_trim_left_mm(tmp_path / "plain")
    assert back_trim_left_mm(tmp_path / "profile") - plain == pytest.approx(1.5, abs=0.01)
    assert back_trim_left_mm(tmp_path / "flag") == pytest.approx(plain, abs=0.01)


def test_unknown_profile_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", "nope"])
    assert result.exit_code == 2
    assert "no printer profile 'nope'" in result.output
    assert "Traceback" not in result.output


def test_bad_profile_value_names_the_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printers.toml").write_text('[office]\nduplex_edge = "sideways"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", "office"])
    assert result.exit_code == 2
    assert "printers.toml:2: error: printer 'office': duplex_edge must be" in result.output


def test_every_problem_of_a_profile_is_named_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printers.toml").write_text('[office]\nduplex_edge = "sideways"\nback_offset = [1]\ncolour = 1\n',
                                            encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", "office"])
    assert result.exit_code == 2
    assert "printers.toml:1: error: printer 'office': unknown key(s) colour" in result.output
    assert "printers.toml:2: error: printer 'office': duplex_edge must be" in result.output
    assert "printers.toml:3: error: printer 'office': back_offset must be [x, y] in mm, found [1]" in result.output


@pytest.mark.parametrize(("written", "shown"), [("[nan, 0]", "[nan, 0]"), ("[inf, 0]", "[inf, 0]"),
                                                ("[15, 0]", "[15, 0]"), ("[0, -1e308]", "[0, -1e+308]")])
def test_a_back_offset_no_printer_drifts_is_an_error_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 written: str, shown: str) -> None:
    """NaN and infinity crashed the drawing; 1e9 printed every back off the page without a word."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printers.toml").write_text(f"[office]\nback_offset = {written}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", "office", "--what", "cards",
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert f"printers.toml:2: error: printer 'office': back_offset = {shown} must be" in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("flag", ["nan,0", "0,inf", "1e9,0", "-10.5,0"])
def test_a_back_offset_flag_no_printer_drifts_is_a_usage_error(tmp_path: Path, flag: str) -> None:
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--back-offset", flag, "--what", "cards",
                                      "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '--back-offset': '{flag}' must be" in result.output
    assert "Traceback" not in result.output


def test_an_empty_printer_name_and_a_folder_named_printers_toml_are_usage_errors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first suggested adding a [] table (no TOML); the second said there was no printers.toml."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", ""])
    assert result.exit_code == 2
    assert "error: printer name '' is not a profile name" in result.output
    (tmp_path / "printers.toml").mkdir()
    result = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", "office"])
    assert result.exit_code == 2
    assert "printers.toml: error: printers.toml is a folder, not a file" in result.output


def test_profiles_are_found_in_the_xdg_configuration_folder_and_the_message_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup honoured XDG_CONFIG_HOME, but the message said ~/.config/pnp/ whatever it was."""
    config = tmp_path / "config"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    missing = CliRunner().invoke(cli, ["build", "--data", DATA, "two-ops", "--printer", "office"])
    assert missing.exit_code == 2
    assert f"{config / 'pnp' / 'printers.toml'}" in missing.output
    assert "~/.config" not in missing.output
    (config / "pnp").mkdir(parents=True)
    (config / "pnp" / "printers.toml").write_text('[office]\nback_offset = [1.5, 0]\n', encoding="utf-8")
    build(tmp_path / "plain")
    build(tmp_path / "profile", "--printer", "office")
    moved = back_trim_left_mm(tmp_path / "profile") - back_trim_left_mm(tmp_path / "plain")
    assert moved == pytest.approx(1.5, abs=0.01)

"""Input files pnp cannot read are findings, never tracebacks: a file without read permission, or a
symbolic link to itself (found by wiring pnp into CI, 30 November 2026)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.diagnostics import DataError, location
from pnp.load.text_files import read_text

TWO_OPS = Path(__file__).resolve().parents[1] / "data" / "two-ops"


def test_a_file_that_cannot_be_read_is_a_data_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything runs as root here, so chmod 000 would not stop a read: the refusal is simulated."""
    path = tmp_path / "deck.csv"
    path.write_text("id,count\n", encoding="utf-8")

    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(DataError) as raised:
        read_text(path)
    assert raised.value.diagnostic.message == "cannot be read: Permission denied"
    assert raised.value.diagnostic.file == path


def test_a_location_through_a_link_to_itself_is_shown_not_raised(tmp_path: Path) -> None:
    looped = tmp_path / "en.md"
    looped.symlink_to("en.md")
    assert location(looped, 3, tmp_path) in ("en.md:3", f"{looped}:3")


def test_a_rule_text_linked_to_itself_is_one_error(tmp_path: Path) -> None:
    game = tmp_path / "two-ops"
    shutil.copytree(TWO_OPS, game)
    en = game / "rules" / "en.md"
    en.unlink()
    en.symlink_to("en.md")
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path), "two-ops"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1
    assert "error: rules/en.md is a link that leads to no file (a broken link, or one to itself)" in result.output

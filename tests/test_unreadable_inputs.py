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

    import os

    opened = os.open

    def refuse(name: str | Path, *args: object, **kwargs: object) -> int:
        if Path(name) == path:
            raise PermissionError(13, "Permission denied", str(name))
        return opened(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(DataError) as raised:
        read_text(path)
    assert raised.value.diagnostic.message == "deck.csv cannot be read: Permission denied"
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


def test_output_to_a_stream_that_cannot_encode_japanese_escapes_it(tmp_path: Path) -> None:
    """A Windows runner's cp1252 pipe ended `pnp list --lang ja` and `pnp check --format json` with a
    UnicodeEncodeError traceback. What cannot be encoded is now escaped; JSON still reads it back."""
    import json
    import os
    import subprocess
    import sys

    environment = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    data = str(TWO_OPS.parent)
    listed = subprocess.run([sys.executable, "-m", "pnp", "list", "--data", data, "--lang", "ja"], env=environment,
                            capture_output=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert b"\\u30c4\\u30fc" in listed.stdout  # ツー, of ツー・オプス
    checked = subprocess.run([sys.executable, "-m", "pnp", "check", "--data", data, "two-ops", "--format", "json",
                              "--lang", "ja"], env=environment, capture_output=True, timeout=120)
    assert checked.returncode == 0, checked.stderr
    assert b"Traceback" not in checked.stderr
    assert json.loads(checked.stdout)["games"][0]["game"] == "two-ops"

"""atomic_write: a failed or interrupted write never replaces the last good file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pnp.write.atomic import atomic_write


def test_success_replaces_the_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(b"old")
    with atomic_write(target) as handle:
        handle.write(b"new")
        assert target.read_bytes() == b"old"  # nothing visible until the block ends
        [temp] = [p for p in tmp_path.iterdir() if p != target]
        assert temp.parent == tmp_path and temp.name.startswith(".out.pdf.")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt()])
def test_error_keeps_the_previous_file(tmp_path: Path, error: BaseException) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(b"last good")
    with pytest.raises(type(error)), atomic_write(target) as handle:
        handle.write(b"half a PD")
        raise error
    assert target.read_bytes() == b"last good"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.pdf"]


def test_error_without_previous_file_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(ValueError), atomic_write(tmp_path / "new.pdf") as handle:
        handle.write(b"x")
        raise ValueError
    assert list(tmp_path.iterdir()) == []


def test_only_durable_writes_sync_to_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Build outputs can be built again; a translator's record cannot, so only it pays for fsync."""
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
    with atomic_write(tmp_path / "output.pdf") as handle:
        handle.write(b"output")
    assert synced == []
    with atomic_write(tmp_path / "record.toml", durable=True) as handle:
        handle.write(b"record")
    assert len(synced) == 1
    assert (tmp_path / "record.toml").read_bytes() == b"record"

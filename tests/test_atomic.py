"""atomic_write: a failed or interrupted write never replaces the last good file."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from pnp.files import release
from pnp.files.atomic import atomic_write


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


# ----------------------------------------------------------------------------- freeing the replaced file


posix_only = pytest.mark.skipif(os.name != "posix", reason="only POSIX lets a file be renamed over while open")


def large_file(path: Path) -> None:
    """A file of LARGE_FILE bytes, sparse, so the test writes almost nothing."""
    with open(path, "wb") as handle:
        handle.truncate(release.LARGE_FILE)


@posix_only
def test_a_large_replaced_file_is_freed_by_a_background_close(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename only swaps names; the old file's last descriptor is closed on another thread."""
    target = tmp_path / "cards.pdf"
    large_file(target)
    old_inode = target.stat().st_ino
    closed_on: list[str] = []
    real_close = os.close

    def spy_close(fd: int) -> None:
        if os.fstat(fd).st_ino == old_inode:
            closed_on.append(threading.current_thread().name)
        real_close(fd)

    monkeypatch.setattr(os, "close", spy_close)  # close_in_background looks os.close up when it starts the thread
    with atomic_write(target) as handle:
        handle.write(b"new")
    release.wait_for_closing()
    assert target.read_bytes() == b"new"
    assert closed_on == ["pnp-free-old-output"]
    assert release._closing == []


@posix_only
def test_a_reader_of_the_old_file_still_reads_it_whole(tmp_path: Path) -> None:
    target = tmp_path / "cards.pdf"
    old = b"old" * (release.LARGE_FILE // 3 + 1)
    target.write_bytes(old)
    with open(target, "rb") as reader:
        with atomic_write(target) as handle:
            handle.write(b"new")
        release.wait_for_closing()
        assert target.read_bytes() == b"new"
        assert reader.read() == old  # the old file lives on for whoever still has it open


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")


@linux_only
def test_a_large_file_is_swapped_in_not_renamed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renaming over an existing file makes ext4 write the new one back on the spot (auto_da_alloc):
    5 to 25 ms for a 75 MB deck. The names are exchanged instead, and the old file unlinked."""
    target = tmp_path / "cards.pdf"
    old = b"old" * (release.LARGE_FILE // 3 + 1)
    target.write_bytes(old)

    def refuse(*_: object) -> None:
        raise AssertionError("renamed over the old file")

    monkeypatch.setattr(os, "replace", refuse)
    with open(target, "rb") as reader:
        with atomic_write(target) as handle:
            handle.write(b"new")
        release.wait_for_closing()
        assert reader.read() == old
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf"]  # the old file went with its swapped name


@posix_only
def test_without_an_exchange_the_file_is_renamed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where renameat2 is missing or refuses (another system, an old kernel, a file system without it)."""
    target = tmp_path / "cards.pdf"
    large_file(target)
    monkeypatch.setattr(release, "_exchange", False)
    with atomic_write(target) as handle:
        handle.write(b"new")
    release.wait_for_closing()
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.pdf"]


@posix_only
def test_small_files_and_first_builds_start_no_thread(tmp_path: Path) -> None:
    small = tmp_path / "stamp.json"
    small.write_bytes(b"{}")
    before = threading.active_count()
    for path in (small, tmp_path / "first.pdf"):
        with atomic_write(path) as handle:
            handle.write(b"x")
    assert release._closing == [] and threading.active_count() == before


@posix_only
def test_a_failed_rename_closes_the_held_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No descriptor leaks when the rename itself fails (a full disk, a folder where the file was)."""
    target = tmp_path / "cards.pdf"
    large_file(target)
    open_before = len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else None

    def refuse(*_: object) -> None:
        raise PermissionError("refused")

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr("pnp.files.atomic.exchange", refuse)
    with pytest.raises(PermissionError), atomic_write(target) as handle:
        handle.write(b"new")
    assert release._closing == []
    assert target.stat().st_size == release.LARGE_FILE
    if open_before is not None:
        assert len(os.listdir("/proc/self/fd")) == open_before


@posix_only
def test_a_build_waits_for_the_freeing_before_it_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No closing thread outlives the unit: a process that exits must not wait on one."""
    from click.testing import CliRunner

    from pnp.cli import cli

    monkeypatch.setattr(release, "LARGE_FILE", 1)  # every replaced output goes through the background close
    started: list[int] = []
    real_close_in_background = release.close_in_background
    monkeypatch.setattr("pnp.files.atomic.close_in_background",
                        lambda fd: (started.append(fd), real_close_in_background(fd)))
    args = ["build", "two-ops", "--what", "cards", "--lang", "en", "--paper", "a4", "--jobs", "1",
            "--out", str(tmp_path), "--force"]
    before = threading.active_count()
    for _ in range(2):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
    assert len(started) >= 1  # the second build replaced the first one's files
    assert release._closing == [] and threading.active_count() == before

"""Write a file so that readers see either the last good version or the new one, never half of one.

A build that fails or is interrupted (Ctrl-C) must not replace a PDF the user may be about to print
with a truncated file. We write into a hidden temporary file in the same folder (so the final rename
never crosses a file system) and rename it over the target only after it was written completely
(pnp/files/release.py says how a large target is swapped out and freed cheaply).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from pnp.files.release import close_in_background, exchange, hold_if_large

_UNFINISHED: set[Path] = set()  # temporary files being written by this process


def remove_unfinished() -> None:
    """Delete the temporary files this process is writing: for a worker told to stop (SIGTERM), which
    leaves without unwinding the write that an exception would clean up."""
    for temp in list(_UNFINISHED):
        _remove_quietly(temp)


def _temp_path_next_to(target: Path) -> tuple[Path, int]:
    """Create a new, exclusive temp file beside `target`.

    Created with os.open(..., 0o666) rather than tempfile.mkstemp so the umask applies as for any new
    file: mkstemp's 0600 would survive the rename and make the PDF unreadable for other users.
    """
    while True:
        candidate = target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(6).hex()}.tmp")
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:
            continue
        return candidate, fd


def _keep_existing_mode(temp: Path, target: Path) -> None:
    """Replacing a file should not change who may read it."""
    with contextlib.suppress(FileNotFoundError):
        os.chmod(temp, os.stat(target).st_mode & 0o7777)


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], durable: bool = False) -> Iterator[BinaryIO]:
    """Yield a binary file to write to; it replaces `path` only if the block finishes.

    On any exception, KeyboardInterrupt included, the temporary file is removed and `path` is left
    exactly as it was; a pnp process killed mid-write leaves only a hidden temporary file.

    ``durable`` also flushes the data to the disk (fsync) before the rename, so that a power cut
    right after cannot leave an empty file under the final name. Files the user writes by hand
    (translation records) ask for it. Build outputs do not: they can always be built again, the
    stamps notice an output whose size or time is not what was written (pnp/write/stamps.py), and
    syncing costs a 700 MB image deck a fifth of a second here, seconds on a USB stick, on every
    rebuild that `pnp watch` makes. make, ninja and cargo do not sync their outputs either.
    """
    target = Path(path)
    temp, fd = _temp_path_next_to(target)
    _UNFINISHED.add(temp)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        _keep_existing_mode(temp, target)
        previous = hold_if_large(target)  # so the rename does not wait for the old file's blocks to be freed
        try:
            if previous is not None and exchange(temp, target):
                os.unlink(temp)  # the old file's name now; its blocks go when `previous` is closed
            else:
                os.replace(temp, target)
        except BaseException:
            if previous is not None:
                os.close(previous)
            raise
        if previous is not None:
            close_in_background(previous)
    except BaseException:
        _remove_quietly(temp)
        raise
    finally:
        _UNFINISHED.discard(temp)


#: the temporary files atomic_write makes: ``.<name>.<writer pid>-<12 hex digits>.tmp`` (no pid: older pnp)
_TEMP_NAME = re.compile(r"\A\.(?P<name>.+)\.(?:(?P<pid>\d+)-)?[0-9a-f]{12}\.tmp\Z")


def remove_stray_temporaries(folders: Iterable[Path], started_ns: int) -> list[Path]:
    """Delete what a build killed mid-write (SIGKILL, a power cut) left in these output folders: only
    pnp's own temporary files, and only those whose writer is gone, or, named by no writer, older than
    this build's start (another build writing into the same folder now keeps its own)."""
    removed = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            match = _TEMP_NAME.match(entry.name)
            if match is None or not entry.is_file(follow_symlinks=False):
                continue
            pid = match.group("pid")
            try:
                if pid is not None:
                    if int(pid) == os.getpid() or _alive(int(pid)):
                        continue
                elif entry.stat(follow_symlinks=False).st_mtime_ns >= started_ns:
                    continue
                os.unlink(entry.path)
                removed.append(Path(entry.path))
            except OSError:
                continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # someone else's process, or not ours to ask: leave its file
    return True

"""Freeing a replaced output's disk blocks while the next output is being made.

Renaming a new PDF over the old one frees the old file's blocks inside the rename, on the calling
thread: about 0.1 s for a 700 MB image deck whose data is on disk, and 0.3 s while its last build
is still being written back. A rebuild of a 900-card deck (cards, fold and low-ink sheets on two
papers, six such files) spent more time freeing the old files than making the new ones.

The kernel frees an unlinked file when its last descriptor closes. So before the rename we open the
old file; the rename then only swaps names, and a background thread closes the descriptor, which
frees the blocks while this thread draws the next output. Readers see exactly what they saw before:
the old file until the rename, the new one after. Only on POSIX, where a file may be renamed over
while it is open; only for large files, where the saving is worth a thread.

On Linux the rename itself is also made cheap. ext4 (by default, ``auto_da_alloc``) starts writing
a file back to the disk when it is renamed over an existing one, on the renaming thread: 5 to 25 ms
for a 75 MB deck, more than drawing 90 cards takes. ``renameat2(RENAME_EXCHANGE)`` swaps the two names
in one atomic step, which that heuristic does not apply to; the old file, now under the temporary
name, is then unlinked. Readers still see the old file or the new one, never neither.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

#: below this the rename frees the old file in well under a millisecond
LARGE_FILE = 16 * 1024 * 1024

_closing: list[threading.Thread] = []

RENAME_EXCHANGE = 2  # linux/fs.h
AT_FDCWD = -100

_exchange: object = None  # renameat2 from the C library once looked up, False where there is none


def _renameat2() -> object:
    global _exchange
    if _exchange is None:
        _exchange = False
        if sys.platform.startswith("linux"):
            import ctypes  # only here: 1.5 ms to import, and only large outputs on Linux need it

            _exchange = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", False)
    return _exchange


def exchange(temp: Path, target: Path) -> bool:
    """Swap the names of two existing files atomically; False where the system cannot (then nothing moved).

    Old kernels (ENOSYS), file systems without the flag (EINVAL) and C libraries without renameat2
    (musl before 1.2.5, macOS) all say False, and the caller renames as usual.
    """
    renameat2 = _renameat2()
    if not renameat2:
        return False
    return renameat2(AT_FDCWD, os.fsencode(temp), AT_FDCWD, os.fsencode(target), RENAME_EXCHANGE) == 0  # type: ignore[operator]


def hold_if_large(path: Path) -> int | None:
    """A descriptor keeping a large existing ``path`` alive past its replacement, or None."""
    if os.name != "posix":
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # no old file (the first build), or one we may not read: the rename frees it
        return None
    try:
        large = os.fstat(fd).st_size >= LARGE_FILE
    except OSError:
        large = False
    if not large:
        os.close(fd)
        return None
    return fd


def close_in_background(fd: int) -> None:
    """Close ``fd`` on another thread; :func:`wait_for_closing` waits for it."""
    thread = threading.Thread(target=os.close, args=(fd,), name="pnp-free-old-output", daemon=True)
    thread.start()
    _closing.append(thread)


def wait_for_closing() -> None:
    """Wait until every replaced file is freed: before a unit reports its outputs, and so before exit."""
    while _closing:
        _closing.pop().join()

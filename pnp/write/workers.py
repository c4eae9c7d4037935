"""Build worker processes that stop when the build stops, and leave no half-written file behind.

A parallel build hands its units to a process pool. Interrupted (Ctrl-C, SIGTERM, its parent killed),
the pool's own shutdown would first run every unit already queued, and a parent that died left its
workers waiting on a pipe nobody writes to, for ever. So each worker stops at SIGTERM, deleting the
temporary file it was writing, and on Linux asks the kernel for that SIGTERM when its parent dies.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Sequence
from concurrent.futures import Executor

from pnp.files.atomic import remove_unfinished
from pnp.render.text.font_subsets import Base, use_bases

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def worker_started(parent: int, trusted: bool = False, links: bool = False, font_bases: Sequence[Base] = ()) -> None:
    """The pool's initializer: stop cleanly at SIGTERM, and get one when ``parent`` is gone; ``trusted``:
    the parent's --trust (game folders' own rules code may run, pnp/rules/trust.py); ``links``: its
    --follow-links (pnp/load/guarded.py); ``font_bases``: the build's converted fonts to cut subsets
    from (pnp/render/text/font_subsets.py)."""
    use_bases(font_bases)
    if links:
        from pnp.load.guarded import set_follow_links

        set_follow_links(True)
    if trusted:
        from pnp.rules.trust import set_allowed_for_this_command

        set_allowed_for_this_command(True)
    signal.signal(signal.SIGTERM, _terminated)
    if sys.platform.startswith("linux"):
        import ctypes

        # without prctl a worker outlives a killed parent (SIGKILL) until its pipe breaks
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the request was made
        _terminated(signal.SIGTERM, None)


def _terminated(signum: int, _frame: object) -> None:
    """Leave at once: the unit in hand is abandoned, its temporary file deleted, nothing renamed."""
    remove_unfinished()
    os._exit(128 + signum)


def stop_workers(pool: Executor) -> None:
    """An interrupted build: drop the queued units and stop those running, without waiting for them."""
    pool.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.terminate()

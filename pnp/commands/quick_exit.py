"""Leaving the process without tearing the interpreter down, once a command has finished.

At exit CPython frees every module, class and object one by one: about 20 ms after a build, a tenth
of a small deck's whole run and more than its drawing. The operating system reclaims the memory at
once anyway. What must still happen does: output streams are flushed and exit handlers run
(coverage's, multiprocessing's finalizers, anything a library registered with ``atexit``).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading


def stop_on_sigterm() -> None:
    """SIGTERM (a service manager, ``kill``, a CI timeout) stops pnp as Ctrl-C does, with status 143: by an
    exception, so that a file being written is deleted and a parallel build stops its workers. Its
    default action killed the process at once, and left the workers of a parallel build running."""
    import signal

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


def output_any_text() -> None:
    """Streams that cannot encode every character (a Windows runner's cp1252 pipe) write what they
    cannot as escapes: a Japanese card name ended the run with UnicodeEncodeError. The escapes are
    \\uXXXX, which JSON output still reads as the character."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            "\u2014\u30c4\u00e9".encode(encoding)
        except (UnicodeEncodeError, LookupError):
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                reconfigure(errors="backslashreplace")


def exit_status(code: object) -> int:
    """The status `sys.exit(code)` would give: None is 0, an int is itself, anything else is printed and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def leave(code: object) -> None:
    """Exit with `code` as `sys.exit` would, skipping only the interpreter's teardown.

    Falls back to a normal exit where skipping it could lose something: a thread still running, an
    exit handler or a stream that fails, or a Python without ``atexit._run_exitfuncs``.
    """
    run_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_handlers is None or threading.active_count() > 1:
        sys.exit(code)
    status = exit_status(code)
    if not _flushed():
        sys.exit(status)  # the normal exit reports the broken stream as it always has
    run_handlers()  # reports a failing handler itself and goes on with the others
    os._exit(status if _flushed() else 120)  # 120: what CPython returns when the final flush fails


def _flushed() -> bool:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe, or a stream something closed
        return False
    return True

"""How the pnp command's process starts: SIGTERM stops it as Ctrl-C does, and any text can be printed.

(It used to end by skipping the interpreter's teardown as well: 25 to 100 ms of CPU a command, which
no user waits for once the result is printed; docs/benchmarks.md has the figures.)
"""

from __future__ import annotations

import sys


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

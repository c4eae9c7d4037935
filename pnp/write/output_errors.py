"""Failures to write an output that are the user's to fix: where the outputs go, not pnp's code.

A build into ``--out`` below a file, onto a full or read-only disk, or into a folder without
permission fails in the writer with an OSError; it gets a message and exit status 1 like any bad
input. Any other OSError is a bug and keeps its traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path

from pnp.diagnostics import Diagnostic, Level

#: errors of the place outputs go, whatever file they name: a full disk, a read-only one, no permission
OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR})


def output_problem(exc: OSError, output: Path, out: Path, option: str = "--out DIR") -> Diagnostic | None:
    """The error to report when writing ``output`` into the folder ``out`` failed because of where it
    goes (a folder that cannot be made or written, a full disk); None when it is about something else.
    ``option`` is how the user chooses another folder."""
    named = Path(exc.filename) if isinstance(exc.filename, str) else None
    about_out = named is not None and (named == out or out in named.parents or named in out.parents)
    if not about_out and exc.errno not in OUTPUT_ERRNOS:
        return None
    where = named if named is not None else output
    return Diagnostic(Level.ERROR, f"cannot write {where}: {exc.strerror or exc}", None, None,
                      f"choose a folder you can write to, with room to spare ({option})")

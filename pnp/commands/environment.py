"""Settings pnp reads from the environment, checked before a command that writes PDFs starts.

A bad one is the user's to fix, said once with the variable's name: before, SOURCE_DATE_EPOCH=abc
stopped in reportlab with int()'s traceback, and PNP_CACHE_DIR naming no writable folder with
mkdir's, or with a message that blamed --out.
"""

from __future__ import annotations

import os

import click

from pnp.diagnostics import clipped

#: the last second of the year 9999, the latest date a PDF (and Python's time functions) can carry
LATEST_EPOCH = 253_402_300_799


def environment_problems() -> list[tuple[str, str]]:
    """(problem, fix) for each setting the build cannot use."""
    problems = []
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None and epoch.strip() and not (epoch.strip().isdigit() and int(epoch) <= LATEST_EPOCH):
        problems.append((f"SOURCE_DATE_EPOCH={clipped(epoch, 40)!r} is not a time pnp can date a PDF by",
                         "set it to whole seconds since 1970 (e.g. $(git log -1 --format=%ct)), or unset it"))
    from pnp.load.user_cache import user_cache_dir

    cache = user_cache_dir()
    try:
        cache.mkdir(parents=True, exist_ok=True)
        writable = os.access(cache, os.W_OK | os.X_OK)
        why = "it cannot be written"
    except FileExistsError:  # mkdir's word for "a file is in the way", which read as a folder being there
        writable, why = False, "it is a file, not a folder"
    except OSError as exc:
        writable, why = False, exc.strerror or str(exc)
    if not writable:
        named = "PNP_CACHE_DIR" if os.environ.get("PNP_CACHE_DIR") else "the cache folder"
        problems.append((f"{named} {clipped(str(cache), 240)}: {why}",
                         "set PNP_CACHE_DIR to a folder you can write to (fonts and file digests are kept there)"))
    return problems


def environment_usable() -> bool:
    """Report every problem of the environment; False if there was one."""
    problems = environment_problems()
    for problem, fix in problems:
        click.echo(f"error: {problem}\n    fix: {fix}", err=True)
    return not problems

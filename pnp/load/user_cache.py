"""Where pnp keeps what it can always make again, shared by every project on the machine.

Font subsets, the content digests of input files and what pnp learnt about image files are keyed
so that sharing them across output folders and games is safe, and deleting them only costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def user_cache_dir() -> Path:
    """``$PNP_CACHE_DIR``, else ``$XDG_CACHE_HOME/pnp``, else ``~/.cache/pnp``.

    Asked for once per image drawn, so the answer is kept for as long as the environment says the same.
    """
    settings = (os.environ.get("PNP_CACHE_DIR"), os.environ.get("XDG_CACHE_HOME"), os.environ.get("HOME"))
    known = _answers.get(settings)
    if known is None:
        known = Path(settings[0]) if settings[0] else Path(settings[1] or Path.home() / ".cache") / "pnp"
        _answers[settings] = known
    return known


_answers: dict[tuple[str | None, ...], Path] = {}


def folder_shard(kind: str, folder: str) -> Path:
    """The cache file of what pnp learnt about the files of one folder.

    One file per folder, not one for the machine: a build reads what it knows of its own folders
    (the game's, its art's, pnp's own), not of every project it ever built. A single index of 5,000
    pictures cost every build 20 ms to parse; a folder's shard costs what that folder holds.
    """
    name = hashlib.sha256(os.fsencode(folder)).hexdigest()[:32]
    return user_cache_dir() / kind / f"{name}.json"


def read_json_cache(path: Path) -> dict:
    """A cache file's mapping; an absent, unreadable or damaged file is an empty cache, never an error."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def merge_json_cache(path: Path, new: dict, prune_above: int, live: Callable[[dict], dict], most: int) -> None:
    """Add ``new`` entries to a JSON cache file, merged with what other processes wrote meanwhile.

    Entries re-learnt move to the end, so trimming drops the oldest first. Past ``prune_above``
    entries, ``live(remembered)`` keeps only those still worth keeping (files that still exist,
    contents some file still has); never more than ``most`` are kept. Parallel build workers take
    turns (an advisory lock beside the file), so none of them writes over what another just added.
    """
    with _exclusive(path):
        remembered = read_json_cache(path)
        for key in new:
            remembered.pop(key, None)
        remembered.update(new)
        if len(remembered) > prune_above:
            remembered = live(remembered)
        if len(remembered) > most:
            remembered = dict(list(remembered.items())[-most:])
        write_json_cache(path, remembered)


@contextlib.contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    """Hold an advisory lock on ``<path>.lock`` where the system has flock; without one, or where
    the cache folder cannot be written, go on unlocked (the cost is a lost entry, hashed again later)."""
    try:
        import fcntl
    except ImportError:  # Windows
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_name(path.name + ".lock"), "a")  # noqa: SIM115 - held across the yield
    except OSError:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def write_json_cache(path: Path, data: dict) -> None:
    """Replace the file whole, so parallel builds reading it never see half of it."""
    write_bytes_cache(path, json.dumps(data, separators=(",", ":")).encode("utf-8"))


def write_bytes_cache(path: Path, data: bytes) -> None:
    """Replace a cache file whole; a cache folder that cannot be written costs speed, not correctness."""
    with contextlib.suppress(OSError):
        replace_file(path, data)


def replace_file(path: Path, data: bytes) -> None:
    """Replace a file whole, so parallel builds reading it never see half of it (errors are raised).

    No fsync: a cache lost in a power cut is rebuilt, and a torn one fails to load and is made again.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.chmod(temp_name, 0o644)  # mkstemp makes it private; a cache may be shared
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise

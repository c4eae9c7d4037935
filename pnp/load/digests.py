"""Content hashes of input files: computed once, remembered across builds by the file's stat.

The up-to-date check hashes every file a build reads, and the image code hashes each picture it
embeds: on a deck of 900 card images that is 700 MB to read and hash before a single card is
drawn, even when nothing changed. Like git's index, we remember each file's digest under its
path with the (size, mtime, inode, ctime) it had when it was hashed, in the user cache
(:func:`pnp.load.user_cache.user_cache_dir`), and hash it again only when one of them changes.
The identity of a file is still its content: stat only says when to look again.

A file changed within the same timestamp tick as its hashing would keep its old stat on a coarse
file system, so a digest is only remembered across builds once the file is older than
``SETTLED_SECONDS`` (git's "racily clean" entries); younger files are hashed again next build.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from pnp.load.user_cache import merge_json_cache, read_json_cache, user_cache_dir

INDEX_NAME = "file-digests-v1.json"
SETTLED_SECONDS = 3
MAX_REMEMBERED = 100_000  # entries kept on disk; the oldest go first
PRUNE_ABOVE = 20_000  # past this many entries, a save drops those of files that are gone

StatKey = tuple[int, int, int, int]

_LOCK = threading.Lock()
_DIGESTS: dict[str, tuple[StatKey, str]] = {}  # absolute path -> (stat key, sha256), this process
_NEW: dict[str, list] = {}  # settled entries hashed by this process, not yet on disk
_loaded_from: Path | None = None  # the cache folder the index was read from


def stat_key(stat: os.stat_result) -> StatKey:
    return (stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns)


def _index_path() -> Path:
    return user_cache_dir() / INDEX_NAME


def _load_index() -> None:
    """Read the remembered digests once per process (again if the cache folder changes, as in tests).

    Asked before every lookup; user_cache_dir gives the same Path object while the environment
    stays the same, so the usual answer costs an identity test, not a path join.
    """
    global _loaded_from
    folder = user_cache_dir()
    if folder is _loaded_from:
        return
    remembered = read_json_cache(folder / INDEX_NAME)
    with _LOCK:
        for name, entry in remembered.items():
            if name not in _DIGESTS and _well_formed(entry):
                _DIGESTS[name] = (tuple(entry[:4]), entry[4])
        _loaded_from = folder


def _well_formed(entry: object) -> bool:
    """Four whole numbers (the stat) and a hex digest: an entry a hand or a bug damaged is forgotten,
    and the file hashed again, where a digest of 12345 crashed the build."""
    return (isinstance(entry, list) and len(entry) == 5
            and all(isinstance(value, int) and not isinstance(value, bool) for value in entry[:4])
            and isinstance(entry[4], str) and len(entry[4]) == 64)


def known_digest(path: Path | str, stat: os.stat_result) -> str | None:
    """The digest of the file with this stat, if this build or an earlier one hashed it."""
    _load_index()
    with _LOCK:
        known = _DIGESTS.get(os.path.abspath(path))
    if known is not None and known[0] == stat_key(stat):
        return known[1]
    return None


def digest_of(path: Path | str) -> str:
    """sha256 of the file's bytes."""
    stat = os.stat(path)
    known = known_digest(path, stat)
    if known is not None:
        return known
    return digest_of_bytes(path, stat, Path(path).read_bytes())


def digest_of_bytes(path: Path | str, stat: os.stat_result, data: bytes) -> str:
    """sha256 of bytes already read from ``path`` while it had this stat, remembered for later asks."""
    known = known_digest(path, stat)
    if known is not None:
        return known
    digest = hashlib.sha256(data).hexdigest()
    key, name = stat_key(stat), os.path.abspath(path)
    settled = time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > SETTLED_SECONDS * 1_000_000_000
    with _LOCK:
        _DIGESTS[name] = (key, digest)
        if settled:
            _NEW[name] = [*key, digest]
    return digest


PARALLEL_BYTES = 16 << 20  # below this much unknown data, threads cost more than they save


def digest_all(paths: Iterable[Path], on_read: Callable[[Path, os.stat_result, bytes], None] | None = None) -> None:
    """Hash every file not known yet, on all cores, so later :func:`digest_of` calls only look up.

    A first build of a deck of 900 images hashes 700 MB; sha256 and file reads release the GIL, so
    threads share the work. ``on_read`` sees each file's bytes while they are in memory (an image's
    facts are read from the same bytes, not from a second read).
    """
    unknown: list[tuple[Path, os.stat_result]] = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            continue  # a missing input is the caller's to report
        if known_digest(path, stat) is None:
            unknown.append((path, stat))

    def hash_one(item: tuple[Path, os.stat_result]) -> None:
        path, stat = item
        try:
            data = Path(path).read_bytes()
        except OSError:
            return
        if len(data) != stat.st_size:
            return  # changed while read: digest_of will read it again
        digest_of_bytes(path, stat, data)
        if on_read is not None:
            on_read(Path(path), stat, data)

    workers = min(os.cpu_count() or 1, len(unknown))
    if workers <= 1 or sum(stat.st_size for _, stat in unknown) < PARALLEL_BYTES:
        for item in unknown:
            hash_one(item)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(hash_one, unknown):
            pass


def save_digests() -> None:
    """Add this process's new digests to the index on disk (merged, so parallel workers lose little)."""
    with _LOCK:
        if not _NEW:
            return
        new = dict(_NEW)
        _NEW.clear()
    merge_json_cache(_index_path(), new, PRUNE_ABOVE, _files_that_exist, MAX_REMEMBERED)


def _files_that_exist(remembered: dict) -> dict:
    return {name: entry for name, entry in remembered.items() if os.path.exists(name)}


def remembered_digests() -> set[str]:
    """Every digest the index on disk holds: the contents of files that still exist as far as pnp knows."""
    return {entry[4] for entry in read_json_cache(_index_path()).values()
            if isinstance(entry, list) and len(entry) == 5}


def forget_remembered() -> None:
    """Drop what this process knows, so the next ask reads the index (and the files) again."""
    global _loaded_from
    with _LOCK:
        _DIGESTS.clear()
        _NEW.clear()
        _loaded_from = None

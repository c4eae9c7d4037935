"""Content hashes of input files: computed once, remembered across builds by the file's stat.

The up-to-date check hashes every file a build reads, and the image code hashes each picture it
embeds: on a deck of 900 card images that is 700 MB to read and hash before a single card is
drawn, even when nothing changed. Like git's index, we remember each file's digest under its
path with the (size, mtime, inode, ctime) it had when it was hashed, in the user cache
(:func:`pnp.load.user_cache.user_cache_dir`), and hash it again only when one of them changes.
The identity of a file is still its content: stat only says when to look again. The index is kept
in one file per folder (:func:`~pnp.load.user_cache.folder_shard`), read when a file of that folder
is first asked about.

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
from stat import S_IFMT, S_ISREG

from pnp.load.user_cache import folder_shard, merge_folder_shard, read_json_cache, user_cache_dir

INDEX_FOLDER = "file-digests-v2"  # v2: one file per folder of inputs, not one for the machine
SETTLED_SECONDS = 3
MAX_REMEMBERED = 100_000  # entries kept on disk for one folder; the oldest go first
PRUNE_ABOVE = 2_000  # past this many entries for a folder, a save drops those of files that are gone

StatKey = tuple[int, int, int, int]

_LOCK = threading.Lock()
_DIGESTS: dict[str, tuple[StatKey, str]] = {}  # absolute path -> (stat key, sha256), this process
_NEW: dict[str, dict[str, list]] = {}  # folder -> {file name: entry}: settled, hashed here, not yet on disk
_loaded: set[tuple[Path, str]] = set()  # (cache folder, input folder) whose remembered digests were read


def stat_key(stat: os.stat_result) -> StatKey:
    return (stat.st_size, stat.st_mtime_ns, stat.st_ino, stat.st_ctime_ns)


def index_file(folder: str) -> Path:
    """Where the digests of the files in ``folder`` (an absolute path) are remembered."""
    return folder_shard(INDEX_FOLDER, folder)


def _load_folder(folder: str) -> None:
    """Read the remembered digests of a folder's files once per process (again if the cache folder
    changes, as in tests)."""
    loaded = (user_cache_dir(), folder)
    if loaded in _loaded:
        return
    remembered = read_json_cache(index_file(folder))
    with _LOCK:
        for name, entry in remembered.items():
            path = os.path.join(folder, name)
            if path not in _DIGESTS and _well_formed(entry):
                _DIGESTS[path] = (tuple(entry[:4]), entry[4])
        _loaded.add(loaded)


def _well_formed(entry: object) -> bool:
    """Four whole numbers (the stat) and a hex digest: an entry a hand or a bug damaged is forgotten,
    and the file hashed again, where a digest of 12345 crashed the build."""
    return (isinstance(entry, list) and len(entry) == 5
            and all(isinstance(value, int) and not isinstance(value, bool) for value in entry[:4])
            and isinstance(entry[4], str) and len(entry[4]) == 64)


def known_digest(path: Path | str, stat: os.stat_result) -> str | None:
    """The digest of the file with this stat, if this build or an earlier one hashed it."""
    name = os.path.abspath(path)
    _load_folder(os.path.dirname(name))
    with _LOCK:
        known = _DIGESTS.get(name)
    if known is not None and known[0] == stat_key(stat):
        return known[1]
    return None


def digest_of(path: Path | str) -> str:
    """sha256 of the file's bytes."""
    stat = os.stat(path)
    known = known_digest(path, stat)
    if known is not None:
        return known
    if not S_ISREG(stat.st_mode):  # a pipe, a device: never read (it would block, or never end)
        return _special_digest(stat)
    if stat.st_size > WHOLE_FILE_BELOW:
        return digest_of_bytes(path, stat, None, _streamed_digest(path))
    return digest_of_bytes(path, stat, _read_regular(path))


WHOLE_FILE_BELOW = 256 << 20  # larger files (a designer's layered source art, say) are hashed in pieces


def _special_digest(stat: os.stat_result) -> str:
    """What stands for the contents of something that is not a file: its kind, so that a file
    replaced by a pipe makes its outputs stale, and nothing is read."""
    return hashlib.sha256(f"not a regular file {S_IFMT(stat.st_mode):o}".encode()).hexdigest()


def _open_regular(path: Path | str) -> int:
    """A file descriptor, opened so that a pipe swapped in after the stat cannot block."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    if not S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return fd


def _read_regular(path: Path | str) -> bytes:
    fd = _open_regular(path)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def _streamed_digest(path: Path | str) -> str:
    digest = hashlib.sha256()
    fd = _open_regular(path)
    with os.fdopen(fd, "rb") as handle:
        while block := handle.read(1 << 24):
            digest.update(block)
    return digest.hexdigest()


def digest_of_bytes(path: Path | str, stat: os.stat_result, data: bytes | None, digest: str | None = None) -> str:
    """sha256 of bytes already read from ``path`` while it had this stat (or that ``digest`` of them),
    remembered for later asks."""
    known = known_digest(path, stat)
    if known is not None:
        return known
    digest = digest or hashlib.sha256(data or b"").hexdigest()
    key, name = stat_key(stat), os.path.abspath(path)
    settled = time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > SETTLED_SECONDS * 1_000_000_000
    with _LOCK:
        _DIGESTS[name] = (key, digest)
        if settled:
            folder, file_name = os.path.split(name)
            _NEW.setdefault(folder, {})[file_name] = [*key, digest]
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
        if known_digest(path, stat) is None and S_ISREG(stat.st_mode) and stat.st_size <= WHOLE_FILE_BELOW:
            unknown.append((path, stat))  # the others are hashed (or not read) when digest_of asks

    def hash_one(item: tuple[Path, os.stat_result]) -> None:
        path, stat = item
        try:
            data = _read_regular(path)
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
    for folder, entries in new.items():
        def files_that_exist(remembered: dict, folder: str = folder) -> dict:
            return {name: entry for name, entry in remembered.items() if os.path.exists(os.path.join(folder, name))}

        merge_folder_shard(INDEX_FOLDER, folder, entries, PRUNE_ABOVE, files_that_exist, MAX_REMEMBERED)


def remembered_digests(folder: str) -> set[str]:
    """Every digest the index on disk holds for a folder: contents its files have, as far as pnp knows."""
    return {entry[4] for entry in read_json_cache(index_file(folder)).values()
            if isinstance(entry, list) and len(entry) == 5}


def forget_remembered() -> None:
    """Drop what this process knows, so the next ask reads the index (and the files) again."""
    with _LOCK:
        _DIGESTS.clear()
        _NEW.clear()
        _loaded.clear()

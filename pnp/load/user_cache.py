"""Where pnp keeps what it can always make again, shared by every project on the machine.

Font subsets, the content digests of input files and what pnp learnt about image files are keyed
so that sharing them across output folders and games is safe, and deleting them only costs time.

Every entry is sealed (:func:`sealed`): a first line naming the format, pnp's version and a SHA-256
of the rest. A torn write, a flipped bit, a file zeroed by a crash or one written by another pnp fails
the seal, and is thrown away and made again (said under ``-v``: :func:`discarded_entries`): a damaged
digest must never stand for a file's contents, nor a damaged font reach reportlab.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pnp


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


MAX_SHARDS = 1_000  # folders remembered per kind; past this, a new one prunes the shards of folders gone
FOLDER_KEY = "/"  # no file name holds a slash: the key a shard keeps its own folder under


def merge_folder_shard(kind: str, folder: str, new: dict, prune_above: int, live: Callable[[dict], dict],
                       most: int) -> None:
    """:func:`merge_json_cache` for the shard of ``folder``, which names its folder, so that shards of
    folders since deleted (a test's temporary folder, a moved project) can be found and dropped."""
    path = folder_shard(kind, folder)
    created = not path.exists()
    merge_json_cache(path, {**new, FOLDER_KEY: folder}, prune_above,
                     lambda remembered: {**live(remembered), FOLDER_KEY: folder}, most)
    if created:
        prune_shards(path.parent)


def prune_shards(shards: Path) -> None:
    """Past ``MAX_SHARDS``, drop the shards whose folder is gone, then the least recently written."""
    try:
        found = [entry for entry in os.scandir(shards) if entry.name.endswith(".json")]
    except OSError:
        return
    if len(found) <= MAX_SHARDS:
        return
    kept = []
    for entry in found:
        folder = read_json_cache(Path(entry.path)).get(FOLDER_KEY)
        if isinstance(folder, str) and os.path.isdir(folder):
            kept.append(entry)
        else:
            _drop_shard(entry.path)
    if len(kept) > MAX_SHARDS:
        kept.sort(key=lambda entry: entry.stat().st_mtime_ns)
        for entry in kept[:len(kept) - MAX_SHARDS * 3 // 4]:
            _drop_shard(entry.path)


def _drop_shard(path: str) -> None:
    for name in (path, path + ".lock"):
        with contextlib.suppress(OSError):
            os.unlink(name)


SEAL = b"pnp-cache-1"  # the first word of every cache entry; a new one when the sealing changes


def sealed(data: bytes) -> bytes:
    """``data`` under a first line that names the format, pnp's version and the SHA-256 of ``data``."""
    return _seal_line(data) + data


def _seal_line(data: bytes) -> bytes:
    return b"%s %s %s\n" % (SEAL, pnp.__version__.encode("ascii"), hashlib.sha256(data).hexdigest().encode("ascii"))


def unsealed(raw: bytes, path: Path | str) -> bytes | None:
    """What :func:`sealed` sealed, or None (noted for ``-v``) if ``raw`` is damaged or from another pnp."""
    header, newline, data = raw.partition(b"\n")
    parts = header.split(b" ")
    if not newline or len(parts) != 3 or parts[0] != SEAL:
        why = "damaged, or not in this pnp's format"
    elif parts[1] != pnp.__version__.encode("ascii"):
        why = f"made by pnp {parts[1].decode('ascii', 'replace')[:20]}"
    elif parts[2] != hashlib.sha256(data).hexdigest().encode("ascii"):
        why = "damaged (its checksum does not match)"
    else:
        return data
    _DISCARDED.append(f"cache file {path} was {why}: made again")
    return None


_DISCARDED: list[str] = []


def discarded_entries() -> list[str]:
    """The cache entries thrown away since last asked, each in a sentence: a verbose build says them."""
    found = list(dict.fromkeys(_DISCARDED))
    _DISCARDED.clear()
    return found


def read_sealed(path: Path) -> bytes | None:
    """A sealed cache file's contents; None if it is absent, unreadable, damaged or another pnp's."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    return unsealed(raw, path)


def write_sealed(path: Path, data: bytes) -> None:
    """Replace a cache file whole with ``data`` sealed; a folder that cannot be written costs only speed."""
    write_bytes_cache(path, sealed(data))


def write_file_and_seal(path: Path, data: bytes) -> None:
    """A cache file another library reads by its path (a font subset for reportlab), kept as it is, with
    its seal beside it (``<name>.seal``); errors are raised, as by :func:`replace_file`."""
    replace_file(path, data)
    replace_file(path.with_name(path.name + ".seal"), _seal_line(data))


def file_matches_seal(path: Path) -> bool:
    """Whether a file :func:`write_file_and_seal` wrote is whole and this pnp's; False (noted for ``-v``
    unless the file is simply absent) where it must be made again."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    try:
        seal = path.with_name(path.name + ".seal").read_bytes()
    except OSError:
        seal = b""
    return unsealed(seal + data, path) is not None


def read_json_cache(path: Path) -> dict:
    """A cache file's mapping; an absent, unreadable or damaged file is an empty cache, never an error."""
    raw = read_sealed(path)
    try:
        data = json.loads(raw) if raw is not None else {}
    except ValueError:
        return {}  # sealed, so written so by pnp: not damage, but made again all the same
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
    write_sealed(path, json.dumps(data, separators=(",", ":")).encode("utf-8"))


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

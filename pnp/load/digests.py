"""Content hashes of input files, computed once per process however many stages ask.

The up-to-date check hashes every file a build reads, and the image code
hashes each picture it embeds; on a deck of 900 card images that is 700 MB
read twice. Both ask here. The (size, mtime) pair only keys the memo: the
identity of a file is always its content.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

_LOCK = threading.Lock()
_DIGESTS: dict[tuple[str, int, int], str] = {}


def _key(path: Path | str, size: int, mtime_ns: int) -> tuple[str, int, int]:
    return (os.path.abspath(path), size, mtime_ns)


def digest_of(path: Path | str) -> str:
    """sha256 of the file's bytes."""
    stat = os.stat(path)
    key = _key(path, stat.st_size, stat.st_mtime_ns)
    with _LOCK:
        known = _DIGESTS.get(key)
    if known is None:
        known = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        with _LOCK:
            _DIGESTS[key] = known
    return known


def digest_of_bytes(path: Path | str, signature: tuple[int, int], data: bytes) -> str:
    """sha256 of bytes already read from ``path`` with this (size, mtime), remembered for later asks."""
    key = _key(path, *signature)
    with _LOCK:
        known = _DIGESTS.get(key)
    if known is None:
        known = hashlib.sha256(data).hexdigest()
        with _LOCK:
            _DIGESTS[key] = known
    return known

"""Which game folders may run their own rules code, as direnv's `allow` decides for .envrc files.

A game folder from someone else is data until its user says otherwise: `pnp trust GAME` records the
folder's resolved path with a SHA-256 digest of its code in ``$XDG_CONFIG_HOME/pnp/trusted.toml``
(by default ``~/.config/pnp/``). Any change to the code changes the digest and asks again. For one
command, ``--trust`` allows it; ``PNP_TRUST=1`` in the environment allows it everywhere (CI).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pnp.load.guarded import read_input

TRUST_FILE = "trusted.toml"
ENVIRONMENT = "PNP_TRUST"

#: set by --trust for the command running (inherited by forked build workers)
_allowed_for_this_command = False


@dataclass(frozen=True)
class TrustRecord:
    folder: str  # resolved path of the game folder
    rules: str  # the manifest's rules value (rules.py, myrules/)
    digest: str  # "sha256:<hex>" of the code


def trust_file() -> Path:
    """``$XDG_CONFIG_HOME/pnp/trusted.toml``; a relative XDG_CONFIG_HOME is ignored, as the spec says."""
    configured = os.environ.get("XDG_CONFIG_HOME")
    base = Path(configured) if configured and Path(configured).is_absolute() else Path.home() / ".config"
    return base / "pnp" / TRUST_FILE


def code_files(code: Path) -> list[Path]:
    """The files whose digest is trusted: the rules file, or every .py of a rules package, sorted."""
    if code.is_dir():
        return sorted(path for path in code.rglob("*.py") if "__pycache__" not in path.parts)
    return [code]


def code_digest(folder: Path, rules: str, code: Path) -> str:
    """SHA-256 over the manifest's rules value and each code file's path (below the folder) and bytes."""
    digest = hashlib.sha256()
    digest.update(f"rules={rules}\0".encode())
    for path in code_files(code):
        data = read_input(path, "text")  # a pipe named rules.py would hang every check (pnp.load.guarded)
        relative = path.relative_to(folder).as_posix() if path.is_relative_to(folder) else path.name
        digest.update(f"{relative}\0{len(data)}\0".encode())
        digest.update(data)
    return f"sha256:{digest.hexdigest()}"


def read_records(path: Path | None = None) -> list[TrustRecord]:
    """The trusted folders; an unreadable or malformed file trusts nothing (it is asked again)."""
    path = path or trust_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    records = []
    for entry in data.get("game", []):
        if isinstance(entry, dict) and all(isinstance(entry.get(key), str) for key in ("folder", "rules", "digest")):
            records.append(TrustRecord(entry["folder"], entry["rules"], entry["digest"]))
    return records


def write_records(records: list[TrustRecord], path: Path | None = None) -> Path:
    """Write the trusted folders atomically (and durably: the user made these decisions by hand)."""
    from pnp.files.atomic import atomic_write

    path = path or trust_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["# Game folders whose rules code pnp may run: written by `pnp trust`, see `pnp trust --help`.", ""]
    for record in sorted(records, key=lambda r: r.folder):
        lines += ["[[game]]", f"folder = {_toml_string(record.folder)}", f"rules = {_toml_string(record.rules)}",
                  f"digest = {_toml_string(record.digest)}", ""]
    with atomic_write(path, durable=True) as handle:
        handle.write("\n".join(lines).encode("utf-8"))
    return path


def _toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes (\\", \\\\, \\uXXXX) are TOML's too."""
    return json.dumps(text, ensure_ascii=False)


def record_for(folder: Path, records: list[TrustRecord] | None = None) -> TrustRecord | None:
    key = str(folder.resolve())
    return next((record for record in (read_records() if records is None else records) if record.folder == key),
                None)


def trust(folder: Path, rules: str, digest: str) -> Path:
    """Record ``folder`` as trusted with this code; replaces an older record of it."""
    key = str(folder.resolve())
    records = [record for record in read_records() if record.folder != key]
    return write_records([*records, TrustRecord(key, rules, digest)])


def revoke(folder: Path) -> bool:
    """Forget ``folder``; whether it was trusted."""
    key = str(folder.resolve())
    records = read_records()
    kept = [record for record in records if record.folder != key]
    if len(kept) == len(records):
        return False
    write_records(kept)
    return True


def allowed_by_environment() -> bool:
    return os.environ.get(ENVIRONMENT, "").strip().lower() in ("1", "true", "yes")


def allowed_without_record() -> bool:
    """--trust for this command, or PNP_TRUST=1."""
    return _allowed_for_this_command or allowed_by_environment()


def set_allowed_for_this_command(allowed: bool) -> None:
    """A build worker takes its parent's --trust (pnp.write.workers.worker_started)."""
    global _allowed_for_this_command
    _allowed_for_this_command = allowed


@contextlib.contextmanager
def for_this_command(allowed: bool) -> Iterator[None]:
    """``--trust``: game folders' code may run until the command ends."""
    before = _allowed_for_this_command
    set_allowed_for_this_command(allowed or before)
    try:
        yield
    finally:
        set_allowed_for_this_command(before)

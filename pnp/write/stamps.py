"""Up-to-date checks: every output is keyed by a hash of everything it depends on.

The key covers the input files (read as bytes, never by mtime, so a fresh
clone or a touched file does not fool it), the job's parameters and options,
and pnp's own code, templates and pinned fonts. A stamp beside the outputs
records the key and the warnings the output was built with (shrunk text, a
margin too narrow for the cutting cues, card faces drawn as chips), so a
skipped output repeats its warnings instead of going quiet.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

import pnp
from pnp.diagnostics import Diagnostic, Level, listed
from pnp.files.atomic import atomic_write
from pnp.load.digests import digest_of
from pnp.load.user_cache import read_sealed, sealed
from pnp.render.cards.faces import TextIssue

STAMP_VERSION = 4  # 3: the build's warnings, not only its text issues; 4: notes too, and jobs with no output
_PINNED = ("reportlab", "pypdfium2", "fonttools", "pillow", "noto-cjk-sans-jp-regular", "noto-cjk-sans-jp-bold",
           "svglib", "jinja2", "markdown-it-py")


@cache
def tool_fingerprint() -> str:
    """pnp's version, its source and templates, and the libraries that shape the bytes."""
    digest = hashlib.sha256(f"pnp {pnp.__version__} stamp {STAMP_VERSION}".encode())
    package = Path(pnp.__file__).resolve().parent
    from pnp.resources import templates_root

    roots = [str(package), str(templates_root())]
    for root in roots:
        for relative in files_in(Path(root), skip_folders={"__pycache__"}):
            if not relative.endswith(".pyc"):
                digest.update(relative.encode())
                digest.update(digest_of(os.path.join(root, relative)).encode())  # strings: 250 files a build
    versions = installed_versions(_PINNED)
    for name in _PINNED:
        digest.update(f"{name}={versions.get(name, 'absent')}".encode())
    return digest.hexdigest()


def files_in(folder: Path, skip_folders: Collection[str] = (),
             skip: Callable[[str], bool] | None = None,
             skip_folder: Callable[[str], bool] | None = None) -> list[str]:
    """Every file under ``folder`` as a relative path, ordered as sorted Paths would be.

    ``skip`` leaves out files and folders by name; ``skip_folder`` folders by their path.

    os.walk, not a glob of Path objects: a deck of 900 images is listed once per build unit,
    and pnp's own files once per build.
    """
    found = []
    for directory, subfolders, files in os.walk(folder):
        subfolders[:] = [name for name in subfolders if name not in skip_folders and not (skip and skip(name))
                         and not (skip_folder and skip_folder(os.path.join(directory, name)))]
        if skip is not None:
            files = [name for name in files if not skip(name)]
        relative = os.path.relpath(directory, folder)
        found.extend(name if relative == "." else os.path.join(relative, name) for name in files)
    return sorted(found, key=lambda name: name.split(os.sep))  # Path(name).parts, without making Paths


def installed_versions(names: Iterable[str]) -> dict[str, str]:
    """Versions of installed distributions, read from the ``<name>-<version>.dist-info`` folder names.

    What :func:`importlib.metadata.version` finds, without importing it (and the email parser it
    brings) on every build; a distribution installed some other way falls back to it.
    """
    wanted = {_normalised(name): name for name in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in listing:
            if not folder.endswith(".dist-info"):
                continue
            name, _, version = folder[: -len(".dist-info")].partition("-")
            original = wanted.get(_normalised(name))
            if original is not None and original not in found and version:
                found[original] = version
        if len(found) == len(wanted):
            return found
    missing = [original for original in wanted.values() if original not in found]
    if missing:
        from importlib import metadata

        for original in missing:
            with contextlib.suppress(metadata.PackageNotFoundError):
                found[original] = metadata.version(original)
    return found


def stamps_folder(out: Path) -> Path:
    """Where the stamps of the outputs under ``out`` live."""
    return out / ".cache" / "stamps"


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def input_digests(inputs: Iterable[Path], base: Path) -> dict[str, str]:
    """Each input file's digest by its name relative to ``base`` ("missing" for one gone), in name order:
    recorded in the stamp, so that a verbose build can say which input made an output stale."""
    prefix = os.path.join(str(base), "")
    named = {}
    for name in sorted({str(path) for path in inputs}):
        try:
            digest = digest_of(name)
        except FileNotFoundError:
            digest = "missing"
        named[name[len(prefix):] if name.startswith(prefix) else name] = digest
    return named


def inputs_digest(inputs: Iterable[Path] | Mapping[str, str], base: Path) -> str:
    """One digest for a set of input files: their names (relative to ``base``) and contents, or of
    :func:`input_digests` already worked out.

    Worked out once per set and shared by every job that reads it: a deck's sheets, fold and
    low-ink variants on two papers are six jobs over the same 900 files.
    """
    named = inputs if isinstance(inputs, Mapping) else input_digests(inputs, base)
    digest = hashlib.sha256()
    for name, file_digest in named.items():
        digest.update(name.encode())
        digest.update(file_digest.encode())
    return digest.hexdigest()


#: settings read from the environment that change an output's bytes: reportlab dates a PDF by
#: SOURCE_DATE_EPOCH when it is set (else the fixed date of pnp's invariant documents)
BYTE_SHAPING_ENVIRONMENT = ("SOURCE_DATE_EPOCH",)


def job_key(parameters: dict, inputs: str) -> str:
    """The key of one output: pnp itself, the job's parameters, the environment settings that shape its
    bytes, and its inputs' :func:`inputs_digest`."""
    digest = hashlib.sha256(tool_fingerprint().encode())
    digest.update(json.dumps(parameters, sort_keys=True, default=str).encode())
    # empty is unset, as reportlab reads it: switching between the two rebuilt every output to the same bytes
    environment = {name: os.environ.get(name) or None for name in BYTE_SHAPING_ENVIRONMENT}
    digest.update(json.dumps(environment, sort_keys=True).encode())
    digest.update(inputs.encode())
    return digest.hexdigest()


def _as_written(entry: object) -> bool:
    """Whether an output is still the file the stamp recorded (a stamp of an older pnp is not)."""
    if not isinstance(entry, list) or len(entry) != 3:
        return False
    path, size, mtime_ns = entry
    try:
        info = os.stat(path)
    except (OSError, TypeError, ValueError):
        return False
    return (info.st_size, info.st_mtime_ns) == (size, mtime_ns)


@dataclass(frozen=True)
class Stamp:
    key: str
    outputs: tuple[str, ...]
    issues: tuple[TextIssue, ...]
    warnings: tuple[Diagnostic, ...] = ()


class StampStore:
    """One JSON file per job, in a build's stamps folder (``stamps_folder(out)``)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, output: Path) -> Path:
        name = hashlib.sha256(str(output.resolve()).encode()).hexdigest()[:24]
        return self.root / f"{name}.json"

    def _read(self, output: Path) -> object:
        """The stamp's data as recorded; None where there is none, or it is damaged (a flipped byte in a
        warning would be repeated as written) or another pnp's: the output is built again."""
        raw = read_sealed(self._path(output))
        try:
            return None if raw is None else json.loads(raw)
        except ValueError:
            return None

    def fresh(self, output: Path, key: str) -> Stamp | None:
        """The stamp if ``output`` was built from exactly this key and is still there."""
        data = self._read(output)
        if not isinstance(data, dict) or data.get("key") != key:
            return None  # "[]" or "null" in a stamp crashed every build until it was deleted
        recorded = data.get("outputs")
        if not isinstance(recorded, list) or not all(_as_written(entry) for entry in recorded):
            return None  # an empty list is a job that rightly wrote nothing (an unneeded low-ink copy)
        issues = tuple(TextIssue(**issue) for issue in data.get("issues", ()))
        warnings = tuple(_warning_from(entry) for entry in data.get("warnings", ()))
        return Stamp(key, tuple(entry[0] for entry in recorded), issues, warnings)

    def why_stale(self, output: Path, key: str, inputs: Mapping[str, str] | None = None) -> str | None:
        """Why ``output`` is to be built again, in a few words; None when it is up to date. With the job's
        ``inputs`` (:func:`input_digests`), the input files that changed since it was built are named."""
        data = self._read(output)
        if not isinstance(data, dict):
            return "new"
        if data.get("key") == key:
            return None if self.fresh(output, key) is not None else "its file changed or went since it was built"
        before = data.get("inputs")
        if not isinstance(before, dict) or inputs is None:
            return "its inputs, options or pnp changed"
        changed = [name for name in inputs if name in before and before[name] != inputs[name]]
        parts = [f"{what} {listed(names, 3)}" for what, names in (
            ("changed:", changed), ("new:", [name for name in inputs if name not in before]),
            ("removed:", [name for name in before if name not in inputs])) if names]
        return "; ".join(parts) if parts else "the options, pnp or SOURCE_DATE_EPOCH changed"

    def record(self, output: Path, key: str, outputs: Iterable[Path], issues: Iterable[TextIssue],
               warnings: Iterable[Diagnostic] = (), inputs: Mapping[str, str] | None = None) -> None:
        """Each output with the size and time it was written with: outputs are not synced to disk
        (pnp/files/atomic.py), so one a power cut left empty, or one edited since, is built again."""
        self.root.mkdir(parents=True, exist_ok=True)
        written = []
        for path in outputs:
            info = os.stat(path)
            written.append([os.path.abspath(path), info.st_size, info.st_mtime_ns])  # any working folder
        data = {"key": key, "outputs": written, "issues": [asdict(i) for i in issues],
                "warnings": [_warning_entry(w) for w in warnings]}
        if inputs is not None:
            data["inputs"] = dict(inputs)
        with atomic_write(self._path(output)) as handle:
            handle.write(sealed(json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")))


def _warning_entry(warning: Diagnostic) -> dict:
    return {"message": warning.message, "file": None if warning.file is None else str(warning.file),
            "line": warning.line, "fix": warning.fix, "level": warning.level.name}


def _warning_from(entry: dict) -> Diagnostic:
    """A warning or note the build said, as a skipped output says it again."""
    file = entry.get("file")
    level = Level.NOTE if entry.get("level") == Level.NOTE.name else Level.WARNING
    return Diagnostic(level, entry["message"], None if file is None else Path(file), entry.get("line"),
                      entry.get("fix"))

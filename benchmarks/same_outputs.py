"""Prove a refactor changed no output: build every shipped output with two revisions and compare bytes.

    python benchmarks/same_outputs.py                # HEAD's committed code against the working tree
    python benchmarks/same_outputs.py --base 2daab61 # an older revision against the working tree
    python benchmarks/same_outputs.py --keep /tmp/x  # keep both output folders for a look

Each side is a whole build of the four games in ``data/``: every language, A4 and Letter, every
``--what`` (card sheets, fold, low-ink, singles, per-card PNGs, rulebooks, booklets, aids,
calibration). The base revision is checked out into a temporary git worktree and run from there with
its own code, templates and data, each side with a fresh font cache of its own, so neither borrows
the other's work. The script prints every file that differs or exists on one side only and exits 1
if there is any; 0 means byte-identical. It takes a few minutes: it is not a test, but the proof a
refactor's note quotes.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVERY_OUTPUT = ["cards", "fold", "lowink", "calibration", "png", "singles", "rules", "aid"]
PAPERS = ["a4", "letter"]


def checkout_environment(checkout: Path, cache: Path) -> dict[str, str]:
    """The environment that runs pnp with the code, templates and data of ``checkout``, and the font
    and file caches in ``cache`` (also used by benchmarks/cache_savings.py)."""
    env = {key: value for key, value in os.environ.items() if key not in ("SOURCE_DATE_EPOCH", "PNP_TRUST")}
    # pnp_templates is the checkout's templates/ folder under another name: a link to it on the path
    # comes before an editable install's finder, which would hand every side the installed one
    shim = cache.parent / f"path-{cache.name}"
    shim.mkdir(parents=True, exist_ok=True)
    if not (shim / "pnp_templates").is_symlink():
        (shim / "pnp_templates").symlink_to(checkout / "templates", target_is_directory=True)
    env.update(PYTHONPATH=os.pathsep.join([str(checkout), str(shim)]), PNP_CACHE_DIR=str(cache),
               PYTHONDONTWRITEBYTECODE="1")
    where = subprocess.run([sys.executable, "-c", "import pnp, pnp_templates; print(pnp.__file__); "
                            "print(pnp_templates.__path__[0])"],
                           cwd=checkout, env=env, capture_output=True, text=True, check=True).stdout.split()
    for found in where:
        if not Path(found).resolve().is_relative_to(checkout.resolve()):
            # an editable install's finder can shadow PYTHONPATH for a package-dir mapping
            sys.exit(f"the build for {checkout} would import {found}: run from a plain venv")
    return env


def build(checkout: Path, out: Path, cache: Path) -> None:
    """Build every game of ``checkout/data`` into ``out`` with the code of ``checkout``."""
    env = checkout_environment(checkout, cache)
    command = [sys.executable, "-m", "pnp", "build", "--data", str(checkout / "data"), "--out", str(out), "--force"]
    for what in EVERY_OUTPUT:
        command += ["--what", what]
    for paper in PAPERS:
        command += ["--paper", paper]
    print(f"building {checkout} ...", flush=True)
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"build failed in {checkout} ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def _outputs(folder: Path) -> set[Path]:
    """The output files below ``folder``, less the build's own stamps (keyed by the folder's path)."""
    files = (path.relative_to(folder) for path in folder.rglob("*") if path.is_file())
    return {name for name in files if ".cache" not in name.parts}


def differences(before: Path, after: Path) -> list[str]:
    """Every file that is on one side only or differs in bytes, as 'what: path'."""
    found: list[str] = []
    names_before, names_after = _outputs(before), _outputs(after)
    found += [f"only in base: {name}" for name in sorted(names_before - names_after)]
    found += [f"only in new: {name}" for name in sorted(names_after - names_before)]
    for name in sorted(names_before & names_after):
        if not filecmp.cmp(before / name, after / name, shallow=False):
            found.append(f"differs: {name}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="HEAD", help="revision to compare against (default: HEAD)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the two output folders here")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-same-") as temporary:
        work = arguments.keep or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        base_tree = Path(temporary) / "base-tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(base_tree), arguments.base], cwd=ROOT,
                       check=True, capture_output=True)
        try:
            build(base_tree, work / "base", Path(temporary) / "cache-base")
            build(ROOT, work / "new", Path(temporary) / "cache-new")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT, check=False)
        found = differences(work / "base", work / "new")
        files = len(_outputs(work / "new"))
        if found:
            print("\n".join(found))
            print(f"{len(found)} of {files} file(s) differ from {arguments.base}")
            return 1
        print(f"all {files} files byte-identical to {arguments.base}")
        return 0


if __name__ == "__main__":
    sys.exit(main())

"""How long a newcomer waits: cold, warm --force and no-op builds of the shipped games, wall and CPU.

    python benchmarks/first_build.py                  # this checkout, 3 runs of each kind
    python benchmarks/first_build.py --runs 5
    python benchmarks/first_build.py --checkout /tmp/old-tree   # another revision's code, for a before/after

Each run is a whole `pnp build` of every game in ``data/`` (all languages, A4 and Letter, the default
outputs: 188 files), in its own process tree:

- **cold**: a fresh, empty PNP_CACHE_DIR and a fresh output folder, as on a new machine;
- **warm --force**: the cache a cold build filled, every output rebuilt;
- **no-op**: the same again without --force: everything is up to date.

CPU is user + system time of the whole process tree (the build and its worker processes, from
``os.wait4``), so it says what a change saved even when other work shares the cores; wall time is
noted with the load average beside it. The median of the runs counts. Not a test: see docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def environment(checkout: Path, cache: Path, shim: Path) -> dict[str, str]:
    """The build's environment: its own cache, and ``checkout``'s code and templates first on the path."""
    env = {key: value for key, value in os.environ.items() if key not in ("SOURCE_DATE_EPOCH", "PNP_TRUST")}
    env["PNP_CACHE_DIR"] = str(cache)
    if checkout.resolve() != ROOT:
        # as benchmarks/same_outputs.py does: pnp_templates is the checkout's templates/ folder
        link = shim / "pnp_templates"
        if not link.exists():
            shim.mkdir(parents=True, exist_ok=True)
            link.symlink_to(checkout / "templates", target_is_directory=True)
        env["PYTHONPATH"] = os.pathsep.join([str(checkout), str(shim)])
    return env


def run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one build; exits if the build fails."""
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"build failed ({code}):\n{errors[-3000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(checkout: Path, runs: int, work: Path) -> dict[str, list[tuple[float, float, float]]]:
    """Each kind's runs as (wall, CPU, load average at the start)."""
    command = [sys.executable, "-m", "pnp", "build", "--data", str(checkout / "data"), "-q"]
    results: dict[str, list[tuple[float, float, float]]] = {"cold": [], "warm --force": [], "no-op": []}
    for number in range(runs):
        cache, out = work / f"cache-{number}", work / f"out-{number}"
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        env = environment(checkout, cache, work / "path")
        for kind, extra in (("cold", []), ("warm --force", ["--force"]), ("no-op", [])):
            load = os.getloadavg()[0]
            wall, cpu = run([*command, "--out", str(out), *extra], env, checkout)
            results[kind].append((wall, cpu, load))
            print(f"  run {number + 1} {kind}: {wall:.1f} s wall, {cpu:.1f} s CPU (load {load:.1f})", flush=True)
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    return results


def table(results: dict[str, list[tuple[float, float, float]]]) -> str:
    lines = ["| build | wall s (median) | CPU s (median) | CPU s (runs) | load average |",
             "| --- | ---: | ---: | --- | --- |"]
    for kind, runs in results.items():
        walls, cpus, loads = zip(*runs, strict=True)
        lines.append(f"| {kind} | {statistics.median(walls):.1f} | {statistics.median(cpus):.1f} | "
                     f"{', '.join(f'{c:.1f}' for c in cpus)} | {min(loads):.1f}–{max(loads):.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind (default 3)")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose code and data build")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    print(f"{checkout}: {os.cpu_count()} cores, Python {sys.version.split()[0]}", flush=True)
    with tempfile.TemporaryDirectory(prefix="pnp-first-build-") as temporary:
        results = measure(checkout, args.runs, Path(temporary))
    print()
    print(table(results))


if __name__ == "__main__":
    main()

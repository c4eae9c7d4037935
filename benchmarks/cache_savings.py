"""What a cache (or any start-up trick) saves: CPU time of the same commands with two revisions.

    python benchmarks/cache_savings.py --base a69b7fa          # that revision against the working tree
    python benchmarks/cache_savings.py --base a69b7fa --new HEAD --runs 5

For each side and each run, in alternating order (so that load from other work on the machine falls
on both sides alike): a cold ``pnp build --force`` of the four games (an empty user cache: fonts
subset, files hashed, rule texts compiled), a warm one (the cache the cold build left), and a warm
``pnp check``. Each command is a child process; its CPU time is the user + system time
``os.wait4`` reports for it and the build workers it waited for, which a busy machine disturbs less
than wall time. The medians are printed per side, with the difference. The base revision runs from
a temporary git worktree, as in benchmarks/same_outputs.py.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from same_outputs import ROOT, checkout_environment  # noqa: E402 - the benchmark's own folder

CASES = ("cold build", "warm build", "check")


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one command, run to its end."""
    started = time.monotonic()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{' '.join(command)} failed in {cwd}")
    return usage.ru_utime + usage.ru_stime, wall


def one_run(checkout: Path, work: Path) -> dict[str, tuple[float, float]]:
    """The three cases for one side, each cache starting empty."""
    cache = work / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = checkout_environment(checkout, cache)
    out = work / "out"
    build = [sys.executable, "-m", "pnp", "build", "--data", str(checkout / "data"), "--out", str(out), "--force",
             "-q"]
    check = [sys.executable, "-m", "pnp", "check", "--data", str(checkout / "data")]
    results = {"cold build": timed(build, checkout, env), "warm build": timed(build, checkout, env),
               "check": timed(check, checkout, env)}
    shutil.rmtree(out, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the revision to compare the working tree with")
    parser.add_argument("--new", default=None, help="a revision to measure instead of the working tree")
    parser.add_argument("--runs", type=int, default=3, help="runs of each case on each side (default 3)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-savings-") as temporary:
        base_tree = Path(temporary) / "base-tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(base_tree), arguments.base], cwd=ROOT,
                       check=True, capture_output=True)
        sides = {"base": base_tree, "new": ROOT}
        if arguments.new:
            sides["new"] = Path(temporary) / "new-tree"
            subprocess.run(["git", "worktree", "add", "--detach", str(sides["new"]), arguments.new], cwd=ROOT,
                           check=True, capture_output=True)
        measured: dict[str, dict[str, list[tuple[float, float]]]] = {side: {case: [] for case in CASES}
                                                                      for side in sides}
        try:
            for run in range(arguments.runs):
                order = list(sides) if run % 2 == 0 else list(reversed(sides))
                for side in order:
                    for case, result in one_run(sides[side], Path(temporary) / side).items():
                        measured[side][case].append(result)
                        print(f"run {run + 1} {side:4} {case:10}: {result[0]:6.2f} s CPU {result[1]:6.2f} s wall",
                              flush=True)
        finally:
            for tree in {base_tree, sides["new"]} - {ROOT}:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    print(f"\nmedians of {arguments.runs} runs (CPU s; wall s) -- base {arguments.base}, "
          f"new {arguments.new or 'the working tree'}")
    for case in CASES:
        base_cpu, new_cpu = (statistics.median(cpu for cpu, _ in measured[side][case]) for side in sides)
        base_wall, new_wall = (statistics.median(wall for _, wall in measured[side][case]) for side in sides)
        print(f"{case:10}: base {base_cpu:6.2f} ({base_wall:6.2f}), new {new_cpu:6.2f} ({new_wall:6.2f}), "
              f"new/base CPU {new_cpu / base_cpu:5.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

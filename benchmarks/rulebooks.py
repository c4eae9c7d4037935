"""CPU time of building every rulebook and aid of the four games, a base revision against the working tree.

    python benchmarks/rulebooks.py --base a69b7fa            # three alternating runs of each side
    python benchmarks/rulebooks.py --base a69b7fa --runs 5

Each run is ``pnp build --force --what rules --what aid --jobs 1`` in a child process; its user +
system CPU (``os.wait4``) is what counts, as wall time on a shared machine says more about the
neighbours than about pnp. The sides alternate so that a busy minute hurts both; the median of
each is compared. The base revision is exported with ``git archive`` and run with its own code and
templates; both sides share one warmed font cache (fonts are not what is measured), and the first
run of each side is a warm-up that does not count.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = ["build", "--force", "--what", "rules", "--what", "aid", "--jobs", "1", "-q"]


def run(code: Path, out: Path, env: dict[str, str]) -> float:
    """User + system CPU seconds of one build with the code in ``code``."""
    process = subprocess.Popen([sys.executable, "-m", "pnp", *COMMAND, "--out", str(out)], cwd=code, env=env,
                               stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the build in {code} failed")
    return usage.ru_utime + usage.ru_stime


def side_environment(code: Path, cache: Path, shim: Path) -> dict[str, str]:
    # pnp_templates is the checkout's templates/ folder under another name (see same_outputs.py)
    shim.mkdir(parents=True, exist_ok=True)
    link = shim / "pnp_templates"
    if not link.exists():
        link.symlink_to(code / "templates", target_is_directory=True)
    env = {key: value for key, value in os.environ.items() if key != "SOURCE_DATE_EPOCH"}
    env.update(PYTHONPATH=os.pathsep.join([str(code), str(shim)]), PNP_CACHE_DIR=str(cache))
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="revision to compare the working tree with")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pnp-rulebooks-") as folder:
        work = Path(folder)
        base = work / "base"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.base], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        cache = work / "cache"
        sides = {"base": side_environment(base, cache, work / "shim-base"),
                 "tree": side_environment(ROOT, cache, work / "shim-tree")}
        codes = {"base": base, "tree": ROOT}
        times: dict[str, list[float]] = {"base": [], "tree": []}
        for attempt in range(args.runs + 1):
            for name in sides:
                seconds = run(codes[name], work / f"out-{name}", sides[name])
                if attempt:
                    times[name].append(seconds)
        medians = {name: statistics.median(values) for name, values in times.items()}
        for name, values in times.items():
            print(f"{name}: CPU {', '.join(f'{v:.2f}' for v in values)} s; median {medians[name]:.2f} s")
        print(f"tree / base: {medians['tree'] / medians['base']:.3f}")


if __name__ == "__main__":
    main()

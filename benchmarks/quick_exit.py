"""What the `pnp` command's quick exit saves: CPU time per command, with and without it.

    python benchmarks/quick_exit.py                    # seven alternating pairs of each command
    python benchmarks/quick_exit.py --runs 11 --image-deck 900 --work /tmp/pnp-quick-exit

`pnp.cli.main` ends by skipping the interpreter's teardown (pnp/commands/quick_exit.py); calling
`pnp.cli.cli` directly is the same command with the ordinary `sys.exit`. Each pair runs both, in
alternating order, as child processes, and counts their CPU time (user + sys, from ``os.wait4``)
beside wall time: on a shared machine CPU time is the steadier of the two. The medians, and the
median of the per-pair differences, are printed. ``--image-deck N`` adds issue 27's yardstick, a
forced build of an N-card image deck (benchmarks/fixtures.py makes the art, once, in ``--work``).
See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import fixtures  # noqa: E402 - the benchmark's own folder, put on the path above

QUICK = "from pnp.cli import main; main()"
PLAIN = "from pnp.cli import cli; cli(prog_name='pnp')"
COMMANDS = {
    "pnp --version": ["--version"],
    "pnp list": ["list"],
    "pnp check two-ops": ["check", "two-ops"],
    "pnp build (up to date)": ["build", "two-ops", "--what", "cards"],
    "pnp build two-ops --what cards --force --jobs 1": ["build", "two-ops", "--what", "cards", "--force",
                                                          "--jobs", "1"],
}


def run(code: str, args: list[str], out: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one child process running the command."""
    extra = ["--out", str(out)] if args[0] == "build" and "--out" not in args else []
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, *args, *extra], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed with status {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="pairs per command")
    parser.add_argument("--image-deck", type=int, default=0, help="also a forced build of an image deck this big")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "pnp-quick-exit",
                        help="where the image deck's art is kept between runs")
    options = parser.parse_args()
    commands = dict(COMMANDS)
    if options.image_deck:
        data = options.work / "data"
        fixtures.image_game(data, options.work / "art", options.image_deck)
        commands[f"pnp build bench-art-{options.image_deck} --force --jobs 1"] = [
            "build", "--data", str(data), "--out", str(options.work / "out"), f"bench-art-{options.image_deck}",
            "--what", "cards", "--paper", "a4", "--lang", "en", "--force", "--jobs", "1"]
    with tempfile.TemporaryDirectory(prefix="pnp-quick-exit-") as work:
        out = Path(work)
        print(f"{'command':50} {'quick CPU':>10} {'plain CPU':>10} {'saved CPU':>10} {'saved wall':>11}")
        for name, args in commands.items():
            run(QUICK, args, out)  # warm: caches filled, outputs built once
            quick, plain, saved_cpu, saved_wall = [], [], [], []
            for index in range(options.runs):
                order = [(QUICK, quick), (PLAIN, plain)] if index % 2 == 0 else [(PLAIN, plain), (QUICK, quick)]
                pair = {}
                for code, into in order:
                    cpu, wall = run(code, args, out)
                    into.append(cpu)
                    pair[code] = (cpu, wall)
                saved_cpu.append(pair[PLAIN][0] - pair[QUICK][0])
                saved_wall.append(pair[PLAIN][1] - pair[QUICK][1])
            print(f"{name:50} {statistics.median(quick):9.3f}s {statistics.median(plain):9.3f}s "
                  f"{statistics.median(saved_cpu) * 1000:8.1f}ms {statistics.median(saved_wall) * 1000:9.1f}ms")


if __name__ == "__main__":
    main()

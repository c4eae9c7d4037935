"""Random mutation of a shipped game through `pnp check`: any traceback, hang or memory blow-up?

    python benchmarks/mutate.py                       # 300 mutations of data/two-ops, seed 0
    python benchmarks/mutate.py -n 10000 --seed 1     # the issue's 10,000
    python benchmarks/mutate.py --game rudy --keep /tmp/found   # keep each finding's game folder
    python benchmarks/mutate.py --spawn -n 50         # a fresh `python -m pnp` per check (slow)
    nice python benchmarks/mutate.py -n 10000 --workers 2   # two checks at once

Each mutation copies the game into a temporary folder and applies one to three seeded random edits
(byte flips, deletions, duplications, huge numbers, deep nesting, unicode) to one of game.toml, a
card list (CSV) or the English rule text. `pnp check` then runs on it in a child process limited to
10 s of CPU (``RLIMIT_CPU``; and 60 s of wall clock, for a loaded machine) and 1 GiB
of address space (``RLIMIT_AS``). A child that ends with a traceback, an exit status other than 0
or 1, a signal, or one of the limits is a finding; the script prints each with its seed, so that
``--only SEED`` repeats it, and a summary at the end.

By default the children are forked from a parent that has imported pnp and checked the game once:
a fresh interpreter costs a second of start-up per check, which makes 10,000 of them a working day.
The child's state is the parent's after one clean check, which is what the per-check caches of a
real run hold too; ``--spawn`` runs each check as its own ``python -m pnp check`` instead.

This is not a test: it takes minutes, and what it finds is fixed and then pinned by a test in
tests/hostile/. The result of the last long run is in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPU_SECONDS = 10
WALL_SECONDS = 60  # a loaded machine gives a child a fraction of a core: the CPU limit is the measure
MEMORY = 1 << 30
TARGETS = ("game.toml", "cards", "rules/en.md")

HUGE = ["1000000000", "-1000000000", "99999999999999999999", "1e308", "-1e308", "nan", "inf", "-inf", "0", "-1",
        "4294967296", "1e-300", "0.000001"]
UNICODE = ["\u00e9", "\u0301", "\u200b", "\u202e", "\ufeff", "\U0001f0a1", "\u30ab\u30fc\u30c9", "\ud7ff", "\x00",
           "\u2028", "\r", "\t", "\\", '"', "'", "{{", "}}", "{%", "%}", "[", "]", "#", "|", "*", "`", ">", "-"]
NESTING = ["[", "{", "(", "> ", "- ", "  - ", "{{ (", "*", "a."]


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """One random edit of ``data``."""
    if not data:
        return rng.choice(HUGE).encode()
    at = rng.randrange(len(data))
    kind = rng.choice(("flip", "delete", "duplicate", "huge", "nesting", "unicode", "swap-lines", "repeat-line"))
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
    if kind == "delete":
        return data[:at] + data[at + rng.randint(1, 64):]
    if kind == "duplicate":
        piece = data[at:at + rng.randint(1, 200)]
        return data[:at] + piece * rng.choice((2, 10, 100, 1000)) + data[at:]
    if kind == "huge":
        digits = [i for i in range(len(data)) if data[i:i + 1].isdigit()]
        if digits:  # a number in the file becomes a huge (or no) number
            start = end = rng.choice(digits)
            while start > 0 and data[start - 1:start].isdigit():
                start -= 1
            while end < len(data) and data[end:end + 1].isdigit():
                end += 1
            return data[:start] + rng.choice(HUGE).encode() + data[end:]
        return data[:at] + rng.choice(HUGE).encode() + data[at:]
    if kind == "nesting":
        opener = rng.choice(NESTING)
        depth = rng.choice((10, 100, 1000, 10000))
        closer = opener.translate(str.maketrans("[{(", "]})")).strip() if opener[0] in "[{(" else ""
        return data[:at] + (opener * depth + "x" + closer[::-1] * depth).encode() + data[at:]
    if kind == "unicode":
        return data[:at] + rng.choice(UNICODE).encode("utf-8", "surrogatepass") + data[at:]
    lines = data.split(b"\n")
    if kind == "swap-lines" and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        i = rng.randrange(len(lines))
        lines[i:i + 1] = [lines[i]] * rng.choice((2, 50, 500, 5000))
    return b"\n".join(lines)


def mutate_game(game: Path, seed: int) -> str:
    """Edit one of the game's files in place, from ``seed``; what was edited, for the report."""
    rng = random.Random(seed)
    target = rng.choice(TARGETS)
    if target == "cards":
        lists = sorted((game / "cards").glob("*.csv"))
        path = rng.choice(lists) if lists else game / "game.toml"
    else:
        path = game / target
    data = path.read_bytes()
    edits = rng.randint(1, 3)
    for _ in range(edits):
        data = _mutate(data, rng)
    data = data[: 1 << 20]  # the bound: any input under 1 MB
    path.write_bytes(data)
    return f"{path.relative_to(game)} ({edits} edit{'s' if edits > 1 else ''}, {len(data):,} bytes)"


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@dataclass
class Outcome:
    status: int | None  # exit status, None when killed by a signal
    signal: int | None
    output: str
    seconds: float  # the child's CPU time
    peak_kib: int


def start_forked(game: Path, log: Path) -> int:
    """`pnp check GAME` in a forked child with the limits, its output in ``log``; the child's pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 70  # the child: never returns
    try:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        _limit()
        from pnp.cli import cli

        try:
            cli(["check", "--data", str(game.parent), game.name], prog_name="pnp")
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:  # a bug: the traceback is the finding
        import traceback

        traceback.print_exc()
        code = 70
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def spawn(game: Path, log: Path) -> subprocess.Popen:
    """`python -m pnp check GAME` as a fresh process with the limits."""
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "pnp", "check", "--data", str(game.parent), game.name],
                                stdout=out, stderr=subprocess.STDOUT, preexec_fn=_limit)


def _outcome(status: int, usage: object, log: Path) -> Outcome:
    output = log.read_text(encoding="utf-8", errors="replace")
    seconds = usage.ru_utime + usage.ru_stime  # type: ignore[attr-defined]
    peak = usage.ru_maxrss  # type: ignore[attr-defined]
    if os.WIFSIGNALED(status):
        return Outcome(None, os.WTERMSIG(status), output, seconds, peak)
    return Outcome(os.WEXITSTATUS(status), None, output, seconds, peak)


def finding(outcome: Outcome) -> str | None:
    """What is wrong with a check's end, or None for a clean one (exit 0 or 1, no traceback)."""
    if outcome.signal is not None:
        if outcome.signal == signal.SIGXCPU or outcome.seconds >= CPU_SECONDS:
            return f"hang: over {CPU_SECONDS} s of CPU"
        if outcome.signal == signal.SIGKILL:
            return f"wall clock: over {WALL_SECONDS} s with {outcome.seconds:.1f} s of CPU (a loaded machine?)"
        return f"killed by {signal.Signals(outcome.signal).name}"
    if "MemoryError" in outcome.output:
        return "memory: over 1 GiB (MemoryError)"
    if "Traceback (most recent call last)" in outcome.output:
        last = [line for line in outcome.output.splitlines() if line and not line.startswith(" ")][-1]
        return f"traceback: {last[:200]}"
    if outcome.status not in (0, 1):
        return f"exit status {outcome.status}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300, help="how many mutations (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed; mutation i uses seed + i")
    parser.add_argument("--only", type=int, help="run just this seed and print its output")
    parser.add_argument("--game", default="two-ops", help="a game folder under data/ (default two-ops)")
    parser.add_argument("--keep", type=Path, help="copy each finding's game folder here")
    parser.add_argument("--spawn", action="store_true", help="a fresh interpreter per check (slow)")
    parser.add_argument("--workers", type=int, default=1, help="checks run at once (default 1)")
    arguments = parser.parse_args()

    source = ROOT / "data" / arguments.game
    seeds = [arguments.only] if arguments.only is not None else range(arguments.seed, arguments.seed + arguments.n)
    work = Path(tempfile.mkdtemp(prefix="pnp-mutate-"))
    os.environ.setdefault("PNP_CACHE_DIR", str(work / "cache"))
    if not arguments.spawn:  # warm the parent once: imports, fonts, the clean game's checks
        from click.testing import CliRunner

        from pnp.cli import cli

        warm = CliRunner().invoke(cli, ["check", "--data", str(source.parent), source.name])
        assert warm.exit_code == 0, warm.output
    counts: dict[str, int] = {"clean": 0, "errors reported": 0}
    findings: list[tuple[int, str, str]] = []
    slowest = (0.0, -1)
    peak = (0, -1)
    started = time.monotonic()
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # kill PID: stop, and say what was done
    pending = iter(seeds)
    running: dict[int, tuple[int, str, int, float, object]] = {}  # pid -> seed, what, slot, start, Popen
    free = list(range(max(1, arguments.workers)))
    number = 0
    try:
        while True:
            while free and (seed := next(pending, None)) is not None:
                slot = free.pop()
                game = work / f"w{slot}" / "data" / source.name
                shutil.rmtree(game.parent, ignore_errors=True)
                shutil.copytree(source, game)
                edited = mutate_game(game, seed)
                log = work / f"w{slot}" / "log"
                child = spawn(game, log) if arguments.spawn else None
                pid = child.pid if child is not None else start_forked(game, log)
                running[pid] = (seed, edited, slot, time.monotonic(), child)
            if not running:
                break
            pid, status, usage = os.wait4(-1, os.WNOHANG)
            if pid == 0:
                now = time.monotonic()
                for overdue, (*_, begun, _child) in running.items():
                    if now - begun > WALL_SECONDS:
                        os.kill(overdue, signal.SIGKILL)
                time.sleep(0.005)
                continue
            seed, edited, slot, _, child = running.pop(pid)
            if child is not None:
                child.returncode = 0  # reaped above
            free.append(slot)
            game = work / f"w{slot}" / "data" / source.name
            outcome = _outcome(status, usage, work / f"w{slot}" / "log")
            number += 1
            slowest = max(slowest, (outcome.seconds, seed))
            peak = max(peak, (outcome.peak_kib, seed))
            found = finding(outcome)
            if arguments.only is not None:
                print(outcome.output)
            if found is None:
                counts["clean" if outcome.status == 0 else "errors reported"] += 1
            else:
                findings.append((seed, edited, found))
                print(f"seed {seed}: {edited}: {found}", flush=True)
                if arguments.keep:
                    shutil.copytree(game, arguments.keep / f"seed-{seed}", dirs_exist_ok=True)
                    (arguments.keep / f"seed-{seed}" / "output.txt").write_text(outcome.output, encoding="utf-8")
            if number % 250 == 0:
                print(f"... {number} done, {len(findings)} findings, {time.monotonic() - started:.0f} s", flush=True)
    except KeyboardInterrupt:  # stopped early (Ctrl-C, kill PID): the summary of what was done
        print(f"interrupted after {number} mutations")
    finally:
        for pid in running:
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(work, ignore_errors=True)
    total = number
    print(f"\n{total} mutations of data/{source.name} (seeds from {seeds[0]}) in "
          f"{time.monotonic() - started:.0f} s: {counts['clean']} clean, {counts['errors reported']} with errors "
          f"reported, {len(findings)} findings")
    print(f"slowest check {slowest[0]:.2f} s of CPU (seed {slowest[1]}), largest {peak[0] / 1024:.0f} MiB "
          f"(seed {peak[1]})")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()

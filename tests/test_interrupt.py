"""A parallel build that is stopped stops: its workers with it, no half-written file left, no queue run first.

Found by a fuzz of the command line (30 November 2026): SIGTERM to `pnp build -j 2` killed the parent
and left both workers waiting on a pipe for as long as anyone watched (over 120 s), holding the
caller's stdout; Ctrl-C printed "Aborted!" only after every queued unit had been built (13 to 15 s).

Each test starts a real `pnp build` of every shipped game with PNGs (several seconds of work on two
workers), waits until its two workers exist, stops it, and looks at what is left. Linux only: the
processes are found through /proc.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data"

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="finds processes through /proc")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            if f"\nPPid:\t{pid}\n" in status:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped (an exited worker whose parent was killed is one)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


#: pnp as a terminal starts it. A command run in the background of a shell without job control (`cmd &`
#: in a script, so a test run started that way) inherits SIGINT ignored, and so does each child it starts,
#: whatever Python would do: the Ctrl-C case then waited out its 60 s. Terminals don't ignore it.
AT_A_TERMINAL = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
                 "from pnp.cli import main; main()")


def start_build(tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-c", AT_A_TERMINAL, "build", "--data", str(DATA), "--out", str(out),
         "--force", "--png", "--jobs", "2"],
        env={**os.environ, "PNP_CACHE_DIR": str(tmp_path / "cache")}, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
        workers = children(process.pid)
    assert len(workers) >= 2, "the build never started its two workers"
    time.sleep(0.5)  # into the units: fonts prepared, files being written
    return process, workers


def leftovers(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "out").rglob("*.tmp")) if (tmp_path / "out").exists() else []


def gone(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("how", ["SIGTERM to the build", "Ctrl-C to the terminal's process group"])
def test_a_stopped_parallel_build_stops_its_workers(tmp_path: Path, how: str) -> None:
    """Ctrl-C is a guard: the old build also ended, once it had run its queue (this test takes no time)."""
    process, workers = start_build(tmp_path)
    if how.startswith("SIGTERM"):
        process.send_signal(signal.SIGTERM)
    else:
        os.killpg(process.pid, signal.SIGINT)
    output, _ = process.communicate(timeout=60)  # the workers no longer hold the pipe open
    assert gone(workers), [pid for pid in workers if alive(pid)]
    assert process.returncode == (128 + signal.SIGTERM if how.startswith("SIGTERM") else 1), output.decode()
    assert b"Traceback" not in output
    assert leftovers(tmp_path) == []


def test_workers_of_a_killed_build_stop(tmp_path: Path) -> None:
    """SIGKILL gives the parent no chance to stop them: the kernel tells them (PR_SET_PDEATHSIG)."""
    process, workers = start_build(tmp_path)
    process.kill()
    process.wait(timeout=10)
    assert gone(workers), [pid for pid in workers if alive(pid)]
    assert leftovers(tmp_path) == []
    process.stdout.close()

"""Issue 29, class 6: damaged state heals. A build killed at any moment (SIGKILL: no cleanup runs)
leaves hidden temporary files; the next build of the folder removes them and writes the same bytes
as a build never interrupted."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_game import mini_game

from pnp.files.atomic import remove_stray_temporaries


def _build(game: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pnp", "build", "--data", str(game.parent), "--out", str(out),
                             "--paper", "a4", "--what", "cards", "--what", "rules", game.name],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _outputs(out: Path) -> dict[str, bytes]:
    return {str(path.relative_to(out)): path.read_bytes() for path in sorted(out.rglob("*"))
            if path.is_file() and ".cache" not in path.parts}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")
def test_a_build_killed_at_a_random_moment_heals_on_the_next(tmp_path: Path) -> None:
    game = mini_game(tmp_path)
    clean = tmp_path / "clean"
    assert _build(game, clean).wait(120) == 0
    out = tmp_path / "out"
    started = time.monotonic()
    killed = _build(game, out)
    time.sleep(random.Random(29).uniform(0.3, 1.5))  # seeded: the same moment every run
    killed.send_signal(signal.SIGKILL)
    killed.wait(30)
    # what a kill mid-write leaves, whatever moment the seed picked
    (out / "mini" / "en" / "a4").mkdir(parents=True, exist_ok=True)
    stray = out / "mini" / "en" / "a4" / f".cards-deck.pdf.{killed.pid}-0123456789ab.tmp"
    stray.write_bytes(b"half a PDF")
    assert _build(game, out).wait(120) == 0
    assert not list(out.rglob("*.tmp")), "stray temporary files left"
    assert _outputs(out) == _outputs(clean)
    assert time.monotonic() - started < 60


def test_only_pnps_own_temporaries_of_writers_gone_are_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    gone = tmp_path / f".deck.pdf.{dead.pid}-0123456789ab.tmp"
    ours = tmp_path / f".deck.pdf.{os.getpid()}-0123456789ab.tmp"
    unnamed_old = tmp_path / ".deck.pdf.0123456789ab.tmp"
    unnamed_new = tmp_path / ".rules.pdf.abcdef012345.tmp"
    theirs = tmp_path / "notes.tmp"
    for path in (gone, ours, unnamed_old, unnamed_new, theirs):
        path.write_bytes(b"x")
    os.utime(unnamed_old, ns=(1, 1))
    removed = remove_stray_temporaries([tmp_path], started_ns=time.time_ns() - 60 * 10**9)
    assert sorted(removed) == sorted([gone, unnamed_old])
    assert ours.exists() and unnamed_new.exists() and theirs.exists()

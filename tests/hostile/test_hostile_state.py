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


# --- damaged caches: every entry is sealed with a checksum and pnp's version, and made again if it fails ---

def _built(game: Path, out: Path, cache: Path, *options: str) -> subprocess.CompletedProcess:
    """A build of every game beside ``game``: the mini game and, with art, the picture deck."""
    return subprocess.run([sys.executable, "-m", "pnp", "build", "--data", str(game.parent), "--out", str(out),
                           "--paper", "a4", "--what", "cards", "--what", "rules", *options],
                          env={**os.environ, "PNP_CACHE_DIR": str(cache)}, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, dict[str, bytes]]:
    """The mini game (its files old enough for their digests to be remembered), its cache and output
    folder after one build, and what that build wrote."""
    from click.testing import CliRunner
    from PIL import Image

    from pnp.cli import cli

    tmp_path = tmp_path_factory.mktemp("clean")
    game = mini_game(tmp_path)
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for name, colour in (("one", (200, 30, 30)), ("two", (30, 200, 30)), ("back", (30, 30, 200))):
        Image.new("RGB", (250, 350), colour).save(pictures / f"{name}.png")
    made = CliRunner().invoke(cli, ["new", "--data", str(game.parent), "pics", "--images", str(pictures)])
    assert made.exit_code == 0, made.output  # a picture deck: what pnp learns of images is cached too
    for path in game.parent.rglob("*"):
        os.utime(path, ns=(10**18, 10**18))  # 2001: settled, so the digest cache holds the game's own files
    cache, out = tmp_path / "cache", tmp_path / "out"
    done = _built(game, out, cache)
    assert done.returncode == 0, done.stdout + done.stderr
    return game, cache, out, _outputs(out)


def _flip(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x10]) + data[middle + 1:] if data else data


def _zero_digests(data: bytes) -> bytes:
    import re

    return re.sub(rb"[0-9a-f]{64}", b"0" * 64, data)  # the digests, keys and checksums a file holds


DAMAGE = {
    "flipped byte": _flip,
    "cut short": lambda data: data[: len(data) // 2],
    "zeroed": lambda data: bytes(len(data)),
    "garbage": lambda data: bytes(random.Random(len(data)).getrandbits(8) for _ in range(min(len(data), 4096))),
    "zeroed digests": _zero_digests,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_cache_entries_of_every_kind_are_made_again(tmp_path: Path, clean_build, damage: str) -> None:
    """Font subsets and their seals, code point ranges, file digests, image facts and the build's stamps, each damaged
    in the same way; the next build (not forced: the stamps must be found damaged too) exits 0, says
    what it made again under -v, draws every output again and writes the clean build's bytes."""
    import shutil

    game, clean_cache, clean_out, expected = clean_build
    cache, out = tmp_path / "cache", tmp_path / "out"
    shutil.copytree(clean_cache, cache)
    shutil.copytree(clean_out, out)
    damaged = [path for path in [*cache.rglob("*"), *(out / ".cache").rglob("*")]
               if path.is_file() and not path.name.endswith(".lock")]
    kinds = {path.parent.name if path.suffix != ".ttf" else "subset" for path in damaged}
    assert {"fonts", "subset", "file-digests-v2", "image-facts-v6", "stamps"} <= kinds, kinds  # every kind kept
    for path in damaged:
        path.write_bytes(DAMAGE[damage](path.read_bytes()))
    done = _built(game, out, cache, "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert _outputs(out) == expected
    assert len([line for line in done.stdout.splitlines() if line.startswith("built ")]) == len(expected)
    assert "up to date" not in done.stdout + done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: cache file ")]
    assert notes and all(line.endswith(": made again") for line in notes), done.stderr
    again = _built(game, out, cache, "-v")  # healed: nothing left to throw away, nothing to draw
    assert again.returncode == 0 and "note: cache file" not in again.stderr, again.stderr
    assert "built " not in again.stdout


def test_an_entry_of_another_pnp_version_is_made_again(tmp_path: Path) -> None:
    from pnp.load import user_cache

    entry = tmp_path / "entry.json"
    user_cache.write_json_cache(entry, {"a": 1})
    assert user_cache.read_json_cache(entry) == {"a": 1}
    user_cache.discarded_entries()
    seal, data = entry.read_bytes().split(b"\n", 1)
    format_name, _version, checksum = seal.split(b" ")
    entry.write_bytes(b" ".join([format_name, b"0.0.0-old", checksum]) + b"\n" + data)
    assert user_cache.read_json_cache(entry) == {}
    assert user_cache.discarded_entries() == [f"cache file {entry} was made by pnp 0.0.0-old: made again"]

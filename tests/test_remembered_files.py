"""Digests and image facts remembered across builds: a warm build reads no input file it knows.

Each test points ``PNP_CACHE_DIR`` at its own folder and forgets the process's memory, so "the
next build" is simulated by a fresh look at the on-disk cache.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path

import pytest
from PIL import Image

from pnp.load import digests
from pnp.render.cards import images

OLD = time.time() - 3600  # an old mtime; the ctime is always now, so tests that persist shorten the settling time


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    digests.forget_remembered()
    images._SOURCES.clear()
    images._FACTS.clear()
    images._NEW_FACTS.clear()
    monkeypatch.setattr(images, "_facts_loaded", set())
    yield cache
    digests.forget_remembered()
    images._SOURCES.clear()
    images._FACTS.clear()
    images._NEW_FACTS.clear()


@pytest.fixture
def settle_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(digests, "SETTLED_SECONDS", 0)
    time.sleep(0.002)


def settled_file(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    os.utime(path, (OLD, OLD))
    time.sleep(0.002)  # past the settling time of 0 s
    return path


def next_build() -> None:
    """What a new process knows: only the cache on disk."""
    digests.save_digests()
    images.save_image_facts()
    digests.forget_remembered()
    images._SOURCES.clear()
    images._FACTS.clear()
    images._facts_loaded.clear()


def forbid_reading(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> None:
    real = Path.read_bytes
    forbidden = {path.resolve() for path in paths}

    def guarded(self: Path) -> bytes:
        if self.resolve() in forbidden:
            raise AssertionError(f"{self.name} was read although its digest is remembered")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", guarded)


def test_a_settled_file_is_not_read_again_by_the_next_build(own_cache, settle_at_once, tmp_path, monkeypatch):
    data = b"card data\n" * 100
    path = settled_file(tmp_path / "deck.csv", data)
    assert digests.digest_of(path) == hashlib.sha256(data).hexdigest()
    next_build()
    assert digests.index_file(str(tmp_path)).is_file()
    forbid_reading(monkeypatch, path)
    assert digests.digest_of(path) == hashlib.sha256(data).hexdigest()


def test_a_changed_file_is_hashed_again(own_cache, settle_at_once, tmp_path):
    path = settled_file(tmp_path / "deck.csv", b"one\n")
    digests.digest_of(path)
    next_build()
    settled_file(path, b"three\n")  # same mtime as before, other size
    assert digests.digest_of(path) == hashlib.sha256(b"three\n").hexdigest()


def test_a_file_changed_in_place_with_the_same_size_and_mtime_is_hashed_again(own_cache, settle_at_once, tmp_path):
    """The ctime (which no one can set back) changes with every write."""
    path = settled_file(tmp_path / "deck.csv", b"one\n")
    digests.digest_of(path)
    next_build()
    time.sleep(0.01)
    settled_file(path, b"two\n")
    assert digests.digest_of(path) == hashlib.sha256(b"two\n").hexdigest()


def test_a_file_written_just_now_is_not_remembered_across_builds(own_cache, tmp_path):
    """Within a coarse timestamp's tick a second edit could keep the stat: such files are hashed again."""
    path = tmp_path / "fresh.csv"
    path.write_bytes(b"fresh\n")
    digests.digest_of(path)
    next_build()
    index = digests.read_json_cache(digests.index_file(str(tmp_path)))
    assert path.name not in index


def test_a_damaged_index_is_an_empty_one(own_cache, settle_at_once, tmp_path):
    index = digests.index_file(str(tmp_path))
    index.parent.mkdir(parents=True)
    index.write_bytes(b'{"half a fi')
    path = settled_file(tmp_path / "deck.csv", b"x\n")
    assert digests.digest_of(path) == hashlib.sha256(b"x\n").hexdigest()
    next_build()
    assert path.name in digests.read_json_cache(index)


def test_known_image_facts_need_no_read(own_cache, settle_at_once, tmp_path, monkeypatch):
    art = tmp_path / "art.png"
    Image.new("RGB", (40, 30), (200, 10, 10)).save(art)
    os.utime(art, (OLD, OLD))
    first = images.inspect_image(art)
    assert first.passes_through
    next_build()
    forbid_reading(monkeypatch, art)
    again = images.inspect_image(art)
    assert again == first
    assert (again.width, again.height, again.ranges) == (40, 30, first.ranges)


def test_facts_are_keyed_by_content_not_by_name(own_cache, settle_at_once, tmp_path, monkeypatch):
    """A damaged file that happens to sit where a good one was is read and refused, not trusted."""
    art = tmp_path / "art.png"
    Image.new("RGB", (40, 30), (200, 10, 10)).save(art)
    os.utime(art, (OLD, OLD))
    images.inspect_image(art)
    next_build()
    data = bytearray(art.read_bytes())
    data[40] ^= 0xFF  # inside IHDR or IDAT: a CRC no longer matches
    settled_file(art, bytes(data))
    with pytest.raises(images.ImageFormatError):
        images.inspect_image(art)


def test_a_first_build_reads_each_image_once(own_cache, tmp_path, monkeypatch):
    """Hashing the game's files also analyses its art, so binding the layouts reads nothing more."""
    from pnp.write.jobs import _hash_inputs

    monkeypatch.setattr(digests, "PARALLEL_BYTES", 0)  # the threaded path, even for small files
    arts = []
    for index in range(6):
        art = tmp_path / f"art-{index}.png"
        Image.new("RGB", (40, 30), (index * 40, 10, 10)).save(art)
        arts.append(art)
    notes = settled_file(tmp_path / "notes.txt", b"not an image")
    expected = {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in [*arts, notes]}
    _hash_inputs([*arts, notes])
    forbid_reading(monkeypatch, *arts, notes)
    for path, digest in expected.items():
        assert digests.digest_of(path) == digest
    for art in arts:
        source = images.inspect_image(art)
        assert source.passes_through and (source.width, source.height) == (40, 30)


def test_a_damaged_image_met_while_hashing_is_reported_when_drawn(own_cache, tmp_path):
    from pnp.write.jobs import _hash_inputs

    art = tmp_path / "art.png"
    Image.new("RGB", (40, 30), (200, 10, 10)).save(art)
    data = bytearray(art.read_bytes())
    data[40] ^= 0xFF
    art.write_bytes(bytes(data))
    _hash_inputs([art])
    with pytest.raises(images.ImageFormatError):
        images.inspect_image(art)


def test_a_big_index_forgets_files_that_are_gone(own_cache, settle_at_once, tmp_path, monkeypatch):
    monkeypatch.setattr(digests, "PRUNE_ABOVE", 2)
    kept = [settled_file(tmp_path / f"kept-{n}.csv", b"kept %d" % n) for n in range(2)]
    gone = settled_file(tmp_path / "gone.csv", b"gone")
    for path in [*kept, gone]:
        digests.digest_of(path)
    next_build()
    gone.unlink()
    digests.digest_of(settled_file(tmp_path / "new.csv", b"new"))
    next_build()
    index = digests.read_json_cache(digests.index_file(str(tmp_path)))
    assert gone.name not in index
    assert {p.name for p in kept} <= set(index)
    assert hashlib.sha256(b"kept 0").hexdigest() in digests.remembered_digests(str(tmp_path))


def test_facts_of_art_exported_again_are_dropped_once_they_pile_up(own_cache, settle_at_once, tmp_path,
                                                                    monkeypatch):
    monkeypatch.setattr(images, "PRUNE_FACTS_ABOVE", 1)
    art = tmp_path / "art.png"
    Image.new("RGB", (40, 30), (200, 10, 10)).save(art)
    old = images.inspect_image(art).digest
    next_build()
    Image.new("RGB", (40, 30), (10, 200, 10)).save(art)  # the designer exports the card again
    new = images.inspect_image(art).digest
    next_build()
    facts = digests.read_json_cache(images.facts_file(str(tmp_path)))
    assert new in facts and old not in facts


def test_workers_merging_the_same_cache_take_turns(tmp_path: Path) -> None:
    """A worker merging its new entries waits while another holds the cache's lock, so neither
    writes over what the other added (without the lock, the last writer's view wins)."""
    import subprocess
    import sys
    import time

    from pnp.load.user_cache import read_json_cache, write_json_cache

    fcntl = pytest.importorskip("fcntl")  # POSIX: elsewhere merges go unlocked

    path = tmp_path / "cache.json"
    child_code = ("import sys; from pathlib import Path; from pnp.load.user_cache import merge_json_cache; "
                  "merge_json_cache(Path(sys.argv[1]), {'child': 1}, 10, dict, 10)")
    with open(path.with_name("cache.json.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        child = subprocess.Popen([sys.executable, "-c", child_code, str(path)])
        time.sleep(1.0)
        assert child.poll() is None, "the child merged while the lock was held"
        write_json_cache(path, {"parent": 1})  # another worker's merge, under the lock
    assert child.wait(timeout=60) == 0
    assert read_json_cache(path) == {"parent": 1, "child": 1}


def test_a_build_reads_what_is_remembered_of_its_own_folders_only(own_cache, settle_at_once, tmp_path):
    """One index for the machine made every build parse what pnp had learnt about every project it ever
    built: 20 ms a build for 5,000 remembered pictures, whatever the deck."""
    folders = {name: tmp_path / name for name in ("this-game", "other-game")}
    arts = {}
    for name, folder in folders.items():
        folder.mkdir()
        digests.digest_of(settled_file(folder / "deck.csv", name.encode()))
        arts[name] = folder / "art.png"
        Image.new("RGB", (40, 30), (200, 10, 10) if name == "this-game" else (10, 10, 200)).save(arts[name])
        os.utime(arts[name], (OLD, OLD))
        images.inspect_image(arts[name])
    other_art = images.inspect_image(arts["other-game"]).digest
    next_build()
    assert digests.digest_of(folders["this-game"] / "deck.csv") == hashlib.sha256(b"this-game").hexdigest()
    images.inspect_image(arts["this-game"])
    assert digests._DIGESTS and not [path for path in digests._DIGESTS if path.startswith(str(folders["other-game"]))]
    assert other_art not in images._FACTS


def test_shards_of_folders_that_are_gone_are_dropped_once_they_pile_up(own_cache, settle_at_once, tmp_path,
                                                                       monkeypatch):
    """A shard per folder would otherwise pile up one for every temporary folder a test or a script built."""
    from pnp.load import user_cache

    monkeypatch.setattr(user_cache, "MAX_SHARDS", 2)
    folders = [tmp_path / name for name in ("kept", "gone", "later")]
    for folder in folders[:2]:
        folder.mkdir()
        digests.digest_of(settled_file(folder / "deck.csv", folder.name.encode()))
        next_build()
    assert digests.read_json_cache(digests.index_file(str(folders[0])))["/"] == str(folders[0])
    (folders[1] / "deck.csv").unlink()
    folders[1].rmdir()
    folders[2].mkdir()
    digests.digest_of(settled_file(folders[2] / "deck.csv", b"later"))
    next_build()
    assert [digests.index_file(str(folder)).is_file() for folder in folders] == [True, False, True]

"""Incremental and parallel builds: skip what is up to date, rebuild what changed, same bytes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli
from pnp.commands.watch import changed_games, snapshot

DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA / "take-over-that-job", target / "take-over-that-job")
    return target


def build(data: Path, out: Path, *extra: str) -> str:
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), "--lang", "ja",
                                      "--paper", "a4", "--what", "cards", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def pdf_bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.pdf"))}


def test_second_build_skips_everything_and_repeats_warnings(data: Path, tmp_path: Path) -> None:
    manifest = data / "take-over-that-job" / "game.toml"  # a title too long for the default back's box
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        'ja = "代われそのジョブ"', 'ja = "代われそのジョブ・長い副題つき特別版"', 1), encoding="utf-8")
    out = tmp_path / "out"
    first = build(data, out, "--jobs", "1")
    assert "wrote 3 file(s)" in first  # numbers, markers, goals
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*.pdf")}
    second = build(data, out, "--jobs", "1")
    assert "wrote 0 file(s)" in second and "3 up to date" in second
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.pdf")} == before
    # the default back shrinks the long title; a skipped output must say so again
    shrunk_lines = [line for line in first.splitlines() if line.strip().startswith("shrunk")]
    assert shrunk_lines, "the first build reports shrunk text"
    assert [line for line in second.splitlines() if line.strip().startswith("shrunk")] == shrunk_lines


def test_changing_one_card_list_rebuilds_only_its_component(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(data, out, "--jobs", "1")
    numbers = out / "take-over-that-job" / "ja" / "a4" / "cards-numbers.pdf"
    goals = out / "take-over-that-job" / "ja" / "a4" / "cards-goals.pdf"
    numbers_before, goals_before = numbers.read_bytes(), goals.stat().st_mtime_ns
    csv = data / "take-over-that-job" / "cards" / "numbers.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("緑1,Green 1", "みどり1,Green 1"), encoding="utf-8")
    output = build(data, out, "--jobs", "1")
    assert "wrote 1 file(s)" in output and "2 up to date" in output
    assert numbers.read_bytes() != numbers_before
    assert goals.stat().st_mtime_ns == goals_before


def test_force_rebuilds(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(data, out)
    assert "wrote 3 file(s)" in build(data, out, "--force")


def test_parallel_and_serial_builds_are_byte_identical(data: Path, tmp_path: Path) -> None:
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    build(data, serial, "--jobs", "1")
    build(data, parallel, "--jobs", "2")
    assert pdf_bytes(serial) == pdf_bytes(parallel)
    assert len(pdf_bytes(serial)) == 3


def test_a_deleted_output_is_rebuilt(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(data, out)
    (out / "take-over-that-job" / "ja" / "a4" / "cards-markers.pdf").unlink()
    output = build(data, out)
    assert "wrote 1 file(s)" in output


def test_an_output_left_empty_or_edited_since_is_rebuilt(data: Path, tmp_path: Path) -> None:
    """Outputs are not synced to disk: a power cut may leave one empty. The stamp knows its size and time."""
    out = tmp_path / "out"
    build(data, out, "--jobs", "1")
    folder = out / "take-over-that-job" / "ja" / "a4"
    good = (folder / "cards-markers.pdf").read_bytes()
    (folder / "cards-markers.pdf").write_bytes(b"")
    assert "wrote 1 file(s)" in build(data, out, "--jobs", "1")
    assert (folder / "cards-markers.pdf").read_bytes() == good
    with open(folder / "cards-goals.pdf", "r+b") as handle:  # same size, new time: someone saved over it
        handle.write(handle.read(4))
    assert "wrote 1 file(s)" in build(data, out, "--jobs", "1")


def test_watch_maps_changes_to_games(data: Path) -> None:
    before = snapshot([data])
    csv = data / "take-over-that-job" / "cards" / "goals.csv"
    csv.write_text(csv.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    after = snapshot([data])
    assert changed_games(before, after, data) == {"take-over-that-job"}
    assert changed_games(before, before, data) == set()


def test_an_up_to_date_game_is_not_checked_again(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every output's key covers the whole game folder, and outputs are only written after a passing check."""
    import pnp.commands.build as build_command

    out = tmp_path / "out"
    build(data, out)

    def no_check(*args, **kwargs):
        raise AssertionError("an up-to-date game was checked again")

    monkeypatch.setattr(build_command, "check_game", no_check)
    assert "3 up to date" in build(data, out)
    monkeypatch.undo()
    csv = data / "take-over-that-job" / "cards" / "goals.csv"
    csv.write_text(csv.read_text(encoding="utf-8") + "broken,row\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), "--lang", "ja",
                                      "--paper", "a4", "--what", "cards"])
    assert result.exit_code == 1
    assert "goals.csv" in result.output and "not built" in result.output


def test_an_output_folder_that_cannot_be_made_is_a_user_error(data: Path, tmp_path: Path) -> None:
    """--out below a file: every output fails to be written; one message, exit 1, no traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(blocker / "out"), "--lang", "ja",
                                      "--paper", "a4", "--what", "cards", "--jobs", "1"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.output.count("error: cannot write") == 1  # the same problem for 3 outputs, said once
    assert "(--out DIR)" in result.output and "wrote 0 file(s)" in result.output


def test_a_new_game_where_no_folder_can_be_made_is_a_user_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = CliRunner().invoke(cli, ["new", "fresh", "--data", str(blocker / "data")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"cannot write {blocker / 'data'}" in result.output and "(--data DIR)" in result.output


def test_calibrate_into_a_folder_that_cannot_be_made_is_a_user_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = CliRunner().invoke(cli, ["calibrate", "--out", str(blocker / "out")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"cannot write {blocker / 'out'}" in result.output


def test_only_errors_about_where_outputs_go_are_user_errors(tmp_path: Path) -> None:
    import errno

    from pnp.write.output_errors import output_problem

    out = tmp_path / "out"
    output = out / "g" / "en" / "a4" / "cards-deck.pdf"
    full = OSError(errno.ENOSPC, "No space left on device")  # a write names no file
    assert "cannot write" in output_problem(full, output, out).message
    below = FileNotFoundError(errno.ENOENT, "No such file or directory", str(out / "g"))
    assert output_problem(below, output, out) is not None
    elsewhere = FileNotFoundError(errno.ENOENT, "No such file or directory", str(tmp_path / "fonts" / "x.ttf"))
    assert output_problem(elsewhere, output, out) is None  # a bug: keeps its traceback


def test_watch_of_named_games_watches_and_builds_only_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from pnp.commands.watch import run_watch

    monkeypatch.chdir(tmp_path)
    for name in ("alpha", "beta"):
        assert CliRunner().invoke(cli, ["new", name]).exit_code == 0
    data = tmp_path / "data"
    calls: list[tuple[str, ...]] = []

    def edit(name: str) -> None:
        cards = data / name / "cards" / "deck.csv"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Red 1", "Red One"), encoding="utf-8")

    threading.Timer(0.3, edit, ("beta",)).start()  # not watched: no rebuild
    threading.Timer(0.8, edit, ("alpha",)).start()
    assert run_watch(data, lambda names: calls.append(names) or 0, ("alpha",), interval=0.1, rounds=1) == 0
    assert calls == [("alpha",), ("alpha",)]  # the first build, then the one alpha's edit asked for


def test_watch_of_an_unknown_game_says_so(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    result = CliRunner().invoke(cli, ["watch", "--data", str(tmp_path / "data"), "nosuch"])
    assert result.exit_code == 1 and "no game 'nosuch'" in result.output


@pytest.mark.parametrize("args, said", [
    (["--data", "{tmp}/nowhere"], "no game folders found in"),
    (["--data", "{tmp}/empty"], "no game folders found in"),
    (["--data", "{data}", "take-over-that-job", "--lang", "fr"], "--lang fr: no game being built ships in that"),
    (["--data", "{data}", "--out", "{data}"], "puts the outputs among the files of the game folder"),
])
def test_watch_stops_at_once_on_what_no_saved_file_can_fix(data: Path, tmp_path: Path, args: list[str],
                                                           said: str) -> None:
    """It printed the error, then watched until killed, printing it again at every save. A subprocess
    with a deadline, so that a watch that does not stop fails this test rather than hangs it."""
    import subprocess
    import sys

    (tmp_path / "empty").mkdir()
    args = [arg.format(tmp=tmp_path, data=data) for arg in args]
    done = subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", "watch", *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert said in done.stderr
    assert "watching" not in done.stdout


def test_a_file_saved_during_a_rebuild_is_rebuilt_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The designer saves again while pnp is still building: that save must get its own build."""
    import threading

    from pnp.commands.watch import run_watch

    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(cli, ["new", "alpha"]).exit_code == 0
    data = tmp_path / "data"
    cards = data / "alpha" / "cards" / "deck.csv"
    calls: list[tuple[str, ...]] = []

    def build(names: tuple[str, ...]) -> int:
        calls.append(names)
        if len(calls) == 2:  # the rebuild for the first save: the designer saves again meanwhile
            cards.write_text(cards.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        return 0

    threading.Timer(0.3, lambda: cards.write_text(cards.read_text(encoding="utf-8").replace("Red 1", "Red One"),
                                                  encoding="utf-8")).start()
    watching = threading.Thread(target=run_watch, args=(data, build, ("alpha",)),
                                kwargs={"interval": 0.1, "rounds": 2}, daemon=True)
    watching.start()
    watching.join(timeout=20)
    assert not watching.is_alive(), "the save made during the rebuild was never rebuilt"
    assert calls == [("alpha",), ("alpha",), ("alpha",)]


def test_editor_litter_is_no_input(data: Path, tmp_path: Path) -> None:
    """A vim swap file, an editor backup or macOS's .DS_Store beside the card list changes nothing:
    the outputs stay up to date and pnp watch does not wake."""
    out = tmp_path / "out"
    build(data, out, "--jobs", "1")
    cards = data / "take-over-that-job" / "cards"
    before = snapshot([data])
    for name in (".numbers.csv.swp", "numbers.csv~", ".DS_Store", "#numbers.csv#", "4913", "numbers.csv.bak",
                 "numbers.csv.orig"):
        (cards / name).write_bytes(b"\0scratch")
    (data / "take-over-that-job" / ".git").mkdir()
    (data / "take-over-that-job" / ".git" / "index").write_bytes(b"scratch")
    assert snapshot([data]) == before
    second = build(data, out, "--jobs", "1")
    assert "wrote 0 file(s)" in second and "3 up to date" in second


def test_a_new_source_date_epoch_rebuilds(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """reportlab dates the PDF by SOURCE_DATE_EPOCH: an output built under another one is not up to
    date, or a reproducible-build recipe would keep the old dates until --force."""
    out = tmp_path / "out"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 14 November 2023
    build(data, out, "--jobs", "1")
    first = pdf_bytes(out)
    assert all(b"/CreationDate (D:20231114" in data for data in first.values()), list(first)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")  # 15 January 2027
    output = build(data, out, "--jobs", "1")
    assert "wrote 3 file(s)" in output, output
    assert all(b"/CreationDate (D:20270115" in data for data in pdf_bytes(out).values())
    assert "3 up to date" in build(data, out, "--jobs", "1")
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert "wrote 3 file(s)" in build(data, out, "--jobs", "1")
    assert pdf_bytes(out) != first


@pytest.mark.parametrize("damage", ["[]", "null", '"a string"', "7"])
def test_a_stamp_holding_other_json_is_a_stale_output_not_a_crash(data: Path, tmp_path: Path, damage: str) -> None:
    """A stamp of valid JSON that was no object crashed every build ('list' object has no attribute 'get')
    until the file was deleted."""
    out = tmp_path / "out"
    build(data, out)
    stamps = sorted((out / ".cache").rglob("*.json"))
    assert stamps
    stamps[0].write_text(damage, encoding="utf-8")
    assert "wrote 1 file(s)" in build(data, out)  # that one output, built again


def test_digests_of_the_wrong_types_are_forgotten_and_files_hashed_again(data: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A remembered digest of 12345 crashed the build ('int' object has no attribute 'encode')."""
    import pnp.load.digests as digests
    from pnp.load.user_cache import read_json_cache, write_json_cache

    cache = tmp_path / "cache"
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    monkeypatch.setattr(digests, "SETTLED_SECONDS", -60)  # the copies are new: remember them all the same
    out = tmp_path / "out"
    build(data, out)
    indexes = list((cache / digests.INDEX_FOLDER).glob("*.json"))
    assert indexes
    for index in indexes:
        remembered = read_json_cache(index)  # sealed as pnp seals them: a bug's, not damage
        assert remembered
        write_json_cache(index, {name: [*entry[:4], 12345] for name, entry in remembered.items()})
    monkeypatch.setattr(digests, "_DIGESTS", {})
    monkeypatch.setattr(digests, "_loaded", set())
    assert "up to date" in build(data, out)  # hashed again: the same contents, so nothing to rebuild


def test_an_empty_source_date_epoch_is_the_same_build_as_none(data: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """reportlab reads SOURCE_DATE_EPOCH= as unset, and the bytes are the same, but switching between the
    two rebuilt every output."""
    out = tmp_path / "out"
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    build(data, out)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "")
    assert "wrote 0 file(s)" in build(data, out)


def test_a_cache_folder_that_is_a_file_is_said_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mkdir's "File exists" read as if the folder were there."""
    from pnp.commands.environment import environment_problems

    cache = tmp_path / "cache"
    cache.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    [(message, fix)] = environment_problems()
    assert message == f"PNP_CACHE_DIR {cache}: it is a file, not a folder"
    assert fix.startswith("set PNP_CACHE_DIR to a folder you can write to")


def test_editing_one_translation_rebuilds_only_its_rulebooks(data: Path, tmp_path: Path) -> None:
    """An edit of rules/ja.md rebuilt the English rulebooks and every aid too: each document was keyed by
    every file of the game. A rulebook reads its own language's rule text; an aid reads none."""
    out = tmp_path / "out"

    def build_documents() -> str:
        result = CliRunner().invoke(cli, ["build", "--data", str(data), "--out", str(out), "--paper", "a4",
                                          "--what", "rules", "--what", "aid", "--jobs", "1"])
        assert result.exit_code == 0, result.output
        return result.output

    build_documents()
    before = {path: path.stat().st_mtime_ns for path in out.rglob("*.pdf")}
    assert len(before) == 8  # rules, booklet, aid, aid cards, in two languages
    ja = data / "take-over-that-job" / "rules" / "ja.md"
    ja.write_text(ja.read_text(encoding="utf-8").rstrip("\n") + "よろしくお願いします。\n", encoding="utf-8")
    assert "wrote 2 file(s)" in build_documents()
    rebuilt = sorted(path.relative_to(out).as_posix() for path, mtime in before.items()
                     if path.stat().st_mtime_ns != mtime)
    assert rebuilt == ["take-over-that-job/ja/a4/rules-booklet.pdf", "take-over-that-job/ja/a4/rules.pdf"]

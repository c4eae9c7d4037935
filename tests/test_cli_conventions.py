"""Everyday command-line conventions (issue 28): options shared by build and watch, progress, colour,
quiet and verbose runs, dry runs, project defaults, JSON output, completion and help."""

from __future__ import annotations

from pathlib import Path

import click
from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parent.parent / "data"

#: options that only make sense for one of the two: a watch that writes nothing, or prints one document
#: per rebuild, would be no watch
BUILD_ONLY = {"dry_run", "output"}
WATCH_ONLY: set[str] = set()


def _options(name: str) -> set[str]:
    return {param.name for param in cli.commands[name].params}


def test_watch_takes_every_option_of_build() -> None:
    """watch took --lang, --paper, --what and --out only: --bleed or --printer were build's alone."""
    build, watch = _options("build"), _options("watch")
    assert build - BUILD_ONLY == watch - WATCH_ONLY, (build ^ watch)
    assert {"bleed", "printer", "back_offset", "duplex_edge", "png", "jobs", "only", "recompress", "max_dpi",
            "force"} <= watch


def test_watch_builds_with_the_options_given(tmp_path: Path, monkeypatch) -> None:
    """The request watch rebuilds with carries the options: --bleed 0 reached no rebuild before."""
    import pnp.commands.build as build_module
    import pnp.commands.watch as watch_module

    seen = []
    monkeypatch.setattr(build_module, "run_build", lambda _data, request: seen.append(request) or 0)
    monkeypatch.setattr(watch_module, "run_watch", lambda _data, build, games, **_kwargs: build(games))
    result = CliRunner().invoke(cli, ["watch", "--data", str(DATA), "two-ops", "--bleed", "0", "--max-dpi", "300",
                                      "--back-offset", "1,2", "--jobs", "1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (request,) = seen
    assert request.games == ("two-ops",) and request.jobs == 1
    assert request.options.print.bleed_mm == 0 and request.options.print.max_dpi == 300
    assert request.options.print.back_offset_mm == (1.0, 2.0)


ANSI = "\x1b["


def _check_nosuch(*options: str, color: bool, env: dict[str, str] | None = None):
    """A check of a game that is not there: one error, printed at once."""
    return CliRunner().invoke(cli, ["check", "--data", str(DATA), "nosuch", *options], color=color, env=env or {})


def test_errors_are_coloured_on_a_terminal_only() -> None:
    on_terminal = _check_nosuch(color=True, env={"NO_COLOR": ""})  # empty is unset (no-color.org)
    assert on_terminal.exit_code == 1 and ANSI + "31m" in on_terminal.output, repr(on_terminal.output)
    assert ANSI not in _check_nosuch(color=False).output


def test_no_color_and_the_option_turn_colour_off() -> None:
    assert ANSI not in _check_nosuch(color=True, env={"NO_COLOR": "1"}).output
    assert ANSI not in _check_nosuch("--no-color", color=True).output
    assert ANSI not in CliRunner().invoke(cli, ["--no-color", "check", "--data", str(DATA), "nosuch"],
                                          color=True).output


def test_color_forces_colour_even_off_a_terminal() -> None:
    assert ANSI in _check_nosuch("--color", color=False).output
    assert ANSI in _check_nosuch("--color", color=False, env={"NO_COLOR": "1"}).output  # the option wins


def test_levels_and_verdicts_are_styled_where_diagnostics_put_them() -> None:
    from pnp.commands.console import styled

    text = "data/g/game.toml:3: warning: x\n    fix: note: y\nnote: z\ng: ok — 0 error(s)\n2 games — FAILED"
    painted = styled(text)
    for word, code in [("warning", "33m"), ("note", "36m"), ("ok", "32m"), ("FAILED", "31m")]:
        assert f"{code}{ANSI}1m{word}" in painted or f"{code}{word}" in painted, (word, painted)
    assert "fix: note: y" in painted  # a level word inside a fix is the fix's own text
    assert "error(s)" in painted and "31merror(s)" not in painted


def test_progress_hears_of_units_as_they_finish_not_as_they_were_submitted() -> None:
    """The bar waited on the first unit submitted: a big deck first held it still while the rest finished."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from pnp.write.runner import finished_first

    second_done = threading.Event()
    with ThreadPoolExecutor(max_workers=2) as pool:
        # the first waits for the second to be reported (or gives up after 5 s, in submission order)
        futures = {0: pool.submit(lambda: second_done.wait(5) and "slow"), 1: pool.submit(lambda: "quick")}
        order = []
        for index, result in finished_first(futures):
            order.append((index, result))
            if index == 1:
                second_done.set()
    assert order == [(1, "quick"), (0, "slow")]


def _build(out: Path, *options: str, data: Path = DATA):
    return CliRunner().invoke(cli, ["build", "--data", str(data), "two-ops", "--lang", "en", "--paper", "a4",
                                    "--what", "cards", "--jobs", "1", "--out", str(out), *options])


def test_a_build_off_a_terminal_says_each_output_and_ends_with_the_output_folder(tmp_path: Path) -> None:
    """A CI log saw nothing until the build's end; the last line did not say where the files went."""
    result = _build(tmp_path / "out")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert any(line.startswith("built ") and line.endswith("two-ops/en/a4/cards-deck.pdf") for line in lines), lines
    assert lines[-1].startswith("wrote 1 file(s)") and lines[-1].endswith(f"to {tmp_path / 'out'}/"), lines[-1]


def test_quiet_prints_nothing_on_success(tmp_path: Path) -> None:
    first = _build(tmp_path / "out", "-q")
    assert first.exit_code == 0 and first.output == "", first.output
    assert (tmp_path / "out" / "two-ops" / "en" / "a4" / "cards-deck.pdf").is_file()
    assert _build(tmp_path / "out", "--quiet").output == ""


def test_quiet_still_prints_errors(tmp_path: Path) -> None:
    result = _build(tmp_path / "out", "-q", "--only", "no-such-card")
    assert result.exit_code == 1
    assert "error: --only no-such-card" in result.output and "fix:" in result.output


def test_dry_run_lists_what_would_be_built_and_why_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = _build(out, "--dry-run", "--what", "fold")
    assert result.exit_code == 0, result.output
    assert "would build" in result.output and "cards-deck.pdf: new" in result.output
    assert "cards-deck-fold.pdf: new" in result.output and "would build 2 output(s)" in result.output
    assert not out.exists() or not [path for path in out.rglob("*") if path.is_file()]
    assert "forced (--force)" in _build(out, "--dry-run", "--force").output


def test_verbose_names_the_input_that_changed_and_what_is_skipped(tmp_path: Path) -> None:
    import shutil

    data = tmp_path / "data"
    shutil.copytree(DATA / "two-ops", data / "two-ops")
    out = tmp_path / "out"
    assert _build(out, "--what", "fold", data=data).exit_code == 0
    unchanged = _build(out, "-v", "--dry-run", data=data)
    assert "up to date: " in unchanged.output and "would build 0 output(s)" in unchanged.output
    deck = data / "two-ops" / "cards" / "deck.csv"
    deck.write_text(deck.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    result = _build(out, "-v", "--dry-run", data=data)
    assert "cards-deck.pdf: changed: cards/deck.csv" in result.output, result.output
    rebuilt = _build(out, "-v", data=data)
    assert "rebuilding " in rebuilt.output and "changed: cards/deck.csv" in rebuilt.output, rebuilt.output


def test_quiet_and_verbose_together_is_a_usage_error(tmp_path: Path) -> None:
    result = _build(tmp_path, "-q", "-v")
    assert result.exit_code == 2 and "give one" in result.output


def test_building_an_unknown_game_fails_without_a_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", "--data", str(DATA), "nosuchgame", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "no game 'nosuchgame'" in result.output and "wrote" not in result.output


def _completions(line: str) -> list[str]:
    words = line.split()
    result = CliRunner().invoke(cli, [], prog_name="pnp", env={
        "_PNP_COMPLETE": "bash_complete", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - (0 if line.endswith(" ")
                                                                                             else 1))})
    return [entry.split(",", 1)[1] for entry in result.output.splitlines()]


def test_game_ids_complete_for_games_arguments() -> None:
    assert _completions(f"pnp check --data {DATA} t") == ["take-over-that-job", "two-ops"]
    assert _completions(f"pnp build --data {DATA} ru") == ["rudy"]
    assert "gadget-trick" in _completions(f"pnp watch --data {DATA} ")
    assert _completions(f"pnp solve --data {DATA} two") == ["two-ops"]


def test_every_command_shows_an_example_and_every_option_says_what_it_is() -> None:
    for name, command in cli.commands.items():
        result = CliRunner().invoke(cli, [name, "--help"], terminal_width=200)
        assert f"pnp {name} " in result.output.split("Options:")[0], (name, result.output)
        for param in command.params:
            if isinstance(param, click.Option):  # calibrate --paper had none
                assert param.help, f"pnp {name} {param.opts[0]} has no help"


def _project(tmp_path: Path, monkeypatch, text: str, name: str = "pnp.toml") -> Path:
    """A project folder holding data/two-ops and a defaults file, as the working folder."""
    import shutil

    shutil.copytree(DATA / "two-ops", tmp_path / "data" / "two-ops")
    (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _dry(*options: str):
    return CliRunner().invoke(cli, ["build", "--dry-run", *options])


def test_project_defaults_apply_and_options_override_them(tmp_path: Path, monkeypatch) -> None:
    _project(tmp_path, monkeypatch, 'papers = ["letter"]\nlanguages = ["ja"]\nwhat = ["cards"]\nout = "prints"\n')
    result = _dry()
    assert result.exit_code == 0, result.output
    listed_paths = [line for line in result.output.splitlines() if line.startswith("would build prints/")]
    assert listed_paths == ["would build prints/two-ops/ja/letter/cards-deck.pdf: new"], result.output
    overridden = _dry("--paper", "a4", "--lang", "en", "--what", "fold", "--out", "elsewhere")
    assert "would build elsewhere/two-ops/en/a4/cards-deck-fold.pdf: new" in overridden.output, overridden.output
    assert "prints/" not in overridden.output


def test_project_defaults_are_found_from_inside_a_game_folder(tmp_path: Path, monkeypatch) -> None:
    _project(tmp_path, monkeypatch, 'papers = ["a4"]\nlanguages = ["en"]\nwhat = ["fold"]\nbleed = 0\n')
    monkeypatch.chdir(tmp_path / "data" / "two-ops" / "cards")
    result = _dry()
    assert "would build ../../../output/two-ops/en/a4/cards-deck-fold.pdf: new" in result.output, result.output


def test_project_defaults_in_a_pyproject_tool_pnp_table(tmp_path: Path, monkeypatch) -> None:
    _project(tmp_path, monkeypatch, '[project]\nname = "games"\n\n[tool.pnp]\npapers = ["a4"]\nlanguages = ["en"]\n'
             'what = ["cards"]\njobs = 2\n', name="pyproject.toml")
    result = _dry()
    assert "would build output/two-ops/en/a4/cards-deck.pdf: new" in result.output, result.output
    from pnp.commands.build import request_from_options

    options = cli.commands["build"].make_context("build", []).params
    assert request_from_options((), options).jobs == 2
    assert request_from_options((), {**options, "jobs": 1}).jobs == 1


def test_a_bad_project_file_is_an_error_at_its_line_for_check_and_build(tmp_path: Path, monkeypatch) -> None:
    _project(tmp_path, monkeypatch, 'papers = ["a4"]\n\nbleed = "3mm"\nprinterr = "home"\njobs = 0\n')
    check = CliRunner().invoke(cli, ["check", "two-ops"])
    assert check.exit_code == 1
    assert "pnp.toml:3: error: bleed: expected mm from 0 to 10, found '3mm'" in check.output, check.output
    assert "pnp.toml:4: warning: printerr: unknown key (ignored)" in check.output
    assert "did you mean 'printer'?" in check.output
    assert "pnp.toml:5: error: jobs: must be at least 1" in check.output
    build = _dry()
    assert build.exit_code == 1 and "pnp.toml:3: error" in build.output and "would build" not in build.output


def test_a_project_file_with_a_warning_only_still_builds(tmp_path: Path, monkeypatch) -> None:
    _project(tmp_path, monkeypatch, 'papers = ["a4"]\nlanguages = ["en"]\nwhat = ["cards"]\nfollow_links = true\n'
             'colour = "red"\n')
    result = _dry()
    assert result.exit_code == 0 and "pnp.toml:5: warning: colour: unknown key" in result.output, result.output
    assert "would build 1 output(s)" in result.output
    json_check = CliRunner().invoke(cli, ["check", "two-ops", "--format", "json", "--strict"])
    assert json_check.exit_code == 1 and '"line": 5' in json_check.output


def _json(*args: str) -> dict:
    import json

    result = CliRunner().invoke(cli, list(args))
    document = json.loads(result.stdout)
    assert document["schema"] == 1, document
    return document


def test_list_json_names_each_game_with_its_components() -> None:
    games = {game["game"]: game for game in _json("list", "--data", str(DATA), "--format", "json")["games"]}
    assert set(games) == {"two-ops", "take-over-that-job", "rudy", "gadget-trick"}
    assert games["two-ops"]["readable"] and games["two-ops"]["components"][0]["count"] == 52
    assert games["gadget-trick"]["source_language"] == "ja"


def test_i18n_json_gives_each_translation_state() -> None:
    document = _json("i18n", "--data", str(DATA), "two-ops", "--format", "json")
    (game,) = document["games"]
    (japanese,) = game["languages"]
    assert game["game"] == "two-ops" and japanese["lang"] == "ja" and document["failed"] is False
    assert japanese["sections"]["translated"] > 0 and japanese["card_texts"]


def test_check_json_carries_the_schema_and_keeps_its_keys() -> None:
    document = _json("check", "--data", str(DATA), "nosuch", "--format", "json")
    assert {"schema", "failed", "general", "games"} <= set(document) and document["failed"] is True


def test_build_json_is_the_summary_per_game(tmp_path: Path) -> None:
    args = ["build", "--data", str(DATA), "two-ops", "--lang", "en", "--paper", "a4", "--what", "cards", "--jobs",
            "1", "--out", str(tmp_path), "--format", "json"]
    first = _json(*args)
    (game,) = first["games"]
    assert first["written"] == 1 and game["built"] and game["written"][0].endswith("two-ops/en/a4/cards-deck.pdf")
    assert game["errors"] == []
    again = _json(*args)
    assert again["written"] == 0 and again["skipped"] == 1 and again["games"][0]["skipped"]
    failed = _json(*args[:3], "nosuch", "two-ops", *args[4:])
    assert failed["failed"] is True
    assert [d["message"] for d in failed["general"]] == [f"no game 'nosuch' in {DATA}"]
    # no game at all to build: the document still comes, where stdout was empty and broke the reader's parse
    alone = _json(*args[:3], "nosuch", *args[4:])
    assert alone["failed"] is True and alone["games"] == [] and alone["written"] == 0
    assert [d["message"] for d in alone["general"]] == [f"no game 'nosuch' in {DATA}"]


def test_build_json_carries_the_errors_that_stop_a_game_as_check_json_does(tmp_path: Path) -> None:
    """A script reading `pnp build --format json` got `"built": false` and "fix them (pnp check ...)", and
    the errors only on stderr as text; each game now carries them as `pnp check --format json` does."""
    data = tmp_path / "data"
    assert CliRunner().invoke(cli, ["new", "--data", str(data), "demo"]).exit_code == 0
    deck = data / "demo" / "cards" / "deck.csv"
    lines = deck.read_text(encoding="utf-8").splitlines()
    assert lines[2].startswith("red-2,1,number,,red,"), lines[2]
    lines[2] = lines[2].replace(",red,", ",rde,", 1)  # the card list's line 3: a colour misspelt
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    built = _json("build", "--data", str(data), "--what", "cards", "--paper", "a4", "--out", str(tmp_path / "out"),
                  "--format", "json")
    (game,) = built["games"]
    assert built["failed"] is True and game["built"] is False and game["written"] == []
    errors = game["errors"]
    assert errors and all(set(error) == {"level", "file", "line", "message", "fix"} for error in errors), errors
    assert any(error["file"].endswith("demo/cards/deck.csv") and error["line"] == 3 and "rde" in error["message"]
               for error in errors), errors
    checked = _json("check", "--data", str(data), "--format", "json")
    assert errors == [d for d in checked["games"][0]["diagnostics"] if d["level"] == "error"]


def test_the_readme_example_of_pnp_toml_has_every_key_and_reads_clean(tmp_path: Path) -> None:
    from pnp.diagnostics import Report
    from pnp.load.project_file import ProjectFile
    from pnp.load.toml_lines import parse_toml
    from pnp.model.project import PROJECT_KEYS, read_project

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    start = text.index("```toml", text.index("### Project defaults")) + len("```toml")
    doc = parse_toml(text[start:text.index("```", start)], tmp_path / "pnp.toml")
    report = Report()
    defaults = read_project(ProjectFile(doc, ()), report)
    assert not report.diagnostics, report.diagnostics
    assert set(doc.data) == set(PROJECT_KEYS) and defaults.bleed == 3.175

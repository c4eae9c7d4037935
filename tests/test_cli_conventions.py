"""Everyday command-line conventions (issue 28): options shared by build and watch, progress, colour,
quiet and verbose runs, dry runs, project defaults, JSON output, completion and help."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli

DATA = Path(__file__).resolve().parent.parent / "data"

#: options that only make sense for one of the two: a watch that writes nothing, or prints one document
#: per rebuild, would be no watch
BUILD_ONLY: set[str] = set()
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

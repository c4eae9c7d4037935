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

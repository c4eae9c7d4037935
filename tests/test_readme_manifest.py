"""The game.toml example of docs/game-toml.md shows every key pnp reads, so a designer can find each in one
place; it was the README's, which a wheel does not install, and moved to a guide that `pnp docs` shows.

A new user's reading (30 November 2026) found the README calling `pnp new`'s file "every key" while
`[palette]`, `subtitle`, `minutes`, `age`, `translator_note`, `shape`, `printed`, `face`, `back`,
`description` and `[kinds]` were in neither, and `orientation` was accepted and then ignored.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli
from pnp.model.build import MANIFEST_KEYS, TERM_KEYS
from pnp.model.components import COMPONENT_KEYS, GRID_KEYS
from pnp.model.setup_rows import SETUP_KEYS

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "game-toml.md"


def manifest_example() -> dict:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index("```toml", text.index("Every key pnp reads")) + len("```toml")
    return tomllib.loads(text[start:text.index("```", start)])


def test_the_guide_example_shows_every_key_pnp_reads() -> None:
    example = manifest_example()
    assert set(example) == MANIFEST_KEYS
    [deck] = example["components"].values()
    assert set(deck) == COMPONENT_KEYS
    assert set(deck["grid"][0]) | {"colours"} == GRID_KEYS  # a grid places cards by suits or by colours
    assert set(example["setup"][0]) == SETUP_KEYS
    terms = {key for vocabulary in ("colours", "suits", "kinds") for term in example[vocabulary].values()
             for key in term}
    assert terms <= TERM_KEYS


def test_orientation_is_no_key_and_says_so(tmp_path: Path) -> None:
    """It was accepted and ignored: a landscape card printed portrait without a word."""
    assert CliRunner().invoke(cli, ["new", "--data", str(tmp_path), "demo"]).exit_code == 0
    manifest = tmp_path / "demo" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("[components.deck]\n", '[components.deck]\norientation = "landscape"\n', 1),
                        encoding="utf-8")
    line = text.splitlines().index("[components.deck]") + 2  # the line under the table's header
    result = CliRunner().invoke(cli, ["check", "--data", str(tmp_path), "demo"])
    assert f"/demo/game.toml:{line}: warning: components.deck.orientation: unknown key (ignored)" in result.output

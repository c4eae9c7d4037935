"""pnp as a designer gets it: the wheel, installed in a fresh virtual environment, makes a game of its own.

An editable install reads templates/ and docs/ from the checkout, so only a real wheel shows what a
user receives (issue 28). The wheel is built from a copy of the sources (no build/ or egg-info left in
the checkout), without build isolation, so the test runs offline with what is installed. The fresh
venv has no packages of its own but the wheel: the dependencies are read from the test's environment
through a .pth line, which adds that folder without running its .pth files, so the checkout's
editable pnp stays out of reach.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "pnp", "templates", "docs")


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"{' '.join(command)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The venv with the wheel installed, its bin/ folder returned."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "-w", str(work / "dist"), str(source)], cwd=work)
    [wheel] = (work / "dist").glob("pnp_printplay-*.whl")
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=work)
    python = venv / "bin" / "python"
    own = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=work).strip())
    (own / "test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n", encoding="utf-8")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
         str(wheel)], cwd=work)
    return venv / "bin"


def test_the_wheel_makes_checks_and_builds_a_game_with_its_own_rules(installed: Path, tmp_path: Path) -> None:
    where = run([str(installed / "python"), "-c",
                 "import pnp, pnp_templates, pnp_docs; print(pnp.__file__, pnp_templates.__file__, pnp_docs.__file__)"],
                cwd=tmp_path)
    for module in where.split():
        assert Path(module).is_relative_to(installed.parent), f"imported from outside the wheel's venv: {where}"
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config"), "PNP_TRUST": ""}
    env.pop("PNP_TRUST")
    pnp = str(installed / "pnp")
    games = tmp_path / "games"
    games.mkdir()
    made = run([pnp, "new", "mygame", "--rules"], cwd=games, env=env)
    assert "pnp trust mygame" in made
    # what pnp new writes and says names guides the installed pnp has (`pnp docs TOPIC`), not a checkout's
    # README or docs/
    assert "the guide from here to a printed deck: pnp docs your-own-game" in made, made
    folder = games / "data" / "mygame"
    written = [file.read_text(encoding="utf-8") for file in folder.rglob("*") if file.is_file()]
    cited = {topic for text in written for topic in re.findall(r"pnp docs ([a-z][a-z0-9-]*)", text)}
    assert {"your-own-game", "game-toml", "rules-modules", "rulebooks"} <= cited, cited
    for topic in sorted(cited | {"json-output"}):  # json-output: what --format json's help cites
        guide = Path(run([pnp, "docs", "--path", topic], cwd=games, env=env).strip())
        assert guide.is_file() and guide.is_relative_to(installed.parent), (topic, guide)
    keys = run([pnp, "docs", "game-toml"], cwd=games, env=env)  # the README's key list, moved to a guide
    assert keys.startswith("# game.toml: every key") and "[[components.deck.grid]]" in keys, keys[:200]
    assert not [text for text in written if "README" in text or "docs/" in text]
    run([pnp, "trust", "mygame"], cwd=games, env=env)
    checked = run([pnp, "check"], cwd=games, env=env)
    assert "mygame: ok — 0 error(s), 0 warning(s), 0 note(s)" in checked, checked
    assert "1 recomputed (1 ok)" in checked
    built = run([pnp, "build", "--paper", "a4"], cwd=games, env=env)
    out = games / "output" / "mygame" / "en" / "a4"
    for name in ("rules.pdf", "rules-booklet.pdf", "aid.pdf", "aid-cards.pdf", "cards-deck.pdf"):
        assert (out / name).stat().st_size > 1000, (name, built)
